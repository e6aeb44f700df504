"""Finding the files to lint and writing fixed ones back safely."""

from __future__ import annotations

import errno
import os
import stat
import sys
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


class NotWritten(Exception):
    """The fix is not written, for the reason given (a read-only file, an owner or extended
    attributes the rewrite could not keep)."""


def _read_fd(fd: int) -> bytes:
    chunks: list[bytes] = []
    offset = 0
    while True:
        chunk = os.pread(fd, 1 << 20, offset)
        if not chunk:
            return b"".join(chunks)
        chunks.append(chunk)
        offset += len(chunk)


def _swap(tmp: str, path: str) -> bool:
    """Put ``tmp`` at ``path`` in one step. True: the two were exchanged (``tmp`` now names
    what was at ``path``, so the caller can check it and swap back); False: ``path`` was
    replaced (no exchange on this system or file system)."""
    if sys.platform.startswith("linux"):
        import ctypes

        try:
            renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
        except (AttributeError, OSError):
            renameat2 = None
        if renameat2 is not None:
            at_fdcwd, rename_exchange = -100, 2
            renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int,
                                  ctypes.c_char_p, ctypes.c_uint]
            if renameat2(at_fdcwd, os.fsencode(tmp), at_fdcwd, os.fsencode(path),
                         rename_exchange) == 0:
                return True
            err = ctypes.get_errno()
            if err not in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
                raise OSError(err, os.strerror(err), path)
    os.replace(tmp, path)
    return False


def _keep_metadata(tmp: str, st: os.stat_result, source: str) -> None:
    """Give ``tmp`` the mode, owner and extended attributes of the file it will replace,
    or raise NotWritten: a fix must not change who owns a file or drop its labels."""
    os.chmod(tmp, stat.S_IMODE(st.st_mode))
    mine = os.stat(tmp)
    if (mine.st_uid, mine.st_gid) != (st.st_uid, st.st_gid):
        try:
            os.chown(tmp, st.st_uid, st.st_gid)
        except OSError:
            raise NotWritten("cannot keep its owner and group; not fixed") from None
        os.chmod(tmp, stat.S_IMODE(st.st_mode))  # chown clears set-id bits
    names: list[str] = []
    if hasattr(os, "listxattr"):
        try:
            names = os.listxattr(source)
        except OSError:
            names = []  # not supported here: nothing to keep
    for name in names:
        try:
            os.setxattr(tmp, name, os.getxattr(source, name))
        except OSError:
            raise NotWritten(f"cannot keep its extended attribute {name}; not fixed") from None


def write_atomic(path: str, data: bytes, expected: bytes) -> None:
    """Replace ``path`` with ``data`` in one step, keeping its mode, owner, extended
    attributes and hard links.

    The new content goes to a temporary file in the same folder, is flushed to disk, and
    takes the original's place in one rename, so a reader (or a crash) sees either the old
    file or the new one, never a mix. If the file no longer holds ``expected`` (an editor
    saved it since we read it) nothing is written, and that is checked three times: when we
    start, right before the rename, and after it, on what the rename took away (an exchange
    on Linux: a save that slipped in between is swapped back), so the user's save is what
    stays. A file with several hard links is written in place after the same comparison
    (a rename would split the links). Raises ChangedOnDisk, or NotWritten for a read-only
    file and for an owner or extended attribute the new file could not keep.
    """
    real = os.path.realpath(path)
    fd = os.open(real, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise NotWritten("not a regular file; not fixed")
        if _read_fd(fd) != expected:
            raise ChangedOnDisk(path)
        writable = st.st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)
        if not writable or not os.access(real, os.W_OK):
            raise NotWritten("read-only file; not fixed")
        if st.st_nlink > 1:
            _write_in_place(real, data, expected, st)
            return
        folder = os.path.dirname(real) or "."
        import tempfile  # here: start-up time matters to a pre-commit hook that writes nothing

        tfd, tmp = tempfile.mkstemp(prefix=".jaxlint-", suffix=".tmp", dir=folder)
        try:
            with os.fdopen(tfd, "wb") as f:
                f.write(data)
                f.flush()
                os.fsync(f.fileno())
            _keep_metadata(tmp, st, real)
            # Again, right before the swap: the file at the path is the one we read, as read.
            now = os.lstat(real)
            if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino) or _read_fd(fd) != expected:
                raise ChangedOnDisk(path)
            if _swap(tmp, real):
                # After: what the swap took away must be the file we compared, unchanged.
                gone = os.lstat(tmp)
                if (gone.st_dev, gone.st_ino) != (st.st_dev, st.st_ino) \
                        or _read_fd(fd) != expected:
                    _swap(tmp, real)  # the user's save goes back where it was
                    raise ChangedOnDisk(path)
                os.unlink(tmp)
            elif _read_fd(fd) != expected:  # written in place between the check and the rename
                _restore(real, _read_fd(fd), st)
                raise ChangedOnDisk(path)
        except BaseException:
            try:
                os.unlink(tmp)
            except OSError:
                pass
            raise
    finally:
        os.close(fd)


def _restore(real: str, saved: bytes, st: os.stat_result) -> None:
    """Put back what the user saved into the file a rename has just replaced."""
    import tempfile

    tfd, tmp = tempfile.mkstemp(prefix=".jaxlint-", suffix=".tmp", dir=os.path.dirname(real))
    with os.fdopen(tfd, "wb") as f:
        f.write(saved)
        f.flush()
        os.fsync(f.fileno())
    _keep_metadata(tmp, st, real)
    os.replace(tmp, real)


def _write_in_place(real: str, data: bytes, expected: bytes, st: os.stat_result) -> None:
    """Hard links share one file: rewrite its bytes rather than replace it, after comparing
    them once more through the descriptor we write with."""
    with open(real, "r+b") as f:
        now = os.fstat(f.fileno())
        if (now.st_dev, now.st_ino) != (st.st_dev, st.st_ino) or f.read() != expected:
            raise ChangedOnDisk(real)
        f.seek(0)
        f.write(data)
        f.truncate()
        f.flush()
        os.fsync(f.fileno())
