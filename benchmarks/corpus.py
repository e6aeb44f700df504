#!/usr/bin/env python3
"""Fetch the pinned benchmark corpus: released sources of jax, flax, optax, equinox, brax, dm-haiku.

Each entry of ``corpus.json`` names a project, an exact version, the archive's file name and its
sha256. For each one this script

  1. downloads the archive with pip into ``.cache/dl/`` unless a file with the right sha256 is
     already there (``pip download --no-deps --no-binary NAME NAME==VERSION`` for an sdist,
     ``--only-binary :all:`` for an entry of kind "wheel");
  2. checks its sha256 against ``corpus.json`` (a mismatch is an error, and the file is removed);
  3. extracts it into ``.cache/corpus/NAME-VERSION/`` with the archive's top folder stripped.

Idempotent: a verified archive is not downloaded again, and a tree whose marker file records the
same sha256 is not extracted again. ``--from DIR`` takes archives from a local folder first (for a
machine without the package index); they are checked all the same.

``--no-binary NAME`` rather than ``:all:``: pip still reads an sdist's metadata with its build
backend, and ``:all:`` would make it build setuptools/hatchling/flit from source first.

Usage:  python benchmarks/corpus.py [--from DIR] [--quiet]
Prints the corpus folder on stdout (the last line).
"""

from __future__ import annotations

import argparse
import hashlib
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


class CorpusError(RuntimeError):
    pass


def load_spec() -> list[dict]:
    with SPEC.open(encoding="utf-8") as f:
        return json.load(f)["projects"]


def sha256(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def project_dir(entry: dict) -> Path:
    return CORPUS_DIR / f"{entry['name']}-{entry['version']}"


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


def ensure_corpus(local: Path | None = None, quiet: bool = False) -> Path:
    def log(msg: str) -> None:
        if not quiet:
            print(msg, file=sys.stderr)

    wanted = set()
    for entry in load_spec():
        archive = download(entry, local, log)
        extract(archive, entry, log)
        wanted.add(project_dir(entry).name)
    # Remove trees of versions no longer pinned, so the corpus is exactly the spec.
    for child in CORPUS_DIR.iterdir():
        # (dot-entries are the tools' own caches, such as .jaxlint_cache: left alone)
        if child.name not in wanted and not child.name.startswith("."):
            log(f"removing stale {child.name}")
            shutil.rmtree(child) if child.is_dir() else child.unlink()
    return CORPUS_DIR


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
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args(argv)
    try:
        root = ensure_corpus(args.local, args.quiet)
    except CorpusError as e:
        print(f"corpus.py: error: {e}", file=sys.stderr)
        return 1
    if not args.quiet:
        for entry in load_spec():
            n, lines, _ = count(project_dir(entry))
            print(f"{entry['name']}=={entry['version']}: {n} files, {lines} lines", file=sys.stderr)
    print(root)
    return 0


if __name__ == "__main__":
    sys.exit(main())
