"""``jaxlint verify --detect``: run scripts as written once and report every timed region whose
JAX work was still running when the clock was read, whether or not the linter found it.

Every clock read in the script is instrumented (``instrument``, with no roles: each read
stops the region the previous read of the same frame started, and starts the next), so no
static finding is needed to know where the regions are.  A region whose stop saw arrays made
since its start still computing becomes a JAX101 finding at the stop read's position, with
``[runtime]`` at the end of its message; the ones the static analysis did not report there say
so.  The findings are printed by the linter's own renderer, so every ``--format`` works.
"""

from __future__ import annotations

import functools
import statistics
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from jaxlint.finding import Finding
from jaxlint.noqa import NoqaIndex, file_is_skipped
from jaxlint.verify import stats
from jaxlint.verify.core import SETUP_LIKE, targets
from jaxlint.verify.execute import run_script

CODE = "JAX101"
RUNTIME = "[runtime]"
MISSED = "[runtime; the static analysis did not report it]"
MESSAGE = ("timer stops before JAX work finishes: {verdict}: {arrays}; call "
           "jax.block_until_ready(...) on them before reading the clock {tag}")


@dataclass
class Detected:
    """What ``--detect`` found: findings, and one error line per script that could not run."""

    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    check_s: list[float] = field(default_factory=list)  # every read's check cost, all scripts
    suppressed: int = 0  # runtime findings silenced by a noqa comment for JAX101


def _static_regions(path: Path, display: str) -> tuple[set[tuple[int, int]], set[int]]:
    """The regions and reported lines of the linter's timing findings for the file."""
    from jaxlint import lint_source

    try:
        findings = lint_source(path.read_bytes(), display)
    except Exception:  # a file the linter cannot read is still run: report it all as missed
        return set(), set()
    return ({f.region for f in findings if f.region is not None},
            {f.line for f in findings})


def _text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", "replace")


def _compared_reads(text: str) -> set[tuple[int, int]]:
    """(line, col) of every call inside a comparison: ``time.time() - start > timeout`` and
    ``while time.monotonic() - t0 < budget`` read the clock against a deadline; the time is
    not reported, so work still running then is not a timing mistake (the linter does not
    pair such reads either)."""
    import ast

    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return set()
    out: set[tuple[int, int]] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Compare):
            out.update((c.lineno, c.col_offset) for c in ast.walk(node)
                       if isinstance(c, ast.Call))
    return out


def _finding(display: str, checks: list[dict[str, Any]], static: tuple[set[tuple[int, int]],
             set[int]]) -> Finding:
    first = checks[0]
    start, stop = int(first["start_line"]), int(first["line"])
    summary = stats.pending([checks], start, stop)
    # The linter reports a timer helper's region where it is used (the ``with`` line), so
    # the lines the read was nested in count as where the static finding may be.
    outer = {int(n) for c in checks for n in c.get("outer") or ()}
    missed = ((start, stop) not in static[0] and stop not in static[1]
              and not outer & static[1])
    message = MESSAGE.format(verdict=summary.verdict, arrays=summary.arrays_text(),
                             tag=MISSED if missed else RUNTIME)
    occurrences = len(checks)
    explanation = "\n".join([
        f"At run time the clock was read at line {start} and again at line {stop} "
        f"({occurrences} time{'s' if occurrences != 1 else ''}, work still running at "
        f"{summary.pending_stops}).",
        f"Arrays made since the start and not ready at the stop: {summary.arrays_text()}.",
        f"Waiting for them after the stop took {(summary.work_left_s or 0) * 1e3:.2f} ms "
        "(median): the time the region did not measure.",
        "The static analysis " + ("did not report this region." if missed
                                  else "reports this region too."),
    ])
    return Finding(CODE, message, stop, int(first["col"] or 0), region=(start, stop),
                   path=display, explanation=explanation)


def runtime_findings(display: str, checks: Iterable[dict[str, Any]], source: Callable[[], str],
                     static: Callable[[], tuple[set[tuple[int, int]], set[int]]]
                     ) -> tuple[list[Finding], int]:
    """One file's runtime findings from its checks (``TimerRecorder.checks``): one per region
    (start line, stop line) with work still running at one of its stops, less those a noqa
    comment silences (counted apart) and deadlines. ``source`` gives the file's text and
    ``static`` the linter's regions and lines for it, asked for only when something is
    pending."""
    by_region: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for check in checks:
        by_region.setdefault((int(check["start_line"]), int(check["line"])), []).append(check)
    pending = {k: v for k, v in by_region.items() if any(c.get("pending") for c in v)}
    if not pending:
        return [], 0
    # A noqa comment on the stop's line silences a runtime finding as it does a static one.
    text = source()
    if file_is_skipped(text.splitlines()):
        return [], len(pending)
    noqa = NoqaIndex(text)
    silenced = 0
    for key in [k for k in pending if noqa.suppresses(k[1], CODE)]:
        del pending[key]
        silenced += 1
    deadlines = _compared_reads(text)
    for key in [k for k, v in pending.items() if (k[1], v[0].get("col")) in deadlines]:
        del pending[key]  # a deadline or a time budget, not a measurement
    if not pending:
        return [], silenced
    regions = static()
    return [_finding(display, group, regions) for group in pending.values()], silenced


def detect_paths(paths: Iterable[str | Path], *, timeout: float, backend: str | None = None,
                 on_file: Callable[[int, int, str], None] | None = None,
                 size: int | None = None) -> Detected:
    """Run each script once as written; one finding per region with pending work at a stop.

    Folders are searched as verify searches them, and every script found runs (the point is
    to find what the static analysis did not), except setup.py-like files.
    This executes the scripts: call it only on code you mean to run.
    """
    out = Detected()
    files = [(p, named) for p, named in targets(paths) if p.name not in SETUP_LIKE]
    for index, (path, _named) in enumerate(files, start=1):
        display = str(path)
        if on_file is not None:
            on_file(index, len(files), display)
        out.ran.append(display)
        outcome = run_script(path, lines=None, timeout=timeout, backend=backend, size=size)
        out.check_s.extend(outcome.costs)
        if not outcome.ok:
            out.errors.append(f"{display}: error: the script failed: {outcome.error}")
        found, silenced = runtime_findings(display, outcome.checks,
                                           functools.partial(_text, path),
                                           functools.partial(_static_regions, path, display))
        out.findings.extend(found)
        out.suppressed += silenced
    return out


def summary(detected: Detected) -> str:
    n = len(detected.findings)
    missed = sum(f.message.endswith(MISSED) for f in detected.findings)
    noun = "finding" if n == 1 else "findings"
    cost = (f"; the check cost {statistics.median(detected.check_s) * 1e6:.0f} us per clock "
            "read (median)") if detected.check_s else ""
    quiet = (f"; {detected.suppressed} more silenced by # noqa" if detected.suppressed else "")
    return (f"Found {n} runtime {noun} ({missed} not reported by the static analysis) in "
            f"{len(detected.ran)} script{'s' if len(detected.ran) != 1 else ''}{quiet}{cost}.")
