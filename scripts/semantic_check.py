#!/usr/bin/env python3
"""Check jaxlint's verdicts against what JAX does when the code runs.

Labels say what a person thinks a timing does; this script asks JAX. Each case is a short
program (``tests/semantic/<question>/*.py``) with one timed region whose stop read carries
the comment ``# semantic: stop``; its findings are those at the region's lines, or from
``t0 = time.perf_counter()`` (the case's timed code, where a timer object or helper
defined above is used) to ``# semantic: reference``. The folder names the question:

- ``waits``: is all the region's JAX work finished when the clock is read? The case is run
  and, at the stop read, every live array is asked ``is_ready()`` (the clock is wrapped so
  that it looks after reading the time); the region's time ``dt`` is also compared with
  ``ref``, the same work waited for, which the case measures after the region. It waited
  when no array is pending and ``dt >= 0.5 * ref``; it did not when an array is pending or
  ``dt < 0.2 * ref`` (work whose arrays are gone is seen by the time alone). jaxlint says
  it did not wait when it reports JAX101, JAX102, JAX103 or JAX107 for the region (JAX104,
  a sync through a host copy, waits).
- ``compiles``: does the region compile? JAX's own monitoring events
  (``/jax/core/compile/backend_compile_duration``) are counted between ``t0`` and
  ``t0 + dt``. jaxlint says so when it reports JAX105 for the region.

A case where jaxlint is known to differ says why on a line ``# semantic: differs: WHY``
(a gap not closed yet) or ``# semantic: by policy: WHY`` (a verdict jaxlint gives on
purpose, as a policy in the README's "How it works" says). Such a case must still differ:
when it starts to agree, the marker is stale and the check fails, so that it is removed.

Cases run one process each, ``--jobs`` at a time, on whatever device JAX picks (set
``JAX_PLATFORMS=cpu`` to force the CPU). A case whose measurement is unclear, or that
disagrees, is run once more alone before it counts, as these machines are shared.

To check on an accelerator machine that has JAX but not jaxlint, measure there and compare
here: ``--measure-only OUT.json`` runs the cases and writes what JAX did (no jaxlint run);
``--measured OUT.json`` reads that instead of running them.

Usage: python scripts/semantic_check.py [PATH ...] [--jobs N] [--write FILE]
       [--measure-only OUT.json | --measured OUT.json]
Exit status: 0 when every case agrees (or differs as its marker says), 1 when not, 2 on
errors (a case that fails to run, a case without a stop marker).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "semantic"
QUESTIONS = ("waits", "compiles")
STOP = "# semantic: stop"
REFERENCE = "# semantic: reference"
MARKER = re.compile(r"#\s*semantic:\s*(differs|by policy):\s*(.+)$", re.MULTILINE)
NO_WAIT = frozenset({"JAX101", "JAX102", "JAX103", "JAX107"})
COMPILE_EVENT = "/jax/core/compile/backend_compile_duration"
CASE_TIMEOUT_S = 300


class CaseError(Exception):
    """A case that cannot be checked (or jaxlint failing): one line, status 2."""


@dataclass
class Case:
    path: Path
    question: str
    start_line: int  # the region's start read (the stop line for a harness alone)
    stop_line: int
    marker: tuple[str, str] | None  # ("differs" | "by policy", why)
    # the case's own timed code, from ``t0 = time.perf_counter()`` to the reference (a
    # timer object or helper defined above it is reported where it is used, in here)
    use_lines: tuple[int, int] = (0, 0)
    jax: bool | None = None  # what running it showed (None: unclear)
    detail: str = ""
    jaxlint: bool | None = None
    codes: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return f"{self.question}/{self.path.stem}"

    @property
    def agrees(self) -> bool:
        return self.jax is not None and self.jax == self.jaxlint

    @property
    def verdict(self) -> str:
        """agrees; differs (a marked case that still differs, as expected); DISAGREES;
        STALE (marked, but agrees now); UNCLEAR (the run could not tell)."""
        if self.jax is None:
            return "UNCLEAR"
        if self.marker is None:
            return "agrees" if self.agrees else "DISAGREES"
        return "STALE" if self.agrees else self.marker[0]


def load(paths: Iterable[Path]) -> list[Case]:
    files: list[Path] = []
    for p in paths:
        if not p.exists():
            raise CaseError(f"semantic_check: {p}: no such file or folder")
        files += sorted(p.rglob("*.py")) if p.is_dir() else [p]
    cases = []
    for f in files:
        question = f.parent.name
        if question not in QUESTIONS:
            raise CaseError(f"semantic_check: {f}: not in a folder named {' or '.join(QUESTIONS)}")
        text = f.read_text(encoding="utf-8")
        lines = [i for i, line in enumerate(text.splitlines(), 1) if STOP in line]
        if len(lines) != 1:
            raise CaseError(f"semantic_check: {f}: needs exactly one line with '{STOP}'")
        m = MARKER.search(text)
        rows = text.splitlines()
        starts = [i for i, line in enumerate(rows[:lines[0] - 1], 1) if "perf_counter()" in line]
        t0 = next((i for i, line in enumerate(rows, 1)
                   if line.startswith("t0 = time.perf_counter()")), 0)
        end = next((i for i, line in enumerate(rows, 1) if line.startswith(REFERENCE)),
                   len(rows) + 1)
        cases.append(Case(f.resolve(), question, starts[-1] if starts else lines[0], lines[0],
                          (m.group(1), m.group(2).strip()) if m else None,
                          use_lines=(t0, end) if t0 else (0, 0)))
    return cases


# ---- what jaxlint says -------------------------------------------------------------------

def lint(cases: list[Case]) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "jaxlint", "--format", "json", "--exit-zero", "--no-cache",
         *[str(c.path) for c in cases]], capture_output=True, text=True)
    if proc.returncode != 0:
        raise CaseError(f"semantic_check: jaxlint failed ({proc.returncode}): {proc.stderr}")
    by_path: dict[str, list[dict]] = {}
    for finding in json.loads(proc.stdout):
        by_path.setdefault(str(Path(finding["path"]).resolve()), []).append(finding)
    for case in cases:
        codes = sorted({f["code"] for f in by_path.get(str(case.path), [])
                        if case.start_line <= f["line"] <= case.stop_line
                        or case.use_lines[0] <= f["line"] < case.use_lines[1]
                        or (f.get("region") or {}).get("stop", {}).get("line") == case.stop_line})
        case.codes = codes
        case.jaxlint = (not NO_WAIT & set(codes)) if case.question == "waits" else (
            "JAX105" in codes)


# ---- what JAX does -----------------------------------------------------------------------

def run_case(path: str, stop_line: int) -> dict:
    """Run one case in this process (a fresh one: see ``measure``) and return what JAX did."""
    import runpy
    import time

    import jax

    real_clock = time.perf_counter
    events: list[tuple[float, str]] = []
    seen: dict[str, int | None] = {"pending": None}

    def listen(event: str, duration: float, **kwargs: object) -> None:
        if event == COMPILE_EVENT:
            events.append((real_clock(), str(kwargs.get("fun_name", "?"))))

    def clock() -> float:
        now = real_clock()
        caller = sys._getframe(1)
        if caller.f_lineno == stop_line and caller.f_code.co_filename == path:
            seen["pending"] = sum(not a.is_ready() for a in jax.live_arrays())
        return now

    jax.monitoring.register_event_duration_secs_listener(listen)
    time.perf_counter = clock
    try:
        scope = runpy.run_path(path, run_name="__main__")
    finally:
        time.perf_counter = real_clock
    dt = float(scope["dt"])
    start = float(scope.get("t0", real_clock()))  # (a harness's per-run time needs none)
    return {"dt": dt, "ref": scope.get("ref"), "pending": seen["pending"],
            "compiled": [name for at, name in events if start <= at <= start + dt]}


def measure(case: Case) -> None:
    proc = subprocess.run(
        [sys.executable, __file__, "--run-case", str(case.path), str(case.stop_line)],
        capture_output=True, text=True, timeout=CASE_TIMEOUT_S, cwd=case.path.parent)
    if proc.returncode != 0:
        raise CaseError(f"semantic_check: {case.name} failed to run:\n{proc.stderr[-2000:]}")
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    if case.question == "compiles":
        case.jax = bool(got["compiled"])
        case.detail = (f"compiled {', '.join(sorted(set(got['compiled'])))}"
                       if got["compiled"] else "no compile")
        return
    dt, ref, pending = got["dt"], got["ref"], got["pending"]
    if ref is None:
        raise CaseError(f"semantic_check: {case.name}: a 'waits' case must set ref")
    waited = not pending and dt >= 0.5 * ref
    not_waited = bool(pending) or dt < 0.2 * ref
    case.jax = True if waited and not not_waited else False if not_waited else None
    case.detail = f"{dt * 1e3:.1f} of {ref * 1e3:.1f} ms" + (
        f", {pending} pending" if pending else "")


def check(cases: list[Case], jobs: int, lint_too: bool = True) -> None:
    if lint_too:
        lint(cases)
    with ThreadPoolExecutor(max_workers=max(1, jobs)) as pool:
        list(pool.map(measure, cases))
    for case in cases:  # once more alone before a surprise counts
        if case.jax is None or (lint_too and case.verdict in ("DISAGREES", "STALE")):
            measure(case)


def device() -> str:
    import jax
    first = jax.devices()[0]
    return f"jax {jax.__version__} on {first.platform} ({first.device_kind})"


# ---- report ------------------------------------------------------------------------------

def yes_no(question: str, value: bool | None) -> str:
    if value is None:
        return "?"
    return {"waits": ("waits", "does not wait"),
            "compiles": ("compiles", "no compile")}[question][0 if value else 1]


def table(cases: list[Case]) -> str:
    rows = ["| case | JAX (measured) | jaxlint | verdict |", "| --- | --- | --- | --- |"]
    for c in cases:
        said = yes_no(c.question, c.jaxlint) + (f" ({', '.join(c.codes)})" if c.codes else "")
        verdict = c.verdict + (f": {c.marker[1]}" if c.marker and c.verdict != "STALE" else "")
        rows.append(f"| {c.name} | {yes_no(c.question, c.jax)}: {c.detail} | {said} "
                    f"| {verdict} |")
    return "\n".join(rows)


def summary(cases: list[Case]) -> str:
    parts = []
    for q in QUESTIONS:
        mine = [c for c in cases if c.question == q]
        if mine:
            agree = sum(c.agrees for c in mine)
            parts.append(f"{q}: jaxlint agrees with JAX on {agree} of {len(mine)}")
    return "; ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", nargs="*", type=Path, default=[CASES])
    ap.add_argument("--jobs", "-j", type=int, default=2)
    ap.add_argument("--write", type=Path, help="also write the table (markdown) to FILE")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--measure-only", type=Path, metavar="OUT",
                     help="run the cases and write what JAX did to OUT (json); no jaxlint")
    how.add_argument("--measured", type=Path, metavar="IN",
                     help="read what JAX did from IN (written by --measure-only)")
    ap.add_argument("--run-case", nargs=2, metavar=("PATH", "STOP_LINE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.run_case:
        print(json.dumps(run_case(args.run_case[0], int(args.run_case[1]))))
        return 0
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
    try:
        return _main(args)
    except CaseError as error:
        print(error, file=sys.stderr)
        return 2


def _main(args: argparse.Namespace) -> int:
    cases = load(args.paths)
    if not cases:
        print("semantic_check: no cases", file=sys.stderr)
        return 2
    where = ""
    if args.measure_only:
        check(cases, args.jobs, lint_too=False)
        args.measure_only.write_text(json.dumps({
            "device": device(),
            "cases": {c.name: {"jax": c.jax, "detail": c.detail} for c in cases}}, indent=1))
        print(f"measured {len(cases)} cases with {device()}: {args.measure_only}")
        return 0
    if args.measured:
        got = json.loads(args.measured.read_text(encoding="utf-8"))
        where = got["device"]
        missing = [c.name for c in cases if c.name not in got["cases"]]
        if missing:
            print(f"semantic_check: not measured in {args.measured}: {', '.join(missing)}",
                  file=sys.stderr)
            return 2
        lint(cases)
        for c in cases:
            c.jax, c.detail = got["cases"][c.name]["jax"], got["cases"][c.name]["detail"]
    else:
        check(cases, args.jobs)
        where = device()
    text = table(cases)
    print(text)
    print()
    print(summary(cases))
    bad = [c for c in cases if c.verdict in ("UNCLEAR", "DISAGREES", "STALE")]
    for c in bad:
        print(f"{c.verdict}: {c.name}", file=sys.stderr)
    if args.write:
        args.write.write_text(
            "# Semantic check: jaxlint's verdicts against what JAX does\n\n"
            f"Generated by `scripts/semantic_check.py`, measured with {where}. "
            f"{summary(cases)}.\n\n"
            "A case marked *differs* is a known gap, *by policy* a verdict jaxlint gives on "
            "purpose (README, \"How it works\").\n\n" + text + "\n",
            encoding="utf-8")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
