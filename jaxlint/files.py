"""Finding the files to lint and writing fixed ones back safely."""

from __future__ import annotations

import errno
import os
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from jaxlint.config import Config
    from jaxlint.gitindex import Tracked
    from jaxlint.ignore import FolderRules, Rules

# Folders that never hold the user's own code: VCS data, environments, builds and caches.
# They are the default ``exclude`` (gitignore-style names, so they match at any depth);
# ``exclude`` in the configuration or on the command line replaces them.
DEFAULT_EXCLUDE = (
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
    "*.egg-info",
)
SKIP_DIRS = frozenset(n for n in DEFAULT_EXCLUDE if "*" not in n)
# Never entered, whatever ``exclude`` says: version control data and virtual environments.
CACHE_DIRNAME = ".jaxlint_cache"  # the cache folder (see cache.py), named here for --help
# Never entered, whatever ``exclude`` says: version control data, jaxlint's cache, and
# (found by their pyvenv.cfg) virtual environments.
ALWAYS_SKIP = frozenset({".git", ".hg", ".svn", ".bzr", CACHE_DIRNAME})


@dataclass(frozen=True)
class PathError:
    path: str
    message: str


def _skip_dir(parent: str, name: str) -> bool:
    if name in SKIP_DIRS or name.endswith(".egg-info"):
        return True
    return _always_skip(parent, name)


def _always_skip(parent: str, name: str) -> bool:
    if name in ALWAYS_SKIP:
        return True
    # Any folder holding a virtual environment, whatever its name.
    return os.path.exists(os.path.join(parent, name, "pyvenv.cfg"))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


MAX_IGNORE_BYTES = 4 << 20  # git reads any size; past this a .gitignore is ignored, saying so


