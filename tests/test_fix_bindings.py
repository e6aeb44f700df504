"""Fixes that must not break the program (issue 26, item 16): a fix is offered only where
every name it reads is bound on every path to it, and ``import jax`` goes after the module's
environment set-up. Checked by running the fixed programs under real JAX (CPU)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from jaxlint import fix_source, lint_source

HEAD = "import time\n\nimport jax.numpy as jnp\n\nx = jnp.ones((4, 4))\n"

# Each: a program whose fix would read a name that is unbound on some path that reaches it.
WITHHELD = {
    # the loop over an unknown iterable may run zero times (here: it does)
    "loop_may_not_run": HEAD + """\
import sys

t0 = time.perf_counter()
for item in sys.argv[1:]:
    y = jnp.dot(x, x)
print("elapsed", time.perf_counter() - t0)
""",
    "loop_in_a_function": HEAD + """\
def bench(batches):
    t0 = time.perf_counter()
    for b in batches:
        out = jnp.dot(b, b)
    return time.perf_counter() - t0


print("elapsed", bench([]))
""",
    # Python deletes ``e`` when the handler ends
    "except_as_name": HEAD + """\
class Boom(Exception):
    pass


t0 = time.perf_counter()
try:
    raise Boom()
except Boom as e:
    e = jnp.dot(x, x)
print("elapsed", time.perf_counter() - t0)
""",
}

# Each: a program whose fix is safe, and must keep being offered, and run.
OFFERED = {
    "type_checking_import": """\
import time
from typing import TYPE_CHECKING

import jax.numpy as jnp

if TYPE_CHECKING:
    import jax

x = jnp.ones((4, 4))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print("elapsed", time.perf_counter() - t0)
""",
    "type_checking_import_in_a_function": """\
import time
from typing import TYPE_CHECKING

import jax.numpy as jnp

if TYPE_CHECKING:
    import jax


def bench(x):
    t0 = time.perf_counter()
    y = jnp.dot(x, x)
    return time.perf_counter() - t0


print("elapsed", bench(jnp.ones((4, 4))))
""",
    "loop_over_a_literal_runs": HEAD + """\
t0 = time.perf_counter()
for k in (1, 2, 3):
    y = jnp.dot(x, x) * k
print("elapsed", time.perf_counter() - t0)
""",
    "while_true_with_break": HEAD + """\
t0 = time.perf_counter()
n = 0
while True:
    y = jnp.dot(x, x)
    n += 1
    if n == 3:
        break
print("elapsed", time.perf_counter() - t0)
""",
    "bound_before_the_loop": HEAD + """\
import sys

t0 = time.perf_counter()
y = x
for item in sys.argv[1:]:
    y = jnp.dot(y, x)
print("elapsed", time.perf_counter() - t0)
""",
}

# ``import jax`` must run after the module's own set-up of how jax starts.
ENVIRONMENT = {
    "environ_before_the_first_jax_import": """\
import os
import time

os.environ["JAX_ENABLE_X64"] = "1"

import jax.numpy as jnp

x = jnp.ones((4, 4))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print("elapsed", time.perf_counter() - t0)
print("dtype", y.dtype)
""",
    "environ_after_a_function": """\
import os
import time


def bench(x):
    t0 = time.perf_counter()
    y = jnp.dot(x, x)
    print("elapsed", time.perf_counter() - t0)
    return y


os.environ.setdefault("JAX_ENABLE_X64", "true")
import jax.numpy as jnp  # noqa: E402

print("dtype", bench(jnp.ones((4, 4))).dtype)
""",
    "environ_in_a_block": """\
import os
import time

if "JAX_ENABLE_X64" not in os.environ:
    os.environ["JAX_ENABLE_X64"] = "1"
# jax reads it when first imported
from jax import numpy as jnp

x = jnp.ones((4, 4))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print("elapsed", time.perf_counter() - t0)
print("dtype", y.dtype)
""",
}


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "JAX_", "XLA_"))}
    env["JAX_PLATFORMS"] = "cpu"
    return env


def _run(tmp_path: Path, name: str, source: str) -> subprocess.CompletedProcess[str]:
    path = tmp_path / f"{name}.py"
    path.write_text(source)
    return subprocess.run([sys.executable, str(path)], capture_output=True, text=True,
                          env=_env(), timeout=300, cwd=tmp_path)


# Runs each program of a list as ``python PROGRAM`` would, one after another in this one
# process (as __main__, with fresh globals, its own sys.argv, its stdout and stderr caught):
# a name a fix reads unbound raises in the program's own globals whatever ran before. One
# start of JAX for all of them instead of one per program (some 2.5 s of CPU each).
BATCH = """\
import contextlib, io, json, runpy, sys, traceback
results = {}
for name, path in json.loads(sys.argv[1]):
    out, err, code = io.StringIO(), io.StringIO(), 0
    sys.argv = [path]
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            runpy.run_path(path, run_name="__main__")
        except SystemExit as exc:  # as the interpreter exits on it
            code = exc.code if isinstance(exc.code, int) else int(exc.code is not None)
            if code and not isinstance(exc.code, int):
                print(exc.code, file=sys.stderr)
        except BaseException:
            traceback.print_exc()
            code = 1
    results[name] = [code, out.getvalue(), err.getvalue()]
