"""Helpers of another module of the project whose behaviour depends on a flag's default
(``def get_from_first_device(nest, as_numpy=True)``): the project index summarises them as
a call that leaves the flag at its default makes them, and only the branch it takes."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import run

from jaxlint import cli, engine
from jaxlint.analysis.flow import FlowAnalysis


def _package(root: Path, name: str, **modules: str) -> Path:
    """A package ``name`` under ``root`` with an empty ``__init__`` (unless given) and the
    modules given as name=source."""
    pkg = root / name
    pkg.mkdir()
    modules.setdefault("__init__", "")
    for module, source in modules.items():
        (pkg / f"{module}.py").write_text(source)
    return pkg


def _lint(root: Path, target: str, prefix: str = "") -> tuple[list[list[str]], Any]:
    """``jaxlint --no-cache TARGET`` run in ``root``: the place and code of each finding line
    (of the paths under ``prefix``), and the finished process."""
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", target, cwd=root)
    return [line.split(" ")[:2] for line in lint.stdout.splitlines()
            if line.startswith(prefix)], lint


UTILS = '''\
import jax
import numpy as np


def get_first(tree, as_numpy=True):
    first = jax.tree.map(lambda a: a[0], tree)
    return jax.device_get(first) if as_numpy else first


def first_replica(tree, wait=False):
    out = jax.tree.map(lambda a: a[0], tree)
    if wait:
        jax.block_until_ready(out)
    return out


def to_host(tree, copy=None):
    if copy is None:
        return np.asarray(tree)
    return tree
'''

BENCH = '''\
import time

import jax
import jax.numpy as jnp

from proj import utils

step = jax.pmap(lambda a: jnp.tanh(a @ a))


def main():
    x = jnp.ones((1, 512, 512))
    step(x).block_until_ready()
    start = time.time()
    out = utils.get_first(step(x))
    print("copied", time.time() - start)
    start = time.time()
    out = utils.first_replica(step(x))
    print("dispatched", time.time() - start)
    start = time.time()
    out = utils.to_host(step(x))
    print("copied", time.time() - start)
    return out
'''


def test_helpers_of_another_module_take_the_branch_of_their_default(tmp_path: Path) -> None:
    _package(tmp_path, "proj", utils=UTILS, bench=BENCH)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    lines = lint.stdout.splitlines()
    # get_first copies by default (no unfinished work, but a host transfer in the region,
    # made after its own indexing); first_replica does not wait by default; to_host copies
    # by default (a host transfer in the region).
    assert [line.split(" ")[:2] for line in lines if line.startswith("proj/")] == [
        ["proj/bench.py:16:21:", "JAX104"], ["proj/bench.py:19:25:", "JAX101"],
        ["proj/bench.py:22:21:", "JAX104"]], lint.stdout


MODEL = '''\
import dataclasses

import jax
import jax.numpy as jnp


class MLP:
    def __init__(self, key, sizes):
        self.weights = [jax.random.normal(key, (m, n)) for m, n in zip(sizes, sizes[1:])]
        self._apply = jax.jit(self.apply)

    def apply(self, x):
        for w in self.weights:
            x = jnp.tanh(x @ w)
        return x

    def __call__(self, x):
        return self._apply(x)


@dataclasses.dataclass
class InputData:
    name: str
    tokens: jax.Array
'''

USE = '''\
import time

import jax
import jax.numpy as jnp
import numpy as np

from proj.model import MLP, InputData


def main(samples):
    key = jax.random.PRNGKey(0)
    model = MLP(key, [256, 256])
    x = jnp.ones((64, 256))
    model(x).block_until_ready()
    start = time.perf_counter()
    y = model(x)
    print("forward", time.perf_counter() - start)
    start = time.perf_counter()
    loaded = {}
    for i, sample in enumerate(samples):
        loaded[i] = InputData("", jnp.array(np.asarray(sample)))
    for data in loaded.values():
        jax.block_until_ready(data.tokens)
    print("load", time.perf_counter() - start)
    return y
'''


def test_classes_of_the_projects_jax_modules_are_judged_as_a_jax_librarys(
        tmp_path: Path) -> None:
    """A class of another module of the project that uses JAX is judged as a JAX library's
    class: its instance called on data computes (``model(x)``), and an instance made with
    JAX values holds them (``data.tokens``)."""
    _package(tmp_path, "proj", model=MODEL, bench=USE)
    found, lint = _lint(tmp_path, "proj/bench.py", "proj/")
    assert lint.returncode == 1, lint.stderr
    assert found == [["proj/bench.py:17:22:", "JAX101"]], lint.stdout
    alone = run(sys.executable, "-m", "jaxlint", "--no-cache", "--no-index", "--format",
                "json", "proj/bench.py", cwd=tmp_path)
    # Without the index MLP is not known as the project's JAX class; the object it made from
    # a JAX value (the key), called on JAX values, still computes (tests/test_made_functions)
    found = json.loads(alone.stdout)
    assert [(f["line"], f["code"]) for f in found] == [(17, "JAX101")], alone.stdout
    assert "a JAX library object" not in found[0]["explanation"]
    assert "a function that JAX code made from JAX values" in found[0]["explanation"]


TRAIN_UTILS = '''\
import jax


def unreplicate_and_get(tree):
    return jax.device_get(jax.tree.map(lambda a: a[0], tree))


def unreplicate(tree):
    return jax.tree.map(lambda a: a[0], tree)
'''

EVALUATION = '''\
import jax

from proj import train_utils

eval_step = jax.pmap(lambda a: a * 2, axis_name="batch")


def evaluate(batches):
    metrics = []
    for batch in batches:
        metrics.append(train_utils.unreplicate_and_get(eval_step(batch)))
    return metrics


def evaluate_on_device(batches):
    metrics = []
    for batch in batches:
        metrics.append(train_utils.unreplicate(eval_step(batch)))
    return metrics
'''

TRAINER = '''\
import time

from proj import evaluation


def run(batches):
    t0 = time.time()
    evaluation.evaluate(batches)
    print("eval", time.time() - t0)
    t0 = time.time()
    evaluation.evaluate_on_device(batches)
    print("eval", time.time() - t0)
'''


def test_helpers_calling_a_third_module_are_followed_and_cached(tmp_path: Path) -> None:
    """scenic's trainer times ``evaluate`` of its eval module, which copies each step's
    metrics to the host through ``train_utils.unreplicate_and_get`` of a third module. The
    warm cache of the trainer's result depends on that third module too."""
    pkg = _package(tmp_path, "proj", train_utils=TRAIN_UTILS, evaluation=EVALUATION,
                   trainer=TRAINER)
    args = (sys.executable, "-m", "jaxlint", "proj/trainer.py")  # with the cache
    lint = run(*args, cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()
            if line.startswith("proj/")] == [["proj/trainer.py:12:19:", "JAX101"]], lint.stdout
    # the third module stops copying to the host: the cached answer is stale
    (pkg / "train_utils.py").write_text(TRAIN_UTILS.replace(
        "return jax.device_get(jax.tree.map(lambda a: a[0], tree))",
        "return jax.tree.map(lambda a: a[0], tree)"))
    again = run(*args, cwd=tmp_path)
    assert [line.split(" ")[:2] for line in again.stdout.splitlines()
            if line.startswith("proj/")] == [["proj/trainer.py:9:19:", "JAX101"],
                                             ["proj/trainer.py:12:19:", "JAX101"]], again.stdout


