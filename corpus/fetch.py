#!/usr/bin/env python3
"""Fetch the pinned sources (sdists and git commits) that the labelled corpus is drawn from.

sources.json holds two kinds of entry.

An **sdist** entry names a project, an exact version, the sdist file name and its sha256.
For each one this script

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

A **git** entry names a project, a public GitHub repository ``owner/name`` and a full
40-hex commit. The commit is exported with ``git archive COMMIT`` (regular files only; names
that are absolute or contain ``..`` are refused; symlinks are skipped) into
``.cache/src/NAME-COMMIT12/`` (the first 12 hex digits), so a label's ``path`` is relative to
the repository root. The git directory is looked up, in this order, in

  1. ``--mirror-dir DIR`` / ``$JAXLINT_CORPUS_MIRROR`` / ``/work/.mirror``: a bare git
     directory at ``DIR/owner+name/repo`` (or ``DIR/owner+name`` itself) holding the commit;
  2. ``.cache/git/owner+name.git``, a bare clone made earlier by this script;
  3. a new ``git clone --bare https://github.com/owner/name`` into that folder (and a
     ``git fetch`` of the commit if the clone lacks it).

Nothing from a repository is ever run: only ``git archive`` reads it.

``--sdist-dir DIR`` takes archives from a local folder first (for machines without access to
the package index); they are still checked against sources.json.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
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
GIT_DIR = CACHE / "git"
MARKER = ".corpus-extracted"
DEFAULT_MIRROR = Path("/work/.mirror")
MIRROR_ENV = "JAXLINT_CORPUS_MIRROR"
_SHA = re.compile(r"^[0-9a-f]{40}$")
_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9][A-Za-z0-9_.-]*$")


class FetchError(RuntimeError):
    pass


def load_sources() -> list[dict]:
    with SOURCES.open(encoding="utf-8") as f:
        return json.load(f)


def is_git(entry: dict) -> bool:
    """True for a git source (or a label of one): it has a ``commit``, not a ``version``."""
    return "commit" in entry


def ref_of(entry: dict) -> str:
    """The pin of a source or of a label: its version (sdist) or its commit (git)."""
    return entry["commit"] if is_git(entry) else entry["version"]


def key_of(entry: dict) -> tuple[str, str]:
    """(project name, pin) of a source entry or of a label."""
    name = entry["name"] if "name" in entry else entry["project"]
    return name, ref_of(entry)


def short_ref(ref: str) -> str:
    """A version as it is, a commit as its first 12 hex digits."""
    return ref[:12] if _SHA.match(ref) else ref


def src_root(source: dict) -> Path:
    """Folder that a label's ``path`` is relative to."""
    return SRC_DIR / f"{source['name']}-{short_ref(ref_of(source))}"


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


def _done(root: Path, stamp: str) -> bool:
    """Whether ``root`` already holds the source stamped ``stamp`` (a sha256 or a commit)."""
    marker = root / MARKER
    return marker.is_file() and marker.read_text().strip() == stamp


