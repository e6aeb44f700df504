"""JAX106 at run time: ``jaxlint verify --detect`` reports work still running when a region's
clock starts (a warm-up left unsynced) that the region then waited for, at the start read,
where the static JAX106 is.

What turns checks into findings runs in the fast tier on hand-built check records (as the
recorder writes them); what runs scripts under real JAX on the CPU backend is marked slow.
"""

from __future__ import annotations

import importlib.util
import json
from pathlib import Path
from typing import Any

import pytest
from helpers import jaxlint

from jaxlint.verify import stats
from jaxlint.verify.detect import MISSED, RUNTIME, runtime_findings, static_index
from jaxlint.verify.execute import run_script
from jaxlint.verify.live import placed

requires_jax = pytest.mark.skipif(importlib.util.find_spec("jax") is None,
                                  reason="verify runs scripts under JAX, which is not installed")

# --------------------------------------------------------------------------- records (fast)

SOURCE = """\
import time
import jax
f = jax.jit(lambda a: a @ a)
x = jax.numpy.ones((8, 8))
y = f(x)  # warm up
t0 = time.perf_counter()
y = f(x)
y.block_until_ready()
dt = time.perf_counter() - t0
"""


def _check(pending_at_start: int = 1, left: float | None = 0.05, region: float = 0.1,
           **more: Any) -> dict[str, Any]:
    """A stop's check as the recorder writes it for the region of lines 6-9 of SOURCE."""
    record: dict[str, Any] = {
        "read": 1, "line": 9, "col": 5, "start_read": 0, "start_line": 6, "pending": 0,
        "arrays": [], "work_left_s": 0.0, "check_s": 1e-5, "file": "bench.py", "outer": [],
        "pending_at_start": pending_at_start,
        "start_arrays": [[[1024, 1024], "float32", "y"]] if pending_at_start else [],
        "start_col": 5 if pending_at_start else None, "start_check_s": 2e-5,
        "region_s": region, "start_work_left_s": left if pending_at_start else 0.0,
    }
    record.update(more)
    return record


def _found(checks: list[dict[str, Any]], source: str = SOURCE, static: Any = None
           ) -> tuple[list[Any], int]:
    index = static if static is not None else (set(), set(), set())
    return runtime_findings("bench.py", checks, lambda: source, lambda: index)


def test_a_region_that_waited_for_work_pending_at_its_start_is_a_jax106() -> None:
    [finding], silenced = _found([_check()])
    assert silenced == 0
    assert (finding.code, finding.line, finding.col, finding.region) == ("JAX106", 6, 5, (6, 9))
    assert finding.message == (
        "work left running into the timed region: 1 array (float32[1024,1024] held by `y`) "
        "is still running when the clock starts (line 6) and the region waits for it too "
        "(50.00 ms of work left at the start), so its run time is counted; call "
        "jax.block_until_ready(...) on it before the start " + MISSED)
    assert (finding.explanation or "").splitlines() == [
        "At run time the clock was read at line 6 and again at line 9 (1 time, work from "
        "before the start still running at 1).",
        "Arrays made before the start, not ready when the clock started and ready by the "
        "stop: float32[1024,1024] held by `y`.",
        "That work still took 50.00 ms after the start (the first time) (50% of the region): "
        "the region waited for it (the device runs work in order, and it was done by the "
        "stop), so its run time is counted in the region.",
        "The static analysis did not report JAX106 for this region."]
    # The static JAX106 sits on the start read: then the runtime one is its confirmation.
    static = static_index([finding.__class__("JAX106", "m", 6, 5, region=(6, 9))])
    [agreed], _ = _found([_check()], static=static)
    assert agreed.message.endswith(" " + RUNTIME)
    # A static JAX101 of the same region is no JAX106: still missed.
    other = static_index([finding.__class__("JAX101", "m", 9, 5, region=(6, 9))])
    assert _found([_check()], static=other)[0][0].message.endswith(MISSED)


def test_a_region_can_have_both_findings_and_a_summary_counts_them() -> None:
    both = _check(pending=1, arrays=[[[8], "float32", "z"]], work_left_s=0.01)
    found, _ = _found([both])
    assert [(f.code, f.line) for f in found] == [("JAX106", 6), ("JAX101", 9)]
    summary = stats.at_start([[both]], 6, 9)
    assert (summary.stops, summary.pending_stops, summary.arrays) == (1, 1, 1)
    assert summary.arrays_text() == "float32[1024,1024] held by `y`"
    # A check whose start was a lap carries no start fields: not counted at all.
    lap = {k: v for k, v in _check().items() if "start" not in k or k == "start_line"}
    lap.pop("region_s")
    assert stats.at_start([[lap]], 6, 9).stops == 0 and _found([lap]) == ([], 0)


