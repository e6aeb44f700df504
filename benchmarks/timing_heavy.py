#!/usr/bin/env python3
"""jaxlint against ``ruff check`` on the timing-heavy corpus, beside the library corpus.

    python benchmarks/timing_heavy.py                     # measure both sets, write RESULTS.md
    python benchmarks/timing_heavy.py --rounds 1 --repos purejaxrl,hijax --no-library
    python benchmarks/timing_heavy.py --no-write          # measure and print only

The timing-heavy set (``"set": "timing-heavy"`` in ``corpus.json``, fetched by
``corpus.py --set timing-heavy`` into ``.cache/corpus-timing-heavy/``) is the code JAX users
write and time: training scripts, RL, LLM serving and training, scientific codes, tutorials and
course notebooks. The library set is the one ``run.py`` measures (``.cache/corpus/``).

Four measurements; the first three interleaved (every round runs each case once, the order
reversed every other round, so the machine's drift spreads over both tools):

1. **Per set**: ``jaxlint -q --exit-zero --no-cache -j2 .`` and ``ruff check --isolated
   --no-cache --exit-zero .`` (default rules) in the set's folder, ``--rounds`` rounds;
   medians of wall time and CPU time (user+sys of the whole process tree).
2. **Per repository** (timing-heavy set): the same two tools on each repository's folder alone,
   jaxlint with ``-j1`` so that its CPU is the work, not the number of workers;
   ``--repo-rounds`` rounds, median CPU; the ratio jaxlint/ruff, worst first.
3. **Per-file latency** (what an editor waits for): the training scripts of the timing-heavy
   set (``train*.py``, ``*_train*.py``, ``bench*.py``, ``*_bench*.py``) by size; the median one
   (and the 90th percentile) with ``jaxlint --no-cache -q FILE`` in a fresh process, run from
   its repository's root, ``--file-rounds`` rounds, beside ``ruff check`` on the same file.
4. **Editor latency** (what the editor server makes an editor wait for after an edit): every
   training script linted as the server lints it, once to summarise its imports, then
   ``--edits`` times with one more comment line each (``editor_latency.py``, one process);
   the median, 90th percentile and worst of the scripts' median edit.

Ratios only mean something within one run (same load, same moment): never compare them to
another run's figures. The section sits between the ``timing-heavy`` markers of RESULTS.md
(``run.py`` keeps it when it rewrites the file).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import re
import shutil
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import run as run_mod  # noqa: E402  (measure(), sh(), fmt_s(), log())
from sections import write_section  # noqa: E402

import corpus as corpus_mod  # noqa: E402

RESULTS = HERE / "RESULTS.md"
START, END = "<!-- timing-heavy:start -->", "<!-- timing-heavy:end -->"
TRAINING_SCRIPT = re.compile(r"^(train.*|.*_train.*|bench.*|.*_bench.*)\.py$")
TARGETS = {corpus_mod.TIMING_HEAVY: (2.0, 1.0), corpus_mod.LIBRARY: (1.0, 1.0)}  # limit, goal


def notebook_code_lines(path: Path) -> int:
    """Lines of a notebook's code cells (0 if it cannot be read as one)."""
    try:
        cells = json.loads(path.read_bytes()).get("cells", [])
    except (ValueError, AttributeError):
        return 0
    n = 0
    for cell in cells if isinstance(cells, list) else []:
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            src = cell.get("source", "")
            text = "".join(src) if isinstance(src, list) else str(src)
            n += text.count("\n") + (1 if text and not text.endswith("\n") else 0)
    return n


def py_and_notebooks(root: Path) -> tuple[int, int, int, int]:
    """(.py files, their lines, .ipynb files, their code cells' lines) under root."""
    files, lines, _ = corpus_mod.count(root)
    notebooks = sorted(p for p in root.rglob("*.ipynb") if p.is_file())
    return files, lines, len(notebooks), sum(notebook_code_lines(p) for p in notebooks)


def median(samples: list, what: str) -> float:
    return statistics.median(getattr(s, what) for s in samples)


