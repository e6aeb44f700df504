"""``jaxlint verify --detect``: run scripts as written once and report every timed region whose
JAX work was still running when the clock was read, whether or not the linter found it.

Every clock read in the script is instrumented (``instrument``, with no roles: each read
stops the region the previous read of the same frame started, and starts the next), so no
static finding is needed to know where the regions are.  A region whose stop saw arrays made
since its start still computing becomes a JAX101 finding at the stop read's position, with
``[runtime]`` at the end of its message; the ones the static analysis did not report there say
so.  A region whose start (a read that stops nothing: a call's first, or a loop's going
round) found arrays made before it still computing, that were ready by the stop (the
region waited for them), becomes a JAX106 finding at the start read's position, where the
static JAX106 is; when that work is a small part of the figure (``START_SHARE``) or was
there at fewer than half of the region's occurrences (a warm-up before a loop of timed
rounds), it is not reported, as the static rule does not report it.  A region can have both.
The findings are printed by the linter's own renderer, so every ``--format`` works.
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
START_CODE = "JAX106"
# The static rule's words, with what the run saw in place of the calls it names.
START_MESSAGE = ("work left running into the timed region: {count} {noun} ({arrays}) {verb} "
                 "still running when the clock starts (line {start}) and the region waits for "
                 "{them} too{left}, so {their} run time is counted; call "
                 "jax.block_until_ready(...) on {them} before the start {tag}")
# Work left at the start under this share of the region's time is a small part of the
# figure (a warm-up before a region that runs the function many times): the static rule
# does not report it either.
START_SHARE = 0.1

# The static analysis of a file: its findings' regions, their lines, and (code, line) pairs.
Static = tuple[set[tuple[int, int]], set[int], set[tuple[str, int]]]


@dataclass
class Detected:
    """What ``--detect`` found: findings, and one error line per script that could not run."""

    findings: list[Finding] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    ran: list[str] = field(default_factory=list)
    check_s: list[float] = field(default_factory=list)  # every read's check cost, all scripts
    suppressed: int = 0  # runtime findings silenced by a noqa comment for their code


def static_index(findings: Iterable[Finding]) -> Static:
    """What ``runtime_findings`` asks of the static findings of one file."""
    found = list(findings)
    return ({f.region for f in found if f.region is not None}, {f.line for f in found},
            {(f.code, f.line) for f in found})


def _static_regions(path: Path, display: str) -> Static:
    """The regions and reported lines (and codes) of the linter's findings for the file."""
    from jaxlint import lint_source

    try:
        findings = lint_source(path.read_bytes(), display)
    except Exception:  # a file the linter cannot read is still run: report it all as missed
        return set(), set(), set()
    return static_index(findings)


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


def _finding(display: str, checks: list[dict[str, Any]], static: Static) -> Finding:
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


def _started(checks: list[dict[str, Any]]) -> bool:
    """Whether a region's start found work running that the region waited for, and it
    matters to the figure (the module docstring): at half its checked starts or more, and
    the work left at the start (where it was timed) at least ``START_SHARE`` of the
    region."""
    checked = [c for c in checks if "pending_at_start" in c]
    found = [c for c in checked if c.get("pending_at_start")]
    if not found or 2 * len(found) < len(checked):
        return False
    timed = [c for c in found if c.get("start_work_left_s") is not None
             and float(c.get("region_s") or 0) > 0]
    return not timed or max(float(c["start_work_left_s"]) / float(c["region_s"])
                            for c in timed) >= START_SHARE


