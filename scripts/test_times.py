"""Time the test suite as a newcomer runs it, and write the figures into README.md.

Clones this checkout's committed state into a temporary folder, makes a virtual environment
there with the test extras (as the README's quickstart does), then runs the README's test
command for the whole suite and for the fast tier, each with ``--durations`` so the slowest
tests are visible. The wall times, the CPU time of all the run's processes (which other work
on a shared machine does not change, as it changes the wall time), test counts, the
machine's cores and its load average before each run replace what is between the
``test-times`` markers of README.md.

    python scripts/test_times.py            # measure and rewrite README.md
    python scripts/test_times.py --dry-run  # measure and print only
"""

from __future__ import annotations

import argparse
import datetime
import os
import re
import resource
import subprocess
import sys
import tempfile
import textwrap
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
START, END = "<!-- test-times: written by scripts/test_times.py -->", "<!-- /test-times -->"
TIERS = (("whole suite", []), ("fast tier", ["-m", "not slow"]))


def _run(args: list[str], cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    return subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True)


@dataclass
class Row:
    tier: str
    wall: float  # seconds
    cpu: float  # seconds of CPU the run's processes used (what a shared machine cannot slow)
    load: float  # the 1-minute load average just before the run
    summary: str  # pytest's count: "2371 passed, 3 skipped"
    ok: bool


def measure(clone: Path) -> list[Row]:
    python = clone / ".venv" / "bin" / "python"
    rows = []
    for name, extra in TIERS:
        load = os.getloadavg()[0]
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        result = _run([str(python), "-m", "pytest", "-n", "auto", "-q", "--durations=10",
                       *extra], clone)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        tail = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
        counts = re.findall(r"\d+ (?:passed|failed|skipped|errors?)", tail)
        rows.append(Row(name, wall, cpu, load, ", ".join(counts) or "no summary",
                        result.returncode == 0))
        print(result.stdout[-3000:], file=sys.stderr)
    return rows


def text(rows: list[Row], commit: str) -> str:
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    lines = ["| run (`pytest -n auto`) | tests | wall | CPU, all processes | load average before |",
             "| --- | --- | --- | --- | --- |"]
    for r in rows:
        lines.append(f"| {r.tier} | {r.summary} | {r.wall:.0f} s | {r.cpu:.0f} s | "
                     f"{r.load:.1f} |")
    lines.append("")
    note = (f"Commit {commit}, {datetime.date.today().isoformat()}, {cores} cores. A load "
            "average near the core count means other work shared the machine and the wall time "
            f"grew with it; the CPU time does not, and on {cores} idle cores the wall time is a "
            f"little over 1/{cores} of it (collecting the tests and the longest one are not "
            "shared).")
    lines.extend(textwrap.wrap(note, 95))
    return "\n".join(lines)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--dry-run", action="store_true", help="print the figures, change nothing")
    args = p.parse_args()
    commit = _run(["git", "rev-parse", "--short", "HEAD"], ROOT).stdout.strip()
    with tempfile.TemporaryDirectory() as folder:
        clone = Path(folder) / "jaxlint"
        subprocess.run(["git", "clone", "-q", str(ROOT), str(clone)], check=True)
        subprocess.run([sys.executable, "-m", "venv", str(clone / ".venv")], check=True)
        subprocess.run([str(clone / ".venv" / "bin" / "python"), "-m", "pip", "install", "-q",
                        "-e", ".[test]"], cwd=clone, check=True)
        rows = measure(clone)
    block = text(rows, commit)
    print(block)
    if not args.dry_run:  # (a failed test is written as such: the table says what ran)
        readme = ROOT / "README.md"
        old = readme.read_text()
        new = re.sub(re.escape(START) + ".*?" + re.escape(END),
                     lambda m: f"{START}\n{block}\n{END}", old, flags=re.S)
        readme.write_text(new)
    return 0 if all(r.ok for r in rows) else 1


if __name__ == "__main__":
    sys.exit(main())