class Excluder:
    """Which paths are left out: ``exclude`` and ``extend-exclude`` (from the configuration
    that governs each folder, relative to its file; from the command line, relative to the
    current folder) and, unless turned off, ``.gitignore`` files.

    Patterns are gitignore patterns (``jaxlint/ignore.py``, linear in the pattern and the
    path): a name without a slash (``build``, ``*_pb2.py``) matches at any depth, one with a
    slash (``src/gen/``) from the pattern's folder, a trailing slash matches folders only,
    and what is in a folder left out is left out. A pattern with a slash never matches a
    path outside its folder. ``.gitignore`` files are read as git reads them, inside a git
    repository only: the repository's ``.git/info/exclude``, then each folder's ``.gitignore``
    from the top down, the last match winning; and, as in git, they never leave out a file
    git tracks (read from the repository's index: ``jaxlint/gitindex.py``).
    """

    def __init__(self, config_for: Callable[[str], Config],
                 exclude: Sequence[str] | None = None, extend_exclude: Sequence[str] = (),
                 respect_gitignore: bool | None = None, cwd: str | None = None,
                 warn: Callable[[str], None] | None = None) -> None:
        self.config_for = config_for
        self.exclude = tuple(exclude) if exclude is not None else None
        self.extend_exclude = tuple(extend_exclude)
        self.respect_gitignore = respect_gitignore
        self.cwd = os.path.abspath(cwd or os.getcwd())
        self._here = os.getcwd()  # what relative paths are relative to
        self._warn = warn
        self._specs: dict[tuple[str, ...], Rules] = {}
        self._below: dict[tuple[int, tuple[str, ...]], tuple[Rules, Rules]] = {}
        # folder -> the (folder, rules) of the ignore files that apply to its entries, weakest
        # first; None outside a git repository (see _gitignore_levels)
        self._levels: dict[str, list[tuple[str, Rules]] | None] = {}
        self._tops: dict[str, str] = {}  # folder -> the top folder of its git repository
        self._tracked: dict[str, Tracked | None] = {}  # repository top -> what git tracks

    def _spec(self, lines: Sequence[str]) -> Rules:
        key = tuple(lines)
        found = self._specs.get(key)
        if found is None:
            from jaxlint.ignore import Rules, parse

            found = self._specs[key] = Rules(parse(line for p in key
                                                   for line in p.split("\n")))
        return found

    def _rules_below(self, rules: Rules, floor: tuple[str, ...]) -> Rules:
        """``rules.below(floor)``, once per rules and floor (a walk asks in every folder)."""
        key = (id(rules), floor)
        found = self._below.get(key)
        if found is None or found[0] is not rules:
            found = self._below[key] = (rules, rules.below(floor))
        return found[1]

    @staticmethod
    def _names(path: str, base: str) -> list[str] | None:
        """``path`` below ``base`` (both absolute and normalised) as names, [] for ``base``
        itself, None if not below it. A string test, not os.path.relpath: this runs for
        every entry of a walk."""
        if path == base:
            return []
        prefix = base if base.endswith(os.sep) else base + os.sep
        if not path.startswith(prefix):
            return None
        return path[len(prefix):].split(os.sep)

    def _floor_of(self, rules: Rules, base: str, floor: str | None) -> tuple[Rules, int]:
        """The rules that count below ``floor`` (a folder named although excluded) and
        how many names of a path from ``base`` are at or above it."""
        if floor is None:
            return rules, 0
        names = self._names(floor, base)
        if not names:
            return rules, 0
        return self._rules_below(rules, tuple(names)), len(names)

    def _matches(self, patterns: Sequence[str], base: str, path: str, is_dir: bool,
                 floor: str | None) -> bool:
        if not patterns:
            return False
        from jaxlint.ignore import ignored

        names = self._names(path, base)
        if names is None or not names:
            if names is not None or self._names(base, path) is not None:
                return False  # the patterns' own folder or one above it
            # outside the patterns' folder: only names without a slash apply, to its name
            return self._spec(patterns).names_only().decide(
                [os.path.basename(path)], is_dir) is True
        rules, skip = self._floor_of(self._spec(patterns), base, floor)
        return ignored([(rules, names)], is_dir, skip)

    def excluded(self, path: str, is_dir: bool, floor: str | None = None) -> bool:
        """Whether ``path`` is left out. ``floor``: an absolute folder above ``path`` that
        was named on the command line although excluded; walking it, only what matches
        below it counts (as ruff does), so ``jaxlint build/`` still skips ``build/venv``.
        """
        path = os.path.normpath(os.path.join(self._here, path))  # abspath, less a getcwd()
        config = self.config_for(os.path.dirname(path))
        root = config.root if os.path.isabs(config.root) else os.path.abspath(config.root)
        if self.exclude is not None:
            if self._matches(self.exclude, self.cwd, path, is_dir, floor):
                return True
        elif self._matches(config.exclude if config.exclude is not None else DEFAULT_EXCLUDE,
                           root, path, is_dir, floor):
            return True
        if (self._matches(config.extend_exclude, root, path, is_dir, floor)
                or self._matches(self.extend_exclude, self.cwd, path, is_dir, floor)):
            return True
        respect = (self.respect_gitignore if self.respect_gitignore is not None
                   else config.respect_gitignore)
        return respect and self._gitignored(path, is_dir, floor)

    def in_folder(self, folder: str, floor: str | None = None) -> Callable[[str, bool], bool]:
        """``excluded`` for the entries of ``folder`` (absolute and normalised), asked as
        (name, is a folder): a walk asks for every entry, and what depends on the folder
        alone (see _InFolder) is worked out once."""
        return _InFolder(self, folder, floor)

    def _matcher(self, patterns: Sequence[str], base: str, folder: str, floor: str | None
                 ) -> Callable[[str, bool], bool]:
        """``_matches`` (with ``patterns``, not empty) for the entries of ``folder``."""
        below = self._names(folder, base)
        if below is not None:
            rules, _ = self._floor_of(self._spec(patterns), base, floor)
            answer = rules.in_folder(below)
            return lambda name, is_dir: answer(name, is_dir) is True
        # The entries are outside the patterns' folder: only names without a slash apply,
        # and nothing matches the patterns' own folder or one above it.
        names = self._spec(patterns).names_only()
        prefix = folder if folder.endswith(os.sep) else folder + os.sep

        def outside(name: str, is_dir: bool) -> bool:
            path = prefix + name
            if base == path or base.startswith(path + os.sep):
                return False
            return names.decide([name], is_dir) is True
        return outside

    # ------------------------------------------------------------------------- .gitignore
    def _levels_for(self, folder: str, floor: str | None
                    ) -> list[tuple[Rules, list[str], int]]:
        """For a path in ``folder``: each ignore file's rules (less what ``floor`` drops),
        the folder's names from the file's folder, and the names at or above ``floor``."""
        out = []
        for base, spec in self._gitignore_levels(folder):
            names = self._names(folder, base)
            if names is not None:
                rules, skip = self._floor_of(spec, base, floor)
                out.append((rules, names, skip))
        return out

    def _gitignored(self, path: str, is_dir: bool, floor: str | None) -> bool:
        from jaxlint.ignore import ignored

        folder, name = os.path.split(path)
        levels = self._levels_for(folder, floor)
        if not levels:
            return False
        # the first level's folder is the highest: ``ignored`` counts names from there
        if not ignored([(rules, [*names, name]) for rules, names, _ in levels], is_dir,
                       levels[0][2]):
            return False
        return not self._is_tracked(path, is_dir)

    def _is_tracked(self, path: str, is_dir: bool) -> bool:
        """Whether git tracks ``path`` (a folder: anything in it), as far as its index
        says; False when that is unknown."""
        top = self._tops.get(os.path.dirname(path))
        if top is None:
            return False
        if top not in self._tracked:
            from jaxlint.gitindex import read_tracked

            self._tracked[top] = read_tracked(top)
        tracked = self._tracked[top]
        names = self._names(path, top)
        if tracked is None or not names:
            return False
        rel = "/".join(names)
        return tracked.inside(rel) if is_dir else tracked.file(rel)

    def _gitignore_levels(self, folder: str) -> list[tuple[str, Rules]]:
        """The (folder, rules) pairs that apply to entries of ``folder``, weakest first:
        the repository's ``.git/info/exclude``, then each ``.gitignore`` from the top down.
        Iterative: a path may be thousands of folders deep."""
        if folder in self._levels:
            return self._levels[folder] or []
        chain: list[str] = []
        at = folder
        levels: list[tuple[str, Rules]] | None = None
        top: str | None = None
        while True:
            if at in self._levels:  # known: the folders of ``chain`` are below it
                levels, top = self._levels[at], self._tops.get(at)
                break
            chain.append(at)
            if os.path.lexists(os.path.join(at, ".git")):  # the top of a repository
                top = at
                levels = self._ignore_file(os.path.join(at, ".git", "info", "exclude"), at)
                break
            parent = os.path.dirname(at)
            if parent == at:
                break  # in no repository
            at = parent
        for f in reversed(chain):  # top down, each adding its own .gitignore
            if levels is not None and top is not None:
                levels = levels + self._ignore_file(os.path.join(f, ".gitignore"), f)
                self._tops[f] = top
            self._levels[f] = levels
        return self._levels[folder] or []

    def _ignore_file(self, path: str, base: str) -> list[tuple[str, Rules]]:
        from jaxlint.config import ConfigError, read_limited

        try:
            data = read_limited(path, MAX_IGNORE_BYTES)
        except ConfigError as exc:
            if "larger than" in str(exc) and self._warn is not None:
                self._warn(f"jaxlint: warning: not reading {path}: larger than "
                           f"{MAX_IGNORE_BYTES >> 20} MiB; its patterns are not applied")
            return []  # not a regular file, or too large
        except OSError:
            return []  # no such file (the usual case), or not one git would read either
        from jaxlint.ignore import Rules, parse, split_lines

        # git reads bytes: undecodable ones are kept as the file names' own (surrogates)
        rules = Rules(parse(split_lines(data.decode("utf-8", "surrogateescape"))))
        return [(base, rules)] if rules else []