def _start_finding(display: str, checks: list[dict[str, Any]], static: Static) -> Finding:
    found = [c for c in checks if c.get("pending_at_start")]
    first = found[0]
    start, stop = int(first["start_line"]), int(first["line"])
    summary = stats.at_start([checks], start, stop)
    outer = {int(n) for c in checks for n in c.get("outer") or ()}
    reported = {line for code, line in static[2] if code == START_CODE}
    missed = start not in reported and not outer & reported
    one = summary.arrays == 1
    left = summary.work_left_s
    timed = [c for c in found if c.get("start_work_left_s") is not None and c.get("region_s")]
    share = (f" ({float(timed[0]['start_work_left_s']) / float(timed[0]['region_s']):.0%} "
             "of the region)") if timed else ""
    left_text = f"{left * 1e3:.2f} ms" if left is not None else ""
    message = START_MESSAGE.format(
        count=summary.arrays, noun="array" if one else "arrays", arrays=summary.arrays_text(),
        verb="is" if one else "are", start=start, them="it" if one else "them",
        their="its" if one else "their",
        left=f" ({left_text} of work left at the start)" if left is not None else "",
        tag=MISSED if missed else RUNTIME)
    occurrences = summary.stops
    explanation = "\n".join([
        f"At run time the clock was read at line {start} and again at line {stop} "
        f"({occurrences} time{'s' if occurrences != 1 else ''}, work from before the start "
        f"still running at {summary.pending_stops}).",
        "Arrays made before the start, not ready when the clock started and ready by the "
        f"stop: {summary.arrays_text()}.",
        (f"That work still took {left_text} after the start (the first time){share}: "
         if left is not None else "That work was not timed: ")
        + "the region waited for it (the device runs work in order, and it was done by the "
        "stop), so its run time is counted in the region.",
        "The static analysis " + ("did not report JAX106 for this region." if missed
                                  else "reports this region too."),
    ])
    return Finding(START_CODE, message, start, int(first.get("start_col") or 0),
                   region=(start, stop), path=display, explanation=explanation)


def runtime_findings(display: str, checks: Iterable[dict[str, Any]], source: Callable[[], str],
                     static: Callable[[], Static]) -> tuple[list[Finding], int]:
    """One file's runtime findings from its checks (``TimerRecorder.checks``): per region
    (start line, stop line), a JAX101 when work was still running at one of its stops and a
    JAX106 when its start found earlier work running that it waited for (``_started``),
    less those a noqa comment silences (counted apart) and deadlines. ``source`` gives the
    file's text and ``static`` the linter's regions, lines and codes for it, asked for only
    when something is pending."""
    by_region: dict[tuple[int, int], list[dict[str, Any]]] = {}
    for check in checks:
        by_region.setdefault((int(check["start_line"]), int(check["line"])), []).append(check)
    pending = {k: v for k, v in by_region.items() if any(c.get("pending") for c in v)}
    started = {k: v for k, v in by_region.items() if _started(v)}
    if not pending and not started:
        return [], 0
    # A noqa comment silences a runtime finding as it does a static one: on the stop's line
    # for JAX101, on the start's for JAX106, where the linter reports them.
    text = source()
    if file_is_skipped(text.splitlines()):
        return [], len(pending) + len(started)
    noqa = NoqaIndex(text)
    silenced = 0
    for found, code, at in ((pending, CODE, 1), (started, START_CODE, 0)):
        for key in [k for k in found if noqa.suppresses(k[at], code)]:
            del found[key]
            silenced += 1
    deadlines = _compared_reads(text)
    for key in [k for k, v in pending.items() if (k[1], v[0].get("col")) in deadlines]:
        del pending[key]  # a deadline or a time budget, not a measurement
    for key in [k for k, v in started.items() if (k[1], v[0].get("col")) in deadlines
                or any((k[0], c.get("start_col")) in deadlines for c in v)]:
        del started[key]
    if not pending and not started:
        return [], silenced
    regions = static()
    out = [_finding(display, group, regions) for group in pending.values()]
    out += [_start_finding(display, group, regions) for group in started.values()]
    return sorted(out, key=lambda f: (f.line, f.col, f.code)), silenced


def detect_paths(paths: Iterable[str | Path], *, timeout: float, backend: str | None = None,
                 on_file: Callable[[int, int, str], None] | None = None,
                 size: int | None = None) -> Detected:
    """Run each script once as written; a finding per region with pending work at a stop, and
    one per region whose start found earlier work running (``runtime_findings``).

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
