"""How jaxlint's cost grows with the size of one file: generated files of N regions, N
pending values, N notebook cells, measured at N = 100, 400, 1,500 and 6,000.

    python benchmarks/growth.py              # measure, print, write the section of RESULTS.md
    python benchmarks/growth.py --sizes 100,400 --no-write
    python benchmarks/growth.py --cases "random" --sizes 400,1600 --no-write  # some rows

Each case runs ``jaxlint --no-cache -j1 -q FILE`` (``--fix`` for the notebook's fix case) in
a fresh process, ``--rounds`` times, and keeps the median wall time, the median CPU time and
the largest peak RSS of the process (``os.wait4``). The section it writes in RESULTS.md
(between the ``growth`` markers) gives, for each step from N to 4N, the growth of the time
as a ratio: linear cost reads about 4x. ``tests/test_growth.py`` asserts the same ratio for
``lint_source`` (parse, analysis, report) in process, at N = 150 and 600.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import datetime, timezone
from pathlib import Path

from random_programs import program
from sections import write_section as replace_section

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "RESULTS.md"
START, END = "<!-- growth:start -->", "<!-- growth:end -->"
HEADER = ["import time", "import jax", "import jax.numpy as jnp", "",
          "f = jax.jit(lambda a: a @ a)", "x = jnp.ones((64, 64))", ""]


def sequential_regions(n: int) -> str:
    """N regions one after the other, none synced: every earlier result is still pending at
    every later read."""
    lines = list(HEADER)
    for i in range(n):
        lines += ["t = time.perf_counter()", "y = f(x)", f"e{i} = time.perf_counter() - t"]
    return "\n".join(lines) + "\n"


def named_regions(n: int) -> str:
    """N regions one after the other whose start readings and results have names of their
    own (``t0``/``y0``/``e0``, then ``t1``, ...: a notebook exported to a script, a tutorial
    that times every step): every start stays bound to the end of the file."""
    lines = list(HEADER)
    for i in range(n):
        lines += [f"t{i} = time.perf_counter()", f"y{i} = f(x)",
                  f"e{i} = time.perf_counter() - t{i}"]
    return "\n".join(lines) + "\n"


def named_regions_synced_then_printed(n: int) -> str:
    """``named_regions`` with each region synced, then one ``print(t0, t1, ...)`` of every
    start reading: every start stays live to the end of the file (a backward pass cannot
    drop any), so each read must not cost the number of live starts."""
    lines = list(HEADER)
    for i in range(n):
        lines += [f"t{i} = time.perf_counter()", f"y{i} = f(x)",
                  f"jax.block_until_ready(y{i})", f"e{i} = time.perf_counter() - t{i}"]
    lines.append(f"print({', '.join(f't{i}' for i in range(n))})")
    return "\n".join(lines) + "\n"


def random_programs(n: int) -> str:
    """A random program of about 3N statements (``random_programs.program``, seed 0: about
    as many lines as N regions of the other shapes): assignments, jitted calls, clock reads
    under random names, branches, loops, try/with, functions and classes, mixed."""
    return program(0, 3 * n)


def named_regions_in_function(n: int) -> str:
    """``named_regions`` inside one function (a benchmark's ``main()``)."""
    body = named_regions(n).split("\n")[len(HEADER):]
    lines = [*HEADER, "def main():", *("    " + line for line in body if line)]
    return "\n".join([*lines, "main()"]) + "\n"


TIMER_CLASS = [
    "class Timer:",
    "    def __enter__(self):",
    "        self.t0 = time.perf_counter()",
    "        return self",
    "    def __exit__(self, *exc):",
    "        print(time.perf_counter() - self.t0)",
    "def bench(fn, x):",
    "    t0 = time.perf_counter()",
    "    out = fn(x)",
    "    return time.perf_counter() - t0",
]


def timers_across_calls(n: int) -> str:
    """N regions timed by a Timer class in `with` and N by a helper that times inside
    itself: every exit is paired with its own entry, never with the earlier ones."""
    lines = [*HEADER, *TIMER_CLASS]
    for i in range(n):
        lines += ["with Timer():", f"    y{i} = f(x)", "bench(f, x)"]
    return "\n".join(lines) + "\n"


def regions_with_branches(n: int) -> str:
    """N regions with a loop and a branch each, and a total timer around all of them: the
    joins, the fixed points and a start that stays live for the whole file."""
    lines = [*HEADER, "total = time.perf_counter()"]
    for i in range(n):
        lines += [
            "t = time.perf_counter()",
            "for _ in range(3):",
            "    y = f(x)",
            f"if {i} % 2:",
            "    y = y + 1",
            "jax.block_until_ready(y)",
            f"e{i} = time.perf_counter() - t",
        ]
    lines.append("print(time.perf_counter() - total)")
    return "\n".join(lines) + "\n"


def pending_values(n: int) -> str:
    """N unsynced values, then one timed region."""
    lines = ["import time", "import jax.numpy as jnp", ""]
    lines += [f"z_{i} = jnp.ones(3) * {i}" for i in range(n)]
    lines += ["t = time.perf_counter()", "y = jnp.ones(3) * 2", "print(time.perf_counter() - t)"]
    return "\n".join(lines) + "\n"


def dict_of_values(n: int) -> str:
    """One region making a dict literal of N JAX values (a results table built inline)."""
    lines = [*HEADER, "t0 = time.perf_counter()", "d = {"]
    lines += [f"    'k{i}': jnp.sin(x)," for i in range(n)]
    lines += ["}", "print(time.perf_counter() - t0)"]
    return "\n".join(lines) + "\n"


def methods_calling_each_other(n: int) -> str:
    """A trainer class of N methods, each calling the one before through ``self`` on one
    branch and doing its own work on the other, and one region timing the last. (The
    branch's test is one the analysis cannot decide, ``a is not None``: a literal one is
    decided, and would make the shape a chain N calls deep, cut at the call depth.)"""
    lines = [*HEADER, "class Trainer:", "    def m0(self, a):", "        return jnp.sin(a)"]
    for i in range(1, n):
        lines += [f"    def m{i}(self, a):",
                  f"        return self.m{i - 1}(a) if a is not None else jnp.sin(a)"]
    lines += ["t = Trainer()", "t0 = time.perf_counter()", f"y = t.m{n - 1}(x)",
              "print(time.perf_counter() - t0)"]
    return "\n".join(lines) + "\n"


def redefined_functions(n: int) -> str:
    """A notebook exported to a script: N cells, each binding ``v{i}`` and a function that
    reads it, binding ``v{i}`` again and timing a call of the function (the names the
    module binds twice, read by the functions it calls: ``FlowAnalysis.module_call``)."""
    lines = [*HEADER]
    for i in range(n):
        lines += [f"v{i} = jnp.ones(3)", f"def f{i}(a):", f"    return a + v{i}",
                  f"v{i} = jnp.zeros(3)", f"t{i} = time.perf_counter()", f"y{i} = f{i}(x)",
                  f"e{i} = time.perf_counter() - t{i}"]
    return "\n".join(lines) + "\n"


def helper_given_integers(n: int) -> str:
    """A helper of N statements that makes a batch of the rows it is given, called with N
    row counts of its own, each call timed (a sweep over sizes written out): each count
    could mean a summary of the helper's own, N analyses of N statements; past a few, calls
    share one (``calls.MAX_INT_VARIANTS``)."""
    lines = [*HEADER, "def batch(rows):", "    a = jnp.ones((rows, 8))"]
    lines += [f"    a = a + {i}" for i in range(n)]
    lines += ["    return a", ""]
    for i in range(n):
        lines += ["t = time.perf_counter()", f"y = f(batch({i + 1}))",
                  "print(time.perf_counter() - t)"]
    return "\n".join(lines) + "\n"


def notebook_cells(n: int) -> str:
    """A notebook of N one-line cells, then one timed region."""
    sources = [["import time\n", "import jax.numpy as jnp"]]
    sources += [[f"z_{i} = jnp.ones(3) * {i}"] for i in range(n)]
    sources.append(["t = time.perf_counter()\n", "y = jnp.ones(3) * 2\n",
                    "print(time.perf_counter() - t)"])
    cells = [{"cell_type": "code", "execution_count": None, "id": f"c{i}", "metadata": {},
              "outputs": [], "source": src} for i, src in enumerate(sources)]
    nb = {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return json.dumps(nb, indent=1) + "\n"


CASES: dict[str, tuple[Callable[[int], str], str, bool]] = {
    # key: (generator, suffix, --fix)
    "sequential regions": (sequential_regions, ".py", False),
    "regions with names of their own (t0, y0, e0, t1, ...)": (named_regions, ".py", False),
    "the same inside one function": (named_regions_in_function, ".py", False),
    "the same, each synced, then print(t0, t1, ...)": (named_regions_synced_then_printed,
                                                        ".py", False),
    "random programs (seed 0, 3N statements)": (random_programs, ".py", False),
    "regions with loops, branches, a total timer": (regions_with_branches, ".py", False),
    "pending values, then one region": (pending_values, ".py", False),
    "timers across calls (with Timer(), a timing helper)": (timers_across_calls, ".py", False),
    "a dict literal of N JAX values in one region": (dict_of_values, ".py", False),
    "a class of N methods calling each other": (methods_calling_each_other, ".py", False),
    "functions redefined cell by cell, each called": (redefined_functions, ".py", False),
    "a helper of N statements given N row counts": (helper_given_integers, ".py", False),
    "notebook cells, then one region": (notebook_cells, ".ipynb", False),
    "notebook cells, --fix": (notebook_cells, ".ipynb", True),
}


def run_once(cmd: list[str], timeout: float) -> dict[str, float | int | None]:
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    deadline = start + timeout
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        if time.perf_counter() > deadline:
            proc.kill()
            pid, status, usage = os.wait4(proc.pid, 0)
            return {"wall": None, "cpu": None, "rss_mb": usage.ru_maxrss / 1024, "rc": None}
        time.sleep(0.005)
    wall = time.perf_counter() - start
    return {"wall": wall, "cpu": usage.ru_utime + usage.ru_stime,
            "rss_mb": usage.ru_maxrss / 1024, "rc": os.waitstatus_to_exitcode(status)}


def measure(sizes: list[int], rounds: int, timeout: float, jaxlint: list[str],
            cases: str = "") -> list[dict]:
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name, (gen, suffix, fix) in CASES.items():
            if cases.lower() not in name.lower():
                continue
            for n in sizes:
                text = gen(n)
                path = Path(tmp) / f"case{suffix}"
                samples = []
                for _ in range(rounds):
                    path.write_text(text)
                    cmd = [*jaxlint, "--no-cache", "-j1", "-q", *(["--fix"] if fix else []),
                           str(path)]
                    samples.append(run_once(cmd, timeout))
                    if samples[-1]["wall"] is None:
                        break
                done = [s for s in samples if s["wall"] is not None]
                row = {
                    "case": name, "n": n, "lines": text.count("\n"), "rounds": len(samples),
                    "wall": statistics.median(s["wall"] for s in done) if done else None,
                    "cpu": statistics.median(s["cpu"] for s in done) if done else None,
                    "rss_mb": max(s["rss_mb"] for s in samples),
                    "rc": sorted({s["rc"] for s in samples}, key=str),
                }
                rows.append(row)
                print(json.dumps(row), flush=True)
    return rows


def table(rows: list[dict]) -> str:
    out = ["| case | N | lines | wall (median) | CPU | peak RSS | time vs N/4 | exit |",
           "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    prev: dict[str, dict] = {}
    for r in rows:
        p = prev.get(r["case"])
        growth = "—"
        if p and p["cpu"] and r["cpu"]:
            growth = f"{r['cpu'] / p['cpu']:.1f}x for {r['n'] / p['n']:.2g}x N"
        wall = "timed out" if r["wall"] is None else f"{r['wall']:.2f} s"
        cpu = "—" if r["cpu"] is None else f"{r['cpu']:.2f} s"
        out.append(f"| {r['case']} | {r['n']:,} | {r['lines']:,} | {wall} | {cpu} | "
                   f"{r['rss_mb']:.0f} MB | {growth} | {', '.join(map(str, r['rc']))} |")
        prev[r["case"]] = r
    return "\n".join(out)


def write_section(rows: list[dict], args: argparse.Namespace) -> None:
    stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    body = (
        f"{START}\n## Growth with the size of one file\n\n"
        f"Generated by `benchmarks/growth.py` on {stamp} ({platform.machine()}, "
        f"{os.cpu_count()} cores, load {load:.1f} at the start; {args.rounds} rounds, "
        "median). One file per row, `jaxlint --no-cache -j1 -q`. Targets (linear-cost "
        "issue): 1,500 sequential regions under 5 s and 300 MB; 4,000 pending values then one "
        "region under 2 s; the 3,000-cell notebook under 10 s; each 4x step of N at most "
        "~4-6x the time. Exit 1 means findings, as expected; 2 would be an error.\n\n"
        f"{table(rows)}\n{END}\n"
    )
    replace_section(RESULTS, START, END, body)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,400,1500,6000")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=600)
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--cases", default="", metavar="TEXT",
                    help="only the cases whose name contains TEXT (any case)")
    ap.add_argument("--json", type=Path, default=HERE / "growth.json")
    args = ap.parse_args(argv)
    exe = shutil.which("jaxlint")
    jaxlint = [exe] if exe else [sys.executable, "-m", "jaxlint"]
    rows = measure([int(x) for x in args.sizes.split(",")], args.rounds, args.timeout, jaxlint,
                   args.cases)
    print(table(rows))
    if args.cases and not args.no_write:
        print("(--cases: some rows only; growth.json and RESULTS.md left as they are)")
    elif not args.no_write:
        args.json.write_text(json.dumps(rows, indent=1) + "\n")
        write_section(rows, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