def test_nothing_when_the_start_was_synced_or_the_work_is_a_small_part() -> None:
    assert _found([_check(pending_at_start=0)]) == ([], 0)
    # under START_SHARE (10%) of the region: a warm-up before a region of many runs
    assert _found([_check(left=0.005, region=0.1)]) == ([], 0)
    # not timed (its start line was timed for another region): reported, without a figure
    [untimed], _ = _found([_check(left=None)])
    assert "(1 array (float32[1024,1024] held by `y`) is still running" not in untimed.message
    assert "too, so its run time is counted" in untimed.message


def test_a_warm_up_before_a_loop_of_timed_rounds_is_not_reported() -> None:
    # As the static rule: only the first of the rounds holds it, not what a loop reports.
    rounds = [_check()] + [_check(pending_at_start=0) for _ in range(3)]
    assert _found(rounds) == ([], 0)
    # A loop's own work running into each next round is there at most of them.
    each = [_check(pending_at_start=0)] + [_check(left=None) for _ in range(3)]
    [finding], _ = _found(each)
    assert "(4 times, work from before the start still running at 3)" in (
        finding.explanation or "")


def test_noqa_for_jax106_on_the_start_line_silences_it() -> None:
    quiet = SOURCE.replace("t0 = time.perf_counter()\n",
                           "t0 = time.perf_counter()  # noqa: JAX106\n")
    assert _found([_check()], quiet) == ([], 1)
    # JAX101's noqa on the start line is not JAX106's, nor is JAX106's on the stop line.
    other = SOURCE.replace("t0 = time.perf_counter()\n",
                           "t0 = time.perf_counter()  # noqa: JAX101\n")
    assert [f.code for f in _found([_check()], other)[0]] == ["JAX106"]
    stop = SOURCE.replace("dt = time.perf_counter() - t0\n",
                          "dt = time.perf_counter() - t0  # noqa: JAX106\n")
    assert [f.code for f in _found([_check()], stop)[0]] == ["JAX106"]


def test_a_deadline_is_not_a_measurement() -> None:
    deadline = SOURCE.replace("dt = time.perf_counter() - t0\n",
                              "dt = time.perf_counter() - t0 > 5\n")
    assert _found([_check()], deadline) == ([], 0)


def test_a_harness_check_is_placed_without_the_harness_holders() -> None:
    check = _check(file="<timeit-src>", outer=[3], outer_files=["cell.py"])
    [moved] = placed([check], {"cell.py"}.__contains__)["cell.py"]
    assert moved["start_arrays"] == [[[1024, 1024], "float32", None]]
    assert (moved["start_line"], moved["line"], moved["start_col"]) == (3, 3, None)


# --------------------------------------------------------------------------- runs (slow)

HEAD = """\
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.tanh(a @ a) @ a)
x = jnp.ones((1024, 1024)) / 1024
"""
TIMED = """\
t0 = time.perf_counter()
y = f(x)
y.block_until_ready()
dt = time.perf_counter() - t0
print(f"{dt * 1e3:.1f} ms")
"""
WARM_UP = HEAD + "y = f(x)  # warm up\n" + TIMED
WARM_UP_OK = HEAD + "jax.block_until_ready(f(x))  # warm up\n" + TIMED
WARM_UP_NOQA = WARM_UP.replace("t0 = time.perf_counter()\n",
                               "t0 = time.perf_counter()  # noqa: JAX106\n")
# The function is reached through a name chosen at run time: the linter does not follow it.
BY_NAME = (HEAD + 'fn = globals()["f"]\ny = fn(x)  # warm up\n'
           + TIMED.replace("y = f(x)", "y = fn(x)"))
ROUNDS = """\
times = []
for _ in range(ROUNDS):
    t0 = time.perf_counter()
    y = f(x)
    y.block_until_ready()
    times.append(time.perf_counter() - t0)
print(f"{min(times) * 1e3:.1f} ms")
"""
SYNCED_ROUNDS = HEAD + "jax.block_until_ready(f(x))  # warm up\n" + ROUNDS.replace(
    "ROUNDS", "3")
