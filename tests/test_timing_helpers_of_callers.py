"""Timing helpers judged by what their callers give them, as tutorials and research code
write them: a ``utils.py`` beside the scripts (no pyproject.toml, no package) with the
timing decorator of a well-known tutorial, or a ``time_fn(fn, *args)``. The helper's
region holds no work of its own; its callers decide whether the clock is read with JAX
work still running, so the helper is reported where the fix goes (its wrapper's stop read)
when a caller gives it JAX work, and not when every caller gives it host work or work that
waits. A helper module that imports jax is judged on its own (measured: see
``engine._follow_callers``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from helpers import run

UTILS = '''\
import functools
import time



def timer(func):
    """Decorator for timing function execution."""

    @functools.wraps(func)
    def wrapper_timer(*args, **kwargs):
        tic = time.perf_counter()
        value = func(*args, **kwargs)
        toc = time.perf_counter()
        elapsed = toc - tic
        print(f"Elapsed time: {elapsed:0.6f} seconds.")
        return value
    return wrapper_timer


def timed_exec(func, *args, **kwargs):
    tic = time.perf_counter()
    value = func(*args, **kwargs)
    toc = time.perf_counter()
    print(f"Elapsed time: {toc - tic:0.6f} seconds.")
    return value
'''

# what the scripts beside it do: the decorated functions return JAX arrays unwaited
BASICS = '''\
import numpy as onp
import jax.numpy as np
from jax import jit, random

from utils import timed_exec, timer

key = random.PRNGKey(0)
x = random.normal(key, (3000, 3000))


@timer
def dot_jax(a):
    return np.dot(a, a.T)


@timer
def dot_numpy(a):
    return onp.dot(a, a.T)


relu_jit = jit(lambda z: np.maximum(0, z))

dot_jax(x)
dot_numpy(onp.ones((300, 300)))
timed_exec(relu_jit, x)
'''

# the twin: every caller gives the helpers work that waits, or host work
BASICS_SYNCED = BASICS.replace(
    "return np.dot(a, a.T)\n", "return np.dot(a, a.T).block_until_ready()\n").replace(
    "timed_exec(relu_jit, x)", "timed_exec(lambda z: relu_jit(z).block_until_ready(), x)")
assert BASICS_SYNCED.count("block_until_ready") == 2


def _lint(folder: Path, *args: str) -> list[list[str]]:
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", *args, cwd=folder)
    assert lint.returncode in (0, 1), lint.stderr
    return [line.split(" ")[:2] for line in lint.stdout.splitlines()]


def test_a_timing_decorator_beside_the_scripts_is_judged_by_what_it_decorates(
        tmp_path: Path) -> None:
    """The tutorial's ``@timer`` (in a ``utils.py`` beside the scripts) times ``dot_jax``,
    which returns with its work running: the wrapper's stop read is reported, and so is
    ``timed_exec``'s, given a jitted function. No project marker: the folder jaxlint runs
    in is the project."""
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "basics.py").write_text(BASICS)
    assert _lint(tmp_path, ".") == [["utils.py:13:15:", "JAX101"],
                                    ["utils.py:23:11:", "JAX101"]]
    # whichever files are named
    assert _lint(tmp_path, "utils.py") == [["utils.py:13:15:", "JAX101"],
                                           ["utils.py:23:11:", "JAX101"]]


def test_a_timing_decorator_whose_callers_wait_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / "utils.py").write_text(UTILS)
    (tmp_path / "basics.py").write_text(BASICS_SYNCED)
    assert _lint(tmp_path, ".") == []


def test_a_timing_decorator_that_waits_is_not_reported(tmp_path: Path) -> None:
    (tmp_path / "utils.py").write_text(
        UTILS.replace("import time\n", "import time\n\nimport jax\n").replace(
            "        value = func(*args, **kwargs)\n        toc",
            "        value = jax.block_until_ready(func(*args, **kwargs))\n        toc"))
    (tmp_path / "basics.py").write_text(BASICS.replace("timed_exec(relu_jit, x)\n", ""))
    assert _lint(tmp_path, ".") == []


def test_a_timing_decorator_of_a_jax_module_is_judged_on_its_own(tmp_path: Path) -> None:
    """The measured trade-off: in a module that imports jax, the decorator's callers are not
    searched (on the corpus that found one mistake more and flagged three correct timings
    whose decorated functions end in host copies)."""
    (tmp_path / "utils.py").write_text(UTILS.replace("import time\n",
                                                     "import time\n\nimport jax.numpy as jnp\n"))
    (tmp_path / "basics.py").write_text(BASICS)
    assert _lint(tmp_path, ".") == []


TIME_FN = '''\
import time


def time_fn(fn, *args, n=10):
    fn(*args)
    t0 = time.perf_counter()
    for _ in range(n):
        out = fn(*args)
    return (time.perf_counter() - t0) / n
'''

MAIN = '''\
import jax
import jax.numpy as jnp

from pkg.utils import time_fn


@jax.jit
def f(x):
    return x @ x


x = jnp.ones((100, 100))
print(time_fn(f, x))
'''


def test_callers_beside_a_package_without_a_project_marker_are_found(tmp_path: Path) -> None:
    """``pkg/utils.py`` and the script that calls it at the top of a folder with no
    pyproject.toml or .git: the callers are looked for in the folder jaxlint runs in."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "utils.py").write_text(TIME_FN)
    (tmp_path / "main.py").write_text(MAIN)
    assert _lint(tmp_path, ".") == [["pkg/utils.py:9:13:", "JAX101"]]
    waits = "time_fn(lambda y: f(y).block_until_ready(), x)"
    (tmp_path / "main.py").write_text(MAIN.replace("time_fn(f, x)", waits))
    assert _lint(tmp_path, ".") == []


