"""``pytest --jaxlint`` run by real pytest (``pytester``, in a subprocess: the plugin
instruments the process's clocks) on a real pytest-benchmark suite, JAX on its CPU backend.

Each run starts JAX in a fresh interpreter, so all but the check that the plugin is
inactive without ``--jaxlint`` are slow.
"""

from __future__ import annotations

import re

import pytest

pytest_plugins = ["pytester"]

pytest.importorskip("pytest_benchmark")

SUITE = '''\
import time

import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.tanh(x @ x)


X = jnp.ones((512, 512))
BIG = jnp.ones((1536, 1536))  # tens of ms of work on a CPU: still running at the stop
step(X).block_until_ready()
step(BIG).block_until_ready()


def test_bench_unsynced(benchmark):
    benchmark(step, BIG)


def test_bench_synced(benchmark):
    benchmark(lambda: step(BIG).block_until_ready())


def test_timed_unsynced():
    t0 = time.perf_counter()
    y = step(BIG)
    elapsed = time.perf_counter() - t0
    assert elapsed >= 0


def test_timed_synced():
    t0 = time.perf_counter()
    y = step(BIG).block_until_ready()
    elapsed = time.perf_counter() - t0
    assert elapsed >= 0
'''
# Hypothesis's pytest plugin imports hypothesis at every start (1.5 s of a pytest run's
# 2.7 s here); the suites run here do not use it.
NO_HYPOTHESIS = ["-p", "no:hypothesispytest"]
BENCH = [*NO_HYPOTHESIS, "-p", "no:cacheprovider", "--benchmark-disable-gc",
         "--benchmark-min-rounds=3", "--benchmark-max-time=0.05", "--benchmark-warmup=off", "-W",
         "default"]


@pytest.fixture
def suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> pytest.Pytester:
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    # (under ``pytest -n``, the worker's variables would tell pytest-benchmark in the
    # subprocess that it runs in a parallel session, where it disables itself)
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT", "PYTEST_XDIST_TESTRUNUID"):
        monkeypatch.delenv(name, raising=False)
    pytester.makepyfile(test_suite=SUITE)
    return pytester


def line_of(text: str) -> int:
    """The line of SUITE that ``text`` is on (its first)."""
    return next(n for n, line in enumerate(SUITE.splitlines(), 1) if text in line)


BENCH_LINE = line_of("benchmark(step, BIG)")
TIMED_LINE = line_of("elapsed = time.perf_counter() - t0")


def jaxlint_section(out: str) -> list[str]:
    """The lines of the summary's ``jaxlint`` section, up to its count line."""
    lines = out.splitlines()
    start = next(k for k, line in enumerate(lines) if re.fullmatch(r"-+ jaxlint -+", line))
    end = next(k for k in range(start, len(lines)) if lines[k].startswith("jaxlint: "))
    return lines[start + 1:end + 1]


def test_inactive_without_the_option(pytester: pytest.Pytester) -> None:
    """Registered by the entry point, it adds its option and nothing else: no section, no
    warning, and the clocks are the time module's own."""
    pytester.makepyfile(test_plain='''\
import time

def test_clock_is_untouched():
    assert not hasattr(time.perf_counter, "__wrapped__")
    t0 = time.perf_counter()
    assert time.perf_counter() >= t0
''')
    result = pytester.runpytest_subprocess(*NO_HYPOTHESIS, "-p", "no:cacheprovider", "-W",
                                           "default")
    result.assert_outcomes(passed=1)
    plugins, *rest = [line for line in result.outlines if line.startswith("plugins: ")] or [""]
    assert "jaxlint-" in plugins and not rest  # loaded through the pytest11 entry point
    assert "jaxlint" not in "\n".join(x for x in result.outlines if x != plugins).lower()
    assert "jaxlint" not in result.stderr.str().lower()
    help_text = pytester.runpytest_subprocess(*NO_HYPOTHESIS, "--help").stdout.str()
    assert "--jaxlint=[warn|error]" in help_text


@pytest.mark.slow
def test_warns_on_the_unsynced_benchmark_and_timing(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("--jaxlint", *BENCH)
    result.assert_outcomes(passed=4, warnings=2)
    out = result.stdout.str()
    section = jaxlint_section(out)
    static = [line for line in section if "[runtime" not in line and " (in " not in line]
    runtime = [line for line in section if " (in test_suite.py::" in line]
    assert static[0].startswith(f"test_suite.py:{BENCH_LINE}:5: JAX102 benchmark harness "
                                "times JAX work without waiting for it"), section
    assert static[1].startswith(f"test_suite.py:{TIMED_LINE}:15: JAX101 timer stops before "
                                "JAX work finishes: `y` is still being computed"), section
    assert len(static) == 3, section  # the two, and the count line
    assert static[2].startswith("jaxlint: 2 static findings in 1 of 1 test modules, "
                                "2 runtime findings in 2 tests; the runtime check cost ")
    assert len(runtime) == 2, section
    bench, timed = sorted(runtime)
    assert bench.startswith(f"test_suite.py:{BENCH_LINE}:")
    assert "still computing at the stop" in bench
    assert bench.endswith("[runtime] (in test_suite.py::test_bench_unsynced)"), bench
    assert timed.startswith(f"test_suite.py:{TIMED_LINE}:") and "held by `y`" in timed
    assert timed.endswith("[runtime] (in test_suite.py::test_timed_unsynced)"), timed
    # pytest's warnings summary names the test and the line of each runtime finding
    warned = out.split("warnings summary")[1].split("-- Docs:")[0]
    assert "test_suite.py::test_bench_unsynced" in warned
    assert "test_suite.py::test_timed_unsynced" in warned
    assert "_synced" not in warned
    assert warned.count("JaxlintWarning: JAX101 timer stops before JAX work finishes") == 2


@pytest.mark.slow
def test_error_mode_fails_the_unsynced_and_passes_the_synced(suite: pytest.Pytester) -> None:
    result = suite.runpytest_subprocess("--jaxlint=error", *BENCH)
    result.assert_outcomes(passed=2, failed=3)
    out = result.stdout.str()
    failed = sorted(line.split(" - ")[0] for line in out.splitlines()
                    if line.startswith("FAILED "))
    assert failed == ["FAILED test_suite.py::jaxlint", "FAILED test_suite.py::test_bench_unsynced",
                      "FAILED test_suite.py::test_timed_unsynced"], out
    assert f"test_suite.py:{BENCH_LINE}:5: JAX102 benchmark harness times JAX work" in out
    # the synced twins alone: they pass, and -k deselects the module's static item too
    passed = suite.runpytest_subprocess("--jaxlint=error", *BENCH, "-k", "synced and not "
                                        "unsynced", "-rA")
    passed.assert_outcomes(passed=2, deselected=3)
    assert "PASSED test_suite.py::test_bench_synced" in passed.stdout.str()
    assert "PASSED test_suite.py::test_timed_synced" in passed.stdout.str()
