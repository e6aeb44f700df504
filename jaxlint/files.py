"""Finding the files to lint and writing fixed ones back safely."""

from __future__ import annotations

import os
import stat
import tempfile
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


@dataclass(frozen=True)
class PathError:
    path: str
    message: str


def _skip_dir(parent: str, name: str) -> bool:
    if name in SKIP_DIRS or name.endswith(".egg-info"):
        return True
    # Any folder holding a virtual environment, whatever its name.
    return os.path.exists(os.path.join(parent, name, "pyvenv.cfg"))


def discover(paths: list[str]) -> Iterator[str | PathError]:
    """The files to lint under ``paths``, in a stable order, and an error for each bad path.

    Named files are linted whatever their suffix; folders are searched for ``*.py`` and
    ``*.ipynb``.
    Symlinked folders inside a tree are not followed (no loops, nothing outside the tree).
    """
    for root in paths:
        if os.path.isfile(root):
            yield root
            continue
        if not os.path.exists(root):
            yield PathError(root, "no such file or directory")
            continue
        if not os.path.isdir(root):
            yield PathError(root, "not a regular file or directory")
            continue
        walk_errors: list[OSError] = []
        for dirpath, dirnames, filenames in os.walk(root, onerror=walk_errors.append):
            dirnames[:] = sorted(d for d in dirnames if not _skip_dir(dirpath, d))
            for name in sorted(filenames):
                if name.endswith((".py", ".ipynb")):
                    full = os.path.normpath(os.path.join(dirpath, name))
                    if os.path.isfile(full):
                        yield full
        for err in walk_errors:
            yield PathError(err.filename or root, err.strerror or str(err))


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
