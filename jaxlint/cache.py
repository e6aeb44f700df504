"""Results of earlier runs, keyed by everything they depend on.

An entry is keyed by the file's path and bytes, jaxlint's version and code, the versions of
Python and libcst, the settings that decide its findings (rules, project names, index on or
off) and the folders the project index searches. It also records the project modules the
file's analysis consulted, with their content hashes, and the module files the index looked
for and did not find: an entry is used only while those are unchanged and still absent.
The key is built from sorted, serialised values, never from ``repr`` of sets, so it is the
same in every run whatever the hash seed.

Each file has one entry (named after its path), which a new result replaces: identical runs
write nothing new and the cache grows only with the number of files.

The cache is in a checkout that may be hostile, so it follows no link: the folder is
refused (one warning, the run goes on without the cache) when it is a symlink, not a
folder, or owned by another user; every file in it is opened relative to the opened folder
with ``O_NOFOLLOW``, and ``CACHEDIR.TAG`` and ``.gitignore`` are created with ``O_EXCL``
(an existing one, or a link of that name, is left alone). Entries are written to a
temporary file and renamed, so concurrent runs never see half an entry; a corrupt or
unreadable entry is a miss.

Runs over many files also keep a stat index (``files.json``), as ruff's cache does: for each
file, a signature of everything its result depends on with the file's size, modification
and change times, inode and device in place of its bytes, and what the run found: nothing
to analyse (the prefilter rejected it) or the key of its entry. A warm run looks a file up
by its signature before reading it, so unchanged files are not even opened. A file changed
within the last seconds before a run (``RACY_NS``) is not recorded: within the timestamp
granularity of some file systems, a second edit of the same size could keep the same
signature (git's "racily clean" entries), so such a file is read again next time. Project
modules the analysis consulted are checked the same way: by signature when recorded, else
by their content's hash.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import time
from collections.abc import Collection, Hashable
from dataclasses import asdict, fields, is_dataclass
from typing import Any

from jaxlint import __version__
from jaxlint.files import CACHE_DIRNAME
from jaxlint.finding import Finding

DIRNAME = CACHE_DIRNAME
FORMAT = "2"
TAG = "Signature: 8a477f597d28d172789f06886806bc55\n# jaxlint's cache\n"
MAX_ENTRY = 16 * 1024 * 1024  # bytes; an entry is a few hundred
MAX_INDEX = 256 * 1024 * 1024  # bytes; about 150 a file
INDEX = "files.json"
# Files changed this recently (nanoseconds) before the run started are not put in the stat
# index: coarse timestamps could hide a second edit of the same size.
RACY_NS = 3 * 10**9
REJECTED = 0  # a stat index outcome: the prefilter rejected the file

_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = getattr(os, "O_DIRECTORY", 0)
_NONBLOCK = getattr(os, "O_NONBLOCK", 0)  # a FIFO planted as an entry must not hang a read
_DIR_FLAGS = os.O_RDONLY | _DIRECTORY | _NOFOLLOW


# A dependency on the list of a package's .py files: FOLDER + PACKAGE_FILES
PACKAGE_FILES = f"{os.sep}**{os.sep}*.py"


class CacheRefused(Exception):
    """The cache folder is not safe to use; the message says why, in a few words."""


def _code_stamp() -> str:
    """Changes whenever jaxlint's own code does (an installed release or a checkout)."""
    root = os.path.dirname(os.path.abspath(__file__))
    found = []
    for folder, _, names in os.walk(root):  # (not pathlib: a warm run imports it for this)
        for name in names:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                st = os.stat(path)
                found.append(f"{os.path.relpath(path, root)}:{st.st_size}:{st.st_mtime_ns};")
    return digest("".join(sorted(found)).encode("utf-8", "surrogatepass"))


def _libcst_version() -> str:
    # From its _version.py (version and commit), else its metadata: importing libcst costs
    # more than a warm cached run, and importing importlib.metadata a tenth of one.
    try:
        from importlib.util import find_spec

        spec = find_spec("libcst")
        if spec is not None and spec.origin:
            with open(os.path.join(os.path.dirname(spec.origin), "_version.py"), "rb") as f:
                return "_version.py " + digest(f.read(64 * 1024))
    except (ImportError, ValueError, OSError):
        pass
    try:
        from importlib.metadata import version

        return version("libcst")
    except Exception:  # noqa: BLE001 - not installed as a distribution: still a key
        return "unknown"


