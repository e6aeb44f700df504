#!/usr/bin/env python3
"""Fetch the pinned benchmark corpus: jax, flax, optax, equinox, brax, dm-haiku (released, git).

Two sets of entries (an entry's ``"set"`` field; absent means ``"library"``):

* **library**: the libraries above, released and in git, in ``.cache/corpus/``. Every script of
  ``benchmarks/`` measures this set unless told otherwise.
* **timing-heavy**: public research repositories (training loops, RL, LLM serving/training,
  scientific codes) and tutorial or course repositories with notebooks, the code JAX users
  write and time, all git entries, in ``.cache/corpus-timing-heavy/`` (a folder of its own, so
  that the library scripts, which lint ``.cache/corpus/`` whole, see what they always saw).
  Measured by ``benchmarks/timing_heavy.py``. Each such entry also has a ``"category"`` (rl,
  llm, research, scientific, tutorial, course), as in the labelled corpus.

``corpus.json`` holds two kinds of entry. The released sources (kind "sdist", or "wheel") are
what a user installs; the repositories (kind "git") are what a developer lints: the same
projects at pinned commits with their tests, examples and notebooks, which the source
distributions leave out (jax's sdist has no tests/).

A **sdist** (or wheel) entry names a project, an exact version, the archive's file name and its
sha256. For each one this script

  1. downloads the archive with pip into ``.cache/dl/`` unless a file with the right sha256 is
     already there (``pip download --no-deps --no-binary NAME NAME==VERSION`` for an sdist,
     ``--only-binary :all:`` for an entry of kind "wheel");
  2. checks its sha256 against ``corpus.json`` (a mismatch is an error, and the file is removed);
  3. extracts it into ``.cache/corpus/NAME-VERSION/`` with the archive's top folder stripped.

A **git** entry names a project, a public GitHub repository ``owner/name`` and a full 40-hex
commit. The commit is exported into ``.cache/corpus/NAME-COMMIT12/`` by the labelled corpus's
fetcher (``corpus/fetch.py``: ``git archive`` from a mirror, ``/work/.mirror`` or
``$JAXLINT_CORPUS_MIRROR``, or a bare clone; regular files only, unsafe names refused, nothing
from the repository run). Its "version" is the commit's first 12 hex digits.

Idempotent: a verified archive is not downloaded again, and a tree whose marker file records the
same sha256 is not extracted again. ``--from DIR`` takes archives from a local folder first (for a
machine without the package index); they are checked all the same.

``--no-binary NAME`` rather than ``:all:``: pip still reads an sdist's metadata with its build
backend, and ``:all:`` would make it build setuptools/hatchling/flit from source first.

Usage:  python benchmarks/corpus.py [--from DIR] [--mirror-dir DIR] [--quiet]
                                    [--set library|timing-heavy|all]
Prints the corpus folder on stdout (the last line; one line per set with --set all).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import shutil
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
SPEC = HERE / "corpus.json"
CACHE = HERE / ".cache"
DL_DIR = CACHE / "dl"
CORPUS_DIR = CACHE / "corpus"
MARKER = ".corpus-sha256"
LIBRARY = "library"
TIMING_HEAVY = "timing-heavy"
SET_DIRS = {LIBRARY: CORPUS_DIR, TIMING_HEAVY: CACHE / "corpus-timing-heavy"}


class CorpusError(RuntimeError):
    pass


def set_of(entry: dict) -> str:
    return entry.get("set", LIBRARY)


def load_spec(which: str | None = LIBRARY) -> list[dict]:
    """The entries of corpus.json of set ``which`` (the library set by default, as before the
    timing-heavy set existed; None: every set); a git entry gets its "version" (the commit's
    first 12 hex digits) and its "sha256" stands for its pin (the commit) in reports."""
    with SPEC.open(encoding="utf-8") as f:
        entries = json.load(f)["projects"]
    for e in entries:
        if set_of(e) not in SET_DIRS:
            raise CorpusError(f"corpus.json: {e['name']}: unknown set {set_of(e)!r}")
        if e.get("kind") == "git":
            e.setdefault("version", e["commit"][:12])
            e.setdefault("sha256", e["commit"])
    return [e for e in entries if which is None or set_of(e) == which]


def _labelled_corpus_fetcher():
    """corpus/fetch.py, the one git exporter of this repository (a script, not a package)."""
    path = HERE.parent / "corpus" / "fetch.py"
    spec = importlib.util.spec_from_file_location("jaxlint_corpus_fetch", path)
    if spec is None or spec.loader is None:  # pragma: no cover - the file is in the repo
        raise CorpusError(f"cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def export_git(entry: dict, mirror: Path | None, log) -> Path:
    fetch = _labelled_corpus_fetcher()
    dest = project_dir(entry)
    if not (dest / fetch.MARKER).is_file():
        log(f"exporting {entry['repo']} at {entry['commit'][:12]} ...")
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        return fetch.extract_git(entry, mirror, root=dest)
    except fetch.FetchError as e:
        raise CorpusError(str(e)) from e


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def project_dir(entry: dict) -> Path:
    return SET_DIRS[set_of(entry)] / f"{entry['name']}-{entry['version']}"


def _verified(path: Path, entry: dict) -> bool:
    return path.is_file() and sha256(path) == entry["sha256"]


def download(entry: dict, local: Path | None, log) -> Path:
    DL_DIR.mkdir(parents=True, exist_ok=True)
    target = DL_DIR / entry["filename"]
    if _verified(target, entry):
        return target
    if local is not None and _verified(local / entry["filename"], entry):
        shutil.copy2(local / entry["filename"], target)
        return target
    name, version = entry["name"], entry["version"]
    cmd = [sys.executable, "-m", "pip", "download", "--no-deps", "--disable-pip-version-check",
           "-d", str(DL_DIR)]
    if entry.get("kind", "sdist") == "wheel":
        cmd += ["--only-binary", ":all:"]
    else:
        cmd += ["--no-binary", name]
    cmd.append(f"{name}=={version}")
    log(f"downloading {name}=={version} ...")
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode != 0:
        tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-6:])
        raise CorpusError(
            f"could not download {name}=={version} with pip (is the package index reachable? "
            f"offline, pass --from DIR holding {entry['filename']}):\n{tail}"
        )
    if not target.is_file():
        got = sorted(p.name for p in DL_DIR.iterdir())
        raise CorpusError(f"pip did not produce {entry['filename']} (the folder holds {got})")
    digest = sha256(target)
    if digest != entry["sha256"]:
        target.unlink()
        raise CorpusError(
            f"sha256 mismatch for {entry['filename']}: expected {entry['sha256']}, got {digest}"
        )
    return target


def extract(archive: Path, entry: dict, log) -> Path:
    dest = project_dir(entry)
    marker = dest / MARKER
    if marker.is_file() and marker.read_text().strip() == entry["sha256"]:
        return dest
    if dest.exists():
        shutil.rmtree(dest)
    tmp = dest.with_name(dest.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    log(f"extracting {archive.name} ...")
    if archive.name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar")):
        with tarfile.open(archive) as tf:
            if hasattr(tarfile, "data_filter"):
                tf.extractall(tmp, filter="data")
            else:  # pragma: no cover - Python < 3.11.4
                tf.extractall(tmp)
    elif archive.name.endswith((".zip", ".whl")):
        with zipfile.ZipFile(archive) as zf:
            zf.extractall(tmp)
    else:
        raise CorpusError(f"unknown archive type: {archive.name}")
    # Strip a single top folder (sdists have one; wheels do not).
    children = list(tmp.iterdir())
    root = children[0] if len(children) == 1 and children[0].is_dir() else tmp
    if root is tmp:
        tmp.rename(dest)
    else:
        root.rename(dest)
    if tmp.exists():
        shutil.rmtree(tmp)
    (dest / MARKER).write_text(entry["sha256"] + "\n")
    return dest


def ensure_corpus(local: Path | None = None, quiet: bool = False,
                  mirror: Path | None = None, which: str = LIBRARY) -> Path:
    """Fetch the entries of set ``which`` into its folder (returned)."""
    def log(msg: str) -> None:
        if not quiet:
            print(msg, file=sys.stderr)

    folder = SET_DIRS[which]
    wanted = set()
    for entry in load_spec(which):
        if entry.get("kind") == "git":
            export_git(entry, mirror, log)
        else:
            extract(download(entry, local, log), entry, log)
        wanted.add(project_dir(entry).name)
    folder.mkdir(parents=True, exist_ok=True)
    # Remove trees of versions no longer pinned, so the corpus is exactly the spec.
    for child in folder.iterdir():
        # (dot-entries are the tools' own caches, such as .jaxlint_cache: left alone)
        if child.name not in wanted and not child.name.startswith("."):
            log(f"removing stale {child.name}")
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    return folder


def python_files(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*.py") if p.is_file())


def count(root: Path) -> tuple[int, int, int]:
    """(python files, lines, bytes) under root."""
    files = python_files(root)
    lines = size = 0
    for p in files:
        data = p.read_bytes()
        size += len(data)
        lines += data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)
    return len(files), lines, size


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--from", dest="local", type=Path, help="folder with the archives (offline)")
    ap.add_argument("--mirror-dir", type=Path,
                    help="folder of bare git mirrors (owner+name/repo) for the git entries")
    ap.add_argument("--set", dest="which", choices=(*SET_DIRS, "all"), default=LIBRARY,
                    help="which set of corpus.json to fetch (default: library, the set every "
                    "other script measures; timing-heavy: for benchmarks/timing_heavy.py)")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    sets = list(SET_DIRS) if args.which == "all" else [args.which]
    try:
        roots = [ensure_corpus(args.local, args.quiet, args.mirror_dir, which) for which in sets]
    except CorpusError as e:
        print(f"corpus.py: error: {e}", file=sys.stderr)
        return 1
    if not args.quiet:
        for which in sets:
            for entry in load_spec(which):
                n, lines, _ = count(project_dir(entry))
                kind = entry.get("kind", "sdist")
                print(f"{entry['name']} {entry['version']} ({kind}, {which}): {n} files, "
                      f"{lines} lines", file=sys.stderr)
    for root in roots:
        print(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