def _begin(root: Path, stamp: str) -> Path | None:
    """An empty folder beside ``root`` to extract into (renamed to ``root`` when complete),
    or None when ``root`` is already the source stamped ``stamp``."""
    if _done(root, stamp):
        return None
    if root.exists():
        shutil.rmtree(root)
    tmp = root.with_name(root.name + ".tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    return tmp


def extract(source: dict, archive: Path) -> Path:
    root = src_root(source)
    tmp = _begin(root, source["sha256"])
    if tmp is None:
        return root
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


def _git(git_dir: Path | None, *args: str, **kw) -> subprocess.CompletedProcess:
    cmd = ["git"] + ([f"--git-dir={git_dir}"] if git_dir is not None else []) + list(args)
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    return subprocess.run(cmd, capture_output=True, env=env, **kw)


def _has_commit(git_dir: Path, commit: str) -> bool:
    return (git_dir.is_dir()
            and _git(git_dir, "cat-file", "-e", f"{commit}^{{commit}}").returncode == 0)


def mirror_dir(explicit: Path | None = None) -> Path:
    if explicit is not None:
        return explicit
    env = os.environ.get(MIRROR_ENV)
    return Path(env) if env else DEFAULT_MIRROR


def find_git_dir(source: dict, mirror: Path | None = None) -> Path:
    """A git directory that holds the source's commit (mirror, earlier clone, new clone)."""
    repo, commit = source["repo"], source["commit"]
    if not _REPO.match(repo) or ".." in repo:
        raise FetchError(f"bad repo name in sources.json: {repo!r}")
    if not _SHA.match(commit):
        raise FetchError(f"{repo}: commit must be 40 lower-case hex digits, got {commit!r}")
    flat = repo.replace("/", "+")
    base = mirror_dir(mirror)
    for cand in (base / flat / "repo", base / flat / "repo" / ".git", base / flat,
                 GIT_DIR / f"{flat}.git"):
        if _has_commit(cand, commit):
            return cand
    clone = GIT_DIR / f"{flat}.git"
    url = f"https://github.com/{repo}"
    if not clone.is_dir():
        GIT_DIR.mkdir(parents=True, exist_ok=True)
        print(f"fetch: cloning {url} ...", file=sys.stderr, flush=True)
        proc = _git(None, "clone", "--bare", "--quiet", url, str(clone))
        if proc.returncode != 0:
            shutil.rmtree(clone, ignore_errors=True)
    if clone.is_dir() and not _has_commit(clone, commit):
        _git(clone, "fetch", "--quiet", "origin", commit)
    if _has_commit(clone, commit):
        return clone
    raise FetchError(
        f"cannot get {repo} at {commit[:12]}: no mirror at {base / flat} holds it and "
        f"cloning {url} failed (offline? pass --mirror-dir DIR or set ${MIRROR_ENV})")


def _archivable_tree(git_dir: Path, commit: str, tmp_objects: Path) -> tuple[str, dict, list]:
    """The tree to archive, the environment to run ``git archive`` in, and missing paths.

    A mirror may lack some blobs (large files are left out of snapshots), and ``git archive``
    stops at the first one. Then the commit's tree is rebuilt without them in a throw-away
    object folder (the mirror's objects as an alternate; nothing is written to the mirror)."""
    listing = _git(git_dir, "ls-tree", "-r", "-z", "--full-tree", commit)
    if listing.returncode != 0:
        raise FetchError(f"git ls-tree failed in {git_dir}: "
                         f"{listing.stderr.decode(errors='replace').strip()[:200]}")
    entries = [e for e in listing.stdout.split(b"\0") if e]
    blobs = [e for e in entries if e.split(b" ", 2)[1] == b"blob"]
    shas = b"".join(e.split(b" ", 2)[2].split(b"\t", 1)[0] + b"\n" for e in blobs)
    check = _git(git_dir, "cat-file", "--batch-check", input=shas)
    missing_shas = {line.split()[0] for line in check.stdout.splitlines()
                    if line.endswith(b" missing")}
    if not missing_shas:
        return commit, dict(os.environ), []
    keep, missing = [], []
    for e in blobs:
        sha = e.split(b" ", 2)[2].split(b"\t", 1)[0]
        (missing if sha in missing_shas else keep).append(e)
    tmp_objects.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, GIT_OBJECT_DIRECTORY=str(tmp_objects),
               GIT_ALTERNATE_OBJECT_DIRECTORIES=str(git_dir / "objects"),
               GIT_INDEX_FILE=str(tmp_objects / "index"))
    upd = subprocess.run(["git", f"--git-dir={git_dir}", "update-index", "-z", "--index-info"],
                         input=b"".join(e + b"\0" for e in keep), env=env, capture_output=True)
    tree = subprocess.run(["git", f"--git-dir={git_dir}", "write-tree"], env=env,
                          capture_output=True)
    if upd.returncode != 0 or tree.returncode != 0:
        raise FetchError(f"could not rebuild the tree of {commit[:12]} without its missing files: "
                         f"{(upd.stderr + tree.stderr).decode(errors='replace').strip()[:200]}")
    return (tree.stdout.decode().strip(), env,
            [e.split(b"\t", 1)[1].decode(errors="replace") for e in missing])


