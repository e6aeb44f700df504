"""JAX105 for a benchmark harness whose figure holds its first run, when that run is the
first call of a jitted function: ``timeit.timeit`` sums its runs, ``timeit.repeat`` keeps
each repeat, ``%timeit -n`` makes no calibration runs, pytest-benchmark's ``pedantic``
has no warm-up rounds. The best repeat, a calibrated harness, a warm-up, or a figure named
for the compile leave it out; a figure of one cold run speaks only where the code measures
speed."""

from __future__ import annotations

import textwrap

import pytest

from jaxlint import lint_source

HEAD = """\
import timeit

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((256, 256))
"""


def _codes(body: str, path: str = "example.py") -> list[tuple[str, int]]:
    source = HEAD + textwrap.dedent(body)
    return sorted((f.code, f.line) for f in lint_source(source, path))


LINE = HEAD.count("\n") + 1  # the body's first line


@pytest.mark.parametrize("body", [
    "t = timeit.timeit(lambda: f(x).block_until_ready(), number=10)\n",
    "t = timeit.timeit('f(x).block_until_ready()', globals=globals(), number=10)\n",
    "t = timeit.Timer(lambda: f(x).block_until_ready()).timeit(10)\n",
    "times = timeit.repeat(lambda: f(x).block_until_ready(), number=10, repeat=3)\n"
    "print(sum(times) / len(times))\n",
    "t = timeit.timeit(lambda: f(x).block_until_ready())\n",  # the default: a million runs
    "t = timeit.repeat(lambda: f(x).block_until_ready(), number=1)\n",  # five repeats
])
def test_a_figure_holding_the_first_run_reports_its_compile(body: str) -> None:
    assert _codes(body) == [("JAX105", LINE)]


@pytest.mark.parametrize("body", [
    # a warm-up first
    "f(x).block_until_ready()\nt = timeit.timeit(lambda: f(x).block_until_ready(), number=10)\n",
    # the setup runs it, untimed
    "t = timeit.timeit('f(x).block_until_ready()', setup='f(x).block_until_ready()',\n"
    "                  globals=globals(), number=10)\n",
    # the best repeat leaves the compile out
    "t = min(timeit.repeat(lambda: f(x).block_until_ready(), number=10, repeat=5))\n",
    "times = timeit.repeat(lambda: f(x).block_until_ready(), number=10, repeat=5)\n"
    "print(min(times))\n",
    "times = timeit.repeat(lambda: f(x).block_until_ready(), number=10, repeat=5)\n"
    "print(sum(times[1:]) / 4)\n",
    # autorange calibrates: the runs it reports come after
    "n, t = timeit.Timer(lambda: f(x).block_until_ready()).autorange()\n",
    # named for the compile
    "compile_time = timeit.timeit(lambda: f(x).block_until_ready(), number=1)\n",
    "# the first call compiles\nt = timeit.timeit(lambda: f(x).block_until_ready(), number=9)\n",
    # one cold run in an example, timed as %time would
    "t = timeit.timeit(lambda: f(x).block_until_ready(), number=1)\nprint('done in', t)\n",
])
def test_a_figure_without_the_first_runs_compile_is_clean(body: str) -> None:
    assert _codes(body) == []


def test_one_cold_run_speaks_where_the_code_measures_speed() -> None:
    body = "t = timeit.timeit(lambda: f(x).block_until_ready(), number=1)\nprint(t)\n"
    assert _codes(body, "examples/solve.py") == []
    assert _codes(body, "benchmarks/solve.py") == [("JAX105", LINE)]


def test_a_harness_warms_up_what_a_later_region_times() -> None:
    body = """\
    import time
    t = timeit.timeit(lambda: f(x).block_until_ready(), number=10)
    t0 = time.perf_counter()
    f(x).block_until_ready()
    print(f"{(time.perf_counter() - t0) * 1e3:.2f} ms")
    """
    assert _codes(body) == [("JAX105", LINE + 1)]  # the harness's, not the region's


def test_pytest_benchmark_calibrates_but_pedantic_does_not() -> None:
    # (the test makes the jitted function: one made elsewhere may have been called before)
    head = "def test_g(benchmark):\n    g = jax.jit(jnp.tanh)\n"
    assert _codes(head + "    benchmark(lambda: g(x).block_until_ready())\n",
                  "tests/test_g.py") == []
    assert _codes(head + "    benchmark.pedantic(lambda: g(x).block_until_ready(), rounds=10)\n",
                  "tests/test_g.py") == [("JAX105", LINE + 2)]
    assert _codes(head + "    benchmark.pedantic(lambda: g(x).block_until_ready(), rounds=10,"
                         " warmup_rounds=1)\n", "tests/test_g.py") == []
    # one round of one run by default: a single cold run, and a benchmark's
    assert _codes(head + "    benchmark.pedantic(lambda: g(x).block_until_ready())\n",
                  "tests/test_g.py") == [("JAX105", LINE + 2)]


def test_the_notebook_stand_in_is_the_name_the_analysis_knows() -> None:
    from jaxlint import notebook
    from jaxlint.analysis import harnesses

    assert notebook._TIMEIT == harnesses.NOTEBOOK_TIMEIT  # (one constant, in magics.py)