def test_functions_made_by_a_projects_objects_compute(tmp_path: Path) -> None:
    """whisper-jax's benchmark: ``PjitPartitioner`` (re-exported by the package's
    ``__init__``, which never names jax) makes ``p_generate`` of a function; calling it
    computes, and the timed loop drops the results unsynced."""
    _package(tmp_path, "zoo", __init__="from .partitioner import Partitioner\n", partitioner=(
        "import jax\n\n\n"
        "class Partitioner:\n"
        "    def __init__(self, num_partitions=1):\n"
        "        self.num_partitions = num_partitions\n\n"
        "    def partition(self, fn, in_axis_resources=None):\n"
        "        return jax.jit(fn)\n"))
    (tmp_path / "bench.py").write_text(
        "import time\n\n"
        "import numpy as np\n\n"
        "from zoo import Partitioner\n\n\n"
        "def generate(params, features):\n"
        "    return features @ params\n\n\n"
        "def main(params, batches):\n"
        "    p_generate = Partitioner(num_partitions=1).partition(generate)\n"
        "    p_generate(params, batches[0])\n"
        "    start = time.time()\n"
        "    for batch in batches:\n"
        "        p_generate(params, np.asarray(batch))\n"
        "    return time.time() - start\n")
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "bench.py", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        ["bench.py:18:12:", "JAX101"]], lint.stdout


def test_objects_typed_with_a_projects_class_compute(tmp_path: Path) -> None:
    """evojax's Trainer takes ``solver: NEAlgorithm`` (a class of the project's JAX code):
    ``solver.ask()`` gives what it computed, and ``solver.tell(fitness=scores)`` computes
    on the JAX values it is given."""
    _package(tmp_path, "evo", algo=(
        "import jax.numpy as jnp\n\n\n"
        "class NEAlgorithm:\n"
        "    def ask(self):\n"
        "        raise NotImplementedError\n\n"
        "    def tell(self, fitness):\n"
        "        raise NotImplementedError\n"), trainer=(
        "import time\n\n"
        "import jax.numpy as jnp\n\n"
        "from evo.algo import NEAlgorithm\n\n\n"
        "class Trainer:\n"
        "    def __init__(self, solver: NEAlgorithm):\n"
        "        self.solver = solver\n\n"
        "    def run(self, iterations):\n"
        "        for _ in range(iterations):\n"
        "            params = self.solver.ask()\n"
        "            scores = jnp.sum(params ** 2, axis=-1).block_until_ready()\n"
        "            start = time.perf_counter()\n"
        "            self.solver.tell(fitness=scores)\n"
        "            print('tell', time.perf_counter() - start)\n"))
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "evo", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        ["evo/trainer.py:18:27:", "JAX101"]], lint.stdout
    assert "the result of `self.solver.tell(fitness=scores)`" in lint.stdout


BENCH_UTILS = '''\
"""Framework-agnostic timing helpers (no jax here)."""
import statistics
import time


def time_it(fn, *args, repeats=10):
    fn(*args)
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn(*args)
        t1 = time.perf_counter()
        samples.append(t1 - t0)
    return statistics.median(samples)


def wall(fn, *args):
    start = time.time()
    res = fn(*args)
    return res, time.time() - start
'''

KERNELS = '''\
import jax
import jax.numpy as jnp


@jax.jit
def layernorm(x):
    mu = x.mean(-1, keepdims=True)
    return (x - mu) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5)
'''

RUN = '''\
import jax.numpy as jnp
import numpy as np

from .bench_utils import time_it, wall
from .kernels import layernorm


def main():
    x = jnp.ones((4096, 1024))
    print(time_it(layernorm, x))
    data, seconds = wall(np.sort, np.ones(1000))
    print(seconds)
'''


def test_a_timing_helper_module_without_jax_is_judged_by_its_callers(tmp_path: Path) -> None:
    """Issue 12 item 6: the region is in a helper module that never names jax; only its
    callers know the work is JAX's. The helper's finding is reported in the helper, for the
    helper that a caller gives JAX work (time_it), not for one given NumPy work (wall)."""
    _package(tmp_path, "benchkit", bench_utils=BENCH_UTILS, kernels=KERNELS, run=RUN)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "benchkit", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        ["benchkit/bench_utils.py:12:14:", "JAX101"]], lint.stdout
    alone = run(sys.executable, "-m", "jaxlint", "--no-cache", "benchkit/bench_utils.py",
                cwd=tmp_path)
    assert alone.stdout == lint.stdout  # whichever files are named


def test_a_new_caller_of_a_timing_helper_makes_its_cached_result_stale(
        tmp_path: Path) -> None:
    pkg = _package(tmp_path, "benchkit", bench_utils=BENCH_UTILS, kernels=KERNELS, run=RUN)
    args = (sys.executable, "-m", "jaxlint", "benchkit")  # with the cache
    first = run(*args, cwd=tmp_path)
    assert [line.split(" ")[0] for line in first.stdout.splitlines()] == [
        "benchkit/bench_utils.py:12:14:"], first.stdout
    # a new module gives wall() JAX work: the helper module's answer changes
    (pkg / "more.py").write_text(
        "from .bench_utils import wall\nfrom .kernels import layernorm\n\n\n"
        "def main(x):\n    return wall(layernorm, x)\n")
    again = run(*args, cwd=tmp_path)
    assert [line.split(" ")[0] for line in again.stdout.splitlines()] == [
        "benchkit/bench_utils.py:12:14:", "benchkit/bench_utils.py:20:17:"], again.stdout