def _safe_rel(name: str) -> str | None:
    p = Path(name)
    if not name or p.is_absolute() or any(part == ".." for part in p.parts):
        return None
    return str(p)


def extract_git(source: dict, mirror: Path | None = None, root: Path | None = None) -> Path:
    """Export the source's commit into ``root`` (its src_root by default; regular files
    only)."""
    root = src_root(source) if root is None else root
    if _done(root, source["commit"]):
        return root
    git_dir = find_git_dir(source, mirror)
    tmp = _begin(root, source["commit"])
    assert tmp is not None
    refused = []
    tmp_objects = tmp.with_name(tmp.name + ".objects")
    shutil.rmtree(tmp_objects, ignore_errors=True)
    tree, env, missing = _archivable_tree(git_dir, source["commit"], tmp_objects)
    if missing:
        print(f"fetch: {source['repo']}: {len(missing)} files absent from {git_dir} left out, "
              f"e.g. {missing[0]}", file=sys.stderr)
    proc = subprocess.Popen(
        ["git", f"--git-dir={git_dir}", "archive", "--format=tar", tree],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout is not None
    try:
        with tarfile.open(fileobj=proc.stdout, mode="r|") as tf:
            for member in tf:
                if not member.isfile():
                    continue              # directories are made as needed; links skipped
                rel = _safe_rel(member.name)
                if rel is None:
                    refused.append(member.name)
                    continue
                dest = tmp / rel
                dest.parent.mkdir(parents=True, exist_ok=True)
                src = tf.extractfile(member)
                if src is None:
                    continue
                with src, dest.open("wb") as out:
                    shutil.copyfileobj(src, out)
    except tarfile.TarError as e:
        proc.kill()
        raise FetchError(f"git archive of {source['repo']} at {source['commit'][:12]} "
                         f"is unreadable: {e}") from e
    finally:
        err = proc.stderr.read() if proc.stderr else b""
        proc.wait()
        shutil.rmtree(tmp_objects, ignore_errors=True)
    if proc.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise FetchError(f"git archive failed for {source['repo']} at {source['commit'][:12]}: "
                         f"{err.decode(errors='replace').strip()[:200]}")
    if refused:
        print(f"fetch: {source['repo']}: refused {len(refused)} unsafe names, e.g. "
              f"{refused[0]!r}", file=sys.stderr)
    (tmp / MARKER).write_text(source["commit"] + "\n")
    tmp.replace(root)
    return root


def fetch_all(sdist_dir: Path | None = None, mirror: Path | None = None,
              projects: set[str] | None = None,
              keys: set[tuple[str, str]] | None = None) -> dict[tuple[str, str], Path]:
    """Fetch, verify and extract every source, or only those of ``projects`` (names) and
    ``keys`` ((name, version or commit) pairs) where given; return {(name, ref): root}."""
    roots = {}
    for source in load_sources():
        if projects is not None and source["name"] not in projects:
            continue
        if keys is not None and key_of(source) not in keys:
            continue
        if is_git(source):
            roots[key_of(source)] = extract_git(source, mirror)
        else:
            archive = download(source, sdist_dir)
            roots[key_of(source)] = extract(source, archive)
    return roots


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdist-dir", type=Path, default=None,
                        help="take archives from this folder before trying the index")
    parser.add_argument("--mirror-dir", type=Path, default=None,
                        help=f"folder of bare git mirrors OWNER+NAME/repo (default: "
                             f"${MIRROR_ENV} or {DEFAULT_MIRROR})")
    parser.add_argument("--project", action="append", default=None, metavar="NAME",
                        help="fetch only this project (repeatable)")
    args = parser.parse_args(argv)
    try:
        roots = fetch_all(args.sdist_dir, args.mirror_dir,
                          set(args.project) if args.project else None)
    except FetchError as e:
        print(f"fetch: error: {e}", file=sys.stderr)
        return 1
    for (name, ref), root in roots.items():
        sep = "@" if _SHA.match(ref) else "=="
        print(f"{name}{sep}{short_ref(ref)}: {root.relative_to(HERE)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
