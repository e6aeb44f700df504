"""Fixes converge (issue 13, item 9): a fix that does not remove its finding is undone, and
inserted code never calls a ``jax`` that is not the jax package."""

from __future__ import annotations

from pathlib import Path

from helpers import jaxlint

from jaxlint import fix_source, lint_source

INLINE_JIT = """\
import time

import jax
import jax.numpy as jnp


def f(x):
    return x * 2


x = jnp.ones(3)
t0 = time.perf_counter()
y = jax.jit(f)(x).block_until_ready()
print(time.perf_counter() - t0)
"""

PLAIN_REGION = """

t0 = time.perf_counter()
z = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""


def test_a_fix_that_does_not_remove_its_finding_is_undone(tmp_path: Path) -> None:
    """The JAX105 warm-up of an inline ``jax.jit(f)(x)`` leaves the finding in place (each
    ``jax.jit(f)`` is a new function to the analysis): it was inserted four times, "Fixed 0
    findings" while the file changed, four more each run. Now the file is left alone and
    the finding is reported as not fixable."""
    path = tmp_path / "bench.py"
    path.write_text(INLINE_JIT)
    for _ in range(2):
        result = jaxlint("--fix", "--unsafe-fixes", "--no-cache", ".", cwd=tmp_path)
        assert result.returncode == 1, result.stderr
        assert result.stderr.endswith("Fixed 0 findings, 1 remaining.\n"), result.stderr
        assert path.read_text() == INLINE_JIT
    fixed = fix_source(INLINE_JIT, unsafe_fixes=True)
    assert fixed.source == INLINE_JIT and fixed.fixed == 0
    assert [(f.code, f.fixable) for f in fixed.remaining] == [("JAX105", False)]
    diff = jaxlint("--diff", "--unsafe-fixes", "--no-cache", ".", cwd=tmp_path)
    assert diff.stdout == "" and diff.returncode == 1


def test_one_fix_that_does_not_converge_holds_back_no_other() -> None:
    source = INLINE_JIT + PLAIN_REGION
    fixed = fix_source(source, unsafe_fixes=True)
    assert isinstance(fixed.source, str)
    assert fixed.source == source.replace(
        "z = jnp.dot(x, x)\n", "z = jnp.dot(x, x)\njax.block_until_ready(z)\n")
    assert fixed.fixed == 1
    assert [f.code for f in fixed.remaining] == ["JAX105"]
    assert fix_source(fixed.source, unsafe_fixes=True).source == fixed.source


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
