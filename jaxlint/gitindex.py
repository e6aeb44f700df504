"""Which files git tracks in a repository, read from its index file (``.git/index``).

git ignores only untracked files: a file that ``.gitignore`` lists but that was added
anyway (``git add -f``, or tracked before the line was written) is still the project's, and
pre-commit hands it to the hooks. Running ``git`` to ask is not an option in a checkout
someone else made (its ``.git/config`` can make git run any command: ``core.fsmonitor``),
so the index is read here, bounded in size and trusting nothing in it: anything unexpected
makes the answer "unknown" (None), and then ``.gitignore`` applies as if nothing were
tracked.

Formats 2, 3 and 4 are read (SHA-1 and SHA-256 object names, sparse directory entries); a
split index (its ``link`` extension: most entries in another file) is unknown.
"""

from __future__ import annotations

import bisect
import os
import re
import stat

MAX_INDEX_BYTES = 64 << 20  # a monorepo of 300,000 files has an index of some 30 MB
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
_SHA256 = re.compile(rb"^\s*objectformat\s*=\s*sha256\s*$", re.I | re.M)


class Tracked:
    """The tracked paths of one repository, relative to its top folder, ``/``-separated."""

    def __init__(self, paths: list[str]) -> None:
        self.paths = sorted(paths)
        self.known = set(paths)

    def file(self, rel: str) -> bool:
        return rel in self.known

    def inside(self, rel_folder: str) -> bool:
        """Whether any tracked path is inside the folder ``rel_folder`` (no trailing /)."""
        prefix = rel_folder + "/"
        i = bisect.bisect_left(self.paths, prefix)
        return i < len(self.paths) and self.paths[i].startswith(prefix)


def _read(path: str, limit: int) -> bytes | None:
    try:
        fd = os.open(path, _FLAGS)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            return None
        data = os.read(fd, limit + 1)
        chunks = [data]
        while data and sum(map(len, chunks)) <= limit:
            data = os.read(fd, limit + 1)
            chunks.append(data)
        out = b"".join(chunks)
        return out if len(out) <= limit else None
    except OSError:
        return None
    finally:
        os.close(fd)


def git_dir(top: str) -> str | None:
    """The git folder of the repository whose top folder is ``top`` (``.git``, or where a
    ``.git`` file's ``gitdir:`` line points, as in a worktree or a submodule)."""
    dotgit = os.path.join(top, ".git")
    if os.path.isdir(dotgit):
        return dotgit
    data = _read(dotgit, 4096)
    if data is None or not data.startswith(b"gitdir:"):
        return None
    target = os.fsdecode(data[len(b"gitdir:"):].strip())
    return os.path.normpath(os.path.join(top, target))


def read_tracked(top: str) -> Tracked | None:
    """The files git tracks in the repository at ``top``; None when that is unknown."""
    folder = git_dir(top)
    if folder is None:
        return None
    data = _read(os.path.join(folder, "index"), MAX_INDEX_BYTES)
    if data is None:
        return None
    config = _read(os.path.join(folder, "config"), 1 << 20) or b""
    try:
        paths = parse(data, 32 if _SHA256.search(config) else 20)
    except (ValueError, IndexError, UnicodeError):
        return None
    return None if paths is None else Tracked(paths)


def parse(data: bytes, hash_size: int = 20) -> list[str] | None:
    """The paths of an index file's entries; None for a split index. Raises ValueError (or
    IndexError) on anything that is not an index as git writes it."""
    if len(data) < 12 or data[:4] != b"DIRC":
        raise ValueError("not an index")
    version = int.from_bytes(data[4:8], "big")
    count = int.from_bytes(data[8:12], "big")
    if version not in (2, 3, 4) or count > len(data) // 8:
        raise ValueError("unknown index")
    pos = 12
    fixed = 40 + hash_size + 2  # stat data, object name, flags
    paths: list[str] = []
    previous = b""
    for _ in range(count):
        start = pos
        flags = int.from_bytes(data[pos + fixed - 2:pos + fixed], "big")
        mode = int.from_bytes(data[pos + 24:pos + 28], "big")
        pos += fixed
        if flags & 0x4000:  # extended flags (format 3 and later)
            if version < 3:
                raise ValueError("extended flags in format 2")
            pos += 2
        if version == 4:
            strip, pos = _varint(data, pos)
            end = data.index(b"\0", pos)
            if strip > len(previous):
                raise ValueError("bad prefix")
            name = previous[:len(previous) - strip] + data[pos:end]
            pos = end + 1
        else:
            end = data.index(b"\0", pos)
            name = data[pos:end]
            pos = start + ((end - start) // 8 + 1) * 8  # 1 to 8 NULs pad it
            if pos > len(data) or data[end:pos].strip(b"\0"):
                raise ValueError("bad padding")
        if not name or name.startswith(b"/") or b"\0" in name:
            raise ValueError("bad path")
        previous = name
        text = os.fsdecode(name)
        if stat.S_ISDIR(mode):  # a sparse index's folder: everything in it is tracked
            text = text.rstrip("/") + "/."
        paths.append(text)
    # extensions: a split index keeps most entries elsewhere
    while pos + 8 <= len(data) - hash_size:
        signature = data[pos:pos + 4]
        size = int.from_bytes(data[pos + 4:pos + 8], "big")
        if signature == b"link":
            return None
        pos += 8 + size
    return paths


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    """git's offset encoding (varint.c), as format 4 writes a path's shared prefix."""
    c = data[pos]
    pos += 1
    value = c & 0x7F
    while c & 0x80:
        c = data[pos]
        pos += 1
        value = ((value + 1) << 7) | (c & 0x7F)
        if value > 1 << 32:
            raise ValueError("bad varint")
    return value, pos
