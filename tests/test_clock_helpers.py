"""A script's own clock helper (``def now(): return time.perf_counter()``) is a clock read
where it is called, at either end of a region (README, "Timers of the code's own")."""

from __future__ import annotations

import pytest

from jaxlint import lint_source

SCRIPT = """\
import time

import jax

step = jax.jit(lambda w: w * 0.5 + 1.0)


{helper}


def bench(w):
    w = step(w).block_until_ready()
    t0 = {start}
    w = step(w)
    {wait}
    elapsed = {stop}
    print(f"{{elapsed * 1e3:.3f}} ms per step")
"""

NOW = "def now():\n    return time.perf_counter()"


def codes(source: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_source(source, "bench.py")]


@pytest.mark.parametrize(("start", "stop"), [
    ("now()", "now() - t0"),
    ("time.perf_counter()", "now() - t0"),
    ("now()", "time.perf_counter() - t0"),
])
def test_a_helper_read_at_either_end_times_the_step(start: str, stop: str) -> None:
    source = SCRIPT.format(helper=NOW, start=start, stop=stop, wait="pass")
    assert codes(source) == [("JAX101", 17)]
    synced = SCRIPT.format(helper=NOW, start=start, stop=stop, wait="w.block_until_ready()")
    assert codes(synced) == []


def test_a_helper_that_waits_before_reading_is_a_sync() -> None:
    helper = ("def synced_now(x):\n"
              "    jax.block_until_ready(x)\n"
              "    return time.perf_counter()")
    source = SCRIPT.format(helper=helper, start="synced_now(w)", stop="synced_now(w) - t0",
                           wait="pass")
    assert codes(source) == []


def test_the_fix_waits_before_the_helper_reads() -> None:
    from jaxlint import fix_source

    source = SCRIPT.format(helper=NOW, start="now()", stop="now() - t0", wait="pass")
    fixed = fix_source(source, "bench.py").source
    assert "    w = step(w)\n    pass\n    jax.block_until_ready(w)\n    elapsed = now() - t0" in (
        fixed)


def test_a_lap_helper_that_adds_to_a_running_total_ends_the_region() -> None:
    # ``total + time.perf_counter() - start``: a sum of durations whose start is the
    # helper's parameter (a reading made by its caller, at a time the helper cannot order)
    helper = ("def lap(start, total):\n"
              "    return total + time.perf_counter() - start")
    source = SCRIPT.format(helper=helper, start="time.perf_counter()",
                           stop="lap(t0, 0.0)", wait="pass")
    assert codes(source) == [("JAX101", 17)]
    synced = SCRIPT.format(helper=helper, start="time.perf_counter()",
                           stop="lap(t0, 0.0)", wait="w.block_until_ready()")
    assert codes(synced) == []
