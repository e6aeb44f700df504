#!/usr/bin/env python3
"""Benchmark jaxlint against grep, ruff and flake8 on a pinned corpus; write RESULTS.md.

What is measured (the targets of the performance issue):

* whole corpus: ``grep -rlE`` for clock names (the floor: read every file once), ``ruff check``
  (default rules), jaxlint without cache (``-j1`` and ``-jN`` where ``-j`` exists), jaxlint's
  first run with an empty cache and its second run with nothing changed (where ``--no-cache``
  exists), flake8 without jaxlint, flake8 with the JAX plugin, ``flake8 --select JAX``;
* one file: a corpus file without any timer (the pre-commit case; with ``-X importtime`` to see
  whether libcst is imported), and ``fixtures/JAX101/seed.py`` (one finding) against flake8.

Runs are interleaved: each round runs every case once, in an order rotated by one each round,
so slow drift of the machine spreads over all tools. Slow cases (a full jaxlint analysis of the
corpus) run ``--slow-rounds`` times, the rest ``--rounds`` times. Each run's wall time, CPU time
(user+sys of the process and all its children, from wait4) and memory are recorded: the largest
single process's max RSS (wait4), and the peak total PSS of the whole process tree (sampled from
/proc every 0.2 s; PSS counts pages shared between forked workers once).

The jaxlint under test is whatever ``jaxlint`` on PATH (or ``--jaxlint``) runs: from this repo's
virtual environment, the working tree. Options that do not exist in its ``--help`` (``-j``,
``--no-cache``) are detected, and the rows that need them say "n/a (flag not present)".

Usage (from the repository root)::

    python benchmarks/run.py                 # full run, writes benchmarks/RESULTS.md
    python benchmarks/run.py --sample 10     # every 10th corpus file only: a quick look
    python benchmarks/run.py --rounds 5 --slow-rounds 2 --file-rounds 10

The corpus is fetched first (benchmarks/corpus.py; needs the package index once).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import importlib.metadata as md
import json
import os
import platform
import pstats
import re
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

import corpus as corpus_mod  # noqa: E402

PATTERN = r"perf_counter|time\.time|timeit|monotonic"
SEED = REPO / "fixtures" / "JAX101" / "seed.py"
FLAKE8_PLAIN = HERE / "flake8_without_jaxlint.py"
CACHE_DIRNAME = ".jaxlint_cache"
NA_FLAG = "n/a (flag not present)"


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


# --------------------------------------------------------------------------------------------
# Measuring one run


def _children_map() -> dict[int, list[int]]:
    kids: dict[int, list[int]] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        # pid (comm) state ppid ...; comm may hold spaces and parentheses
        rest = stat[stat.rfind(b")") + 2:].split()
        kids.setdefault(int(rest[1]), []).append(int(name))
    return kids


def _pss_kb(pid: int) -> int:
    try:
        with open(f"/proc/{pid}/smaps_rollup", "rb") as f:
            for line in f:
                if line.startswith(b"Pss:"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return 0


class TreeSampler(threading.Thread):
    """Peak total PSS (kB) and peak process count of ``pid`` and its descendants."""

    def __init__(self, pid: int, interval: float = 0.2) -> None:
        super().__init__(daemon=True)
        self.pid, self.interval = pid, interval
        self.peak_kb = 0
        self.peak_procs = 0
        self._halt = threading.Event()

    def run(self) -> None:
        while not self._halt.wait(self.interval):
            kids = _children_map()
            tree, todo = [], [self.pid]
            while todo:
                p = todo.pop()
                tree.append(p)
                todo.extend(kids.get(p, ()))
            total = sum(_pss_kb(p) for p in tree)
            self.peak_kb = max(self.peak_kb, total)
            self.peak_procs = max(self.peak_procs, len(tree))

    def stop(self) -> None:
        self._halt.set()
        self.join()


@dataclass
class Sample:
    wall: float
    cpu: float  # user + sys of the process tree, seconds
    maxrss_mb: float  # largest single process
    tree_pss_mb: float  # sampled peak of the whole tree (0: ended before the first sample)
    procs: int
    rc: int
    load1: float  # 1-minute load average when the run started
    stderr_tail: str = ""
    timed_out: bool = False


def child_env() -> dict[str, str]:
    """The environment for every measured command: as ours, but Python may write .pyc files
    (with PYTHONDONTWRITEBYTECODE set, every run would compile jaxlint's modules again, which
    no installed copy does)."""
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


GNU_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None


def measure(cmd: list[str], cwd: Path, timeout: float, env: dict | None = None) -> Sample:
    """Run ``cmd`` once. Max RSS comes from GNU time where present: a child forked from this
    Python process starts with this process's resident pages counted (~40 MB), which would
    hide the real figure of a small program such as grep."""
    env = child_env() if env is None else env
    load1 = os.getloadavg()[0]
    rss_file = None
    if GNU_TIME:
        fd, rss_file = tempfile.mkstemp(suffix=".rss")
        os.close(fd)
        cmd = [GNU_TIME, "-q", "-f", "%M", "-o", rss_file, *cmd]
    with tempfile.TemporaryFile() as err:
        t0 = time.perf_counter()
        proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.DEVNULL, stderr=err,
                                stdin=subprocess.DEVNULL, env=env, start_new_session=True)
        sampler = TreeSampler(proc.pid)
        sampler.start()
        killed = threading.Event()

        def kill() -> None:
            killed.set()
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

        timer = threading.Timer(timeout, kill)
        timer.start()
        try:
            _, status, ru = os.wait4(proc.pid, 0)
        except BaseException:  # interrupted or terminated: take the child's group with us
            kill()
            raise
        finally:
            wall = time.perf_counter() - t0
            timer.cancel()
            sampler.stop()
        proc.returncode = os.waitstatus_to_exitcode(status)
        err.seek(0)
        tail = err.read()[-2000:].decode("utf-8", "replace")
    maxrss_kb = ru.ru_maxrss
    if rss_file:
        try:
            maxrss_kb = int(Path(rss_file).read_text().split()[-1])
        except (OSError, ValueError, IndexError):
            pass  # killed before time wrote it: keep wait4's figure
        os.unlink(rss_file)
    return Sample(wall=wall, cpu=ru.ru_utime + ru.ru_stime, maxrss_mb=maxrss_kb / 1024,
                  tree_pss_mb=sampler.peak_kb / 1024, procs=sampler.peak_procs,
                  rc=proc.returncode, load1=load1, stderr_tail=tail,
                  timed_out=killed.is_set())


# --------------------------------------------------------------------------------------------
# Cases


@dataclass
class Case:
    key: str
    label: str
    cmd: list[str] | None  # None: not applicable
    group: str  # "corpus" or "file"
    slow: bool = False
    na: str = ""
    ok_rcs: tuple[int, ...] = (0,)
    before: object = None  # callable run before each measurement (not timed)
    once: bool = False  # measured in the first round only (e.g. filling the cache)
    samples: list[Sample] = field(default_factory=list)
    note: str = ""

    def stats(self) -> dict:
        if not self.samples:
            return {}
        walls = [s.wall for s in self.samples]
        cpus = [s.cpu for s in self.samples]
        return {
            "n": len(walls),
            "wall_median": statistics.median(walls),
            "wall_min": min(walls),
            "wall_max": max(walls),
            "cpu_median": statistics.median(cpus),
            "maxrss_mb": max(s.maxrss_mb for s in self.samples),
            "tree_pss_mb": max(s.tree_pss_mb for s in self.samples),
            "procs": max(s.procs for s in self.samples),
            "load1_median": statistics.median(s.load1 for s in self.samples),
            "rcs": sorted({s.rc for s in self.samples if not s.timed_out}),
            "timed_out": sum(s.timed_out for s in self.samples),
        }


def jaxlint_flags(jaxlint: list[str]) -> dict[str, bool]:
    out = subprocess.run([*jaxlint, "--help"], capture_output=True, text=True).stdout
    return {
        "jobs": bool(re.search(r"(^|\s)(-j\b|--jobs\b)", out)),
        "no_cache": "--no-cache" in out,
        "no_index": "--no-index" in out,
    }


def python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if p.is_file())


def pick_files(root: Path) -> dict[str, Path]:
    """Deterministic single-file cases: timer-free corpus files (no match of PATTERN)."""
    pat = re.compile(PATTERN.encode())
    clean = []
    for p in python_files(root):
        data = p.read_bytes()
        if not pat.search(data):
            clean.append((len(data), str(p), data))
    clean.sort()
    picks = {"clean_median": Path(clean[len(clean) // 2][1]),
             "clean_largest": Path(clean[-1][1])}
    # Timer-free, yet it names jax and holds "time" (runtime, timestep, ...): a cheap substring
    # prefilter lets it through, so it shows what parsing one file costs.
    loose = [c for c in clean if b"jax" in c[2] and b"time" in c[2]]
    if loose:
        picks["clean_loose"] = Path(loose[len(loose) // 2][1])
    return picks


def build_cases(args, root: Path, targets: list[str], flags: dict[str, bool],
                picks: dict[str, Path]) -> list[Case]:
    jl = args.jaxlint
    ncpu = args.jobs_n
    nocache = ["--no-cache"] if flags["no_cache"] else []
    flake8 = [args.python, "-m", "flake8", "--isolated"]
    flake8_plain = [args.python, str(FLAKE8_PLAIN), "--isolated"]
    cache_dir = root / CACHE_DIRNAME

    def wipe_cache() -> None:
        shutil.rmtree(cache_dir, ignore_errors=True)

    cases = [
        Case("grep_py", "grep -rlE (*.py only)", ["grep", "-rlE", "--include=*.py", PATTERN,
                                                   *targets], "corpus", ok_rcs=(0, 1)),
        Case("grep_all", "grep -rlE (all files, as in the issue)",
             ["grep", "-rlE", PATTERN, *targets], "corpus", ok_rcs=(0, 1)),
        Case("ruff", "ruff check (default rules)",
             [args.ruff, "check", "--isolated", "--no-cache", "--exit-zero", *targets],
             "corpus"),
    ]
    if flags["jobs"]:
        cases.append(Case("jaxlint_j1", "jaxlint -j1, no cache",
                          [*jl, "-q", "--exit-zero", *nocache, "-j1", *targets],
                          "corpus", slow=True))
        cases.append(Case("jaxlint_cold", f"jaxlint -j{ncpu}, no cache",
                          [*jl, "-q", "--exit-zero", *nocache, f"-j{ncpu}", *targets],
                          "corpus", slow=True))
    else:
        cases.append(Case("jaxlint_j1", "jaxlint -j1, no cache", None, "corpus", na=NA_FLAG))
        cases.append(Case("jaxlint_cold", "jaxlint (single process), no cache",
                          [*jl, "-q", "--exit-zero", *nocache, *targets], "corpus",
                          slow=True))
    if flags["no_index"]:
        jobs = [f"-j{ncpu}"] if flags["jobs"] else []
        cases.append(Case("jaxlint_noindex",
                          f"jaxlint {' '.join(jobs)} --no-index, no cache".replace("  ", " "),
                          [*jl, "-q", "--exit-zero", *nocache, *jobs, "--no-index", *targets],
                          "corpus", slow=True,
                          note="each file alone: what the cross-file index costs"))
    if flags["no_cache"] and args.cold_fills_cache:
        cold = next(c for c in cases if c.key == "jaxlint_cold")
        cold.cmd = [x for x in cold.cmd if x != "--no-cache"]
        cold.label += " (cache on but empty: this run fills it)"
        cold.label = cold.label.replace(", no cache", "")
        cold.before, cold.once = wipe_cache, True
        cases.append(Case("jaxlint_cached", "jaxlint, cache warm (second run, no change)",
                          [*jl, "-q", "--exit-zero", *targets], "corpus"))
    elif flags["no_cache"]:
        cases.append(Case("jaxlint_fill", "jaxlint, empty cache (first run, writes it)",
                          [*jl, "-q", "--exit-zero", *targets], "corpus", slow=True,
                          before=wipe_cache, once=True))
        cases.append(Case("jaxlint_cached", "jaxlint, cache warm (second run, no change)",
                          [*jl, "-q", "--exit-zero", *targets], "corpus"))
    else:
        cases.append(Case("jaxlint_fill", "jaxlint, empty cache (first run)", None, "corpus",
                          na=NA_FLAG))
        cases.append(Case("jaxlint_cached", "jaxlint, cache warm (second run)", None,
                          "corpus", na=NA_FLAG))
    cases += [
        Case("flake8_plain", "flake8 -j2 without jaxlint (pyflakes+pycodestyle+mccabe)",
             [*flake8_plain, "-j2", "--exit-zero", *targets], "corpus"),
        Case("flake8_plugin", "flake8 -j2 with the JAX plugin (default select)",
             [*flake8, "-j2", "--exit-zero", *targets], "corpus", slow=True),
        Case("flake8_jax", "flake8 -j2 --select JAX",
             [*flake8, "-j2", "--exit-zero", "--select", "JAX", *targets], "corpus",
             slow=True),
    ]
    for key, what in (("clean_median", "median-size timer-free file"),
                      ("clean_loose", "timer-free file naming jax and 'time'"),
                      ("clean_largest", "largest timer-free file")):
        if key in picks:
            rel = picks[key].relative_to(root)
            cases.append(Case(f"file_{key}", f"jaxlint, {what}",
                              [*jl, "-q", *nocache, str(rel)], "file", ok_rcs=(0, 1),
                              note=str(rel)))
    seed = str(SEED)
    cases += [
        Case("file_seed_jaxlint", "jaxlint, seed.py (one finding)",
             [*jl, "-q", *nocache, seed], "file", ok_rcs=(1,)),
        Case("file_seed_flake8", "flake8 without jaxlint, seed.py",
             [*flake8_plain, seed], "file", ok_rcs=(0, 1)),
        Case("file_seed_flake8_plugin", "flake8 with the JAX plugin, seed.py",
             [*flake8, seed], "file", ok_rcs=(1,)),
    ]
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c.key in keep]
    for c in cases:
        if args.skip and c.key in args.skip.split(",") and c.cmd is not None:
            c.cmd, c.na = None, "skipped (--skip)"
    return cases


def run_cases(cases: list[Case], args, root: Path, save=lambda: None) -> None:
    runnable = [c for c in cases if c.cmd is not None]
    corpus_cases = [c for c in runnable if c.group == "corpus"]
    file_cases = [c for c in runnable if c.group == "file"]

    def one(case: Case, rnd: int) -> None:
        if any(s.timed_out for s in case.samples):
            return  # it ran past the limit once; once is enough to know
        if case.before:
            case.before()
        limit = args.timeout if case.group == "corpus" else args.file_timeout
        s = measure(case.cmd, root, limit)
        case.samples.append(s)
        flag = "" if s.rc in case.ok_rcs else f"  UNEXPECTED rc={s.rc}: {s.stderr_tail[-300:]!r}"
        if s.timed_out:
            flag = f"  TIMED OUT after {limit:.0f}s"
        log(f"round {rnd + 1} {case.key}: wall {s.wall:.3f}s cpu {s.cpu:.2f}s "
            f"maxrss {s.maxrss_mb:.0f}MB pss {s.tree_pss_mb:.0f}MB load {s.load1:.1f}{flag}")
        save()  # the report so far: a run stopped early still leaves one

    # Warm the page cache and Python's bytecode caches; not recorded.
    log("warm-up (not recorded): grep, and each tool on seed.py (page cache, .pyc files)")
    for c in runnable:
        if c.key == "grep_all" or c.key.startswith("file_seed"):
            measure(c.cmd, root, args.timeout)

    rounds = max(args.rounds, args.slow_rounds)
    for rnd in range(rounds if corpus_cases else 0):
        order = corpus_cases[rnd % len(corpus_cases):] + corpus_cases[:rnd % len(corpus_cases)]
        if rnd % 2:
            order.reverse()
        # The warm-cache run needs the fill run before it; keep that pair in order.
        filler = next((c for c in order if c.before is not None and c.once), None)
        if filler is not None and rnd == 0:
            fill = filler
            order.remove(fill)
            cached = [c for c in order if c.key == "jaxlint_cached"]
            at = order.index(cached[0]) if cached else len(order)
            order.insert(at, fill)
        for case in order:
            limit = args.slow_rounds if case.slow else args.rounds
            if case.once and rnd > 0:
                continue
            if rnd >= limit:
                continue
            if case.key == "jaxlint_cached" and not any(
                    c.once and c.samples and not c.samples[0].timed_out for c in cases):
                case.na = "not run (the run that fills the cache did not finish)"
                continue
            one(case, rnd)
    for rnd in range(args.file_rounds):
        order = file_cases if rnd % 2 == 0 else list(reversed(file_cases))
        for case in order:
            one(case, rnd)


# --------------------------------------------------------------------------------------------
# Facts about the machine, the tools, the corpus


def sh(cmd: list[str], cwd: Path | None = None) -> str:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, cwd=cwd).stdout.strip()
    except OSError:
        return ""


def machine() -> dict:
    model = ""
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = ""
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    return {"cpu": model or platform.processor(), "cores": os.cpu_count(),
            "usable_cores": len(os.sched_getaffinity(0)), "memory": mem,
            "kernel": platform.release(), "load_at_start": os.getloadavg()}


def jaxlint_source_hash() -> str:
    h = hashlib.sha256()
    for p in sorted((REPO / "jaxlint").rglob("*.py")):
        h.update(str(p.relative_to(REPO)).encode() + b"\0" + p.read_bytes())
    return h.hexdigest()[:12]


def ruff_rules(args) -> int | str:
    out = sh([args.ruff, "check", "--isolated", "--show-settings", str(HERE / "run.py")])
    m = re.search(r"linter\.rules\.enabled = \[\n(.*?)\n\s*\]", out, re.S)
    return len(m.group(1).splitlines()) if m else "?"


def versions(args) -> dict:
    def dist(name: str) -> str:
        try:
            return md.version(name)
        except md.PackageNotFoundError:
            return "not installed"

    sha = sh(["git", "rev-parse", "--short=12", "HEAD"], REPO)
    dirty = sh(["git", "status", "--porcelain", "--", "jaxlint"], REPO)
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "jaxlint": sh([*args.jaxlint, "--version"]),
        "jaxlint_git": sha + (" + uncommitted changes in jaxlint/" if dirty else ""),
        "jaxlint_source_hash": jaxlint_source_hash(),
        "ruff": sh([args.ruff, "--version"]) + f" ({ruff_rules(args)} rules enabled by default)",
        "flake8": sh([args.python, "-m", "flake8", "--version"]).replace("\n", " "),
        "libcst": dist("libcst"),
        "grep": sh(["grep", "--version"]).splitlines()[0] if sh(["grep", "--version"]) else "",
    }


def corpus_facts(root: Path, targets: list[str], selected: list[str], args) -> dict:
    """``targets``: what the tools are given; ``selected``: the .py files among them."""
    entries = []
    for e in corpus_mod.load_spec():
        n, lines, size = corpus_mod.count(corpus_mod.project_dir(e))
        entries.append({**{k: e[k] for k in ("name", "version", "kind", "sha256")},
                        "files": n, "lines": lines, "bytes": size})
    facts = {"projects": entries,
             "files": sum(e["files"] for e in entries),
             "lines": sum(e["lines"] for e in entries)}
    sel = [root / t for t in selected]
    if args.sample > 1 or args.projects or args.kind:
        facts["subset"] = {"projects": args.projects or "all", "kind": args.kind or "both",
                           "every": args.sample,
                           "files": len(sel),
                           "lines": sum(p.read_bytes().count(b"\n") for p in sel)}
    # How many files each tool looks at.
    ruff_files = sh([args.ruff, "check", "--isolated", "--no-cache", "--show-files", *targets],
                    root).splitlines()
    facts["ruff_files"] = sum(1 for f in ruff_files if f.endswith((".py", ".pyi", ".ipynb")))
    facts["ipynb"] = 0 if args.sample > 1 else sum(
        1 for t in targets for _ in (root / t).rglob("*.ipynb"))
    try:
        from jaxlint.settings import might_matter  # the CLI's cheap prefilter, if present

        facts["prefilter_pass"] = sum(1 for p in sel if might_matter(p.read_bytes()))
        facts["prefilter_of"] = len(sel)
    except Exception as exc:  # noqa: BLE001 - only a statistic
        facts["prefilter_pass"] = f"unknown ({type(exc).__name__})"
    return facts


def importtime(args, root: Path, path: str, nocache: list[str]) -> dict:
    cmd = [args.python, "-X", "importtime", "-m", "jaxlint", "-q", *nocache, path]
    proc = subprocess.Popen(cmd, cwd=root, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True, env=child_env(), start_new_session=True)
    timed_out = False
    try:
        _, stderr = proc.communicate(timeout=args.file_timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        _, stderr = proc.communicate()
        timed_out = True
    mods = []
    for line in stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|(\s*)(\S+)", line)
        if m:
            mods.append((m.group(4), int(m.group(1)), int(m.group(2)), len(m.group(3))))
    top = [m for m in mods if m[3] == 1]
    return {
        "libcst": any(m[0] == "libcst" or m[0].startswith("libcst.") for m in mods),
        "modules": len(mods),
        "total_ms": sum(m[2] for m in top) / 1000,
        "slowest": sorted(((m[0], m[2] / 1000) for m in top), key=lambda x: -x[1])[:5],
        "timed_out": timed_out,
    }


def profile(args, root: Path, flags: dict[str, bool], files: list[str]) -> dict:
    """cProfile of one single-process jaxlint run over ``files``; the top entries."""
    out = HERE / ".cache" / "jaxlint.prof"
    nocache = ["--no-cache"] if flags["no_cache"] else []
    jobs = ["-j1"] if flags["jobs"] else []
    listfile = HERE / ".cache" / "profile-files.txt"
    listfile.write_text("\n".join(files))
    cmd = [args.python, "-m", "cProfile", "-o", str(out), "-m", "jaxlint", "-q",
           "--exit-zero", *nocache, *jobs, *files]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=child_env())
    wall = time.perf_counter() - t0
    if proc.returncode != 0 or not out.is_file():
        return {"error": proc.stderr[-1000:], "wall": wall}
    st = pstats.Stats(str(out))
    total = st.total_tt  # type: ignore[attr-defined]
    rows = []
    for (fn, line, name), (_cc, nc, tt, ct, _callers) in st.stats.items():  # type: ignore
        rows.append({"func": _short(fn, line, name), "ncalls": nc, "tottime": tt,
                     "cumtime": ct})
    skip = ("<frozen runpy>", "<string>:", "<built-in method builtins.exec>", "jaxlint/__main__")
    by_cum = sorted((r for r in rows if not r["func"].startswith(skip)),
                    key=lambda r: -r["cumtime"])[: args.profile_top]
    own = sorted((r for r in rows if r["func"].startswith("jaxlint/")),
                 key=lambda r: -r["cumtime"])[: args.profile_top]
    by_tot = sorted(rows, key=lambda r: -r["tottime"])[: args.profile_top]
    # Time per package (self time), to see jaxlint vs libcst vs the rest.
    per_pkg: dict[str, float] = {}
    for r in rows:
        per_pkg[_package(r["func"])] = per_pkg.get(_package(r["func"]), 0) + r["tottime"]
    return {"wall": wall, "total": total, "files": len(files), "by_cumtime": by_cum,
            "jaxlint_by_cumtime": own,
            "by_tottime": by_tot,
            "per_package": sorted(per_pkg.items(), key=lambda kv: -kv[1])[:8],
            "cmd": " ".join(shlex.quote(c) for c in cmd[:-len(files)]) + " FILES..."}


def _short(fn: str, line: int, name: str) -> str:
    if fn == "~":
        return name
    for marker in ("site-packages/", "/lib/python3"):
        if marker in fn:
            fn = fn.split(marker, 1)[1]
            break
    else:
        fn = os.path.relpath(fn, REPO) if fn.startswith(str(REPO)) else fn
    return f"{fn}:{line}({name})"


def _package(func: str) -> str:
    if func.startswith("jaxlint/"):
        parts = func.split("/")
        return "jaxlint/" + parts[1].split(":")[0] if len(parts) > 2 else "jaxlint (top)"
    if func.startswith("libcst/"):
        return "libcst"
    if func.startswith(("<", "{")):
        return "builtins"
    return "other"


# --------------------------------------------------------------------------------------------
# Report


def fmt_s(x: float | None) -> str:
    if x is None:
        return "—"
    return f"{x * 1000:.0f} ms" if x < 1 else f"{x:.2f} s"


def verdict(ratio: float | None, limit: float) -> str:
    if ratio is None:
        return "n/a"
    return "**pass**" if ratio <= limit else "**miss**"


def write_report(path: Path, cases: list[Case], facts: dict, args, extra: dict) -> None:
    by = {c.key: c for c in cases}

    def st(key: str) -> dict:
        return by[key].stats() if key in by else {}

    def val(key: str, what: str = "wall_median") -> float | None:
        return st(key).get(what)

    def ratio(a: str, b: str, what: str = "wall_median") -> float | None:
        x, y = val(a, what), val(b, what)
        return x / y if x is not None and y else None

    def r(x: float | None, suffix: str = "x", key: str = "") -> str:
        return "—" if x is None else f"{gt(key)}{x:.2f}{suffix}"

    def gt(key: str) -> str:
        """'>' where a run of ``key`` was killed at the time limit: its numbers are bounds."""
        return ">" if key and st(key).get("timed_out") else ""

    def t(key: str) -> str:
        return gt(key) + fmt_s(val(key))

    def na(key: str) -> str:
        return by[key].na if key in by and by[key].na else "not run"

    m, v, cf = facts["machine"], facts["versions"], facts["corpus"]
    lines: list[str] = []
    add = lines.append
    add("# jaxlint performance benchmark\n")
    add(f"Generated by `benchmarks/run.py` on {facts['date']} "
        f"(total benchmark time {facts['elapsed_s'] / 60:.1f} min).\n")
    if not facts.get("complete"):
        add("> **Partial**: written while the benchmark was still running (or it was stopped); "
            "cases with n = 0 had not run yet.\n")
    if "subset" in cf:
        sub = cf["subset"]
        what = (f"projects {sub['projects']}" if args.projects else "all projects") + (
            f", {sub['kind']} entries only" if sub.get("kind", "both") != "both" else "") + (
            f", every {sub['every']}th .py file" if sub["every"] > 1 else "")
        add(f"> **Subset run** ({what}): {sub['files']} .py files, {sub['lines']:,} lines, of "
            f"the corpus's {cf['files']} and {cf['lines']:,}. Absolute times are not the "
            "issue's whole-corpus ones; the ratios between tools on the same files are.\n")
    add("## Targets\n")
    add("Wall-clock medians, as the issue states its targets. Because this machine is shared "
        "(see the load average below), the CPU-time ratio (user+sys of the whole process tree) "
        "is given beside each wall ratio: it is far less disturbed by other processes.\n")
    add("| target | measured (median wall) | wall ratio | CPU ratio | limit | result |")
    add("| --- | --- | --- | --- | --- | --- |")
    cold = "jaxlint_cold"
    rows = [
        ("Corpus, no cache: no slower than `ruff check`", cold, "ruff", 1.0),
        ("Corpus, no cache: within 3x of grep (*.py)", cold, "grep_py", 3.0),
        ("Corpus, no cache: within 3x of grep (all files, literal)", cold, "grep_all", 3.0),
        ("Corpus, cache warm: within 2x of grep (*.py)", "jaxlint_cached", "grep_py", 2.0),
    ]
    for label, a, b, limit in rows:
        if val(a) is None:
            add(f"| {label} | {na(a)} | — | — | {limit:g}x | n/a |")
            continue
        add(f"| {label} | {t(a)} vs {t(b)} | {r(ratio(a, b), key=a)} | "
            f"{r(ratio(a, b, 'cpu_median'), key=a)} | {limit:g}x | "
            f"{verdict(ratio(a, b), limit)} |")
    if val(cold) is not None:
        pss, rss = st(cold)["tree_pss_mb"], st(cold)["maxrss_mb"]
        peak = max(pss, rss)
        add(f"| Corpus, no cache: peak memory under 150 MB | {peak:.0f} MB (tree PSS "
            f"{pss:.0f} MB, largest process RSS {rss:.0f} MB) | — | — | 150 MB | "
            f"{'**pass**' if peak < 150 else '**miss**'} |")
    if val("jaxlint_j1") is not None:
        pss, rss = st("jaxlint_j1")["tree_pss_mb"], st("jaxlint_j1")["maxrss_mb"]
        peak = max(pss, rss)
        add(f"| Corpus, -j1: peak memory under 150 MB | {peak:.0f} MB | — | — | 150 MB | "
            f"{'**pass**' if peak < 150 else '**miss**'} |")
    it = extra.get("importtime", {})
    for key in ("file_clean_median", "file_clean_loose", "file_clean_largest"):
        if val(key) is None:
            continue
        lib = it.get(key, {}).get("libcst")
        lib_s = "unknown" if lib is None else ("libcst imported" if lib else "libcst not imported")
        ok = val(key) < 0.1 and lib is False and not gt(key)
        add(f"| One timer-free file under 0.1 s, libcst not imported ({by[key].label[9:]}) | "
            f"{t(key)}; {lib_s} | — | — | 0.1 s | {'**pass**' if ok else '**miss**'} |")
    if val("file_seed_jaxlint") is not None:
        a, b = "file_seed_jaxlint", "file_seed_flake8"
        add(f"| One file with a finding: no slower than flake8 | {t(a)} vs "
            f"{t(b)} | {r(ratio(a, b))} | {r(ratio(a, b, 'cpu_median'))} | 1x | "
            f"{verdict(ratio(a, b), 1.0)} |")
    if val("flake8_plugin") is not None and val("flake8_plain") is not None:
        ow = ratio("flake8_plugin", "flake8_plain") - 1
        oc = ratio("flake8_plugin", "flake8_plain", "cpu_median") - 1
        add(f"| flake8 plugin adds under 5% to flake8 over the corpus | "
            f"{t('flake8_plugin')} vs {t('flake8_plain')} | {gt('flake8_plugin')}{ow * 100:+.1f}%"
            f" | {gt('flake8_plugin')}{oc * 100:+.1f}% | +5% | "
            f"{'**pass**' if ow <= 0.05 else '**miss**'} |")
    add("")
    add("Why each miss, with the profile behind it and what would close it: "
        "[MISSES.md](MISSES.md) (written by hand from this file and `benchmarks/phases.py`).\n")
    add("## All measurements\n")
    add(f"Corpus cases run {args.rounds} rounds ({args.slow_rounds} for the slow ones, a full "
        f"jaxlint analysis), single-file cases {args.file_rounds}, interleaved. CPU = user+sys "
        "of the process and its children. Max RSS: the largest single process. Tree PSS: peak "
        "total proportional set size of all the run's processes, sampled every 0.2 s (0: the "
        "run ended before the first sample). Load: 1-minute load average at the start of each "
        f"run (median), on {m['usable_cores']} cores.\n")
    add("| case | n | wall median | wall min–max | CPU median | max RSS | tree PSS | procs | "
        "load | notes |")
    add("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for c in cases:
        s = c.stats()
        if not s:
            add(f"| {c.label} | 0 | {c.na or 'not run'} | | | | | | | {c.note} |")
            continue
        bad = [x for x in s["rcs"] if x not in c.ok_rcs]
        note = c.note + (f" exit status {bad}" if bad else "")
        g = ">" if s["timed_out"] else ""
        if g:
            note += " **killed at the time limit**: times are lower bounds"
        add(f"| {c.label} | {s['n']} | {g}{fmt_s(s['wall_median'])} | {fmt_s(s['wall_min'])}–"
            f"{g}{fmt_s(s['wall_max'])} | {g}{fmt_s(s['cpu_median'])} | {s['maxrss_mb']:.0f} MB | "
            f"{s['tree_pss_mb']:.0f} MB | {s['procs']} | {s['load1_median']:.1f} | {note} |")
    add("")
    if it:
        add("### Imports for one file (`python -X importtime -m jaxlint -q FILE`)\n")
        add("| case | libcst imported | modules imported | top-level import time | slowest |")
        add("| --- | --- | --- | --- | --- |")
        for key, d in it.items():
            slow = ", ".join(f"{n} {ms:.0f} ms" for n, ms in d["slowest"])
            lbl = (by[key].label if key in by else key) + (
                f" (killed after {args.file_timeout:.0f} s)" if d.get("timed_out") else "")
            add(f"| {lbl} | {'yes' if d['libcst'] else 'no'} | "
                f"{d['modules']} | {d['total_ms']:.0f} ms | {slow} |")
        add("")
    add("## Machine and versions\n")
    add(f"- CPU: {m['cpu']}, {m['cores']} cores ({m['usable_cores']} usable), memory "
        f"{m['memory']}, Linux {m['kernel']}")
    la = m["load_at_start"]
    add(f"- Load average at start: {la[0]:.2f} {la[1]:.2f} {la[2]:.2f}; at end: "
        f"{facts['load_at_end'][0]:.2f} {facts['load_at_end'][1]:.2f} "
        f"{facts['load_at_end'][2]:.2f}")
    for k in ("python", "jaxlint", "jaxlint_git", "ruff", "flake8", "libcst", "grep"):
        add(f"- {k.replace('_', ' ')}: {v[k]}")
    add(f"- jaxlint source hash (sha256 of jaxlint/**/*.py, 12 digits): at start "
        f"{v['jaxlint_source_hash']}, at end {facts['source_hash_end']}"
        + (" — **the sources changed during the run**: numbers mix two versions"
           if v["jaxlint_source_hash"] != facts["source_hash_end"] else ""))
    add(f"- jaxlint flags detected: -j/--jobs {'yes' if facts['flags']['jobs'] else 'no'}, "
        f"--no-cache {'yes' if facts['flags']['no_cache'] else 'no'}")
    add("")
    add("## Corpus\n")
    add("Two kinds of source, pinned in `benchmarks/corpus.json` (fetched by "
        "`benchmarks/corpus.py` into `benchmarks/.cache/corpus/`): the released source "
        "distributions from the package index (kind sdist, checked by sha256), and the same "
        "projects' git repositories at pinned commits (kind git: with their tests, examples "
        "and notebooks, which the sdists leave out; together they are the issue's 1,941 files "
        "and 832k lines). Without `--kind`, a run lints both.\n")
    add("| project | version | kind | .py files | lines |")
    add("| --- | --- | --- | --- | --- |")
    for e in cf["projects"]:
        add(f"| {e['name']} | {e['version']} | {e['kind']} | {e['files']} | {e['lines']:,} |")
    add(f"| **total** | | | **{cf['files']}** | **{cf['lines']:,}** |")
    add("")
    add(f"Files each tool checks: grep (*.py) and flake8 the .py files; ruff "
        f"{cf['ruff_files']} (.py, .pyi, .ipynb); jaxlint the .py files plus "
        f"{cf.get('ipynb', 0)} notebooks. jaxlint's byte-level prefilter (`might_matter`: "
        f"imports time/timeit and spells a clock, and names jax) passes "
        f"{cf.get('prefilter_pass')} of "
        f"{cf.get('prefilter_of', '?')} .py files; only those are parsed.\n")
    add("Single-file cases: " + "; ".join(
        f"{c.label[9:]} = `{c.note}`" for c in cases if c.key.startswith("file_clean")) +
        f"; seed.py = `{SEED.relative_to(REPO)}`.\n")
    prof = extra.get("profile")
    if prof:
        add("## Profile\n")
        if "error" in prof:
            add(f"cProfile run failed:\n\n```\n{prof['error']}\n```\n")
        else:
            add(f"`{prof['cmd']}` over {prof['files']} files (every {args.profile_sample}th "
                ".py file of the run's projects, so it runs in minutes), in the corpus folder: "
                f"{prof['wall']:.1f} s wall under the profiler, {prof['total']:.1f} s "
                "profiled.\n")
            add("Self time by package:\n")
            add("| package | self time | share |")
            add("| --- | --- | --- |")
            for name, t in prof["per_package"]:
                add(f"| {name} | {t:.2f} s | {t / prof['total'] * 100:.0f}% |")
            add("")
            for title, key in (("cumulative time", "by_cumtime"),
                               ("cumulative time, jaxlint's own functions", "jaxlint_by_cumtime"),
                               ("self time", "by_tottime")):
                add(f"Top {args.profile_top} by {title}:\n")
                add("| function | calls | self | cumulative |")
                add("| --- | --- | --- | --- |")
                for row in prof[key]:
                    add(f"| `{row['func']}` | {row['ncalls']:,} | {row['tottime']:.2f} s | "
                        f"{row['cumtime']:.2f} s |")
                add("")
    add("## Reproduce\n")
    add("From the repository root, with jaxlint installed in the environment "
        "(`python -m pip install -e .`) and ruff and flake8 beside it:\n")
    add("```console")
    add(f"$ python benchmarks/run.py {' '.join(shlex.quote(a) for a in facts['argv'])}".rstrip())
    add("```\n")
    add("The exact commands of each case (run in `benchmarks/.cache/corpus/`):\n")
    add("```")
    for c in cases:
        if c.cmd:
            cmd = [os.path.basename(x) if x in (args.python, args.ruff) else x for x in c.cmd]
            if len(cmd) > 12:
                cmd = cmd[:12] + ["..."]
            add(f"{c.key}: {' '.join(shlex.quote(x) for x in cmd)}")
    add("```")
    # Sections other scripts write (growth.py, jobs.py, timing_heavy.py) sit between their
    # markers; keep them (names may hold a hyphen: timing-heavy).
    old = path.read_text() if path.exists() else ""
    blocks = re.finditer(r"<!-- ([\w-]+):start -->.*?<!-- \1:end -->\n", old, re.S)
    path.write_text("\n".join(lines) + "\n" + "".join("\n" + m.group(0) for m in blocks))


# --------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=3, help="rounds of the fast corpus cases")
    ap.add_argument("--slow-rounds", type=int, default=1,
                    help="rounds of the slow corpus cases (full jaxlint analyses)")
    ap.add_argument("--file-rounds", type=int, default=7, help="rounds of single-file cases")
    ap.add_argument("--projects",
                    help="comma-separated corpus projects to use (default: all), e.g. "
                    "equinox,optax for a quick complete run")
    ap.add_argument("--kind", choices=("sdist", "git"),
                    help="only the corpus entries of this kind: the released sources (sdist) "
                    "or the repositories at pinned commits (git); default both")
    ap.add_argument("--sample", type=int, default=1,
                    help="lint every Nth corpus .py file only (quick look; default: all)")
    ap.add_argument("--jobs-n", type=int, default=os.cpu_count() or 2,
                    help="N for the jaxlint -jN case (default: cores)")
    ap.add_argument("--timeout", type=float, default=1800,
                    help="seconds per corpus run (a run past it is killed, reported as '>')")
    ap.add_argument("--file-timeout", type=float, default=120,
                    help="seconds per single-file run")
    ap.add_argument("--only", help="comma-separated case keys to run")
    ap.add_argument("--skip", help="comma-separated case keys not to run")
    ap.add_argument("--cold-fills-cache", action="store_true",
                    help="measure the cold run with the cache on but empty (it fills the cache "
                    "for the warm runs), instead of a --no-cache run plus a separate fill run: "
                    "one full analysis less")
    ap.add_argument("--no-profile", action="store_true")
    ap.add_argument("--profile-sample", type=int, default=10,
                    help="profile jaxlint on every Nth corpus .py file (default 10)")
    ap.add_argument("--profile-top", type=int, default=15)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--jaxlint", default=None,
                    help="jaxlint command (default: jaxlint beside this Python)")
    ap.add_argument("--ruff", default=None)
    ap.add_argument("--out", type=Path, default=HERE / "RESULTS.md")
    ap.add_argument("--json", type=Path, default=HERE / "results.json")
    args = ap.parse_args(argv)

    def terminate(signum, frame):
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, terminate)
    bindir = Path(args.python).parent
    args.jaxlint = shlex.split(args.jaxlint) if args.jaxlint else (
        [str(bindir / "jaxlint")] if (bindir / "jaxlint").exists()
        else [args.python, "-m", "jaxlint"])
    args.ruff = args.ruff or (str(bindir / "ruff") if (bindir / "ruff").exists()
                              else shutil.which("ruff") or "ruff")
    started = time.perf_counter()
    facts: dict = {"date": _dt.datetime.now().astimezone().isoformat(timespec="seconds"),
                   "argv": sys.argv[1:] if argv is None else argv}

    try:
        root = corpus_mod.ensure_corpus(quiet=True)
    except corpus_mod.CorpusError as e:
        print(f"run.py: error: {e}", file=sys.stderr)
        return 1
    flags = jaxlint_flags(args.jaxlint)
    facts["flags"] = flags
    facts["machine"] = machine()
    facts["versions"] = versions(args)
    log(f"jaxlint {facts['versions']['jaxlint_git']}, flags {flags}")

    dirs = [corpus_mod.project_dir(e).name for e in corpus_mod.load_spec()
            if (not args.projects or e["name"] in args.projects.split(","))
            and (not args.kind or e.get("kind", "sdist") == args.kind)]
    if not dirs:
        ap.error(f"--projects/--kind: none of {args.projects or args.kind} is in corpus.json")
    all_py = [str(p.relative_to(root)) for d in dirs for p in python_files(root / d)]
    if args.sample > 1:
        targets = all_py[:: args.sample]
    elif args.projects or args.kind:
        targets = dirs
    else:
        targets = ["."]
    selected = targets if args.sample > 1 else all_py
    facts["corpus"] = corpus_facts(root, targets, selected, args)
    picks = pick_files(root)
    cases = build_cases(args, root, targets, flags, picks)
    uses_cache = any(c.cmd and c.key in ("jaxlint_fill", "jaxlint_cached") for c in cases)
    if uses_cache:  # else leave it alone: another run may be using it
        shutil.rmtree(root / CACHE_DIRNAME, ignore_errors=True)
    log(f"{len(cases)} cases; corpus {facts['corpus']['files']} files, "
        f"{facts['corpus']['lines']:,} lines")

    extra: dict = {"importtime": {}}
    nocache = ["--no-cache"] if flags["no_cache"] else []
    for c in cases:
        if c.cmd and (c.key.startswith("file_clean") or c.key == "file_seed_jaxlint"):
            extra["importtime"][c.key] = importtime(args, root, c.cmd[-1], nocache)

    def save(final: bool = False) -> None:
        facts["elapsed_s"] = time.perf_counter() - started
        facts["load_at_end"] = os.getloadavg()
        facts["source_hash_end"] = jaxlint_source_hash()
        facts["complete"] = final
        write_report(args.out, cases, facts, args, extra)
        data = {"facts": facts, "extra": extra,
                "cases": [{"key": c.key, "label": c.label, "cmd": c.cmd, "na": c.na,
                           "note": c.note, "stats": c.stats(),
                           "samples": [s.__dict__ for s in c.samples]} for c in cases]}
        args.json.write_text(json.dumps(data, indent=1, default=str) + "\n")

    run_cases(cases, args, root, save)

    if not args.no_profile and not args.only:
        files = all_py[:: args.profile_sample]
        log(f"profiling jaxlint on {len(files)} files")
        extra["profile"] = profile(args, root, flags, files)
        log(f"profile done in {extra['profile'].get('wall', 0):.0f}s")

    if uses_cache:
        shutil.rmtree(root / CACHE_DIRNAME, ignore_errors=True)
    save(final=True)
    log(f"wrote {args.out} and {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