OTHER = '''\
import jax


def warm(tree):
    return jax.block_until_ready(tree)
'''

ALTERNATING = '''\
import time

import jax
import jax.numpy as jnp

from proj import other, utils

step = jax.pmap(lambda a: jnp.tanh(a @ a))


def main():
    x = jnp.ones((1, 512, 512))
    step(x).block_until_ready()
    start = time.time()
    out = utils.first_replica(step(x))
    print("dispatched", time.time() - start)
    other.warm(out)
    start = time.time()
    out = utils.to_host(step(x))
    print("copied", time.time() - start)
    return out
'''


def test_a_module_whose_analysis_was_dropped_answers_as_before(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The index keeps only the analyses of the modules asked most recently (a run over a
    large project would hold them all): with room for one, asking ``other`` drops
    ``utils``'s, and ``utils.to_host`` asked next is worked out from a new one. The
    findings are those of a run that kept every analysis."""
    _package(tmp_path, "proj", utils=UTILS, other=OTHER, bench=ALTERNATING)
    monkeypatch.chdir(tmp_path)

    def lint() -> list[str]:
        cli.main(["--no-cache", "-j", "1", "proj/bench.py"])
        return capsys.readouterr().out.splitlines()

    kept = lint()
    assert [line.split(" ")[:2] for line in kept if line.startswith("proj/")] == [
        ["proj/bench.py:16:25:", "JAX101"], ["proj/bench.py:20:21:", "JAX104"]], kept
    analysed: list[int] = []
    analyse = engine._module_analysis

    def counted(source: engine.Source, settings: engine.Settings) -> FlowAnalysis:
        analysed.append(len(source))
        return analyse(source, settings)

    monkeypatch.setattr(engine, "LIVE_SOURCE", 1)
    monkeypatch.setattr(engine, "_module_analysis", counted)
    assert lint() == kept
    assert analysed.count(len(UTILS)) == 2, analysed  # utils was analysed again


STEPS = '''\
from functools import partial

import jax


@jax.jit
def forward(w, x):
    return x @ w


@partial(jax.jit, static_argnames=("schedule",))
def train_step(w, g, schedule="constant"):
    return w - (0.1 if schedule == "constant" else 0.01) * g
'''

COLD = '''\
import time

import jax

from .steps import forward, train_step


def bench_cold(w, x):
    start = time.perf_counter()
    y = forward(w, x)
    jax.block_until_ready(y)
    return time.perf_counter() - start


def bench_warm(w, g):
    jax.block_until_ready(train_step(w, g))
    start = time.perf_counter()
    w = train_step(w, g)
    jax.block_until_ready(w)
    return time.perf_counter() - start


def main():
    import jax.numpy as jnp

    w = jnp.ones((256, 256))
    print(bench_cold(w, w), bench_warm(w, w))


if __name__ == "__main__":
    main()
'''


def test_jitted_functions_of_another_module_compile_on_their_first_call_here(
        tmp_path: Path) -> None:
    """A script's helpers time another module's jitted functions: the first call of one
    compiles inside the region; a call made before the clock starts is the warm-up,
    whether or not the index was asked then."""
    _package(tmp_path, "proj", steps=STEPS, bench=COLD)
    found, lint = _lint(tmp_path, "proj/bench.py", "proj/")
    assert lint.returncode == 1, lint.stderr
    assert found == [["proj/bench.py:10:9:", "JAX105"]], lint.stdout


SWEEP = '''\
import time

import jax

from .steps import train_step


def bench_schedule(w, g):
    w = train_step(w, g, schedule="constant")
    jax.block_until_ready(w)
    start = time.perf_counter()
    w = train_step(w, g, schedule="cosine")
    jax.block_until_ready(w)
    return time.perf_counter() - start


def bench_same_schedule(w, g):
    w = train_step(w, g, schedule="cosine")
    jax.block_until_ready(w)
    start = time.perf_counter()
    w = train_step(w, g, schedule="cosine")
    jax.block_until_ready(w)
    return time.perf_counter() - start


def bench_unknown_schedule(w, g, name):
    w = train_step(w, g, schedule=name)
    jax.block_until_ready(w)
    start = time.perf_counter()
    w = train_step(w, g, schedule="cosine")
    jax.block_until_ready(w)
    return time.perf_counter() - start
'''


def test_a_static_value_of_another_modules_jitted_function_not_warmed_up_compiles(
        tmp_path: Path) -> None:
    """A benchmark warms another module's jitted function up with one static value and
    times another: that call compiles a new program, as it would for a function of the same
    file. Not when the warm-up gave the same value, nor when it gave one not known."""
    _package(tmp_path, "proj", steps=STEPS, bench=SWEEP)
    found, lint = _lint(tmp_path, "proj/bench.py", "proj/")
    assert lint.returncode == 1, lint.stderr
    assert found == [["proj/bench.py:12:9:", "JAX105"]], lint.stdout


FACTORY = '''\
import jax


def make_step(lr):
    return jax.jit(lambda w, g: w - lr * g)
'''

USES_FACTORY = '''\
import time

import jax

from .factory import make_step


def sweep(w, g, lrs=(0.1, 0.01)):
    results = {}
    total = time.perf_counter()
    for lr in lrs:
        step = make_step(lr)
        start = time.perf_counter()
        w = step(w, g)
        jax.block_until_ready(w)
        results[lr] = time.perf_counter() - start
    jax.block_until_ready(w)
    print("whole sweep", time.perf_counter() - total)
    return results


def steady(w, g):
    started = time.perf_counter()  # a stamp, subtracted from nothing
    step = make_step(0.1)
    jax.block_until_ready(step(w, g))
    t0 = time.perf_counter()
    w = step(w, g)
    jax.block_until_ready(w)
    return time.perf_counter() - t0, started
'''


def test_a_factory_of_jitted_functions_in_another_module_makes_them_here(
        tmp_path: Path) -> None:
    """``make_step`` of another module returns a fresh ``jax.jit`` on each call: the
    function it gives the timing file compiles on its first call there (each round of a
    sweep times the first call of the step made just before; not a function warmed up
    before the clock, nor the whole sweep's total, which contains the making). Not yet: a
    factory called before any clock is read (the index is not asked then)."""
    _package(tmp_path, "proj", factory=FACTORY, bench=USES_FACTORY)
    found, lint = _lint(tmp_path, "proj/bench.py", "proj/")
    assert lint.returncode == 1, lint.stderr
    assert found == [["proj/bench.py:14:13:", "JAX105"]], lint.stdout


JAX_UTILS = '''\
import jax.numpy as jnp


def normalize(x):
    return (x - x.mean()) / x.std()


def ones(n):
    return jnp.ones((n, 8)) * 2
'''

TORCH_BENCH = '''\
import time

import torch

from .utils import normalize, ones


def bench(x: torch.Tensor):
    t0 = time.perf_counter()
    y = normalize(x)
    plain = time.perf_counter() - t0
    t0 = time.perf_counter()
    z = ones(4)
    made = time.perf_counter() - t0
    return plain, made, y, z
'''


def test_a_module_without_jax_gets_no_jax_work_from_its_own_arrays(tmp_path: Path) -> None:
    """What makes a module JAX: a PyTorch module that imports no JAX calls a JAX module's
    helper that only computes on what it is given (``normalize``) with its own tensors: no
    JAX work, no finding. A helper that makes JAX arrays itself (``ones``) is JAX work
    wherever it is called."""
    _package(tmp_path, "proj", utils=JAX_UTILS, torch_bench=TORCH_BENCH)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj", cwd=tmp_path)
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        ["proj/torch_bench.py:14:12:", "JAX101"]], lint.stdout


def test_callers_of_a_timing_helper_are_found_beside_its_package(tmp_path: Path) -> None:
    """The timing helper lives in a package (``benchkit.bench_utils``), its caller in a
    script beside the package, at the project's root: the callers are looked for in the
    project, not only in the helper's package."""
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'demo'\n")
    _package(tmp_path, "benchkit", bench_utils=BENCH_UTILS, kernels=KERNELS)
    (tmp_path / "run_bench.py").write_text(RUN.replace("from .bench_utils", "from benchkit."
                                                       "bench_utils").replace(
        "from .kernels", "from benchkit.kernels"))
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", ".", cwd=tmp_path)
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        ["benchkit/bench_utils.py:12:14:", "JAX101"]], lint.stdout + lint.stderr


SCRIPT = '''\
import time

import jax
import jax.numpy as jnp


def update(params, grads):
    return params - 0.1 * grads


if __name__ == "__main__":
    update = jax.jit(update)
    params = jnp.ones(3)
    update(params, params).block_until_ready()
    t0 = time.perf_counter()
    params = update(params, params)
    print(time.perf_counter() - t0)
'''

NUMPY_BENCH = '''\
import time

import numpy as np

from proj.train import update


def main():
    params = np.ones(3)
    t0 = time.perf_counter()
    params = update(params, np.ones(3))
    print(time.perf_counter() - t0)
'''


def test_an_imported_script_does_not_run_its_main_block(tmp_path: Path) -> None:
    """A module imported for its names runs as Python runs it on import: its
    ``if __name__ == "__main__":`` block is not taken. ``update`` is jitted only when
    train.py runs as a script, so the NumPy benchmark importing it times NumPy work; the
    script's own region (run as ``__main__``) is still checked."""
    _package(tmp_path, "proj", train=SCRIPT, numpy_bench=NUMPY_BENCH)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj", cwd=tmp_path)
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        ["proj/train.py:17:11:", "JAX101"]], lint.stdout + lint.stderr