print(json.dumps(results))
"""


def _run_together(folder: Path, programs: dict[str, str]
                  ) -> dict[str, subprocess.CompletedProcess[str]]:
    """Each of ``programs`` (name: source) run once, in one process, as ``_run`` runs one."""
    paths = []
    for name, source in programs.items():
        (folder / f"{name}.py").write_text(source)
        paths.append((name, str(folder / f"{name}.py")))
    proc = subprocess.run([sys.executable, "-c", BATCH, json.dumps(paths)], capture_output=True,
                          text=True, env=_env(), timeout=300, cwd=folder)
    assert proc.returncode == 0, proc.stderr[-3000:]
    results = json.loads(proc.stdout.splitlines()[-1])
    return {name: subprocess.CompletedProcess([path], *results[name]) for name, path in paths}


@pytest.mark.parametrize("name", sorted(WITHHELD))
def test_a_fix_that_would_read_an_unbound_name_is_withheld(name: str) -> None:
    source = WITHHELD[name]
    (finding,) = [f for f in lint_source(source) if f.code == "JAX101"]
    assert not finding.fixable, name  # the finding stays; its fix is not offered
    assert fix_source(source).source == source


@pytest.mark.parametrize("name", sorted(OFFERED))
def test_a_fix_whose_names_are_bound_on_every_path_is_offered(name: str) -> None:
    result = fix_source(OFFERED[name])
    assert result.fixed == 1 and not result.remaining, name
    fixed = str(result.source)
    assert "jax.block_until_ready(" in fixed
    if "TYPE_CHECKING" in fixed:  # the import under TYPE_CHECKING does not run
        assert "\nimport jax\n" in fixed.split("if TYPE_CHECKING:")[0]


@pytest.mark.parametrize("name", sorted(ENVIRONMENT))
def test_import_jax_goes_after_the_environment_set_up(name: str) -> None:
    source = ENVIRONMENT[name]
    fixed = str(fix_source(source).source)
    assert fixed.count("\nimport jax\n") == 1, fixed
    setup = max(fixed.index("JAX_ENABLE_X64"), 0)
    assert fixed.index("\nimport jax\n") > setup, fixed
    assert not lint_source(fixed)


PROGRAMS = {**WITHHELD, **OFFERED, **ENVIRONMENT}


@pytest.fixture(scope="module")
def ran_together(tmp_path_factory: pytest.TempPathFactory
                 ) -> dict[str, subprocess.CompletedProcess[str]]:
    """The programs whose start does not matter (not ENVIRONMENT's, which set up how jax
    starts before importing it: they get a process each), before and after the fix, run
    in one process (and, under pytest-xdist, once in the run: see fixture_support)."""
    from fixture_support import shared

    programs = {}
    for name in sorted({**WITHHELD, **OFFERED}):
        programs[f"{name}_before"] = PROGRAMS[name]
        programs[name] = str(fix_source(PROGRAMS[name]).source)
    folder = tmp_path_factory.mktemp("programs")
    return shared("programs", lambda: _run_together(folder, programs),  # type: ignore[no-any-return]
                  sorted(programs.items()))


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_fixed_programs_run(tmp_path: Path, name: str, request: pytest.FixtureRequest
                                ) -> None:
    """Under real JAX: every program runs after ``--fix`` as before it (nothing raises
    NameError or UnboundLocalError), and the set-up it made (64-bit floats) still holds.
    (One test per program, so that the test processes share them.)"""
    source = PROGRAMS[name]
    fixed = str(fix_source(source).source)
    if name in ENVIRONMENT:
        before, after = _run(tmp_path, f"{name}_before", source), _run(tmp_path, name, fixed)
    else:
        together = request.getfixturevalue("ran_together")
        before, after = together[f"{name}_before"], together[name]
        assert (Path(after.args[0]).read_text(), Path(before.args[0]).read_text()) == (fixed,
                                                                                      source)
    assert before.returncode == 0, (name, before.stderr[-2000:])
    assert after.returncode == 0, (name, after.stderr[-2000:])
    assert "elapsed" in after.stdout, name
    if name in ENVIRONMENT:
        assert "dtype float64" in after.stdout, (name, fixed)


def _questions(module: object) -> list[tuple[object, bool, list[str]]]:
    """Every small statement and block of ``module`` (where fixes put code; not the
    ``def`` statements, which the walk is asked about only for a nested function's free
    names), each asked about the names the module spells, and one nothing binds."""
    import libcst as cst

    from jaxlint.analysis.syntax import walk

    names = sorted({n.value for n in walk(module) if isinstance(n, cst.Name)})[:40] + ["nope"]
    out: list[tuple[object, bool, list[str]]] = []
    for node in walk(module):  # type: ignore[arg-type]
        if isinstance(node, cst.BaseSmallStatement):
            out.append((node, False, names))
        elif isinstance(node, cst.IndentedBlock):
            out.append((node, True, names))
    return out


# A nested function's free names are asked of its enclosing function at its ``def``:
# ``a`` is not bound there on every path, ``b`` is.
_NESTED = """\
def outer(flag):
    if flag:
        a = 1
    b = 2

    def inner():
        c = a
        d = b
        return c, d
    return inner
"""


@pytest.mark.parametrize("seed", [*range(4), "nested"])
def test_bindings_told_the_questions_give_the_answers_of_one_that_is_not(
        seed: int | str) -> None:
    """The engine tells the bindings walk which questions it will ask, so that only their
    answers are kept (a module binding a new name per fix kept N sets of N names): the
    answers must be the ones a walk keeping every state gives, on programs of every shape."""
    import libcst as cst

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))
    import random_programs

    from jaxlint.bindings import Bindings

    source = _NESTED if seed == "nested" else random_programs.program(int(seed), 60)
    module = cst.parse_module(source)
    questions = _questions(module)
    names = {n for _, _, asked in questions for n in asked}
    full = Bindings(module, names)
    told = Bindings(module, names, asked=questions)  # type: ignore[arg-type]
    answers = [(full.bound(node, [n], at_end), told.bound(node, [n], at_end))  # type: ignore[arg-type]
               for node, at_end, asked in questions for n in asked]
    assert answers and all(a == b for a, b in answers)
    assert any(a for a, _ in answers) and not all(a for a, _ in answers)
