#!/usr/bin/env python3
"""Fetch the pinned source distributions that the labelled corpus is drawn from.

Each entry of sources.json names a project, an exact version, the sdist file name and its
sha256. For each one this script

  1. downloads the sdist from the package index with pip
     (``pip download --no-deps --no-binary NAME NAME==VERSION``) into ``.cache/sdist/``,
     unless a file with the right sha256 is already there;
  2. checks the archive's sha256 against sources.json (a mismatch is an error);
  3. extracts it into ``.cache/src/NAME-VERSION/`` (the archive's top folder stripped), so a
     label's ``path`` is relative to that folder.

It is idempotent: a verified archive is not downloaded again and an extracted tree whose
marker records the same sha256 is not extracted again.

``--no-binary NAME`` (not ``:all:``) makes pip take the sdist of the project itself while
still using wheels for the build backend it needs to read the sdist's metadata; with
``:all:`` pip builds setuptools, hatchling etc. from source too, which takes many minutes.

Usage:
    python corpus/fetch.py [--sdist-dir DIR]

``--sdist-dir DIR`` takes archives from a local folder first (for machines without access to
the package index); they are still checked against sources.json.
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
SOURCES = HERE / "sources.json"
CACHE = HERE / ".cache"
SDIST_DIR = CACHE / "sdist"
SRC_DIR = CACHE / "src"
MARKER = ".corpus-extracted"


class FetchError(RuntimeError):
    pass


def load_sources() -> list[dict]:
    with SOURCES.open(encoding="utf-8") as f:
        return json.load(f)


def src_root(source: dict) -> Path:
    """Folder that a label's ``path`` is relative to."""
    return SRC_DIR / f"{source['name']}-{source['version']}"


def sha256_of(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def _verified(path: Path, sha: str) -> bool:
    return path.is_file() and sha256_of(path) == sha


def download(source: dict, sdist_dir: Path | None = None) -> Path:
    """Return the path of the verified archive, downloading it if needed."""
    SDIST_DIR.mkdir(parents=True, exist_ok=True)
    target = SDIST_DIR / source["filename"]
    if _verified(target, source["sha256"]):
        return target
    if sdist_dir is not None:
        local = sdist_dir / source["filename"]
        if local.is_file():
            shutil.copyfile(local, target)
    if not target.is_file():
        spec = f"{source['name']}=={source['version']}"
        cmd = [
            sys.executable, "-m", "pip", "download", "--no-deps",
            "--no-binary", source["name"], "--disable-pip-version-check",
            "-q", "-d", str(SDIST_DIR), spec,
        ]
        print(f"fetch: downloading {spec} ...", file=sys.stderr, flush=True)
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0 or not target.is_file():
            tail = "\n".join((proc.stdout + proc.stderr).strip().splitlines()[-6:])
            raise FetchError(
                f"could not download {spec} ({source['filename']}) from the package index.\n"
                f"Are you offline, or is the index unreachable? If you have the archives, "
                f"pass --sdist-dir DIR.\npip said:\n{tail}"
            )
    actual = sha256_of(target)
    if actual != source["sha256"]:
        bad = target.with_suffix(target.suffix + ".bad")
        target.replace(bad)
        raise FetchError(
            f"sha256 mismatch for {source['filename']}: expected {source['sha256']}, "
            f"got {actual} (moved to {bad.name})"
        )
    return target


def _strip_top(name: str) -> str | None:
    parts = Path(name).parts
    if len(parts) < 2 or any(p == ".." for p in parts) or Path(name).is_absolute():
        return None
    return str(Path(*parts[1:]))


def extract(source: dict, archive: Path) -> Path:
    root = src_root(source)
    marker = root / MARKER
    if marker.is_file() and marker.read_text().strip() == source["sha256"]:
        return root
    if root.exists():
        shutil.rmtree(root)
    tmp = root.with_name(root.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    if archive.name.endswith((".tar.gz", ".tgz", ".tar.bz2", ".tar")):
        with tarfile.open(archive) as tf:
            for member in tf.getmembers():
                rel = _strip_top(member.name)
                if rel is None or not (member.isfile() or member.isdir()):
                    continue
                dest = tmp / rel
                if member.isdir():
                    dest.mkdir(parents=True, exist_ok=True)
                    continue
                dest.parent.mkdir(parents=True, exist_ok=True)
                src = tf.extractfile(member)
                if src is None:
                    continue
                with src, dest.open("wb") as out:
                    shutil.copyfileobj(src, out)
    elif archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zf:
            for info in zf.infolist():
                rel = _strip_top(info.filename)
                if rel is None or info.is_dir():
                    continue
                dest = tmp / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                with zf.open(info) as src, dest.open("wb") as out:
                    shutil.copyfileobj(src, out)
    else:
        raise FetchError(f"unknown archive type: {archive.name}")
    (tmp / MARKER).write_text(source["sha256"] + "\n")
    tmp.replace(root)
    return root


def fetch_all(sdist_dir: Path | None = None) -> dict[tuple[str, str], Path]:
    """Fetch, verify and extract every source; return {(name, version): root}."""
    roots = {}
    for source in load_sources():
        archive = download(source, sdist_dir)
        roots[(source["name"], source["version"])] = extract(source, archive)
    return roots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdist-dir", type=Path, default=None,
                        help="take archives from this folder before trying the index")
    args = parser.parse_args(argv)
    try:
        roots = fetch_all(args.sdist_dir)
    except FetchError as e:
        print(f"fetch: error: {e}", file=sys.stderr)
        return 1
    for (name, version), root in roots.items():
        print(f"{name}=={version}: {root.relative_to(HERE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