JAX_NAMED_BENCH = '''\
import time

import jax
import jax.numpy as jnp

from jaxproj.log import Logger

f = jax.jit(lambda a: jnp.tanh(a @ a))
logger = Logger()


def main():
    x = jnp.ones((512, 512))
    f(x).block_until_ready()
    start = time.perf_counter()
    y = f(x)
    out = logger.show(y)
    jax.block_until_ready(y)
    print("step", time.perf_counter() - start)
    return out
'''

JAX_NAMED_LOG = '''\
class Logger:
    def show(self, y):
        print("mean", float(y.mean()))
'''


def test_a_package_named_for_jax_is_a_library_unless_the_project_holds_it(
        tmp_path: Path) -> None:
    """``jaxproj.log.Logger`` of a package the checkout does not hold is judged by its name,
    as a library built on JAX: ``logger.show(y)`` computes, and ``out`` is not waited for.
    The project's own ``jaxproj`` is read as code, whose ``Logger`` computes nothing."""
    alone = tmp_path / "alone"
    alone.mkdir()
    (alone / "bench.py").write_text(JAX_NAMED_BENCH)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "bench.py", cwd=alone)
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert lint.stdout.startswith("bench.py:19:19: JAX101 "), lint.stdout
    assert "`out` is still being computed" in lint.stdout, lint.stdout

    held = tmp_path / "held"
    held.mkdir()
    (held / "bench.py").write_text(JAX_NAMED_BENCH)
    _package(held, "jaxproj", log=JAX_NAMED_LOG)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "bench.py", cwd=held)
    assert lint.returncode == 0, lint.stdout + lint.stderr


SPH_LOG = '''\
import jax.numpy as jnp


def get_stats(state):
    return {"ekin": jnp.sum(state["v"] ** 2), "vmax": jnp.max(jnp.abs(state["v"]))}


class Logger:
    def __init__(self, every):
        self.every = every
        self.history = []

    def print_stats(self, state, step):
        stats = get_stats(state)
        print(step, ", ".join([f"{k}={v:.5f}" for k, v in stats.items()]))

    def keep(self, state, step):
        self.history.append((step, get_stats(state)))
'''

SPH_RUN = '''\
import time

import jax
import jax.numpy as jnp

from sph.log import Logger

advance = jax.jit(lambda state: {"v": state["v"] * 0.99 + 0.01})


def main(steps=100):
    logger = Logger(every=10)
    state = {"v": jnp.ones((4096, 3))}
    jax.block_until_ready(advance(state))
    start = time.time()
    for step in range(steps):
        state = advance(state)
        logger.METHOD(state, step)
    print(f"time: {time.time() - start:.2f} s")
'''


