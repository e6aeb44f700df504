"""Finding the files to lint and writing fixed ones back safely."""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from dataclasses import dataclass

# Folders that never hold the user's own code: VCS data, environments, builds and caches.
SKIP_DIRS = frozenset(
    {
        ".git",
        ".hg",
        ".svn",
        ".bzr",
        ".venv",
        "venv",
        ".env",
        "env",
        "__pypackages__",
        "site-packages",
        "node_modules",
        "__pycache__",
        ".mypy_cache",
        ".pytest_cache",
        ".ruff_cache",
        ".jaxlint_cache",
        ".hypothesis",
        ".tox",
        ".nox",
        ".eggs",
        ".direnv",
        ".ipynb_checkpoints",
        "build",
        "dist",
        "_build",
        "buck-out",
    }
)


CACHE_DIRNAME = ".jaxlint_cache"  # the cache folder (see cache.py), named here for --help


@dataclass(frozen=True)
class PathError:
    path: str
    message: str


def _skip_dir(parent: str, name: str) -> bool:
    if name in SKIP_DIRS or name.endswith(".egg-info"):
        return True
    # Any folder holding a virtual environment, whatever its name.
    return os.path.exists(os.path.join(parent, name, "pyvenv.cfg"))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def _walk(root: str) -> Iterator[tuple[str, str] | PathError]:
    """The ``*.py`` and ``*.ipynb`` files under ``root`` with their real paths, sorted, then
    the walk's errors.

    Symlinked folders are not entered (no loops, nothing outside the tree). A symlinked file
    is checked only if it points at a file inside ``root``, and under its own name only when
    the walk does not reach the file it points at by a plain path too. One ``lstat`` per
    file: the real path of a plain file is its folder's real path and its name (os.walk
    enters no symlinked folder), so only symlinks need ``realpath``.
    """
    top = os.path.realpath(root)
    found: list[tuple[str, str, bool]] = []  # (path, real path, is a symlink)
    walk_errors: list[OSError] = []
    for dirpath, dirnames, filenames in os.walk(root, onerror=walk_errors.append):
        dirnames[:] = sorted(d for d in dirnames if not _skip_dir(dirpath, d))
        real_dir = os.path.realpath(dirpath)
        for name in sorted(filenames):
            if not name.endswith((".py", ".ipynb")):
                continue
            full = os.path.normpath(os.path.join(dirpath, name))
            try:
                mode = os.lstat(full).st_mode
            except OSError:
                continue
            if stat.S_ISREG(mode):
                found.append((full, os.path.join(real_dir, name), False))
            elif stat.S_ISLNK(mode) and os.path.isfile(full):  # not dangling, not a loop
                real = os.path.realpath(full)
                if _inside(real, top):  # never followed outside what the user named
                    found.append((full, real, True))
    plain = {real for _, real, link in found if not link}
    for full, real, link in found:
        if not (link and real in plain):
            yield full, real
    for err in walk_errors:
        yield PathError(err.filename or root, err.strerror or str(err))


def discover(paths: list[str]) -> Iterator[str | PathError]:
    """The files to lint under ``paths``, in a stable order, and an error for each bad path.

    Named files are linted whatever their suffix, through symlinks too; folders are searched
    for ``*.py`` and ``*.ipynb`` (see _walk for symlinks met there). However many names
    reach a file, it is checked once, under the first of them: the name the user gave, or
    the path the walk found it by.
    """
    seen: set[str] = set()
    for root in paths:
        if os.path.isfile(root):
            items: Iterator[tuple[str, str] | PathError] = iter(
                [(root, os.path.realpath(root))])
        elif os.path.isdir(root):
            items = _walk(root)
        else:
            try:
                os.stat(root)
            except OSError as exc:  # missing, a symlink loop, a folder we may not search
                message = exc.strerror or str(exc)
                if exc.errno == errno.ENOENT:
                    message = "no such file or directory"
                yield PathError(root, message)
                continue
            yield PathError(root, "not a regular file or directory")
            continue
        for item in items:
            if isinstance(item, PathError):
                yield item
                continue
            path, real = item
            if real not in seen:
                seen.add(real)
                yield path


def read(path: str) -> bytes:
    with open(path, "rb") as f:
        return f.read()


class ChangedOnDisk(Exception):
    pass


def write_atomic(path: str, data: bytes, expected: bytes) -> None:
    """Replace ``path`` with ``data`` in one step, keeping its mode.

    The new content goes to a temporary file in the same folder, is flushed to disk, and
    replaces the original with ``os.replace``, so a reader (or a crash) sees either the old
    file or the new one, never a mix. If the file no longer holds ``expected`` (another
    program changed it since we read it) nothing is written.
    """
    real = os.path.realpath(path)
    if read(real) != expected:
        raise ChangedOnDisk(path)
    mode = stat.S_IMODE(os.stat(real).st_mode)
    folder = os.path.dirname(real) or "."
    import tempfile  # here: start-up time matters to a pre-commit hook that writes nothing

    fd, tmp = tempfile.mkstemp(prefix=".jaxlint-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, real)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