class _InFolder:
    """Excluder.excluded for the entries of one folder. Its configuration, its path below
    each pattern list's folder and the .gitignore files that apply are found when the first
    entry needs them, in the order ``excluded`` needs them (a configuration that cannot be
    read fails at the same entry as there); each entry then costs a few matches of its
    name."""

    def __init__(self, excluder: Excluder, folder: str, floor: str | None) -> None:
        self.excluder, self.folder, self.floor = excluder, folder, floor
        self.lists: list[tuple[Sequence[str], str]] | None = None  # (patterns, their folder)
        self.tests: list[Callable[[str, bool], bool] | None] = []
        self.respect = True
        self.levels: list[FolderRules] | None = None
        self.inside_ignored = False  # this folder is ignored itself (entered for what git tracks)

    def __call__(self, name: str, is_dir: bool) -> bool:
        x = self.excluder
        if self.lists is None:
            config = x.config_for(self.folder)
            root = config.root if os.path.isabs(config.root) else os.path.abspath(config.root)
            first = ((x.exclude, x.cwd) if x.exclude is not None else
                     (config.exclude if config.exclude is not None else DEFAULT_EXCLUDE, root))
            self.lists = [first, (config.extend_exclude, root), (x.extend_exclude, x.cwd)]
            self.tests = [None] * len(self.lists)
            self.respect = (x.respect_gitignore if x.respect_gitignore is not None
                            else config.respect_gitignore)
        for i, (patterns, base) in enumerate(self.lists):
            if not patterns:
                continue
            test = self.tests[i]
            if test is None:
                test = self.tests[i] = x._matcher(patterns, base, self.folder, self.floor)
            if test(name, is_dir):
                return True
        if not self.respect:
            return False
        if self.levels is None:
            levels = x._levels_for(self.folder, self.floor)
            self.levels = [rules.in_folder(names) for rules, names, _ in levels]
            top = x._tops.get(self.folder)
            if levels and top is not None and x._tracked.get(top) is not None:
                # The walk enters an ignored folder only for the files git tracks in it:
                # then what it does not track there is ignored (see _gitignored).
                self.inside_ignored = self._folder_ignored(levels)
        result = None
        for answer in self.levels:
            found = answer(name, is_dir)
            if found is not None:
                result = found
        if not result and not self.inside_ignored:
            return False
        return not x._is_tracked(os.path.join(self.folder, name), is_dir)

    def _folder_ignored(self, levels: list[tuple[Rules, list[str], int]]) -> bool:
        from jaxlint.ignore import ignored

        return ignored([(rules, names) for rules, names, _ in levels if names], True,
                       levels[0][2])