def _plain(value: Any) -> Any:
    """``value`` as JSON-ready data whose text does not depend on the hash seed: sets are
    sorted, dataclasses become dicts."""
    if isinstance(value, (set, frozenset)):
        return sorted((_plain(v) for v in value), key=lambda v: json.dumps(v, sort_keys=True))
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in sorted(value.items(), key=lambda kv: str(kv[0]))}
    if is_dataclass(value) and not isinstance(value, type):
        return {f.name: _plain(getattr(value, f.name)) for f in fields(value)}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def stable(value: Any) -> str:
    """A text of ``value`` that is the same in every run (see _plain)."""
    return json.dumps(_plain(value), sort_keys=True, separators=(",", ":"))


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _owner_problem(st: os.stat_result) -> str | None:
    if not stat.S_ISDIR(st.st_mode):
        return "is not a folder"
    geteuid = getattr(os, "geteuid", None)
    if geteuid is not None and st.st_uid != geteuid():
        return "is owned by another user"
    return None


class Cache:
    def __init__(self, folder: str, settings: Any) -> None:
        """Raises CacheRefused if ``folder``'s cache folder exists and is not safe to use."""
        self.top = os.path.join(folder, DIRNAME)
        self.base = stable([FORMAT, __version__, _code_stamp(), sys.version, _libcst_version(),
                            _plain(settings)])
        self._fd: int | None = None
        self._started = time.time_ns()
        self._index: dict[str, list[Any]] | None = None  # path -> [signature, outcome]
        self._index_changed = False
        self._digests: dict[str, str | None] = {}  # this run's content hashes, by path
        self._exists: dict[str, bool] = {}  # this run's answers to "is it a file?"
        self._folders_there: dict[str, bool] = {}  # and to "is it a folder?"
        self._shared: dict[tuple[Hashable, Hashable], Any] = {}  # see signature
        self._cwd = os.getcwd()
        self._folders: dict[str, str] = {}  # see _where
        self._last_where: tuple[str, str] | None = None  # see signature
        try:
            st = os.lstat(self.top)
        except FileNotFoundError:
            return  # made on the first write
        except OSError as exc:
            raise CacheRefused(f"cannot use it ({exc.strerror or exc})") from None
        if stat.S_ISLNK(st.st_mode):
            raise CacheRefused("is a symbolic link")
        problem = _owner_problem(st)
        if problem:
            raise CacheRefused(problem)

    # ------------------------------------------------------------------ the folder, no links
    def _folder(self, create: bool) -> int | None:
        """A descriptor of the format folder, opened without following links (made, with
        its tag and ignore files, when ``create``); None if it is absent or unsafe."""
        if self._fd is not None:
            return self._fd
        try:
            if create:
                try:
                    os.mkdir(self.top, 0o777)
                except FileExistsError:
                    pass
            top = os.open(self.top, _DIR_FLAGS)  # ELOOP (or ENOTDIR) if a link was put there
        except OSError:
            return None
        try:
            if _owner_problem(os.fstat(top)):
                return None
            if create:
                _create_once(top, "CACHEDIR.TAG", TAG)
                _create_once(top, ".gitignore", "*\n")
                try:
                    os.mkdir(FORMAT, 0o777, dir_fd=top)
                except FileExistsError:
                    pass
            fd = os.open(FORMAT, _DIR_FLAGS, dir_fd=top)
        except OSError:
            return None
        finally:
            os.close(top)
        if _owner_problem(os.fstat(fd)):
            os.close(fd)
            return None
        self._fd = fd
        return fd

    def close(self) -> None:
        if self._index_changed and self._index is not None:
            self._write(INDEX, self._index)
            self._index_changed = False
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    # --------------------------------------------------------------------------- stat index
    @staticmethod
    def _stat_part(st: os.stat_result) -> list[int]:
        return [st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino, st.st_dev, st.st_mode]

    def _racy(self, st: os.stat_result) -> bool:
        return max(st.st_mtime_ns, st.st_ctime_ns) >= self._started - RACY_NS

    def signature(self, path: str, st: os.stat_result, per_file: Hashable,
                  roots: Hashable = ()) -> str:
        """What ``key`` hashes, with the file's stat in place of its bytes. Runs for every
        file of a warm run, so the text of what files share is made once."""
        shared = self._shared.get((per_file, roots))
        if shared is None:
            shared = self._shared[(per_file, roots)] = hashlib.sha256(
                (self.base + stable([_plain(per_file), _plain(roots)])).encode())
        h = shared.copy()  # the shared text hashed once, not once a file
        where = self._where(path)
        self._last_where = (path, where)  # for lookup, which comes next
        h.update(f"{where}\0{self._stat_part(st)}".encode("utf-8", "surrogatepass"))
        return h.hexdigest()

    def _where(self, path: str) -> str:
        """``path`` made absolute (os.path.abspath, less a getcwd), its folder once per run:
        this runs twice for every file of a warm run."""
        head, tail = os.path.split(path)
        if tail in ("", os.curdir, os.pardir):
            return os.path.normpath(os.path.join(self._cwd, path))
        prefix = self._folders.get(head)
        if prefix is None:
            folder = os.path.normpath(os.path.join(self._cwd, head))
            prefix = self._folders[head] = folder if folder.endswith(os.sep) else folder + os.sep
        return prefix + tail

    def _load_index(self) -> dict[str, list[Any]]:
        if self._index is None:
            self._index = {}
            fd = self._folder(create=False)
            if fd is not None:
                try:
                    loaded = json.loads(_read_entry(fd, INDEX, MAX_INDEX))
                    if isinstance(loaded, dict):
                        self._index = loaded
                except (OSError, ValueError):
                    pass
        return self._index

    def lookup(self, path: str, signature: str) -> tuple[bool, list[Finding] | None]:
        """(known, findings) for an unchanged file: known and None when the prefilter
        rejected it; not known when it changed, was never recorded, or its entry is gone
        or stale (then the file is read and checked as usual)."""
        last = self._last_where
        where = last[1] if last is not None and last[0] == path else self._where(path)
        found = self._load_index().get(where)
        if not isinstance(found, list) or len(found) != 2 or found[0] != signature:
            return False, None
        outcome = found[1]
        if outcome == REJECTED:
            return True, None
        if not isinstance(outcome, str):
            return False, None
        hit = self.get(outcome, path)
        return hit is not None, hit

    def remember(self, path: str, signature: str, st: os.stat_result, key: str | None) -> None:
        """Record what this run found for ``path`` (``key``: its entry; None: the prefilter
        rejected it), unless it changed too recently for its stat to be trusted."""
        if self._racy(st):
            return
        index = self._load_index()
        entry = [signature, REJECTED if key is None else key]
        name = self._where(path)
        if index.get(name) != entry:
            index[name] = entry
            self._index_changed = True

    def _digest_of(self, dep: str) -> str | None:
        """The content hash of a project module, once per run; by its stat signature when
        the index recorded one (the module is then not read)."""
        if dep in self._digests:
            return self._digests[dep]
        if dep.endswith(PACKAGE_FILES):
            # the .py files of a package (whose callers a timing helper's result depends
            # on): their names, so that a new caller makes the result stale
            from jaxlint.project import package_files

            listing = "\n".join(package_files(dep[: -len(PACKAGE_FILES)]))
            self._digests[dep] = digest(listing.encode("utf-8", "surrogatepass"))
            return self._digests[dep]
        index = self._load_index()
        try:
            st = os.stat(dep)
            stamp = stable(self._stat_part(st))
            known = index.get("\0" + dep)
            if isinstance(known, list) and len(known) == 2 and known[0] == stamp:
                found: str | None = known[1]
            else:
                with open(dep, "rb") as f:
                    found = digest(f.read())
                if not self._racy(st) and self._index is not None:
                    index["\0" + dep] = [stamp, found]
                    self._index_changed = True
        except OSError:
            found = None
        self._digests[dep] = found
        return found

    def _is_file(self, path: str) -> bool:
        """os.path.isfile, once per path and run. Most paths asked about are modules the
        index looked for in folders that do not exist either (``pkg/jax/numpy.py`` beside
        ``pkg/main.py``): a file is not there when its folder is not, so each folder is
        looked at once, and the file only in a folder that is there."""
        found = self._exists.get(path)
        if found is None:
            folder = os.path.dirname(path)
            found = self._exists[path] = (
                (folder == path or not folder or self._is_folder(folder))
                and os.path.isfile(path))
        return found

    def _is_folder(self, path: str) -> bool:
        """os.path.isdir, once per path and run; False without asking when the folder
        above is not there (see _is_file)."""
        found = self._folders_there.get(path)
        if found is None:
            above = os.path.dirname(path)
            found = self._folders_there[path] = (
                (above == path or not above or self._is_folder(above))
                and os.path.isdir(path))
        return found

    # ------------------------------------------------------------------------------ entries
    def key(self, path: str, data: bytes, per_file: Any, roots: Any = ()) -> str:
        h = hashlib.sha256(self.base.encode())
        h.update(stable([os.path.abspath(path), _plain(per_file), _plain(roots)]).encode())
        h.update(data)
        return h.hexdigest()

    @staticmethod
    def _name(path: str) -> str:
        return hashlib.sha256(os.path.abspath(path).encode("utf-8", "surrogatepass")
                              ).hexdigest() + ".json"

    def get(self, key: str, path: str) -> list[Finding] | None:
        fd = self._folder(create=False)
        if fd is None:
            return None
        try:
            entry = json.loads(_read_entry(fd, self._name(path)))
            if entry["key"] != key:
                return None
            for dep, expected in entry["deps"].items():
                if self._digest_of(dep) != expected:
                    return None
            if any(self._is_file(p) for p in entry["absent"]):
                return None  # a module the index looked for and did not find is there now
            return [Finding(**{**row, "path": path,
                               "region": tuple(row["region"]) if row["region"] else None,
                               "region_cells": tuple(row["region_cells"])
                               if row.get("region_cells") else None})
                    for row in entry["findings"]]
        except (OSError, ValueError, KeyError, TypeError):
            return None

    def put(self, key: str, path: str, findings: list[Finding], deps: Collection[str],
            absent: Collection[str] = ()) -> None:
        hashes = {d: self._digest_of(d) for d in sorted(deps)}
        if any(h is None for h in hashes.values()):
            return  # a module that cannot be read now: nothing to check the entry against
        rows = [{k: v for k, v in asdict(f).items() if k != "path"} for f in findings]
        self._write(self._name(path), {"key": key, "findings": rows, "deps": hashes,
                                       "absent": sorted(absent)})

    def _write(self, name: str, entry: object) -> None:
        """Write ``name`` in the format folder: a temporary file, then renamed over it."""
        fd = self._folder(create=True)
        if fd is None:
            return
        tmp = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        try:
            out = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666,
                          dir_fd=fd)
            with os.fdopen(out, "w") as f:
                json.dump(entry, f, separators=(",", ":"))
            os.replace(tmp, name, src_dir_fd=fd, dst_dir_fd=fd)  # replaces a link, never follows
        except OSError:
            try:
                os.unlink(tmp, dir_fd=fd)
            except OSError:
                pass  # a cache that cannot be written only costs time


def _create_once(dir_fd: int, name: str, text: str) -> None:
    """Create ``name`` in the folder if nothing (not even a dangling link) has that name."""
    try:
        fd = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW, 0o666,
                     dir_fd=dir_fd)
    except FileExistsError:
        return
    with os.fdopen(fd, "w") as f:
        f.write(text)


def _read_entry(dir_fd: int, name: str, limit: int = MAX_ENTRY) -> bytes:
    fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _NONBLOCK, dir_fd=dir_fd)
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(f.fileno())
        if not stat.S_ISREG(st.st_mode) or st.st_size > limit:
            raise ValueError("not a cache entry")
        return f.read(limit)