@pytest.mark.parametrize("source", ["sph.log", "sph"])
@pytest.mark.parametrize(("method", "expected"), [("print_stats", ""), ("keep", "JAX101")])
def test_a_method_of_the_projects_own_jax_class_is_summarised_from_its_module(
        tmp_path: Path, method: str, expected: str, source: str) -> None:
    """``logger.print_stats(state, step)`` of a class of the project's own JAX code (a
    module that imports jax.numpy) prints the stats of the state it is given: that host
    read waits for the last step, as the method's module shows. A method that only keeps
    the stats (``keep``) waits for nothing, and the region stays unsynced. (Judged as a JAX
    library's method, both calls would be more JAX work left running.) The class may come
    from a package that re-exports it (``from sph import Logger``): its method is still the
    one its module defines."""
    script = SPH_RUN.replace("METHOD", method).replace("from sph.log import",
                                                       f"from {source} import")
    (tmp_path / "run.py").write_text(script)
    _package(tmp_path, "sph", log=SPH_LOG, __init__="from .log import Logger\n")
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "run.py", cwd=tmp_path)
    if not expected:
        assert lint.returncode == 0, lint.stdout + lint.stderr
        return
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert lint.stdout == ("run.py:19:20: JAX101 timer stops before JAX work finishes: `state` "
                           "is still being computed; call jax.block_until_ready(state) before "
                           "reading the clock\n"), lint.stdout


JITTED_STEP = '''\
import jax


@jax.jit
def step(x):
    return x @ x
'''

TIMES_STEP = '''\
import time

import jax.numpy as jnp

from {module} import step

x = jnp.ones((64, 64))
step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x)
print(time.perf_counter() - t0)
'''


@pytest.mark.parametrize("layout, module", [
    ("src/mylib/core/ops.py", "mylib.core.ops"),  # a src layout's namespace packages
    ("python/mylib/ops.py", "mylib.ops"),  # a python/ layout
    ("mylib/ops.py", "mylib.ops"),  # a namespace package at the top
])
def test_scripts_outside_a_layout_import_its_packages(tmp_path: Path, layout: str,
                                                      module: str) -> None:
    """A script in ``scripts/`` imports the project's packages from ``src/`` or ``python/``
    (installed with ``pip install -e .``), packages without ``__init__.py`` included: their
    jitted functions are known, so the unsynced region is found."""
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "mylib"\n')
    target = tmp_path / layout
    target.parent.mkdir(parents=True)
    target.write_text(JITTED_STEP)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "bench.py").write_text(TIMES_STEP.format(module=module))
    found, lint = _lint(tmp_path, "scripts/bench.py", "scripts/")
    assert lint.returncode == 1, lint.stderr
    assert found == [["scripts/bench.py:11:7:", "JAX101"]], lint.stdout


DATA_FUNCS = '''\
import jax
import jax.numpy as jnp


def make_data(n):
    return jnp.linspace(0.0, 1.0, n)


@jax.jit
def process(x):
    return jnp.cumsum(x) * 2


def simulate(x, steps=10):
    for _ in range(steps):
        x = process(x)
    return x
'''

USES_LIBRARY = '''\
import time

import {package}

x = {package}.make_data(1000)
{package}.simulate(x)
t0 = time.time()
y = {package}.{call}(x)
print("elapsed", time.time() - t0)
'''


@pytest.mark.parametrize("call", ["simulate", "process"])
def test_a_script_of_the_projects_own_jax_library_need_not_import_jax(
        tmp_path: Path, call: str) -> None:
    """A library's example imports only the library (``import lib``), whose package
    re-exports what its modules define: ``lib.make_data`` makes JAX arrays and
    ``lib.simulate`` computes on them, as their module shows, so the region that times it
    is JAX work left running (a module that names no JAX still times JAX made by a call
    path the analysis sees)."""
    (tmp_path / "example.py").write_text(USES_LIBRARY.format(package="lib", call=call))
    _package(tmp_path, "lib", funcs=DATA_FUNCS,
             __init__="from .funcs import make_data, process, simulate\n")
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "example.py", cwd=tmp_path)
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert lint.stdout == ("example.py:9:18: JAX101 timer stops before JAX work finishes: `y` "
                           "is still being computed; call jax.block_until_ready(y) before "
                           "reading the clock\n"), lint.stdout


MODELS = '''\
import jax
import jax.numpy as jnp


@jax.jit
def apply(w, x):
    return jnp.tanh(x @ w)
'''

FIT_TRAINER = '''\
import numpy as np

from proj.models import apply


class Trainer:
    def __init__(self, width):
        self.w = np.ones((width, width), dtype=np.float32)

    def fit(self, x, steps):
        for _ in range(steps):
            x = apply(self.w, x)
        return x


def make_trainer(width):
    return Trainer(width)
'''

FIT = '''\
import time

import numpy as np

from proj.trainer import Trainer, make_trainer

x = np.ones((8, 8), dtype=np.float32)
trainer = Trainer(8)
trainer.fit(x, 1)

start = time.perf_counter()
out = trainer.fit(x, 10)
print("fit", time.perf_counter() - start)

other = make_trainer(8)
start = time.perf_counter()
out = other.fit(x, 10)
out.block_until_ready()
print("fit, waited for", time.perf_counter() - start)
'''


def test_a_module_that_imports_the_projects_jax_code_is_jax_code(tmp_path: Path) -> None:
    """``trainer.py`` never names jax but calls the jitted ``models.apply``: its class is
    the project's JAX code (the README's "what makes a module JAX"), so ``fit`` given a
    NumPy array computes, and a region that never waits for it is reported; its twin that
    waits is not."""
    pkg = _package(tmp_path, "proj", models=MODELS, trainer=FIT_TRAINER, fit=FIT)
    args = (sys.executable, "-m", "jaxlint", "proj/fit.py")  # with the cache
    lint = run(*args, cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()
            if line.startswith("proj/")] == [["proj/fit.py:13:14:", "JAX101"]], lint.stdout
    # the models become NumPy code: the cached answer, which read them through the
    # trainer, is stale
    (pkg / "models.py").write_text("import numpy as np\n\n\ndef apply(w, x):\n"
                                   "    return np.tanh(x @ w)\n")
    again = run(*args, cwd=tmp_path)
    assert again.returncode == 0, again.stdout


BUILDS = '''\
import jax
import jax.numpy as jnp


@jax.jit
def apply(w, x):
    return jnp.tanh(x @ w)


class MLP:
    def __init__(self, width):
        self.w = jnp.ones((width, width))

    def __call__(self, x):
        return jnp.tanh(x @ self.w)


def build(width):
    return MLP(width)
'''

CALLS_BUILT = '''\
import time

import numpy as np

from proj.builds import build

x = np.ones((8, 8), dtype=np.float32)
start = time.perf_counter()
data = np.stack([x, x])
print("data", time.perf_counter() - start)
model = build(8)
model(x)
start = time.perf_counter()
y = model(x)
print("forward", time.perf_counter() - start)
start = time.perf_counter()
y = model(x).block_until_ready()
print("forward, waited for", time.perf_counter() - start)
'''


