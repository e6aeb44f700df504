"""Every rule is documented in ruff's five sections, and its documented example behaves as
documented: the Example is reported under the rule's code, the Use instead is not."""

from __future__ import annotations

import inspect
import json
import re

import pytest
from helpers import jaxlint

from jaxlint import lint_source
from jaxlint.rules import RULES

SECTIONS = ("## What it does", "## Why is this bad?", "## Example", "## Use instead",
            "## Fix safety")

# What the documented snippets assume exists, as a user's module would have it.
PRELUDE = '''\
import time
import timeit

import jax
import jax.numpy as jnp
import numpy as np


def g(m):
    return m @ m.T


x = jnp.ones((64, 64))
'''
JITTED = "f = jax.jit(g)\nf(x).block_until_ready()\n"  # warmed up, unless the snippet makes f


def snippet(doc: str, section: str) -> str:
    body = doc.split(section, 1)[1]
    match = re.search(r"```python\n(.*?)```", body, re.S)
    assert match, f"no python code block under {section}"
    return match.group(1)


def module_for(code: str) -> str:
    return PRELUDE + ("" if "f = jax.jit" in code else JITTED) + code


@pytest.mark.parametrize("code", sorted(RULES))
def test_rule_is_documented(code: str) -> None:
    doc = inspect.cleandoc(RULES[code].__doc__ or "")
    positions = [doc.find(s) for s in SECTIONS]
    assert all(p >= 0 for p in positions) and positions == sorted(positions), doc[:200]
    assert RULES[code].MESSAGE
    shown = jaxlint("rule", code)
    assert shown.returncode == 0 and all(s in shown.stdout for s in SECTIONS)


@pytest.mark.parametrize("code", sorted(RULES))
def test_documented_example_behaves_as_documented(code: str) -> None:
    doc = inspect.cleandoc(RULES[code].__doc__ or "")
    bad = module_for(snippet(doc, "## Example"))
    good = module_for(snippet(doc, "## Use instead"))
    compile(bad, "example", "exec")
    compile(good, "use-instead", "exec")
    assert code in {f.code for f in lint_source(bad)}, bad
    assert code not in {f.code for f in lint_source(good)}, good


def test_every_rule_has_fixtures() -> None:
    from fixture_support import FIXTURES, expected, fixture_files

    for code in RULES:
        files = [p for p in fixture_files() if p.parent == FIXTURES / code]
        assert any(expected(p) for p in files), f"{code}: no fixture with a finding"
        assert any(not expected(p) for p in files), f"{code}: no correct twin"


def test_unknown_rule_is_an_error() -> None:
    result = jaxlint("rule", "JAX999")
    assert result.returncode == 2 and "unknown rule code" in result.stderr


def test_light_code_list_matches_rules() -> None:
    from jaxlint.codes import CODES

    assert CODES == tuple(sorted(RULES))


@pytest.mark.slow
def test_rule_names_are_spelled_one_way_everywhere() -> None:
    # The README's rules table is the names' home; `jaxlint rule`, `--statistics` and SARIF
    # must say the same, not the class names.
    from helpers import ROOT

    readme = (ROOT / "README.md").read_text()
    table = dict(re.findall(r"^\| (JAX\d{3}) \| ([a-z-]+) \|", readme, re.M))
    assert sorted(table) == sorted(RULES)
    listed = dict(line.split() for line in jaxlint("rule").stdout.splitlines())
    assert listed == table
    for code, name in table.items():
        assert jaxlint("rule", code).stdout.splitlines()[0] == f"# {code} {name}"
    stats = jaxlint("--statistics", "--no-cache", "fixtures").stdout.splitlines()
    assert {row.split("\t")[1]: row.split()[-1] for row in stats} == table
    sarif = json.loads(jaxlint("--format", "sarif", "fixtures/JAX101/seed.py").stdout)
    names = {r["id"]: r["name"] for r in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert names == table