def test_a_function_of_the_caller_is_judged_where_it_is_made(tmp_path: Path) -> None:
    """``time_fn(lambda: f(x))``: the lambda closes over the caller's names, so whether its
    call leaves work running is decided in the caller's module."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "utils.py").write_text(TIME_FN)
    (tmp_path / "main.py").write_text(MAIN.replace("time_fn(f, x)", "time_fn(lambda: f(x))"))
    assert _lint(tmp_path, ".") == [["pkg/utils.py:9:13:", "JAX101"]]
    (tmp_path / "main.py").write_text(MAIN.replace("time_fn(f, x)",
                                                   "time_fn(lambda: f(x).block_until_ready())"))
    assert _lint(tmp_path, ".") == []


NUMPY_CALLER = '''\
import jax.numpy as jnp
import numpy as np

from pkg.utils import time_fn


def preprocess(raw):
    x = raw.astype(np.float32)
    return (x - x.mean()) / (x.std() + 1e-6)


raw = np.random.default_rng(0).integers(0, 255, (1024, 1024), dtype=np.uint8)
print(time_fn(preprocess, raw))
x = jnp.asarray(preprocess(raw))
'''


def test_a_function_of_the_caller_is_judged_with_the_arguments_the_call_gives(
        tmp_path: Path) -> None:
    """``time_fn(preprocess, raw)``: ``preprocess`` is given the call's NumPy array, so its
    ``raw.astype(...)`` is NumPy work, not JAX work, whatever the module imports."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "utils.py").write_text(TIME_FN)
    (tmp_path / "main.py").write_text(NUMPY_CALLER)
    assert _lint(tmp_path, ".") == []


@pytest.mark.parametrize("reexport", [
    "from .utils import time_fn\n",
    "from pkg.utils import time_fn as measure\n",
])
def test_a_helper_its_package_re_exports_is_judged_by_the_callers_of_that_name(
        tmp_path: Path, reexport: str) -> None:
    """``pkg/__init__.py`` re-exports the helper (``from .utils import time_fn``) and the
    script imports it from the package (``from pkg import time_fn``), as a project's
    ``utils/__init__.py`` usually does: those calls are the helper's callers too."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(reexport)
    (tmp_path / "pkg" / "utils.py").write_text(TIME_FN)
    name = "measure" if " as " in reexport else "time_fn"
    main = MAIN.replace("from pkg.utils import time_fn", f"from pkg import {name}").replace(
        "time_fn(f, x)", f"{name}(f, x)")
    (tmp_path / "main.py").write_text(main)
    assert _lint(tmp_path, ".") == [["pkg/utils.py:9:13:", "JAX101"]]
    waits = f"{name}(lambda y: f(y).block_until_ready(), x)"
    (tmp_path / "main.py").write_text(main.replace(f"{name}(f, x)", waits))
    assert _lint(tmp_path, ".") == []