def _prefix(folder: str) -> str:
    """What goes before a name in ``folder`` (normalised), as os.path.join puts it:
    nothing for ``.``, as normpath leaves a path in the current folder."""
    if folder == os.curdir:
        return ""
    return folder if folder.endswith(os.sep) else folder + os.sep


def _walk(root: str, excluder: Excluder | None = None, floor: str | None = None
          ) -> Iterator[tuple[str, str] | PathError]:
    """The ``*.py`` and ``*.ipynb`` files under ``root`` with their real paths, sorted, then
    the walk's errors. What ``excluder`` excludes (below ``floor``, see Excluder.excluded)
    is left out; without one, the default folders.

    Symlinked folders are not entered (no loops, nothing outside the tree). A symlinked file
    is checked only if it points at a file inside ``root``, and under its own name only when
    the walk does not reach the file it points at by a plain path too. The walk is os.walk's
    (top down, each folder's files before its subfolders, folders in name order), by
    ``os.scandir``, whose entries say what they are without a ``stat`` of each file. The real
    path of a plain file is its folder's real path and its name (no symlinked folder is
    entered), so only symlinks need ``realpath``.
    """
    top = os.path.realpath(root)
    found: list[tuple[str, str, bool]] = []  # (path, real path, is a symlink)
    walk_errors: list[OSError] = []
    todo: list[tuple[str, str]] = [(root, top)]  # (folder as os.walk names it, real path)
    while todo:
        dirpath, real_dir = todo.pop()
        dirs: list[tuple[str, bool]] = []  # (name, is a symlink)
        files: list[os.DirEntry[str]] = []
        try:
            with os.scandir(dirpath) as entries:
                for entry in entries:
                    try:
                        is_dir = entry.is_dir()
                    except OSError:
                        is_dir = False
                    if is_dir:
                        try:
                            link = entry.is_symlink()
                        except OSError:
                            link = False
                        dirs.append((entry.name, link))
                    elif entry.name.endswith((".py", ".ipynb")):
                        files.append(entry)
        except OSError as exc:  # the folder cannot be listed: os.walk's onerror
            walk_errors.append(exc)
            continue
        if excluder is None:
            dirs = [d for d in dirs if not _skip_dir(dirpath, d[0])]
        else:
            excluded = excluder.in_folder(
                os.path.normpath(os.path.join(excluder._here, dirpath)), floor)
            dirs = [d for d in dirs if not _always_skip(dirpath, d[0])
                    and not excluded(d[0], True)]
        if files:
            shown = _prefix(os.path.normpath(dirpath))  # normpath(join(dirpath, name)), less
            real_prefix = _prefix(real_dir)             # a join and a normpath a file
        for entry in sorted(files, key=lambda e: e.name):
            name = entry.name
            if excluder is not None and excluded(name, False):
                continue
            full = shown + name
            try:
                if entry.is_file(follow_symlinks=False):
                    found.append((full, real_prefix + name, False))
                elif entry.is_symlink() and os.path.isfile(full):  # not dangling, not a loop
                    real = os.path.realpath(full)
                    if _inside(real, top):  # never followed outside what the user named
                        found.append((full, real, True))
            except OSError:
                continue
        todo.extend((os.path.join(dirpath, name), os.path.join(real_dir, name))
                    for name, link in sorted(dirs, reverse=True) if not link)
    plain = {real for _, real, link in found if not link}
    for full, real, link in found:
        if not (link and real in plain):
            yield full, real
    for err in walk_errors:
        yield PathError(err.filename or root, err.strerror or str(err))


def discover(paths: list[str], excluder: Excluder | None = None,
             force_exclude: bool = False) -> Iterator[str | PathError]:
    """The files to lint under ``paths``, in a stable order, and an error for each bad path.

    Named files are linted whatever their suffix, through symlinks too; folders are searched
    for ``*.py`` and ``*.ipynb`` (see _walk for symlinks met there). However many names
    reach a file, it is checked once, under the first of them: the name the user gave, or
    the path the walk found it by.

    With ``excluder``, what it excludes is left out of folders; a path named here is checked
    even if excluded (in a named folder that is excluded, only what matches below it is left
    out), unless ``force_exclude``.
    """
    seen: set[str] = set()
    for root in paths:
        if os.path.isfile(root):
            if force_exclude and excluder is not None and excluder.excluded(root, False):
                continue
            items: Iterator[tuple[str, str] | PathError] = iter(
                [(root, os.path.realpath(root))])
        elif os.path.isdir(root):
            floor = None
            if excluder is not None and excluder.excluded(root, True):
                if force_exclude:
                    continue
                floor = os.path.abspath(root)
            items = _walk(root, excluder, floor)
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
            value = os.getxattr(source, name)
        except OSError:
            continue  # gone, or not ours to read: nothing we could keep
        try:
            os.setxattr(tmp, name, value)
        except OSError:
            try:
                same = os.getxattr(tmp, name) == value  # a label the new file got anyway
            except OSError:
                same = False
            if not same:
                raise NotWritten(
                    f"cannot keep its extended attribute {name}; not fixed") from None


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
