"""Fixes converge (issue 13, item 9): a fix that does not remove its finding is undone, and
inserted code never calls a ``jax`` that is not the jax package."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from helpers import jaxlint

from jaxlint import cli, fix_source, lint_source

PLAIN_REGION = """\
import time

import jax.numpy as jnp

x = jnp.ones(3)
t0 = time.perf_counter()
z = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""

SECOND_REGION = """
t1 = time.perf_counter()
w = jnp.sum(x)
print(time.perf_counter() - t1)
"""


def _wait_for_nothing_instead_of(expr: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make the fixer write ``jax.block_until_ready(None)`` where a plan asks it to wait for
    ``expr``: a fix that does not remove its finding, as a bug in the planning would (the
    analysis once took each inline ``jax.jit(f)`` for a new function, and its warm-up fix
    never converged)."""
    from jaxlint import fixer
    from jaxlint.analysis import plans

    real = fixer.apply_plans

    def faulty(module, chosen, *rest):  # type: ignore[no-untyped-def]
        return real(module, [replace(plan, edits=tuple(
            replace(e, exprs=("None",)) if isinstance(e, plans.InsertSync)
            and e.exprs == (expr,) else e for e in plan.edits)) for plan in chosen], *rest)

    monkeypatch.setattr(fixer, "apply_plans", faulty)


def test_a_fix_that_does_not_remove_its_finding_is_undone(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A fix whose result still has its finding is not applied: the file is left alone,
    "Fixed 0 findings" is said, and the finding is reported as not fixable (it was once
    inserted four times per run, "Fixed 0 findings" while the file changed)."""
    _wait_for_nothing_instead_of("z", monkeypatch)
    path = tmp_path / "bench.py"
    path.write_text(PLAIN_REGION)
    monkeypatch.chdir(tmp_path)
    for _ in range(2):
        assert cli.main(["--fix", "--no-cache", "-j", "1", "."]) == 1
        assert capsys.readouterr().err.endswith("Fixed 0 findings, 1 remaining.\n")
        assert path.read_text() == PLAIN_REGION
    fixed = fix_source(PLAIN_REGION)
    assert fixed.source == PLAIN_REGION and fixed.fixed == 0
    assert [(f.code, f.fixable) for f in fixed.remaining] == [("JAX101", False)]
    assert cli.main(["--diff", "--no-cache", "-j", "1", "."]) == 1
    assert capsys.readouterr().out == ""


def test_one_fix_that_does_not_converge_holds_back_no_other(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _wait_for_nothing_instead_of("z", monkeypatch)
    source = PLAIN_REGION + SECOND_REGION
    fixed = fix_source(source)
    assert isinstance(fixed.source, str)
    assert fixed.source == source.replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\nimport jax\n").replace(
        "w = jnp.sum(x)\n", "w = jnp.sum(x)\njax.block_until_ready(w)\n")
    assert fixed.fixed == 1
    assert [f.code for f in fixed.remaining] == ["JAX101"]
    assert fix_source(fixed.source).source == fixed.source


SHADOWED_GLOBAL = """\
import time

import jax.numpy as jnp

jax = {"backend": "cpu"}
x = jnp.ones(3)
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""

SHADOWED_PARAMETER = """\
import time

import jax
import jax.numpy as jnp


def bench(jax, x):
    t0 = time.perf_counter()
    y = jnp.dot(x, x)
    print(time.perf_counter() - t0)
"""


def test_jax_shadowed_by_a_variable_is_imported_under_an_alias(tmp_path: Path) -> None:
    """With ``jax`` bound to a dict, ``jax.block_until_ready(y)`` would call the dict."""
    path = tmp_path / "bench.py"
    path.write_text(SHADOWED_GLOBAL)
    result = jaxlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Fixed 1 finding." in result.stderr
    assert path.read_text() == SHADOWED_GLOBAL.replace(
        "import jax.numpy as jnp\n", "import jax.numpy as jnp\nimport jax as _jax\n").replace(
        "y = jnp.dot(x, x)\n", "y = jnp.dot(x, x)\n_jax.block_until_ready(y)\n")
    assert lint_source(path.read_text()) == []


def test_jax_shadowed_by_a_parameter_is_not_called(tmp_path: Path) -> None:
    fixed = fix_source(SHADOWED_PARAMETER).source
    assert isinstance(fixed, str)
    assert "    _jax.block_until_ready(y)\n" in fixed
    assert "import jax as _jax\n" in fixed
    assert "jax.block_until_ready" not in fixed.replace("_jax.block_until_ready", "")
    assert lint_source(fixed) == []


def test_the_alias_is_a_name_the_module_does_not_use() -> None:
    source = SHADOWED_GLOBAL.replace('jax = {"backend": "cpu"}\n',
                                     'jax = {"backend": "cpu"}\n_jax = None\n')
    fixed = fix_source(source).source
    assert isinstance(fixed, str)
    assert "import jax as __jax\n" in fixed and "__jax.block_until_ready(y)\n" in fixed
    assert lint_source(fixed) == []


def test_an_unshadowed_jax_is_used_as_before() -> None:
    plain = SHADOWED_GLOBAL.replace('jax = {"backend": "cpu"}\n', "")
    fixed = fix_source(plain).source
    assert isinstance(fixed, str)
    assert "import jax\n" in fixed and "\njax.block_until_ready(y)\n" in fixed
    assert "_jax" not in fixed


_TIMED = """import time
import jax
import jax.numpy as jnp
{binding}

def bench(x):
    t0 = time.perf_counter()
    y = jnp.dot(x, x)
    print(time.perf_counter() - t0)
"""


@pytest.mark.parametrize("binding", [
    "from jax_extras import jax",
    "import numpy as jax",
    "from jax_extras \\\n    import jax",
    "from jax_extras import (\n    jax,\n)",
    "def f():\n    for jax in range(3):\n        pass",
    "g = lambda jax: jax",
    "def f(p):\n    with open(p) as jax:\n        pass",
    "def f():\n    try:\n        pass\n    except OSError as jax:\n        pass",
    "def f():\n    return (jax := 1)",
    "def jax():\n    pass",
    "class jax:\n    pass",
    "def f():\n    global jax\n    jax = None",
    "def f():\n    jax: int = 1",
    "x = 1; jax = x",
    "# https://github.com/google/jax/issues\ndef f(jax):\n    pass",  # a comment, then a binding
    "NAME = 'jax'\ndef f(*, jax=None):\n    pass",
], ids=lambda b: b.split("\n")[-1].strip())
def test_every_way_of_binding_jax_to_something_else_is_seen(binding: str) -> None:
    """Whichever way a scope binds ``jax`` to something else, the fix calls jax by an
    alias (the module's text is read as code, not trusted as imports only)."""
    source = _TIMED.format(binding=binding)
    fixed = fix_source(source).source
    assert isinstance(fixed, str)
    assert "    _jax.block_until_ready(y)\n" in fixed, fixed


@pytest.mark.parametrize("imports", [
    "import jax.numpy as jnp2", "from jax import lax", "from jax.lax import scan",
    "import jax as jx", "# jax.jit below\nx = jax . numpy",
    # the word in comments and strings binds nothing (read by the tokenizer, not by libcst's
    # scope analysis: the editor previews each finding's fix)
    "# https://github.com/google/jax/discussions/6332\nNAME = 'jax-run'",
    "print(f\"jax devices: {jax.device_count()}\")  # jax"])
def test_imports_and_attributes_of_jax_keep_the_name(imports: str) -> None:
    fixed = fix_source(_TIMED.format(binding=imports)).source
    assert isinstance(fixed, str)
    assert "    jax.block_until_ready(y)\n" in fixed and "_jax" not in fixed, fixed