def test_what_the_projects_jax_code_builds_computes_on_numpy_arrays(tmp_path: Path) -> None:
    """``build(8)`` of the project's JAX code gives back a model, whose call on a NumPy
    array computes as it does on a JAX one (as a JAX library's object does); also when the
    build is looked up in the project index (made while an earlier region's reading is
    held), which gives back what the model holds."""
    _package(tmp_path, "proj", builds=BUILDS, run=CALLS_BUILT)
    found, lint = _lint(tmp_path, "proj/run.py", "proj/")
    assert lint.returncode == 1, lint.stderr
    assert found == [["proj/run.py:15:18:", "JAX101"]], lint.stdout


STAR_CORE = '''\
import jax
import jax.numpy as jnp


@jax.jit
def _step(x):
    return jnp.sin(x) @ x


def solve(x, n=10):
    for _ in range(n):
        x = _step(x)
    return x
'''

STAR_SCRIPT = '''\
import time

import numpy as np
from {source} import *

x = np.ones((64, 64), dtype=np.float32)
solve(x)
start = time.perf_counter()
y = solve(x)
print("solve", time.perf_counter() - start)
start = time.perf_counter()
y = solve(x).block_until_ready()
print("solve, waited for", time.perf_counter() - start)
'''


@pytest.mark.parametrize(("source", "extra", "found"), [
    ("proj.core", {}, True),
    # a package re-exporting its module's function
    ("proj", {"__init__": "from .core import solve\n"}, True),
    # a package star-importing its module
    ("proj", {"__init__": "from .core import *\n"}, True),
    # ``__all__`` leaves it out: the star import does not bind it
    ("proj.core", {"core": STAR_CORE + "\n__all__ = ['_step']\n"}, False),
    # a later star import binds the name to the host's function
    ("proj.core import *\nfrom proj.host", {
        "host": "import numpy as np\n\n\ndef solve(x):\n    return np.sin(x) @ x\n"}, False),
])
def test_a_star_import_of_the_projects_module_binds_its_names(
        tmp_path: Path, source: str, extra: dict[str, str], found: bool) -> None:
    """``from proj.core import *`` binds ``solve`` as Python does: the last star import
    whose module binds the name (``__all__`` when the module spells one) gives it."""
    modules = {"core": STAR_CORE, **extra,
               "bench": STAR_SCRIPT.format(source=source)}
    _package(tmp_path, "proj", **modules)
    lines, lint = _lint(tmp_path, "proj/bench.py", "proj/")
    assert lines == ([["proj/bench.py:10:16:", "JAX101"]] if found else []), lint.stdout


def test_a_name_a_star_imported_module_imports_is_what_it_imports(tmp_path: Path) -> None:
    """``transformer.py`` says ``from timer import timer`` (a package the checkout does not
    hold) beside its JAX code; ``from transformer import *`` gives the script that
    ``timer``, not a function of the project's JAX code: entering it computes nothing."""
    _package(tmp_path, "proj", core=STAR_CORE + "\nfrom timer import timer\n", bench=(
        "import time\n\nimport numpy as np\nfrom proj.core import *\n\n"
        "x = np.ones((8, 8), dtype=np.float32)\nsolve(x).block_until_ready()\n"
        "start = time.perf_counter()\nwith timer(\"sample\"):\n"
        "    y = solve(x).block_until_ready()\nprint(\"took\", time.perf_counter() - start)\n"))
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj/bench.py", cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout


ADVANTAGES = '''\
import numpy as np

from proj.model import forward


def normalise(rewards, eps=1e-4):
    return (rewards - rewards.mean()) / (rewards.std() + eps)


def score(x):
    return forward(x)
'''

GRPO_STEP = '''\
import time

import jax
import jax.numpy as jnp

from proj.advantages import normalise
from proj.data import load_rewards

rewards = load_rewards()
start = time.perf_counter()
advantages = normalise(rewards)
print("advantages (NumPy)", time.perf_counter() - start)

rewards_jax = jnp.asarray(rewards)
start = time.perf_counter()
advantages = normalise(rewards_jax)
print("advantages (JAX)", time.perf_counter() - start)
'''


def test_a_helper_of_a_module_that_imports_no_jax_computes_only_on_jax_values(
        tmp_path: Path) -> None:
    """``advantages.py`` imports NumPy and the project's JAX model, not JAX: its
    ``normalise`` does JAX work only through operators on JAX values it is given (README,
    "what makes a module JAX"). A JAX module that gives it what an unknown function
    returned (rewards loaded as NumPy) gets no JAX work from it (mllm-jax's GRPO runner
    times its NumPy advantages so); given a JAX array, its operators dispatch."""
    _package(tmp_path, "proj", advantages=ADVANTAGES, step=GRPO_STEP,
             data="def load_rewards():\n    return None\n",
             model="import jax\n\nforward = jax.jit(lambda a: a @ a)\n")
    found, lint = _lint(tmp_path, "proj/step.py")
    assert found == [["proj/step.py:17:27:", "JAX101"]], lint.stdout


JIT_METHOD_RUNNER = '''\
from functools import partial

import jax
import jax.numpy as jnp


class Runner:
    def __init__(self, n):
        self.n = n

    def reset(self, rng):
        return jax.random.normal(rng, (self.n, self.n))

    @partial(jax.jit, static_argnums=(0,))
    def run(self, x):
        y = jnp.tanh(x @ x)
        print("tracing run:", y)
        return y
'''

JIT_METHOD_MAIN = '''\
import time

import jax

from proj.runner import Runner

runner = Runner(256)
x = runner.reset(jax.random.PRNGKey(0))
runner.run(x).block_until_ready()
t0 = time.time()
y = runner.run(x)
print(time.time() - t0)
'''


def test_a_jitted_method_of_another_module_is_jitted(tmp_path: Path) -> None:
    """``Runner.run`` is decorated ``@partial(jax.jit, static_argnums=(0,))`` in a module
    that imports ``partial`` and ``jax`` at its top: the class body reads those names from
    the module (minimax's ``PAIREDRunner.run``). Its body's ``print`` runs once, while
    tracing: a call returns with the work running, not after printing it."""
    _package(tmp_path, "proj", runner=JIT_METHOD_RUNNER, main=JIT_METHOD_MAIN)
    found, lint = _lint(tmp_path, "proj/main.py")
    assert found == [["proj/main.py:12:7:", "JAX101"]], lint.stdout


