"""The analysis' cost grows linearly with the file, and a file beyond its budget is one error.

Times are compared as ratios measured in the same run (4x the input may cost at most 6x the
time), never against a fixed number: the machines are shared and noisy. The growth curve up
to N = 6,000 is measured by benchmarks/growth.py (results in benchmarks/RESULTS.md).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import ROOT, jaxlint, settled_ratio

from jaxlint import lint_source
from jaxlint.errors import SourceError

sys.path.insert(0, str(ROOT / "benchmarks"))
import growth  # noqa: E402


# Every shape at 150 -> 600, except regions with loops and branches at 600 -> 2,400: a file that
# both grows its namespace (e0, e1, ...) and branches in every region made each branch copy
# every name in scope while the states' names were dicts (6.6-6.8x at 600 -> 2,400, 11.5x at
# 1,500 -> 6,000); they are tables now (``analysis/table.py``: a copy costs what was written
# since) and joins and loop tests visit only the names written since the paths split (4.4x).
# The larger size is where a quadratic term shows: at 150 the constant costs hide it. Regions
# whose starts are all printed at the end keep every start live, and each clock read asked
# all of them (8.4x at 300 -> 1,200, 10.5x at 600 -> 2,400); a read subtracted from its start
# at once, or stored under a name only subtracted from, asks none (4.2x both). Functions
# redefined cell by cell, each called at module level, made every call set every name the
# module binds twice to its value at the call (N x N); each call now sets the names its
# function reads (``LateGlobals.reads``).
@pytest.mark.slow
@pytest.mark.parametrize(("shape", "size"), [(growth.sequential_regions, 150),
                                             (growth.named_regions, 150),
                                             (growth.named_regions_in_function, 150),
                                             (growth.pending_values, 150),
                                             (growth.timers_across_calls, 150),
                                             (growth.regions_with_branches, 600),
                                             (growth.named_regions_synced_then_printed, 300),
                                             (growth.redefined_functions, 600)],
                         ids=["sequential_regions", "named_regions",
                              "named_regions_in_function", "pending_values",
                              "timers_across_calls", "regions_with_branches",
                              "synced_then_printed", "redefined_functions"])
def test_four_times_the_code_costs_at_most_six_times_the_time(shape: Callable[[int], str],
                                                              size: int) -> None:
    ratio = settled_ratio(6, shape, size)
    assert ratio <= 6, f"{shape.__name__} ({size} -> {4 * size}): 4x the input cost " \
                       f"{ratio:.1f}x the time"


# Random programs (benchmarks/random_programs.py) mix every construct, so a change cannot be
# fitted to one shape: a cost that is linear in each shape alone but quadratic in a mix
# fails here. 300 and 1,200 statements, each of three seeds (13-15 s a seed under -n 2).
@pytest.mark.slow
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_random_programs_four_times_as_long_cost_at_most_six_times(seed: int) -> None:
    ratio = settled_ratio(6, "program", seed, 300)
    assert ratio <= 6, f"program({seed}, 300 -> 1200): 4x the input cost {ratio:.1f}x the time"


@pytest.mark.slow  # (over 5 s: the fast tier leaves it to the full suite)
def test_findings_grow_with_the_regions() -> None:
    # the cost test above is only meaningful if every region is still analysed and reported
    found = lint_source(growth.sequential_regions(600), "case.py")
    assert sum(f.code == "JAX101" for f in found) == 600
    for shape in (growth.named_regions, growth.named_regions_in_function):
        found = lint_source(shape(600), "case.py")
        assert [f.line for f in found if f.code == "JAX101"] == [
            f.line for f in found], shape.__name__
        assert len(found) == 600, shape.__name__
    found = lint_source(growth.timers_across_calls(300), "case.py")
    assert sum(f.code == "JAX101" for f in found) == 300 + 1  # each with, and bench's own


def test_budget_turns_a_file_into_one_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import jaxlint.analysis.flow as flow

    monkeypatch.setattr(flow, "MAX_STEPS", 1_000)
    with pytest.raises(SourceError, match=r"^too complex to analyse \(more than 1,000 "
                                          r"analysis steps\)$"):
        lint_source(growth.sequential_regions(100), "case.py")
    monkeypatch.setattr(flow, "MAX_STEPS", 10_000_000)
    monkeypatch.setattr(flow, "MAX_RECORDED", 50)
    with pytest.raises(SourceError, match=r"pending values at timer reads"):
        lint_source(growth.sequential_regions(100).replace(
            "f = jax.jit", "total = time.perf_counter()\nf = jax.jit"), "case.py")


def _total_around_unsynced_regions(n: int) -> str:
    """Quadratic by nature: every read may close the total region, which contains all the
    unsynced work so far. The budget stops it (benchmarks/RESULTS.md)."""
    return growth.sequential_regions(n).replace(
        "f = jax.jit", "total = time.perf_counter()\nf = jax.jit") + \
        "print(time.perf_counter() - total)\n"


@pytest.mark.slow
def test_adversarial_file_is_one_error_line_and_the_run_goes_on(tmp_path: Path) -> None:
    (tmp_path / "huge.py").write_text(_total_around_unsynced_regions(2_100))
    (tmp_path / "small.py").write_text(growth.sequential_regions(2))
    proc = jaxlint("--no-cache", "-j1", "-q", "huge.py", "small.py", cwd=tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.splitlines() == [
        "huge.py: error: too complex to analyse (more than 2,000,000 pending values at "
        "timer reads)"
    ]
    reported = [line.split(":")[0] for line in proc.stdout.splitlines()]
    assert len(reported) >= 2 and set(reported) == {"small.py"}