WARM_UP_ROUNDS = HEAD + "y = f(x)  # warm up\n" + ROUNDS.replace("ROUNDS", "4")
LAPS = HEAD + """\
jax.block_until_ready(f(x))  # warm up
t0 = time.perf_counter()
a = f(x)
t1 = time.perf_counter()
b = f(a)
t2 = time.perf_counter()
print(f"{(t1 - t0) * 1e3:.1f} ms, {(t2 - t1) * 1e3:.1f} ms")
"""


@pytest.mark.slow
@requires_jax
def test_the_start_check_finds_the_warm_up_and_times_it(tmp_path: Path) -> None:
    script = tmp_path / "warm.py"
    script.write_text(WARM_UP)
    outcome = run_script(script, lines=None, timeout=120, backend="cpu")
    assert outcome.ok, outcome.error
    (check,) = outcome.checks
    assert (check["start_line"], check["line"], check["pending"]) == (9, 12, 0)
    assert check["pending_at_start"] == 1 and check["start_col"] == 5
    assert check["start_arrays"] == [[[1024, 1024], "float32", "y"]]  # `y` at the start
    # timed from the start, at most the region's length, and most of it (two runs measured)
    assert 0 < check["start_work_left_s"] <= check["region_s"]
    assert check["start_work_left_s"] > 0.2 * check["region_s"]
    (measured,) = stats.region_durations(outcome.reads, 9, 12)
    # The recorder's own bracket of the region holds the script's: they differ by the
    # recorder's work at the reads (noting the live arrays, starting the watcher), a small
    # part of the region however loaded the machine (a fixed 10 ms bound failed in CI at
    # 10.9 ms, under the load of another run ending)
    assert measured - 1e-3 <= check["region_s"] <= 1.25 * measured
    # A measured run (roles given, as plain verify runs) does not check its starts.
    roles = run_script(script, lines={9, 12}, starts={9}, stops={12}, timeout=120,
                       backend="cpu")
    assert roles.ok and "pending_at_start" not in roles.checks[0]


@pytest.mark.slow
@requires_jax
def test_detect_reports_a_warm_up_left_running_and_not_its_twins(tmp_path: Path) -> None:
    scripts = {"warm.py": WARM_UP, "warm_ok.py": WARM_UP_OK, "warm_noqa.py": WARM_UP_NOQA,
               "by_name.py": BY_NAME, "synced_rounds.py": SYNCED_ROUNDS,
               "warm_rounds.py": WARM_UP_ROUNDS, "laps.py": LAPS}
    for name, text in scripts.items():
        (tmp_path / name).write_text(text)
    lint = jaxlint("--format", "json", str(tmp_path))
    assert sorted((Path(r["path"]).name, r["code"], r["line"]) for r in json.loads(lint.stdout)
                  ) == [("laps.py", "JAX101", 11), ("laps.py", "JAX101", 13),
                        ("warm.py", "JAX106", 9)]

    run = jaxlint("verify", "--detect", "--backend", "cpu", "--format", "json", str(tmp_path))
    assert run.returncode == 1, run.stderr
    rows = {(Path(r["path"]).name, r["code"], r["line"]): r for r in json.loads(run.stdout)}
    warm = rows.pop(("warm.py", "JAX106", 9))
    assert warm["col"] == 6 and warm["region"] == {"start": {"line": 9}, "stop": {"line": 12}}
    assert warm["message"].startswith(
        "work left running into the timed region: 1 array (float32[1024,1024] held by `y`) "
        "is still running when the clock starts (line 9) and the region waits for it too (")
    assert warm["message"].endswith(" " + RUNTIME)  # the static JAX106 is there too
    hidden = rows.pop(("by_name.py", "JAX106", 10))
    assert "held by `y`" in hidden["message"] and hidden["message"].endswith(MISSED)
    # The lap chain's work is each region's own, reported at its stop; not again as work
    # pending at the next region's start.
    assert "held by `a`" in rows.pop(("laps.py", "JAX101", 11))["message"]
    assert "held by `b`" in rows.pop(("laps.py", "JAX101", 13))["message"]
    # Nothing for the synced warm-up, the noqa, the synced rounds, and the warm-up before a
    # loop of timed rounds (only its first round holds it, as the static rule says).
    assert rows == {}
    assert ("Found 4 runtime findings (1 not reported by the static analysis) in 7 scripts; "
            "1 more silenced by # noqa") in run.stderr
