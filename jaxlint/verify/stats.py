"""Turn recorded timer reads into region durations, and durations into a verdict.

Pairing: a region (start line, stop line) is measured the way the script measures it.  Each
read at the stop line, minus the most recent read at the start line before it, is one
occurrence (a loop produces many).  When start and stop are the same line (``t0 = pc(); f(x);
t1 = pc()`` on one line) consecutive reads on that line pair up instead.  A run's value for the
region is the median over its occurrences, so one slow first iteration does not dominate.

Noise rule (the verdict): with N runs of each version we have N per-run medians per version.
The fix "changes measured time" only when BOTH
  1. the two versions' ranges do not overlap: every fixed run measured more than every
     as-written run (fixed min > as-written max), or every one measured less, and
  2. the medians differ by at least ``MIN_RATIO`` (1.2x) in that same direction.
(1) is a rank test: if both versions measured the same thing, all N fixed runs landing above
all N as-written runs has probability 1 / C(2N, N) (1/252 for N=5, 1/20 for N=3; twice that
for either direction), so the run-to-run spread decides, not one sample.  (2) stops a small
but consistent shift, such as the cost of one extra ``block_until_ready`` call on a region
that was already synchronised, from being reported as a real difference.  With fewer than
``MIN_REPEATS`` runs there is no spread to compare against, so no verdict is given.

Both directions count because the rules' fixes move time both ways: JAX101's fix makes the
timer wait for the work (fixed measures more), while a fix that takes a host copy or the first
call's compilation out of the region (JAX104, JAX105) makes it measure less.  The ratio column
(fixed / as written) shows which.
"""

from __future__ import annotations

import statistics
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

Read = tuple[int, float, float]  # (line, raw timer value, divisor that makes it seconds)

MIN_RATIO = 1.2
MIN_REPEATS = 2

CHANGED = "fix changes measured time"
TOO_SMALL = "too small to tell"
TOO_FEW = "too few repeats to tell"


def _seconds(start: Read, stop: Read) -> float:
    # Subtract in the timer's own units (exact for the _ns integer forms), then convert.
    if start[2] == stop[2]:
        return (stop[1] - start[1]) / stop[2]
    return stop[1] / stop[2] - start[1] / start[2]


def region_durations(reads: Iterable[Sequence[float]], start: int, stop: int) -> list[float]:
    """Every duration the script measured for the region in one run, in seconds."""
    durations: list[float] = []
    last_start: Read | None = None
    for raw in reads:
        read: Read = (int(raw[0]), raw[1], raw[2])
        line = read[0]
        if start == stop:
            if line != start:
                continue
            if last_start is None:
                last_start = read
            else:
                durations.append(_seconds(last_start, read))
                last_start = None
            continue
        if line == stop and last_start is not None:
            durations.append(_seconds(last_start, read))
        if line == start:  # after the stop check: a lap line ends one region, starts the next
            last_start = read
    return durations


def run_value(reads: Iterable[Sequence[float]], start: int, stop: int) -> float | None:
    """The run's measurement of the region: median over occurrences, None if it never ran."""
    durations = region_durations(reads, start, stop)
    return statistics.median(durations) if durations else None


@dataclass(frozen=True)
class Spread:
    """Per-run values of one version of one region, in seconds."""

    values: tuple[float, ...]

    @property
    def median(self) -> float | None:
        return statistics.median(self.values) if self.values else None

    @property
    def low(self) -> float | None:
        return min(self.values) if self.values else None

    @property
    def high(self) -> float | None:
        return max(self.values) if self.values else None

    @property
    def relative(self) -> float | None:
        """Half the min-max range over the median: the "+-x%" shown next to a median."""
        med = self.median
        if med is None or med <= 0 or len(self.values) < 2:
            return None
        return (max(self.values) - min(self.values)) / (2 * med)


def ratio(as_written: float | None, fixed: float | None) -> float | None:
    if as_written is None or fixed is None or as_written <= 0:
        return None
    return fixed / as_written


def judge(as_written: Sequence[float], fixed: Sequence[float]) -> str:
    """The noise rule described in the module docstring."""
    if min(len(as_written), len(fixed)) < MIN_REPEATS:
        return TOO_FEW
    aw_median = statistics.median(as_written)
    fx_median = statistics.median(fixed)
    more = min(fixed) > max(as_written) and fx_median >= MIN_RATIO * aw_median
    less = max(fixed) < min(as_written) and aw_median >= MIN_RATIO * fx_median
    return CHANGED if more or less else TOO_SMALL


# Which way each rule's fix moves the measured time: JAX101-103 and JAX107 fixes make the
# timer wait for work it did not wait for (longer); JAX104 takes a host copy out of the
# region, JAX105 the first call's compilation and JAX106 the earlier work (shorter).
LONGER, SHORTER = "longer", "shorter"
EXPECTED = {"JAX101": LONGER, "JAX102": LONGER, "JAX103": LONGER,
            "JAX104": SHORTER, "JAX105": SHORTER, "JAX106": SHORTER, "JAX107": LONGER}