SERVE_ENGINE = '''\
import jax


class Engine:
    def __init__(self, model, params, top_k=3, backend=None):
        self.backend = backend
        self.params = params
        self.top_k = top_k
        self.served = 0
        self._logits = jax.jit(model.apply)

    def submit(self, tokens):
        return self._logits(self.params, tokens)

    def run_sync(self, tokens):
        return jax.block_until_ready(self._logits(self.params, tokens))

    def run_and_postprocess(self, tokens):
        logits = self._logits(self.params, tokens)
        logits.block_until_ready()
        probs = jax.nn.softmax(logits, axis=-1)
        return jax.lax.top_k(probs, self.top_k)

    def count(self, tokens):
        self.served += len(tokens)
        return self.served

    def delegate(self, tokens):
        logits = self._logits(self.params, tokens)
        return self.backend.decode(logits)
'''

SERVE_RUN = '''\
import time

import numpy as np

from serve.engine import Engine
from serve.model import load


def main(n=100):
    model, params = load()
    engine = Engine(model, params)
    requests = [np.ones((8, 128), np.int32) * i for i in range(n)]
    for tokens in requests:
        start = time.perf_counter()
        out = engine.METHOD(tokens)
        print(f"{(time.perf_counter() - start) * 1e3:.2f} ms", out)
'''

SERVE_MODEL = '''\
import flax.linen as nn
import jax
import jax.numpy as jnp


class Classifier(nn.Module):
    @nn.compact
    def __call__(self, tokens):
        return nn.Dense(20)(nn.Embed(30_000, 64)(tokens).mean(1))


def load(seq_len=128):
    model = Classifier()
    return model, model.init(jax.random.PRNGKey(0), jnp.ones((1, seq_len), jnp.int32))
'''


@pytest.mark.parametrize(("method", "expected"), [
    ("submit", "JAX101"), ("run_and_postprocess", "JAX101"), ("run_sync", ""),
    ("count", ""), ("delegate", "")])
def test_a_method_of_a_class_of_another_module_sees_what_its_constructor_stored(
        tmp_path: Path, method: str, expected: str) -> None:
    """``engine = Engine(model, params)`` of the project's own class, then
    ``engine.submit(tokens)`` timed per request: ``submit`` calls the jitted function the
    constructor stored (``self._logits = jax.jit(model.apply)``) and returns at once, so
    the request's time is the dispatch (JAX101, as for a class of the same file). A method
    that waits and then dispatches more (``run_and_postprocess``'s softmax and top-k) is no
    sync either; one that waits for what it returns (``run_sync``), or only counts on the
    host (``count``), leaves nothing running. The script itself never imports jax: the
    jitted function is the project's, reached through the class. A method that hands its
    result to an object the constructor was given (``self.backend.decode(logits)``, which
    may read the tokens to the host) is not known to leave work: nothing is said."""
    (tmp_path / "run.py").write_text(SERVE_RUN.replace("METHOD", method))
    _package(tmp_path, "serve", engine=SERVE_ENGINE, model=SERVE_MODEL)
    found, lint = _lint(tmp_path, "run.py")
    if not expected:
        assert lint.returncode == 0, lint.stdout + lint.stderr
        return
    assert found == [["run.py:16:19:", expected]], lint.stdout + lint.stderr


DECODE = '''\
import jax
import jax.numpy as jnp


@jax.jit
def _step(logits):
    return jnp.tanh(logits) * 2.0


def generate(logits, n):
    tokens = []
    for _ in range(n):
        logits = _step(logits)
        tokens.append(int(jnp.argmax(logits)))
    return tokens


def generate_lazy(logits, n):
    tokens = []
    for _ in range(n):
        logits = _step(logits)
        tokens.append(jnp.argmax(logits))
    jax.block_until_ready(tokens)
    return tokens
'''

DECODE_RUN = '''\
import time

import jax.numpy as jnp

from gen.decode import FUNCTION

logits = jnp.ones((32_000,))
FUNCTION(logits, 2)
start = time.perf_counter()
tokens = FUNCTION(logits, 64)
last = tokens[-1] * 1
elapsed = time.perf_counter() - start
print(f"{len(tokens) / elapsed:.1f} tokens/s, last {last}")
'''


@pytest.mark.parametrize(("function", "expected"), [("generate", ""),
                                                     ("generate_lazy", "JAX101")])
def test_what_a_helper_that_waits_returns_is_a_jax_value_only_if_it_returns_one(
        tmp_path: Path, function: str, expected: str) -> None:
    """``generate`` of another module waits for its work and returns host ints (each token
    read with ``int(...)``): arithmetic on what it returned (``tokens[-1] * 1``) is Python's,
    no device work, and the region is synced. ``generate_lazy`` waits too but returns the
    tokens as JAX arrays: arithmetic on one is device work dispatched after the wait, and
    still running when the clock is read."""
    (tmp_path / "run.py").write_text(DECODE_RUN.replace("FUNCTION", function))
    _package(tmp_path, "gen", decode=DECODE)
    found, lint = _lint(tmp_path, "run.py")
    if not expected:
        assert lint.returncode == 0, lint.stdout + lint.stderr
        return
    assert found == [["run.py:12:11:", expected]], lint.stdout + lint.stderr


BUFFER = '''\
import jax.numpy as jnp
import numpy as np


class ReplayBuffer:
    def __init__(self, obs_dim, max_size=100_000):
        self.ptr = 0
        self.max_size = max_size
        self.observations = np.zeros((max_size, obs_dim), dtype=np.float32)
        self.discounts = np.zeros(max_size, dtype=np.float32)

    def add(self, observation, done):
        self.observations[self.ptr] = observation
        self.discounts[self.ptr] = 1 - done
        self.ptr = (self.ptr + 1) % self.max_size


class RunningMean:
    def __init__(self, dim):
        self.mean = jnp.zeros(dim)

    def add(self, observation, done):
        self.mean = self.mean * 0.99 + 0.01 * jnp.asarray(observation)
'''

BUFFER_RUN = '''\
import time

import gym
import jax

from rl.buffer import ReplayBuffer, RunningMean

print(jax.devices())

env = gym.make("CartPole-v1")
buffer = BUFFER(4)
obs = env.reset()
start = time.time()
for t in range(1000):
    obs, reward, done, _ = env.step(env.action_space.sample())
    buffer.add(obs, float(done))
print(f"fps: {1000 / (time.time() - start):.1f}")
'''