class Cases:
    """Interleaved runs: ``add`` names each case's command and folder; ``round`` runs them."""

    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.cmds: dict[str, tuple[list[str], Path]] = {}
        self.samples: dict[str, list] = {}

    def add(self, key: str, cmd: list[str], cwd: Path) -> None:
        self.cmds[key] = (cmd, cwd)
        self.samples[key] = []

    def round(self, keys: list[str], rnd: int, quiet: bool = False) -> None:
        for key in (keys if rnd % 2 == 0 else list(reversed(keys))):
            cmd, cwd = self.cmds[key]
            s = run_mod.measure(cmd, cwd, self.timeout)
            self.samples[key].append(s)
            bad = "" if s.rc in (0, 1) else f"  UNEXPECTED rc={s.rc}: {s.stderr_tail[-300:]!r}"
            if s.timed_out:
                bad = f"  TIMED OUT after {self.timeout:.0f}s"
            if bad or not quiet:
                run_mod.log(f"round {rnd + 1} {key}: wall {s.wall:.3f}s cpu {s.cpu:.2f}s "
                            f"load {s.load1:.1f}{bad}")

    def med(self, key: str, what: str = "cpu") -> float:
        return median(self.samples[key], what)


def training_scripts(entries: list[dict]) -> list[tuple[int, Path, dict]]:
    """(bytes, path, entry) of every training/benchmark script, smallest first."""
    out = []
    for e in entries:
        root = corpus_mod.project_dir(e)
        for p in corpus_mod.python_files(root):
            if TRAINING_SCRIPT.match(p.name):
                out.append((p.stat().st_size, p, e))
    return sorted(out, key=lambda t: (t[0], str(t[1])))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the whole-set runs")
    ap.add_argument("--repo-rounds", type=int, default=1,
                    help="rounds of the per-repository runs (0: skip them)")
    ap.add_argument("--file-rounds", type=int, default=5,
                    help="rounds of the per-file latency runs (0: skip them)")
    ap.add_argument("--edits", type=int, default=5,
                    help="edits re-linted per training script for the editor latency (0: skip)")
    ap.add_argument("--repos", help="comma-separated timing-heavy repositories only (a quick "
                    "test; the totals are then of those alone)")
    ap.add_argument("--no-library", action="store_true",
                    help="leave the library set out (it needs its sdists and jax's repository)")
    ap.add_argument("--jobs-n", type=int, default=2, help="N of the whole-set jaxlint -jN run")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per run")
    ap.add_argument("--mirror-dir", type=Path, help="bare git mirrors (see corpus.py)")
    ap.add_argument("--from", dest="local", type=Path,
                    help="folder with the library set's archives (see corpus.py)")
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jaxlint", help="jaxlint executable (default: beside this Python)")
    ap.add_argument("--ruff", help="ruff executable (default: beside this Python)")
    ap.add_argument("--no-write", action="store_true")
    ap.add_argument("--out", type=Path, default=RESULTS)
    args = ap.parse_args(argv)

    bindir = Path(args.python).parent
    jaxlint = [args.jaxlint] if args.jaxlint else (
        [str(bindir / "jaxlint")] if (bindir / "jaxlint").exists()
        else [args.python, "-m", "jaxlint"])
    ruff = args.ruff or (str(bindir / "ruff") if (bindir / "ruff").exists()
                         else shutil.which("ruff") or "ruff")
    started_at = _dt.datetime.now().astimezone().isoformat(timespec="seconds")
    load_start = os.getloadavg()
    commit = run_mod.sh(["git", "rev-parse", "HEAD"], REPO)
    jaxlint_commit = run_mod.sh(["git", "log", "-1", "--format=%h %cs", "--", "jaxlint"], REPO)
    dirty = bool(run_mod.sh(["git", "status", "--porcelain", "--", "jaxlint"], REPO))

    sets = [corpus_mod.TIMING_HEAVY] + ([] if args.no_library else [corpus_mod.LIBRARY])
    roots, entries = {}, {}
    try:
        for which in sets:
            roots[which] = corpus_mod.ensure_corpus(args.local, True, args.mirror_dir, which)
            entries[which] = corpus_mod.load_spec(which)
    except corpus_mod.CorpusError as e:
        print(f"timing_heavy.py: error: {e}", file=sys.stderr)
        return 1
    th = corpus_mod.TIMING_HEAVY
    if args.repos:
        wanted = set(args.repos.split(","))
        entries[th] = [e for e in entries[th] if e["name"] in wanted]
        unknown = wanted - {e["name"] for e in entries[th]}
        if unknown:
            ap.error(f"--repos: not in the timing-heavy set: {', '.join(sorted(unknown))}")

    def targets(which: str) -> list[str]:
        if which == th and args.repos:
            return [corpus_mod.project_dir(e).name for e in entries[th]]
        return ["."]

    jl_set = [*jaxlint, "-q", "--exit-zero", "--no-cache", f"-j{args.jobs_n}"]
    jl_repo = [*jaxlint, "-q", "--exit-zero", "--no-cache", "-j1"]
    rf = [ruff, "check", "--isolated", "--no-cache", "--exit-zero"]
    cases = Cases(args.timeout)
    for which in sets:
        cases.add(f"{which}/jaxlint", [*jl_set, *targets(which)], roots[which])
        cases.add(f"{which}/ruff", [*rf, *targets(which)], roots[which])

    # Facts first (cheap), so that a stopped run still knows what it measured.
    facts = {}
    for which in sets:
        counted = [py_and_notebooks(corpus_mod.project_dir(e)) for e in entries[which]]
        facts[which] = {"repos": len(entries[which]),
                        "files": sum(c[0] for c in counted),
                        "lines": sum(c[1] for c in counted),
                        "notebooks": sum(c[2] for c in counted),
                        "nb_lines": sum(c[3] for c in counted)}
    per_repo = {e["name"]: py_and_notebooks(corpus_mod.project_dir(e)) for e in entries[th]}

    # Warm the page cache and the .pyc files (not recorded).
    run_mod.log("warm-up (not recorded)")
    for which in sets:
        run_mod.measure(["grep", "-rlq", "jax", *targets(which)], roots[which], args.timeout)
    run_mod.measure([*jaxlint, "-q", "--no-cache", str(run_mod.SEED)], REPO, args.timeout)

    set_keys = [k for which in sets for k in (f"{which}/jaxlint", f"{which}/ruff")]
    for rnd in range(args.rounds):
        cases.round(set_keys[rnd % len(set_keys):] + set_keys[:rnd % len(set_keys)], rnd)

    repo_keys = []
    for e in entries[th] if args.repo_rounds else []:
        folder = corpus_mod.project_dir(e)
        for tool, cmd in (("jaxlint", jl_repo), ("ruff", rf)):
            cases.add(f"repo/{e['name']}/{tool}", [*cmd, "."], folder)
            repo_keys.append(f"repo/{e['name']}/{tool}")
    for rnd in range(args.repo_rounds):
        run_mod.log(f"per-repository round {rnd + 1}")
        cases.round(repo_keys, rnd, quiet=True)

    scripts = training_scripts(entries[th])
    picks: dict = {}
    parsed: dict = {}
    passed = []
    try:
        from jaxlint.settings import might_matter  # the CLI's byte-level prefilter

        # project=True: as the command line asks it with the project index on (its default);
        # the project's configured timers (extras) are not read here.
        passed = [t for t in scripts if might_matter(t[1].read_bytes(), project=True)]
    except ImportError:  # pragma: no cover - an older jaxlint: no column to fill
        pass
    if scripts and args.file_rounds:
        picks["median"] = scripts[len(scripts) // 2]
        picks["90th percentile"] = scripts[min(len(scripts) - 1, (len(scripts) * 9) // 10)]
        if passed:
            picks["median of those the prefilter passes"] = passed[len(passed) // 2]
        for what, (_, path, e) in picks.items():
            folder = corpus_mod.project_dir(e)
            rel = str(path.relative_to(folder))
            cases.add(f"file/{what}/jaxlint", [*jaxlint, "--no-cache", "-q", rel], folder)
            cases.add(f"file/{what}/ruff", [*rf, rel], folder)
        file_keys = [k for k in cases.cmds if k.startswith("file/")]
        for rnd in range(args.file_rounds):
            cases.round(file_keys, rnd)
        # Whether the run parsed the file (libcst imported), whatever the prefilter said.
        it_args = argparse.Namespace(python=args.python, file_timeout=args.timeout)
        for what, (_, path, e) in picks.items():
            folder = corpus_mod.project_dir(e)
            parsed[what] = run_mod.importtime(it_args, folder, str(path.relative_to(folder)),
                                              ["--no-cache"]).get("libcst")

    # What an editor waits for after an edit (the server's lint, imports summarised): every
    # training script, in one process (editor_latency.py), each edit's CPU; per script the
    # median of its edits.
    editor: dict[Path, tuple[float, float, int]] = {}  # path -> (first, median edit, findings)
    editor_load = None
    if scripts and args.edits:
        run_mod.log(f"editor latency: {len(scripts)} scripts, {args.edits} edits each")
        editor_load = os.getloadavg()[0]
        specs = [f"{corpus_mod.project_dir(e)}:{p.relative_to(corpus_mod.project_dir(e))}"
                 for _, p, e in scripts]
        proc = subprocess.run([args.python, str(HERE / "editor_latency.py"),
                               "--edits", str(args.edits), *specs],
                              capture_output=True, text=True, timeout=args.timeout)
        for line in proc.stdout.splitlines():
            row = json.loads(line)
            root, _, rel = row["file"].partition(":")
            editor[Path(root) / rel] = (row["first"], statistics.median(row["edits"]),
                                        row["findings"])
        if proc.returncode != 0:
            print(f"editor_latency.py failed: {proc.stderr.strip()[-500:]}", file=sys.stderr)

    load_end = os.getloadavg()
    def load_of(prefix: str) -> str:
        loads = [s.load1 for k, v in cases.samples.items() if k.startswith(prefix) for s in v]
        return f"{statistics.median(loads):.1f}" if loads else "—"

    # ----------------------------------------------------------------------------------------
    # Report
    out: list[str] = []
    add = out.append
    add(f"{START}\n## Timing-heavy corpus: jaxlint against ruff on the code JAX users write\n")
    add(f"Generated by `benchmarks/timing_heavy.py` on {started_at}; jaxlint at commit "
        f"`{commit}` (last change to jaxlint/: `{jaxlint_commit}`)"
        + (" plus uncommitted changes in jaxlint/" if dirty else "")
        + f", {run_mod.sh([ruff, '--version'])}, Python {platform.python_version()}, "
        f"{os.cpu_count()} cores. Load average (1, 5, 15 min) at the start "
        f"{load_start[0]:.2f} {load_start[1]:.2f} {load_start[2]:.2f}, at the end "
        f"{load_end[0]:.2f} {load_end[1]:.2f} {load_end[2]:.2f}; median 1-minute load at "
        f"the start of each run: {load_of(th + '/')} (timing-heavy set)"
        + ("" if args.no_library else f", {load_of(corpus_mod.LIBRARY + '/')} (library set)")
        + f", {load_of('repo/')} (per repository), {load_of('file/')} "
        f"(per file). {args.rounds} rounds of the whole-set runs, "
        f"{args.repo_rounds} of the per-repository runs, {args.file_rounds} of the per-file "
        "runs, interleaved; medians. CPU = user+sys of the whole process tree. "
        f"`jaxlint -q --exit-zero --no-cache -j{args.jobs_n} .` against `ruff check --isolated "
        "--no-cache --exit-zero .` (default rules), in each set's folder.\n")
    if args.repos:
        add(f"> **Subset run** (`--repos {args.repos}`): the timing-heavy totals are of these "
            "repositories alone.\n")
    add("On a shared machine read the CPU ratio: wall times move with the other jobs' load "
        "(the jaxlint wall column gives the rounds' range).\n")
    add("| set | repositories | .py files | lines | notebooks (code lines) | jaxlint wall | "
        "jaxlint CPU | ruff wall | ruff CPU | wall ratio | CPU ratio | target | result |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for which in sets:
        if not cases.samples[f"{which}/jaxlint"]:
            continue
        f = facts[which]
        jw, jc = cases.med(f"{which}/jaxlint", "wall"), cases.med(f"{which}/jaxlint")
        rw, rc = cases.med(f"{which}/ruff", "wall"), cases.med(f"{which}/ruff")
        limit, goal = TARGETS[which]
        worst = max(jw / rw, jc / rc)
        result = ("**pass**" if worst <= limit else "**miss**") + (
            f" (goal {goal:g}x)" if goal != limit else "")
        walls = [x.wall for x in cases.samples[f"{which}/jaxlint"]]
        spread = (f" ({run_mod.fmt_s(min(walls))}–{run_mod.fmt_s(max(walls))})"
                  if len(walls) > 1 else "")
        add(f"| {which} | {f['repos']} | {f['files']:,} | {f['lines']:,} | "
            f"{f['notebooks']} ({f['nb_lines']:,}) | "
            f"{run_mod.fmt_s(jw)}{spread} | {run_mod.fmt_s(jc)} | {run_mod.fmt_s(rw)} | "
            f"{run_mod.fmt_s(rc)} | {jw / rw:.2f}x | {jc / rc:.2f}x | ≤ {limit:g}x | "
            f"{result} |")
    add("")
    if repo_keys:
        add("### Per repository, worst first\n")
        add("Each repository's folder alone: `jaxlint -q --no-cache -j1 .` (one process: its CPU "
            "is the work) and `ruff check --isolated --no-cache .`, median CPU. A jaxlint run "
            "that parses any file pays Python's start-up and libcst's import (about 0.3 s) "
            "once, which weighs most on the small repositories.\n")
        add("| repository | category | commit | .py files | lines | notebooks (code lines) | "
            "jaxlint -j1 CPU | ruff CPU | jaxlint / ruff |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        rows = []
        for e in entries[th]:
            jc = cases.med(f"repo/{e['name']}/jaxlint")
            rc = cases.med(f"repo/{e['name']}/ruff")
            rows.append((jc / rc if rc else float("inf"), e, jc, rc))
        for ratio, e, jc, rc in sorted(rows, key=lambda r: -r[0]):
            n, lines, nb, nb_lines = per_repo[e["name"]]
            add(f"| [{e['name']}](https://github.com/{e['repo']}) | {e.get('category', '')} | "
                f"`{e['commit'][:12]}` | {n} | {lines:,} | {nb} ({nb_lines:,}) | "
                f"{run_mod.fmt_s(jc)} | "
                f"{run_mod.fmt_s(rc)} | {ratio:.1f}x |")
        jt, rt = sum(r[2] for r in rows), sum(r[3] for r in rows)
        add(f"| **all, one repository at a time** | | | | | | {run_mod.fmt_s(jt)} | "
            f"{run_mod.fmt_s(rt)} | {jt / rt:.1f}x |")
        add("")
    if picks:
        add("### Per-file latency: the median training script\n")
        add(f"{len(scripts)} training or benchmark scripts in the timing-heavy set (files named "
            "`train*.py`, `*_train*.py`, `bench*.py`, `*_bench*.py`), ordered by size; "
            f"{len(passed)} of them pass jaxlint's prefilter as the command line calls it "
            "(`might_matter(..., project=True)`, without the repository's own configured "
            "timers). The median one, the 90th percentile and the median of those the prefilter "
            "passes, each alone in a fresh process from its repository's root (`jaxlint "
            f"--no-cache -q FILE`), {args.file_rounds} rounds, median; `ruff check --isolated "
            "--no-cache FILE` beside it. *Parsed*: whether that run imported libcst "
            "(`python -X importtime`), i.e. analysed the file rather than stopping at the "
            "prefilter.\n")
        add("| script | file | lines | prefilter passes | parsed | jaxlint wall | jaxlint CPU | "
            "ruff wall | jaxlint / ruff (wall) |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        for what, (_, path, e) in picks.items():
            jw = cases.med(f"file/{what}/jaxlint", "wall")
            jc = cases.med(f"file/{what}/jaxlint")
            rw = cases.med(f"file/{what}/ruff", "wall")
            lines = path.read_bytes().count(b"\n")
            rel = path.relative_to(corpus_mod.project_dir(e))
            passes = "yes" if any(t[1] == path for t in passed) else "no"
            lib = {True: "yes", False: "no"}.get(parsed.get(what), "unknown")
            add(f"| {what} | `{e['name']}/{rel}` | {lines:,} | {passes} | {lib} | "
                f"{run_mod.fmt_s(jw)} | "
                f"{run_mod.fmt_s(jc)} | {run_mod.fmt_s(rw)} | {jw / rw:.1f}x |")
        add("")
    if editor:
        ordered = sorted(editor.values(), key=lambda v: v[1])
        passing = sorted((editor[t[1]] for t in passed if t[1] in editor), key=lambda v: v[1])

        def ms(seconds: float) -> str:
            if seconds >= 1:
                return f"{seconds:.2f} s"
            return f"{seconds * 1000:.0f} ms" if seconds >= 0.01 else f"{seconds * 1000:.1f} ms"

        def pct(vals: list, q: float) -> tuple[float, float, int]:
            return vals[min(len(vals) - 1, int(len(vals) * q))]

        add("### Editor latency: a lint after an edit, imports summarised\n")
        add(f"What the editor server does after each edit (`benchmarks/editor_latency.py`): "
            f"for each of the {len(editor)} training scripts above, in one process, the "
            "settings the server makes for it, a first lint (which summarises what the file "
            f"imports; the server keeps the summaries, and the trees of the file's top-level "
            f"statements, `jaxlint.chunks`), then {args.edits} lints of the buffer with one "
            "more comment line at its end each (only the last statement's chunk is parsed "
            "again), timed as the server runs them (the findings; "
            "the server makes a finding's fix when a code action asks for it), CPU; per "
            "script the median of its edits. "
            "Target (performance issue): the median training script under 50 ms. "
            f"1-minute load at the start: {editor_load:.1f}.\n")
        add("| scripts | how many | median, after an edit | 90th percentile, after an edit | "
            "worst, after an edit | median first lint | target | result |")
        add("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for label, vals in (("all training scripts", ordered),
                            ("those the prefilter passes", passing)):
            if not vals:
                continue
            med = pct(vals, 0.5)[1]
            firsts = sorted(v[0] for v in vals)
            add(f"| {label} | {len(vals)} | {ms(med)} | {ms(pct(vals, 0.9)[1])} | "
                f"{ms(vals[-1][1])} | {ms(firsts[len(firsts) // 2])} | ≤ 50 ms | "
                f"{'pass' if med <= 0.05 else '**miss**'} |")
        slow = sorted(((v[1], p, v[2]) for p, v in editor.items()), reverse=True)[:5]
        add("\nThe slowest after an edit:\n")
        for seconds, path, found in slow:
            rel = path.relative_to(corpus_mod.SET_DIRS[th])
            add(f"- `{rel}`: {ms(seconds)}, {found} finding(s)")
        add("")
    odd = {}
    for key, samples in cases.samples.items():
        for smp in samples:
            if smp.rc not in (0, 1) or smp.timed_out:
                tail = smp.stderr_tail.strip().splitlines()[-1:] or [""]
                what = "killed at the time limit" if smp.timed_out else f"exit {smp.rc}"
                odd.setdefault((key, what, tail[0][:200]), 0)
                odd[(key, what, tail[0][:200])] += 1
    if odd:
        add("Runs that did not end with 0 or 1 (their times are in the medians all the same):\n")
        for (key, what, tail), n in odd.items():
            add(f"- `{key}`: {what} in {n} run(s): `{tail}`")
        add("")
    add("Reproduce: `python benchmarks/corpus.py --set timing-heavy && python "
        "benchmarks/timing_heavy.py" + (f" {' '.join(argv if argv is not None else sys.argv[1:])}"
                                        if (argv or sys.argv[1:]) else "") + "`.\n")
    add(END)
    body = "\n".join(out) + "\n"
    print(body)
    if not args.no_write:
        write_section(args.out, START, END, body)
        run_mod.log(f"wrote the timing-heavy section of {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