WRONG_WAY = "fix changes measured time, the other way than expected"

# Below this the region's time is too close to the clock's and the process's noise on a fast
# device (a synced 4096x4096 matmul is 0.5 ms on an H200) to judge, whatever the ranges say.
MIN_WORK_S = 1e-3


def judge_expected(code: str | None, as_written: Sequence[float], fixed: Sequence[float],
                   min_work: float = MIN_WORK_S) -> str:
    """``judge``, then: the direction must be the rule's (EXPECTED), and the larger median
    must be at least ``min_work`` (else "too small to tell on this device", with numbers)."""
    verdict = judge(as_written, fixed)
    if verdict == TOO_FEW:
        return verdict
    aw, fx = statistics.median(as_written), statistics.median(fixed)
    if max(aw, fx) < min_work:
        return (f"too small to tell on this device: {aw * 1e3:.3f} ms as written, "
                f"{fx * 1e3:.3f} ms fixed, under {min_work * 1e3:g} ms")
    if verdict != CHANGED:
        return verdict
    direction = LONGER if fx > aw else SHORTER
    expected = EXPECTED.get(code or "")
    if expected is not None and direction != expected:
        return WRONG_WAY
    return CHANGED


@dataclass(frozen=True)
class Pending:
    """What the runtime check saw at a region's stops over a set of runs."""

    stops: int  # stop reads checked
    pending_stops: int  # of them, with work still running
    arrays: int  # the most arrays pending at one stop
    described: tuple[tuple[tuple[int, ...], str, str | None], ...]  # (shape, dtype, holder)
    work_left_s: float | None  # median over timed pending stops of the work's time left
    check_s: float | None  # median time the check took at a stop

    @property
    def verdict(self) -> str:
        if not self.stops:
            return "not checked"
        if not self.pending_stops:
            return "synced"
        noun = "array" if self.arrays == 1 else "arrays"
        left = self.work_left_s or 0.0
        text = (f"{self.arrays} {noun} still computing at the stop "
                f"({left * 1e3:.2f} ms of work left)")
        if self.pending_stops < self.stops:
            text += f" at {self.pending_stops} of {self.stops} stops"
        return text

    def short(self) -> str:
        """The verdict in a few words, for a table cell."""
        if not self.stops:
            return "not checked"
        if not self.pending_stops:
            return "synced"
        noun = "array" if self.arrays == 1 else "arrays"
        return f"{self.arrays} {noun} pending, {(self.work_left_s or 0.0) * 1e3:.2f} ms left"

    def arrays_text(self) -> str:
        """``float32[1024,1024] held by `y```, ... for the arrays described."""
        parts = []
        for shape, dtype, holder in self.described:
            part = f"{dtype}[{','.join(map(str, shape))}]"
            parts.append(part + (f" held by `{holder}`" if holder else ""))
        more = self.arrays - len(self.described)
        return ", ".join(parts) + (f" and {more} more" if more > 0 else "")


def pending(checks_per_run: Iterable[Iterable[dict[str, object]]], start: int, stop: int
            ) -> Pending:
    """Summarise the checks made at ``stop`` against a start read on ``start``."""
    return _summary(checks_per_run, start, stop, ("pending", "arrays", "work_left_s", "check_s"),
                    every=True)


def at_start(checks_per_run: Iterable[Iterable[dict[str, object]]], start: int, stop: int
             ) -> Pending:
    """The same for the work that the region's start found running and the region waited
    for (``pending_at_start``; only the checks whose start was checked count): "stops" are
    then the region's checked starts, "pending stops" those that found such work."""
    return _summary(checks_per_run, start, stop,
                    ("pending_at_start", "start_arrays", "start_work_left_s", "start_check_s"),
                    every=False)


def _summary(checks_per_run: Iterable[Iterable[dict[str, object]]], start: int, stop: int,
             keys: tuple[str, str, str, str], every: bool) -> Pending:
    count_key, arrays_key, left_key, cost_key = keys
    stops = pending_stops = most = 0
    described: tuple[tuple[tuple[int, ...], str, str | None], ...] = ()
    left: list[float] = []
    costs: list[float] = []
    for checks in checks_per_run:
        for check in checks:
            if check.get("line") != stop or check.get("start_line") != start:
                continue
            if not every and count_key not in check:  # a start that was also a stop: unchecked
                continue
            stops += 1
            costs.append(float(check.get(cost_key) or 0.0))  # type: ignore[arg-type]
            count = int(check.get(count_key) or 0)  # type: ignore[call-overload]
            if not count:
                continue
            pending_stops += 1
            if check.get(left_key) is not None:  # timed at a region's first time only
                left.append(float(check[left_key]))  # type: ignore[arg-type]
            if count > most:
                most = count
                described = tuple(
                    (tuple(a[0]), str(a[1]), a[2])
                    for a in check.get(arrays_key) or ()  # type: ignore[attr-defined]
                )
    return Pending(stops, pending_stops, most, described,
                   statistics.median(left) if left else None,
                   statistics.median(costs) if costs else None)
