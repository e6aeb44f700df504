#!/usr/bin/env python3
"""Run ``jaxlint --fix`` over a large real corpus and check that it never does harm.

The corpus is the source distributions of JAX-ecosystem projects, pinned by exact version and
sha256 (PROJECTS below). For each project, and for each mode (safe ``--fix`` and
``--fix --unsafe-fixes``), the script

  1. extracts a fresh copy of the sdist into a temporary folder;
  2. notes which files compile on this Python before anything is done (a file that does not
     is the source's own problem, not jaxlint's);
  3. lints the tree (``--format json``) to learn which files have findings with a fix;
  4. runs ``jaxlint --fix`` over the tree, then checks that
       - every changed file still compiles,
       - no file without an applicable fixable finding changed (byte for byte),
       - a second ``--fix`` over the changed files changes nothing,
       - every ``error`` line is for a file that does not compile on this Python (anything
         else, a traceback or an exit status other than 0, 1, 2 is counted as a crash);
  5. counts files, findings, changed files and crashes.

Usage:
    python scripts/fix_corpus.py                  # every project, both modes
    python scripts/fix_corpus.py --write-safety   # ... and write the figures to SAFETY.md
    python scripts/fix_corpus.py --only flax chex --mode unsafe
    python scripts/fix_corpus.py --tree DIR       # check a local tree (copied first)
    python scripts/fix_corpus.py --labelled --no-projects   # the labelled corpus's files

``--labelled`` adds the labelled real-world corpus (``corpus/sources.json``,
``corpus/labels.json``): for each of its projects a fresh copy of the pinned sdist is fixed,
but only the labelled files are linted and fixed (the rest of the tree is there for the
project index), since whole trees such as jax's take far too long.

The sdists are cached (``--cache``, default ``~/.cache/jaxlint-fix-corpus``) and verified
against their sha256 every time. An archive with the right sha256 in an ``--sdist-dir``
(by default also ``corpus/.cache/sdist``, where ``corpus/fetch.py`` puts them) is copied
instead of downloaded. Downloading runs
``python -m pip download --no-deps --no-binary NAME NAME==VERSION``; ``--no-binary NAME``
takes the project's sdist while letting pip use wheels for its build backend (with
``:all:`` pip builds setuptools and friends from source too, which takes many minutes).

``check_tree`` is also used by ``tests/test_fix_safety.py::test_fix_corpus_slice`` on the
repository's own fixtures (no network).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import platform
import re
import shutil
import signal
import subprocess
import sys
import tarfile
import tempfile
import time
import zipfile
from dataclasses import asdict, dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The benchmark's pinned corpus (benchmarks/corpus.json: jax, flax, optax, equinox, brax,
# dm-haiku), one list of pins for both scripts, plus two more JAX libraries.
PROJECTS = [
    *json.loads((ROOT / "benchmarks" / "corpus.json").read_text(encoding="utf-8"))["projects"],
    {"name": "chex", "version": "0.1.92", "filename": "chex-0.1.92.tar.gz",
     "sha256": "fa8beff1124204ae466a6eb13cb91ae3c24322a1c7216946aee93d031e2f1996"},
    {"name": "diffrax", "version": "0.7.2", "filename": "diffrax-0.7.2.tar.gz",
     "sha256": "9adc70fe90dba83f7dd839845839b2531a3dd736a3944fe1aa26598507cfb48e"},
]
DEFAULT_CACHE = Path(os.environ.get("JAXLINT_FIX_CORPUS_CACHE",
                                    Path.home() / ".cache" / "jaxlint-fix-corpus"))
LABELLED = ROOT / "corpus"
# where corpus/fetch.py and benchmarks/corpus.py keep the archives they fetched
DEFAULT_SDIST_DIRS = [LABELLED / ".cache" / "sdist", ROOT / "benchmarks" / ".cache" / "dl"]
ERROR_LINE = re.compile(r"^(?P<path>.+?)(?::\d+:\d+)?: error: (?P<msg>.*)$")


# ----------------------------------------------------------------------------- fetching
def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def fetch(project: dict, cache: Path, sdist_dirs: list[Path] = DEFAULT_SDIST_DIRS) -> Path:
    """The verified sdist of ``project``: from ``cache/sdist``, else copied from one of
    ``sdist_dirs``, else downloaded into ``cache/sdist``."""
    folder = cache / "sdist"
    folder.mkdir(parents=True, exist_ok=True)
    archive = folder / project["filename"]
    for local in (d / project["filename"] for d in sdist_dirs):
        if (not archive.exists() or sha256(archive) != project["sha256"]) and local.is_file() \
                and sha256(local) == project["sha256"]:
            shutil.copyfile(local, archive)
    if not archive.exists() or sha256(archive) != project["sha256"]:
        archive.unlink(missing_ok=True)
        cmd = [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps",
               "--no-binary", project["name"], f"{project['name']}=={project['version']}",
               "-d", str(folder)]
        got = subprocess.run(cmd, capture_output=True, text=True)
        if got.returncode != 0 or not archive.exists():
            raise SystemExit(f"cannot download {project['name']}=={project['version']}: "
                             f"{got.stderr.strip()[-500:]}")
    digest = sha256(archive)
    if digest != project["sha256"]:
        raise SystemExit(f"{archive}: sha256 {digest} != pinned {project['sha256']}")
    return archive


def extract(archive: Path, dest: Path) -> Path:
    """Unpack ``archive`` into ``dest`` without its top folder; return ``dest``."""
    dest.mkdir(parents=True, exist_ok=True)
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as z:
            z.extractall(dest)
    else:
        with tarfile.open(archive) as t:
            if hasattr(tarfile, "data_filter"):
                t.extractall(dest, filter="data")
            else:  # pragma: no cover - Python < 3.10.12
                t.extractall(dest)  # noqa: S202
    tops = list(dest.iterdir())
    if len(tops) == 1 and tops[0].is_dir():
        inner = tops[0]
        for child in inner.iterdir():
            child.rename(dest / child.name)
        inner.rmdir()
    return dest


# ----------------------------------------------------------------------------- checking
@dataclass
class TreeReport:
    name: str
    mode: str  # "safe" or "unsafe"
    files: int = 0
    not_compiling_before: int = 0
    findings: int = 0
    fixable: int = 0  # findings whose fix applies in this mode
    files_with_fixes: int = 0
    changed: int = 0
    fixed_reported: int = 0  # "Fixed N findings" on stderr
    remaining_reported: int = 0
    source_errors: int = 0  # error lines for files that do not compile on this Python
    crashes: list[str] = field(default_factory=list)
    broken: list[str] = field(default_factory=list)  # changed and no longer compiles
    unexpected_changes: list[str] = field(default_factory=list)
    not_idempotent: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)  # refusals reported as errors (exit 2)
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not (self.crashes or self.broken or self.unexpected_changes
                    or self.not_idempotent)


def _jaxlint(args: list[str], cwd: Path, timeout: float) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    cmd = [sys.executable, "-m", "jaxlint", "--no-cache", *args]
    # A session of its own, so that a timeout (or this script dying) can end the pool
    # workers too: they outlive a killed jaxlint.
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env=env, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return subprocess.CompletedProcess(cmd, -9, out, f"TIMEOUT after {timeout} s\n{err}")
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(cmd, proc.returncode, out, err)


def _compiles(data: bytes, path: str) -> bool:
    """Python files: compile on this Python. Notebooks: valid JSON (their cells are code)."""
    if path.endswith(".ipynb"):
        try:
            json.loads(data)
        except ValueError:
            return False
        return True
    try:
        compile(data, path, "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False
    return True


def _files(root: Path, paths: list[str]) -> list[str]:
    """The files jaxlint checks for ``paths`` under ``root``, relative to it (its own
    discovery)."""
    from jaxlint.files import discover

    here = os.getcwd()
    os.chdir(root)
    try:
        return [os.path.normpath(p) for p in discover(paths) if isinstance(p, str)]
    finally:
        os.chdir(here)


def _error_lines(stderr: str) -> list[tuple[str, str]]:
    out = []
    for line in stderr.splitlines():
        m = ERROR_LINE.match(line)
        if m and not line.startswith("jaxlint:"):
            out.append((os.path.normpath(m["path"]), m["msg"]))
    return out


def _crash_text(result: subprocess.CompletedProcess[str]) -> str | None:
    if result.returncode not in (0, 1, 2) or "Traceback" in result.stderr:
        tail = result.stderr.strip().splitlines()[-3:]
        return f"exit {result.returncode}: " + " | ".join(tail)
    return None


def check_tree(root: Path, name: str, unsafe: bool, timeout: float = 3600,
               jobs: int = 0, paths: list[str] | None = None) -> TreeReport:
    """Fix ``root`` in place (it must be a throw-away copy) and check the result; with
    ``paths`` (relative to ``root``), lint and fix only those."""
    started = time.monotonic()
    report = TreeReport(name, "unsafe" if unsafe else "safe")
    paths = paths or ["."]
    files = _files(root, paths)
    report.files = len(files)
    before = {p: (root / p).read_bytes() for p in files}
    compiled = {p: _compiles(data, p) for p, data in before.items()}
    report.not_compiling_before = sum(not ok for ok in compiled.values())
    jargs = ["-j", str(jobs)] if jobs else []

    lint = _jaxlint([*jargs, "--format", "json", "--exit-zero", "-q", *paths], root, timeout)
    crash = _crash_text(lint)
    if crash:
        report.crashes.append(f"lint: {crash}")
    try:
        findings = json.loads(lint.stdout or "[]")
    except json.JSONDecodeError:
        findings = []
        report.crashes.append("lint: output is not JSON")
    report.findings = len(findings)
    applies = {"safe", "unsafe"} if unsafe else {"safe"}
    with_fix = [f for f in findings if f.get("fix") in applies]
    report.fixable = len(with_fix)
    fix_paths = {os.path.normpath(f["path"]) for f in with_fix}
    report.files_with_fixes = len(fix_paths)

    fix = _jaxlint([*jargs, "--fix", *(["--unsafe-fixes"] if unsafe else []), *paths], root,
                   timeout)
    crash = _crash_text(fix)
    if crash:
        report.crashes.append(f"fix: {crash}")
    m = re.search(r"Fixed (\d+) findings?(?:, (\d+) remaining)?", fix.stderr)
    if m:
        report.fixed_reported = int(m[1])
        report.remaining_reported = int(m[2] or 0)
    for result in (lint, fix):
        for path, msg in _error_lines(result.stderr):
            if path in compiled and not compiled[path]:
                report.source_errors += 1 if result is fix else 0
            elif path.endswith(".ipynb") and "by hand" in msg:
                report.notes.append(f"{path}: {msg}")  # a fix refused on purpose
            else:
                report.crashes.append(f"{path}: {msg}")

    changed = []
    for p in files:
        after = (root / p).read_bytes()
        if after == before[p]:
            continue
        changed.append(p)
        if not compiled[p]:
            report.broken.append(f"{p}: written although it did not compile before")
        elif not _compiles(after, p):
            report.broken.append(f"{p}: no longer compiles")
        if p not in fix_paths:
            report.unexpected_changes.append(p)
    report.changed = len(changed)
    leftovers = [str(p.relative_to(root)) for p in root.rglob(".jaxlint-*.tmp")]
    if leftovers:
        report.crashes.append(f"temporary files left: {leftovers[:5]}")

    if changed:
        snapshot = {p: (root / p).read_bytes() for p in changed}
        again = _jaxlint([*jargs, "--fix", *(["--unsafe-fixes"] if unsafe else []), *changed],
                         root, timeout)
        crash = _crash_text(again)
        if crash:
            report.crashes.append(f"second fix: {crash}")
        for path, msg in _error_lines(again.stderr):
            report.crashes.append(f"second fix: {path}: {msg}")
        report.not_idempotent = [p for p in changed if (root / p).read_bytes() != snapshot[p]]
    report.seconds = round(time.monotonic() - started, 1)
    return report


# ----------------------------------------------------------------------------- reporting
def _table(reports: list[TreeReport]) -> str:
    head = ("| project | mode | files | not compiling on this Python | findings | fixable "
            "| files changed | fixed (reported) | crashes | broken | unexpected changes "
            "| not idempotent | seconds |\n" + "|---" * 13 + "|\n")
    rows = "".join(
        f"| {r.name} | {r.mode} | {r.files} | {r.not_compiling_before} | {r.findings} "
        f"| {r.fixable} | {r.changed} | {r.fixed_reported} | {len(r.crashes)} "
        f"| {len(r.broken)} | {len(r.unexpected_changes)} | {len(r.not_idempotent)} "
        f"| {r.seconds} |\n" for r in reports)
    return head + rows


def _details(reports: list[TreeReport]) -> str:
    out = []
    for r in reports:
        for label, items in (("crash", r.crashes), ("broken", r.broken),
                             ("unexpected change", r.unexpected_changes),
                             ("not idempotent", r.not_idempotent),
                             ("note (exit 2, not a crash)", r.notes)):
            for item in items[:20]:
                out.append(f"- {r.name} ({r.mode}) {label}: `{item}`")
            if len(items) > 20:
                out.append(f"- {r.name} ({r.mode}) {label}: ... {len(items) - 20} more")
    return "\n".join(out) if out else "None."


def write_section(section: str, body: str, path: Path = ROOT / "SAFETY.md") -> None:
    """Replace (or add) the ``<!-- section -->`` block of SAFETY.md."""
    start, end = f"<!-- {section}:start -->", f"<!-- {section}:end -->"
    text = path.read_text(encoding="utf-8") if path.exists() else "# jaxlint safety checks\n"
    block = f"{start}\n{body.rstrip()}\n{end}"
    if start in text and end in text:
        text = text[:text.index(start)] + block + text[text.index(end) + len(end):]
    else:
        text = text.rstrip() + "\n\n" + block + "\n"
    path.write_text(text, encoding="utf-8")


def _write_safety(reports: list[TreeReport], projects: list[dict], started: float,
                  argv: list[str] | None, finished: bool) -> None:
    from jaxlint import __version__

    total = round(time.monotonic() - started)
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = "python scripts/fix_corpus.py " + " ".join(argv if argv is not None else sys.argv[1:])
    pins = "\n".join(f"- {x['name']}=={x['version']} (`{x['filename']}`, sha256 "
                     f"`{x['sha256']}`)" for x in projects)
    body = (
        "## `--fix` over a real corpus\n\n"
        f"Run {when}{'' if finished else ' (partial: still running)'}: jaxlint {__version__}, "
        f"Python {platform.python_version()}, libcst {_version('libcst')}, "
        f"{os.cpu_count()} CPUs, {total} s in all.\n\n"
        f"Command: `{cmd.strip()}`\n\nSdists (verified by sha256):\n\n{pins or '- none'}\n\n"
        "Each mode starts from a fresh copy. *crashes*: error lines for files that compile "
        "on this Python, tracebacks, timeouts; *broken*: a changed file that no longer "
        "compiles; *unexpected changes*: a changed file with no applicable fixable "
        "finding; *not idempotent*: a second `--fix` changed the file again.\n\n"
        + _table(reports) + "\nDetails:\n\n" + _details(reports) + "\n")
    write_section("fix-corpus", body)


def labelled_sources() -> list[tuple[dict, list[str]]]:
    """The labelled corpus's pinned sdists, each with its labelled files (sdist paths).

    Git sources (entries with a ``commit``, see corpus/fetch.py) are not covered here yet:
    their labels and pins are skipped."""
    pins = [x for x in json.loads((LABELLED / "sources.json").read_text(encoding="utf-8"))
            if "version" in x]
    files: dict[tuple[str, str], set[str]] = {}
    for label in json.loads((LABELLED / "labels.json").read_text(encoding="utf-8")):
        if "version" in label:
            files.setdefault((label["project"], label["version"]), set()).add(label["path"])
    return [(x, sorted(files[(x["name"], x["version"])])) for x in pins
            if (x["name"], x["version"]) in files]


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    p.add_argument("--sdist-dir", type=Path, action="append", default=[],
                   help="take verified archives from this folder before downloading "
                   f"(always also {DEFAULT_SDIST_DIRS[0].relative_to(ROOT)})")
    p.add_argument("--only", nargs="*", help="project names to run (default: all)")
    p.add_argument("--mode", choices=["safe", "unsafe", "both"], default="both")
    p.add_argument("--tree", type=Path, action="append", default=[],
                   help="also check this local tree (copied to a temporary folder first)")
    p.add_argument("--labelled", action="store_true",
                   help="also the labelled files of the labelled real-world corpus (corpus/)")
    p.add_argument("--no-projects", action="store_true",
                   help="not the pinned projects: only --tree and --labelled")
    p.add_argument("--timeout", type=float, default=3600, help="seconds per jaxlint run")
    p.add_argument("-j", "--jobs", type=int, default=0, help="passed to jaxlint (0: its default)")
    p.add_argument("--write-safety", action="store_true", help="write the figures to SAFETY.md")
    p.add_argument("--json", type=Path, help="also write the reports as JSON here")
    args = p.parse_args(argv)

    modes = [False, True] if args.mode == "both" else [args.mode == "unsafe"]
    wanted = (lambda x: not args.only or x["name"] in args.only)  # noqa: E731
    projects = [] if args.no_projects else [x for x in PROJECTS if wanted(x)]
    labelled = [(x, f) for x, f in labelled_sources() if wanted(x)] if args.labelled else []
    sdist_dirs = [*args.sdist_dir, *DEFAULT_SDIST_DIRS]
    reports: list[TreeReport] = []
    started = time.monotonic()
    pins = projects + [x for x, _ in labelled if x not in projects]
    with tempfile.TemporaryDirectory(prefix="jaxlint-fix-corpus-") as tmp:
        # (label, sdist archive or local folder, paths to lint and fix inside it)
        sources: list[tuple[str, Path, list[str] | None]] = [
            (f"{x['name']}=={x['version']}", fetch(x, args.cache, sdist_dirs), None)
            for x in projects]
        sources += [(f"{x['name']}=={x['version']} (labelled files: {len(files)})",
                     fetch(x, args.cache, sdist_dirs), files) for x, files in labelled]
        sources += [(str(t), t, None) for t in args.tree]
        for label, src, paths in sources:
            for unsafe in modes:
                dest = Path(tmp) / f"{len(reports)}"
                if src.is_dir():
                    shutil.copytree(src, dest, symlinks=True)
                else:
                    extract(src, dest)
                r = check_tree(dest, label, unsafe, args.timeout, args.jobs, paths)
                reports.append(r)
                print(f"{label:24} {r.mode:6} files={r.files} findings={r.findings} "
                      f"fixable={r.fixable} changed={r.changed} crashes={len(r.crashes)} "
                      f"broken={len(r.broken)} unexpected={len(r.unexpected_changes)} "
                      f"not_idempotent={len(r.not_idempotent)} ({r.seconds} s)", flush=True)
                for item in r.crashes + r.broken + r.unexpected_changes + r.not_idempotent:
                    print(f"    {item}", flush=True)
                shutil.rmtree(dest, ignore_errors=True)
                if args.write_safety:
                    _write_safety(reports, pins, started, argv, finished=False)
    if args.write_safety:
        _write_safety(reports, pins, started, argv, finished=True)
    if args.json:
        args.json.write_text(json.dumps([asdict(r) for r in reports], indent=2))
    bad = [r for r in reports if not r.ok]
    return 1 if bad else 0


def _version(dist: str) -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version(dist)
    except PackageNotFoundError:
        return "?"


if __name__ == "__main__":
    sys.exit(main())
