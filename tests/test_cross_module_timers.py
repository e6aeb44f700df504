"""Timers defined in another module of the project: a Timer class and a @contextmanager
timer in a utils module that never names jax, used in `with` by a module that does the
work. The CLI follows them through the project index, and the fix syncs at the end of the
`with` body."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from helpers import LABELLED_TIMER_CLASS, run

UTILS = '''\
import contextlib
import time


class Timer:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        self.t0 = time.perf_counter()
        return self

    def __exit__(self, *exc):
        print(self.name, time.perf_counter() - self.t0)


@contextlib.contextmanager
def timed(name):
    start = time.perf_counter()
    yield
    print(name, time.perf_counter() - start)
'''

BENCH = '''\
import jax
import jax.numpy as jnp

from proj.utils import Timer, timed
from . import utils

f = jax.jit(lambda a: a @ a)


def main():
    x = jnp.ones((512, 512))
    f(x).block_until_ready()
    with Timer("mm"):
        y = f(x)
    with timed("mm2"):
        y = f(y)
    with utils.Timer("synced"):
        y = f(y).block_until_ready()
'''


def _project(tmp_path: Path) -> Path:
    pkg = tmp_path / "proj"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "utils.py").write_text(UTILS)
    (pkg / "bench.py").write_text(BENCH)
    return pkg


def test_timers_of_another_module_are_followed_and_fixed(tmp_path: Path) -> None:
    pkg = _project(tmp_path)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(": ")[0] for line in lint.stdout.splitlines()] == [
        "proj/bench.py:13:10", "proj/bench.py:15:10"]
    assert all(" JAX101 " in line for line in lint.stdout.splitlines())
    alone = run(sys.executable, "-m", "jaxlint", "--no-cache", "--no-index", "proj",
                cwd=tmp_path)
    assert alone.returncode == 0, alone.stdout  # without the index nothing is known
    fixed = run(sys.executable, "-m", "jaxlint", "--no-cache", "--fix", "proj", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    text = (pkg / "bench.py").read_text()
    assert "        y = f(x)\n        jax.block_until_ready(y)\n    with timed" in text
    assert "        y = f(y)\n        jax.block_until_ready(y)\n    with utils" in text
    assert (pkg / "utils.py").read_text() == UTILS


CHRONO = '''\
import contextlib
import time


class Chrono:
    def __init__(self):
        self.timings = {}

    @contextlib.contextmanager
    def log_timing(self, name):
        t0 = time.monotonic()
        yield
        self.timings[name] = time.monotonic() - t0

    def flush(self):
        return dict(self.timings)


chrono = Chrono()
'''

TRAIN = '''\
import jax
import jax.numpy as jnp

from proj import utils as u

update_fn = jax.jit(lambda p, x: p - 0.1 * x)


def train(params, batches):
    params = update_fn(params, batches[0]).block_until_ready()
    with u.chrono.log_timing("update"):
        params = update_fn(params, batches[1])
    with u.chrono.log_timing("update_synced"):
        params = update_fn(params, batches[1]).block_until_ready()
    u.chrono.flush()
    return params
'''


def test_timer_methods_of_another_modules_object(tmp_path: Path) -> None:
    """big_vision's ``with u.chrono.log_timing(...)``: a module-level object of another
    module whose @contextmanager method reads the clock around its ``yield``."""
    pkg = tmp_path / "proj"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "utils.py").write_text(CHRONO)
    (pkg / "train.py").write_text(TRAIN)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()
            if line.startswith("proj/")] == [["proj/train.py:11:10:", "JAX101"]], lint.stdout


REEXPORTED = '''\
import jax
import jax.numpy as jnp

import proj
from proj import Timer as Stopwatch
from proj import scopes

f = jax.jit(lambda a: a @ a)


def main():
    x = jnp.ones((8, 8))
    f(x).block_until_ready()
    with proj.Timer("through the package"):
        y = f(x)
    with Stopwatch("renamed"):
        y = f(y)
    with scopes.scope("names a region, reads no clock"):
        y = f(y)
    return y
'''

SCOPES = '''\
import contextlib


@contextlib.contextmanager
def scope(name):
    yield name
'''


def test_timers_a_package_reexports(tmp_path: Path) -> None:
    """``proj/__init__.py`` saying ``from .timing import Timer``: the timer is followed
    through the package to the module that defines it, under any name it is imported as.
    A context manager of a module that reads no clock times nothing."""
    pkg = tmp_path / "proj"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .timing import Timer  # noqa: F401\n")
    (pkg / "timing.py").write_text(UTILS)
    (pkg / "scopes.py").write_text(SCOPES)
    (pkg / "bench.py").write_text(REEXPORTED)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()
            if line.startswith("proj/")] == [["proj/bench.py:14:10:", "JAX101"],
                                             ["proj/bench.py:16:10:", "JAX101"]], lint.stdout


LAYERS = '''\
import jax.numpy as jnp


class Dense:
    def __init__(self, n):
        self.w = jnp.ones((n, n))

    def __call__(self, x):
        return x @ self.w
'''

THROUGH_TWO_PACKAGES = '''\
import jax.numpy as jnp

import proj

layer = proj.Dense(8)


def main():
    x = jnp.ones((8, 8))
    layer(x).block_until_ready()
    with proj.Timer("two packages up"):
        y = layer(x)
    return y
'''


def test_reexports_are_followed_to_the_module_that_defines_them(tmp_path: Path) -> None:
    """A package re-exporting its layers and its timer through a subpackage
    (``proj.Dense`` from ``proj.nn.layers``, ``proj.Timer`` from ``proj.timing``): a call of
    the layer outside any timing is not looked up (its module reads no clock, so it cannot
    define a timer: analysing it would find none), and the timer is still followed."""
    from jaxlint.project import ProjectIndex

    pkg = tmp_path / "proj"
    (pkg / "nn").mkdir(parents=True)
    (pkg / "__init__.py").write_text("from .nn import Dense, Timer  # noqa: F401\n")
    (pkg / "nn" / "__init__.py").write_text(
        "from .layers import Dense  # noqa: F401\nfrom ..timing import Timer  # noqa: F401\n")
    (pkg / "nn" / "layers.py").write_text(LAYERS)
    (pkg / "timing.py").write_text(UTILS)
    (pkg / "bench.py").write_text(THROUGH_TWO_PACKAGES)
    index = ProjectIndex([str(tmp_path)])
    assert not index.may_time("proj.Dense")
    assert not index.may_time("proj.nn.Dense.__call__")
    assert index.may_time("proj.Timer")
    assert index.may_time("proj.nn.Timer")
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj/bench.py", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()
            if line.startswith("proj/")] == [["proj/bench.py:11:10:", "JAX101"]], lint.stdout


CLOCK = '''\
import time

_clock = time.perf_counter


def now():
    return _clock()


def elapsed(t0):
    """Seconds since ``t0`` (a reading of ``now()``)."""
    return _clock() - t0
'''

USES_CLOCK = '''\
import jax
import jax.numpy as jnp

from . import clock

step = jax.jit(lambda u: jnp.roll(u, 1) * 0.5 + u * 0.5)


def bench(u, rounds=10):
    step(u).block_until_ready()
    t0 = clock.now()
    for _ in range(rounds):
        u = step(u)
    unsynced = clock.elapsed(t0)
    t0 = clock.now()
    for _ in range(rounds):
        u = step(u)
    u.block_until_ready()
    return unsynced, clock.elapsed(t0)
'''


def test_clock_helpers_of_another_module_are_clocks(tmp_path: Path) -> None:
    """``clock.now()`` returns a reading and ``clock.elapsed(t0)`` reads the clock and
    subtracts ``t0``: to the timing file, a start read and a stop read. The file imports no
    clock of its own."""
    pkg = tmp_path / "proj"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "clock.py").write_text(CLOCK)
    (pkg / "bench.py").write_text(USES_CLOCK)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        ["proj/bench.py:14:16:", "JAX101"]], lint.stdout
    fixed = run(sys.executable, "-m", "jaxlint", "--no-cache", "--fix", "proj", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert "        u = step(u)\n    jax.block_until_ready(u)\n    unsynced = clock" in (
        pkg / "bench.py").read_text()


def test_a_namespace_package_under_src_is_found(tmp_path: Path) -> None:
    """A ``src/`` layout whose package has no ``__init__.py`` (a namespace package): its
    modules import each other from ``src``, which the index searches as Python would once
    the project is installed."""
    pkg = tmp_path / "src" / "simkit"
    pkg.mkdir(parents=True)
    (pkg / "clock.py").write_text(CLOCK)
    (pkg / "bench.py").write_text(USES_CLOCK.replace("from . import clock",
                                                     "from simkit import clock"))
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "src", cwd=tmp_path)
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        ["src/simkit/bench.py:14:16:", "JAX101"]], lint.stdout + lint.stderr


OUTSIDE_TIMER = '''\
import jax
import jax.numpy as jnp
import mlxu


@jax.jit
def train_step(w, x):
    return w - 1e-3 * jax.grad(lambda w: jnp.mean((x @ w) ** 2))(w)


def train(w, batches):
    w = train_step(w, batches[0]).block_until_ready()
    for epoch in range(3):
        with mlxu.Timer() as train_timer:
            for x in batches:
                w = train_step(w, x)
        print(epoch, train_timer())
    for epoch in range(3):
        with mlxu.Timer() as synced_timer:
            for x in batches:
                w = train_step(w, x)
            w.block_until_ready()
        print(epoch, synced_timer())
    return w
'''


def test_a_timer_class_of_a_package_outside_the_project_is_guessed_by_its_name(
        tmp_path: Path) -> None:
    """``with mlxu.Timer() as t:`` (a utility package neither the project nor jaxlint
    knows): with the project index on, a class the index does not know is not the
    project's, and its name says it times the ``with`` body. Without the index a class
    imported from anywhere may be the project's own, whose timer may wait: nothing is
    guessed."""
    (tmp_path / "train.py").write_text(OUTSIDE_TIMER)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "train.py", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(": ")[0:2] for line in lint.stdout.splitlines()] == [
        ["train.py:14:14", "JAX101 timer stops before JAX work finishes"]]
    alone = run(sys.executable, "-m", "jaxlint", "--no-cache", "--no-index", "train.py",
                cwd=tmp_path)
    assert alone.returncode == 0, alone.stdout
    fixed = run(sys.executable, "-m", "jaxlint", "--no-cache", "--fix", "train.py",
                cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert ("                w = train_step(w, x)\n            jax.block_until_ready(w)\n"
            "        print(epoch, train_timer())") in (tmp_path / "train.py").read_text()


MIXED = '''\
import jax
import jax.numpy as jnp


class Step:
    pass


Step = jax.jit(lambda x: jnp.tanh(x))
'''


def test_a_class_of_a_module_that_reads_no_clock_is_not_analysed(tmp_path: Path) -> None:
    """Asked for a class (a layer called with a clock running), the index exports a class
    only as a timer: one of a module whose bytes cannot define a timer is answered without
    analysing the module. A timer class is still found, and a name that a ``class``
    statement binds and an assignment rebinds is analysed as before."""
    from jaxlint.analysis.values import JaxCallable, TimerFactory
    from jaxlint.project import ProjectIndex

    pkg = tmp_path / "proj"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "layers.py").write_text(LAYERS)
    (pkg / "timing.py").write_text(UTILS)
    (pkg / "mixed.py").write_text(MIXED)
    index = ProjectIndex([str(tmp_path)])
    assert "proj.layers.Dense" not in index
    assert not any(path.endswith("layers.py") for path in index._modules)
    assert isinstance(index["proj.timing.Timer"], TimerFactory)
    assert isinstance(index["proj.mixed.Step"], JaxCallable)
    assert any(path.endswith("mixed.py") for path in index._modules)


def _lint_with_module(tmp_path: Path, module: str, source: str, bench: str
                      ) -> subprocess.CompletedProcess[str]:
    """``jaxlint bench.py`` in a project whose package ``proj`` has ``module``."""
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "__init__.py").write_text("")
    (tmp_path / "proj" / f"{module}.py").write_text(source)
    (tmp_path / "bench.py").write_text(bench)
    return run(sys.executable, "-m", "jaxlint", "--no-cache", "bench.py", cwd=tmp_path)


LABELLED_TIMER = "from timeit import default_timer as timer\n\n\n" + LABELLED_TIMER_CLASS

USES_LABELLED_TIMER = '''\
import jax
import jax.numpy as jnp

from proj.util import Timer

f = jax.jit(lambda x: x @ x)
x = jnp.ones((256, 256))
f(x).block_until_ready()
timer = Timer()
timer.start("total")
for _ in range(3):
    timer.start("step")
    y = f(x)
    y.block_until_ready()
    timer.stop("step")
z = f(y)
timer.stop("total")
print(timer.td)
'''


def test_a_start_stop_timer_class_of_another_module(tmp_path: Path) -> None:
    """scico's ``Timer`` in a module that never names jax: ``start(label)`` keeps a
    reading on the object, ``stop(label)`` subtracts it. An object of it times what runs
    between its calls, each label its own timer: the steps wait, the total does not."""
    lint = _lint_with_module(tmp_path, "util", LABELLED_TIMER, USES_LABELLED_TIMER)
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert lint.stdout == ("bench.py:17:1: JAX101 timer stops before JAX work finishes: `z` is "
                           "still being computed; call jax.block_until_ready(z) before reading "
                           "the clock\n"), lint.stdout


STOPWATCH = '''\
import time


class Stopwatch:
    def __init__(self):
        self.laps = []

    def start(self):
        self._t0 = time.perf_counter()

    def stop(self, result=None):
        if result is not None:
            import jax
            jax.block_until_ready(result)
        self.laps.append(time.perf_counter() - self._t0)
'''

USES_STOPWATCH = '''\
import jax
import jax.numpy as jnp

from proj.clock import Stopwatch

f = jax.jit(lambda x: x @ x)
x = jnp.ones((256, 256))
f(x).block_until_ready()
sw = Stopwatch()
sw.start()
y = f(x)
sw.stop(y)
sw.start()
y = f(x)
sw.stop()
print(sw.laps)
'''


def test_a_stop_that_waits_for_what_it_is_given(tmp_path: Path) -> None:
    """``sw.stop(y)`` whose method blocks on its argument before reading the clock ends a
    synced region; ``sw.stop()`` given nothing ends an unsynced one."""
    lint = _lint_with_module(tmp_path, "clock", STOPWATCH, USES_STOPWATCH)
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert lint.stdout == ("bench.py:15:1: JAX101 timer stops before JAX work finishes: `y` is "
                           "still being computed; call jax.block_until_ready(y) before reading "
                           "the clock\n"), lint.stdout