@pytest.mark.parametrize(("klass", "expected"), [("ReplayBuffer", ""),
                                                 ("RunningMean", "JAX101")])
def test_a_method_that_only_operates_on_its_arguments_does_no_jax_work_given_none(
        tmp_path: Path, klass: str, expected: str) -> None:
    """A replay buffer of another module whose ``add`` only stores what it is given in
    NumPy arrays (and computes ``1 - done``): given what the environment returned, in a
    script that imports jax, it does no JAX work, as a library's method given nothing JAX
    made. A running mean whose ``add`` computes on a JAX array its constructor made works
    whatever it is given, and the region leaves that running."""
    (tmp_path / "run.py").write_text(BUFFER_RUN.replace("BUFFER", klass))
    _package(tmp_path, "rl", buffer=BUFFER)
    found, lint = _lint(tmp_path, "run.py")
    if not expected:
        assert lint.returncode == 0, lint.stdout + lint.stderr
        return
    assert [code for _, code in found] == [expected], lint.stdout + lint.stderr


HOST_HELPERS = '''\
"""Host-side helpers: NumPy only."""
import numpy as np


def summarize(x):
    arr = np.asarray(x)
    return {"mean": float(arr.mean()), "max": float(arr.max())}


def describe(x):
    return {"shape": x.shape, "dtype": str(x.dtype)}
'''

HOST_BENCH = '''\
import time

import jax
import jax.numpy as jnp

from proj.host import describe, summarize

attention = jax.jit(lambda q: jax.nn.softmax(q @ q.T) @ q)


def bench(q):
    attention(q).block_until_ready()
    t0 = time.monotonic()
    out = attention(q)
    stats = summarize(out)
    t1 = time.monotonic()
    t2 = time.monotonic()
    out = attention(q)
    info = describe(out)
    t3 = time.monotonic()
    return t1 - t0, t3 - t2, stats, info
'''


def test_a_host_helper_of_a_module_that_never_names_jax_copies_what_it_is_given(
        tmp_path: Path) -> None:
    """``host.py`` never names jax, yet what its functions do to a JAX array given to them
    is theirs to tell (README, "what makes a module JAX"): ``summarize`` copies it to the
    host (np.asarray), so the region is synced through a copy, JAX104, not unfinished;
    ``describe`` reads only its shape and dtype, which wait for nothing: JAX101."""
    _package(tmp_path, "proj", host=HOST_HELPERS, bench=HOST_BENCH)
    found, lint = _lint(tmp_path, "proj/bench.py")
    assert found == [["proj/bench.py:16:10:", "JAX104"],
                     ["proj/bench.py:20:10:", "JAX101"]], lint.stdout
    # and the host module itself, which no JAX value reaches when linted alone, is clean
    found, lint = _lint(tmp_path, "proj/host.py")
    assert found == [], lint.stdout


HOST_METRICS = '''\
"""Evaluation metrics: NumPy only."""
import numpy as np


def _centers(breaks):
    step = breaks[1] - breaks[0]
    return (np.asarray(breaks + step / 2), np.asarray(breaks[-1] + step))


def max_error(breaks):
    centers, top = _centers(breaks)
    return top


def recall(dist, ids):
    ranks = dist.argsort(axis=1)
    ids = np.array(ids)

    def recall_at(k):
        return (ids[ranks[:, :k]] == np.arange(len(ranks))[:, None]).any(axis=1).mean()

    return {f"R@{k}": recall_at(k) for k in (1, 5)}
'''

METRICS_BENCH = '''\
import time

import jax
import jax.numpy as jnp
import numpy as np

from proj import metrics

embed = jax.jit(lambda a: a @ a.T)


def evaluate(x, ids):
    breaks = embed(x)[0]
    breaks.block_until_ready()
    t0 = time.perf_counter()
    top = metrics.max_error(embed(x)[0])
    scaled = 0.8 * top
    print("max error", time.perf_counter() - t0)
    similarities = np.asarray(embed(x))
    t0 = time.perf_counter()
    scores = metrics.recall(-similarities, ids)
    print("recall", time.perf_counter() - t0)
    return scaled, scores
'''


def test_what_a_numpy_helper_gives_back_is_the_hosts(tmp_path: Path) -> None:
    """A NumPy helper of another module (never naming jax) that copies what it is given
    returns host values, also through a tuple it unpacks (``centers, top = ...``): the
    first region waits by that copy (JAX104), and arithmetic on what came back is no
    device work. Given NumPy arrays only (``-similarities``), its operations are NumPy's,
    in a JAX module too, and a nested function's summary for JAX values (``recall_at``
    closing over ``ranks``) is not reused for host ones: the second region has no
    finding."""
    _package(tmp_path, "proj", metrics=HOST_METRICS, bench=METRICS_BENCH)
    found, lint = _lint(tmp_path, "proj/bench.py")
    assert found == [["proj/bench.py:18:24:", "JAX104"]], lint.stdout


def test_a_jax_modules_helper_handed_numpy_arrays_does_no_jax_work(tmp_path: Path) -> None:
    """The same metrics in a module that imports jax: its ``recall`` only operates on what
    it is given, and handed NumPy arrays (``-similarities``, an operator on a NumPy array
    being NumPy's) and no JAX value it does no JAX work, though its module is JAX code."""
    _package(tmp_path, "proj", metrics="import jax\n" + HOST_METRICS, bench=METRICS_BENCH)
    found, lint = _lint(tmp_path, "proj/bench.py")
    assert [line for line in found if line[0].startswith("proj/bench.py:22:")] == [], (
        lint.stdout)


STAR_COMMON = '''\
import time

import jax
import jax.numpy as jnp
import numpy as np
'''

STAR_RUN = '''\
from common import *

x = jnp.ones((256, 256))
step = jax.jit(lambda a: a @ a)
step(x).block_until_ready()
t0 = time.time()
y = step(x)
print("step", time.time() - t0)
'''


def test_a_clock_that_a_star_import_brings_is_read(tmp_path: Path) -> None:
    """A script that gets ``time`` (and jax) from ``from common import *`` spells no import
    of a clock: the prefilter passed it over, so its unsynced region was never judged."""
    (tmp_path / "common.py").write_text(STAR_COMMON)
    (tmp_path / "run.py").write_text(STAR_RUN)
    found, lint = _lint(tmp_path, "run.py")
    assert found == [["run.py:8:15:", "JAX101"]], lint.stdout
    # (without the project index nothing tells what the star import binds)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "--no-index", "run.py",
               cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout
