"""``jaxlint verify``: argument parsing and output selection."""

from __future__ import annotations

import argparse
import importlib.util
import sys
from collections.abc import Sequence
from pathlib import Path

from jaxlint.output import FORMATS
from jaxlint.verify import report
from jaxlint.verify.core import DEFAULT_REPEAT, DEFAULT_TIMEOUT, VerifyError, verify_paths
from jaxlint.verify.model import NOT_RUN_CLEAN, NOT_RUN_SETUP, RegionResult
from jaxlint.verify.progress import Progress, StderrProgress

DESCRIPTION = """\
Run each script twice, as written and as `jaxlint --fix` would rewrite it, and report what
the script's own timers measured for every timed region the linter found.

THIS EXECUTES THE SCRIPTS. verify is the only jaxlint command that runs user code; only point
it at code you trust. Each run is a fresh Python process on the device JAX picks (GPU or TPU,
else CPU, unless --backend says otherwise). The fixed copy runs from a temporary file (its
__file__ differs; sys.path[0] is still the original's directory); the original is never
modified. Folders are searched as `jaxlint` searches them (no virtual environments,
site-packages, build/, node_modules, hidden folders); of the scripts found there only those
with findings run, unless --all. A script named on the command line runs even without
findings (once, to show it runs). setup.py-like files (setup.py, conftest.py, noxfile.py,
manage.py, ...) never run. At the end, stderr lists every script that was run.
"""

EPILOG = """\
verdicts: "fix changes measured time" when every fixed run measured more than every
as-written run (or every one less), the medians are at least 1.2x apart, in the direction
the rule's fix should move the time (JAX101-103, JAX107: longer; JAX104-106: shorter;
otherwise "the other way than expected"), and the larger median is at least 1 ms (else
"too small to tell on this device", with the numbers); "too small to tell" otherwise; "too
few repeats to tell" with --repeat 1. ratio = fixed / as written ("change" in the table:
"19x longer").

at the stop: at each region's stop verify lists the JAX arrays made since the start that
are still being computed (jax.live_arrays(), is_ready()), after the stop's clock value; a
watcher thread times how long they still take, while the script runs on; it reports "synced"
or "N arrays still computing at the stop (x ms of work left)". Work whose results the script
already dropped is not seen.

A script that fails or times out is reported as failed (saying which version) and the other
scripts still run.

exit status: 0 when every script ran, 1 when any failed, 2 on usage errors or missing jax.

--detect runs each script once, as written, with every clock read instrumented, and reports
each timed region whose JAX work was still running at the stop as a finding
(`path:line:col: JAX101 ... [runtime]`), saying which ones the static analysis missed.
Regions are consecutive clock reads of one function call on one thread (a read on an earlier
line than the previous one, a loop going round, starts afresh; a read inside a comparison is a
deadline, not a stop). A noqa comment for JAX101 on the stop's line silences it. A region
whose start read (one that stops nothing) found arrays made before it still running, that
were ready by the stop (the region waited for them), is a JAX106 finding at the start read
(`# noqa: JAX106` there silences it); not when that work was there at fewer than half of the
region's starts or is under 10% of its time. Every script found in a folder runs, not only
those with findings. Exit status: 0 none, 1 findings, 2 a script failed or a usage error.
"""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="jaxlint verify",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "paths", nargs="+", metavar="PATH", help="scripts, or directories to search for *.py"
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=DEFAULT_REPEAT,
        metavar="N",
        help=f"runs per version of each script (default: {DEFAULT_REPEAT})",
    )
    parser.add_argument(
        "--timeout",
        type=float,
        default=DEFAULT_TIMEOUT,
        metavar="SECONDS",
        help=f"limit for one run of one script (default: {DEFAULT_TIMEOUT:g})",
    )
    parser.add_argument(
        "--backend",
        default=None,
        metavar="NAME",
        help="JAX platform to run on, e.g. cpu, cuda, rocm, tpu (sets JAX_PLATFORMS; "
        "default: let JAX choose the best it finds)",
    )
    parser.add_argument(
        "--size",
        type=int,
        default=None,
        metavar="N",
        help="set JAXLINT_VERIFY_SIZE=N for the scripts: those that read it (the bundled "
        "fixtures in the reports do) scale their work, so it is big enough to time on a fast "
        "device (default: unset; the fixtures use 1024)",
    )
    parser.add_argument(
        "--unsafe-fixes",
        action="store_true",
        help="also apply fixes marked unsafe, as `jaxlint --fix --unsafe-fixes` would",
    )
    parser.add_argument(
        "--json", action="store_true", help="print a JSON list of results instead of a table"
    )
    parser.add_argument(
        "--report",
        type=Path,
        default=None,
        metavar="DIR",
        help="write DIR/verify-<device>.md and a .png bar chart (give a path ending in .md "
        "to choose the name); needs matplotlib",
    )
    parser.add_argument(
        "--all",
        action="store_true",
        dest="run_all",
        help="also run the scripts found in folders that have no findings (once each)",
    )
    parser.add_argument(
        "--no-check",
        action="store_true",
        help="do not look for JAX work still running at the stops (the 'at the stop' column "
        "then says 'not checked'); the timings are then the script's alone",
    )
    parser.add_argument(
        "--detect",
        action="store_true",
        help="run each script once as written and report every region whose JAX work was "
        "still running when the clock stopped (JAX101), or that waited for work still "
        "running when it started (JAX106), as findings",
    )
    parser.add_argument(
        "--format",
        choices=FORMATS,
        default="text",
        help="with --detect: how findings are printed, as jaxlint prints them (default: text)",
    )
    parser.add_argument("-q", "--quiet", action="store_true", help="no progress display on stderr")
    return parser


def _what_ran(ran: list[str], results: Sequence[RegionResult]) -> str:
    """One plain line: the scripts executed, and how many were not and why."""
    noun = "script" if len(ran) == 1 else "scripts"
    line = f"jaxlint verify: ran {len(ran)} {noun}" + (": " + ", ".join(ran) if ran else "")
    clean = sum(r.verdict == NOT_RUN_CLEAN for r in results)
    setup = sum(r.verdict == NOT_RUN_SETUP for r in results)
    skipped = []
    if clean:
        skipped.append(f"{clean} without findings (--all runs them)")
    if setup:
        skipped.append(f"{setup} setup.py-like")
    return line + ("; not run: " + ", ".join(skipped) if skipped else "") + "."


def _detect(args: argparse.Namespace) -> int:
    from jaxlint import output
    from jaxlint.verify.core import ensure_jax
    from jaxlint.verify.detect import detect_paths, summary

    def on_file(index: int, total: int, path: str) -> None:
        if not args.quiet:
            print(f"[{index}/{total}] {path}: 1 run", file=sys.stderr, flush=True)

    try:
        ensure_jax()
        detected = detect_paths(args.paths, timeout=args.timeout, backend=args.backend,
                                on_file=on_file, size=args.size)
    except VerifyError as exc:
        print(f"jaxlint verify: {exc}", file=sys.stderr)
        return 2
    for error in detected.errors:
        print(error, file=sys.stderr)
    noun = "script" if len(detected.ran) == 1 else "scripts"
    print(f"jaxlint verify: ran {len(detected.ran)} {noun}"
          + (": " + ", ".join(detected.ran) if detected.ran else "") + ".", file=sys.stderr)
    sys.stdout.write(output.render(detected.findings, args.format))
    sys.stdout.flush()
    if not args.quiet:
        print(summary(detected), file=sys.stderr)
    if detected.errors:
        return 2
    return 1 if detected.findings else 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args_list = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(args_list)
    if args.repeat < 1:
        parser.error("--repeat must be at least 1")
    if args.timeout <= 0:
        parser.error("--timeout must be positive")
    if args.size is not None and args.size < 1:
        parser.error("--size must be at least 1")

    if args.report is not None and importlib.util.find_spec("matplotlib") is None:
        # Checked before running anything: finding out after minutes of runs would waste them.
        print(
            "jaxlint verify: --report needs matplotlib; install it (python -m pip install "
            "matplotlib), or from a clone of jaxlint: python -m pip install '.[verify]'",
            file=sys.stderr,
        )
        return 2

    if args.detect:
        if args.report is not None or args.json or args.unsafe_fixes or args.run_all \
                or args.no_check:
            parser.error("--detect runs scripts as written once: it takes no --report, "
                         "--json (use --format json), --unsafe-fixes, --all or --no-check")
        return _detect(args)
    if args.format != "text":
        parser.error("--format applies to --detect (use --json for the measurements)")

    progress: Progress = Progress() if args.quiet else StderrProgress(sys.stderr)
    ran: list[str] = []
    try:
        results = verify_paths(
            args.paths,
            repeat=args.repeat,
            timeout=args.timeout,
            backend=args.backend,
            unsafe_fixes=args.unsafe_fixes,
            progress=progress,
            run_all=args.run_all,
            ran=ran,
            size=args.size,
            check=not args.no_check,
        )
    except VerifyError as exc:
        print(f"jaxlint verify: {exc}", file=sys.stderr)
        return 2
    print(_what_ran(ran, results), file=sys.stderr)

    if not results:
        print("jaxlint verify: no Python files found under the given paths", file=sys.stderr)
    if args.json:
        print(report.to_json(results))
    else:
        print(report.table(results, args.repeat, args.backend))
    if args.report is not None:
        try:
            md_path, png_path = report.write_report(
                args.report, results, repeat=args.repeat, argv=args_list, backend=args.backend,
                unsafe_fixes=args.unsafe_fixes, size=args.size,
            )
        except ImportError as exc:
            print(
                f"jaxlint verify: --report needs matplotlib ({exc}); install it (python -m pip "
                "install matplotlib), or from a clone of jaxlint: python -m pip install "
                "'.[verify]'",
                file=sys.stderr,
            )
            return 2
        written = f"{md_path}" + (f" and {png_path}" if png_path else "")
        print(f"jaxlint verify: wrote {written}", file=sys.stderr)
    return 1 if any(r.failed for r in results) else 0
