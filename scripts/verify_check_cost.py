#!/usr/bin/env python3
"""What verify's pending-work check costs, and whether it changes what a script measures.

Runs each script as written N times with the check and N times without it (interleaved,
each a fresh process, as verify runs them), with the region's start and stop lines given
as verify gives them, and prints per script: the region's median as measured without and
with the check (the check must not move it), the check's own median cost per clock read,
and the work the check found still running at the stop.

Usage: python scripts/verify_check_cost.py [--repeat N] [--backend cpu] [--write FILE.md]
[SCRIPT ...] (default: the JAX101-103 fixtures of the CPU report). This runs the scripts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from jaxlint import lint_source  # noqa: E402
from jaxlint.verify import stats  # noqa: E402
from jaxlint.verify.execute import run_script  # noqa: E402
from jaxlint.verify.report import format_seconds  # noqa: E402

DEFAULT = ["fixtures/JAX101/seed.py", "fixtures/JAX101/training_loop.py",
           "fixtures/JAX102/timeit_lambda.py", "fixtures/JAX103/sync_input.py"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("scripts", nargs="*", default=DEFAULT)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--backend", default="cpu")
    parser.add_argument("--write", type=Path, default=None, help="also write the table here")
    args = parser.parse_args()
    rows = ["| script | region | without the check | with the check | check per read | "
            "work left at the stop |", "|---|---|--:|--:|--:|--:|"]
    print("\n".join(rows))
    for name in args.scripts:
        path = ROOT / name
        region = next(f.region for f in lint_source(path.read_bytes(), name) if f.region)
        assert region is not None
        start, stop = region
        values: dict[bool, list[float]] = {False: [], True: []}
        costs: list[float] = []
        left: list[float] = []
        for _ in range(args.repeat):
            for check in (False, True):
                outcome = run_script(path, lines={start, stop}, starts={start}, stops={stop},
                                     same={start} if start == stop else (),
                                     check=check, timeout=300, backend=args.backend)
                if not outcome.ok:
                    print(f"{name}: {outcome.error}", file=sys.stderr)
                    return 1
                value = stats.run_value(outcome.reads, start, stop)
                if value is not None:
                    values[check].append(value)
                costs.extend(outcome.costs)
                left.extend(c["work_left_s"] for c in outcome.checks
                            if c["pending"] and c["work_left_s"] is not None)

        def cell(xs: list[float]) -> str:
            if not xs:
                return "-"
            return (f"{format_seconds(statistics.median(xs))} "
                    f"({format_seconds(min(xs))}-{format_seconds(max(xs))})")

        rows.append(f"| `{name}` | {start}-{stop} | {cell(values[False])} | "
                    f"{cell(values[True])} | "
                    f"{format_seconds(statistics.median(costs)) if costs else '-'} | "
                    f"{format_seconds(statistics.median(left)) if left else 'none'} |")
        print(rows[-1], flush=True)
    if args.write is not None:
        import platform
        from datetime import datetime, timezone

        stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
        args.write.write_text("\n".join([
            "# What verify's pending-work check costs",
            "",
            f"- date: {stamp}; host {platform.node()}, Python {platform.python_version()}, "
            f"backend {args.backend}, {args.repeat} runs each way, interleaved, each a fresh "
            "process",
            f"- command: `python scripts/verify_check_cost.py --repeat {args.repeat} "
            f"--backend {args.backend} --write {args.write}`",
            "",
            "Each region as the script measured it as written, without the check and with it "
            "(median over runs, min-max), the check's own median cost per clock read (noting "
            "live arrays at a start, listing the pending ones at a stop; not the wait for "
            "them), and the median time the work still needed after the stop. The check's "
            "cost is outside the measured interval (see `jaxlint/verify/instrument.py`); the "
            "two timing columns show whether the region moved. On a shared 2-core machine "
            "some runs are preempted (5-15 ms more, either way), so medians of a few runs "
            "wander; the minimums are the clean comparison.",
            "",
            *rows,
            "",
        ]), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
