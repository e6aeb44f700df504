"""Finding the files to lint and writing fixed ones back safely."""

from __future__ import annotations

import errno
import fnmatch
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jaxlint.config import Config

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


_SIMPLE = re.compile(r"[^/!#\\\s]+/?")  # a name or glob: no slash inside, no escape


class _Patterns:
    """One list of gitignore patterns. Names and globs without a slash (the whole default
    list) are matched against each part of the path with one regular expression, which is
    what they mean in gitignore; the rest, or any list with a ``!`` pattern (order matters
    then), goes to pathspec. A walk asks for every entry, and pathspec tries its patterns one
    by one."""

    def __init__(self, lines: tuple[str, ...]) -> None:
        simple = all(_SIMPLE.fullmatch(p) and "**" not in p for p in lines)
        self.spec: Any = None
        self.any_entry: re.Pattern[str] | None = None
        self.folders: re.Pattern[str] | None = None
        if not simple:
            import pathspec  # here: most runs of the pre-commit hook name files, not folders

            self.spec = pathspec.GitIgnoreSpec.from_lines(lines)
            return
        names = [fnmatch.translate(p) for p in lines if not p.endswith("/")]
        folders = [fnmatch.translate(p[:-1]) for p in lines if p.endswith("/")]
        self.any_entry = re.compile("|".join(names)) if names else None
        self.folders = re.compile("|".join(names + folders)) if names or folders else None

    def in_folder(self, folder: str, floor: str | None = None) -> Callable[[str, bool], bool]:
        """``match_file`` for the entries of one folder (``folder``: its path relative to the
        patterns' folder, ending in ``/``, or empty for that folder itself): what depends on
        the folder alone is matched once, and each entry costs one match of its name."""
        if self.spec is not None:
            answer = _answers(self.spec, floor)

            def match(name: str, is_dir: bool) -> bool:
                return bool(answer(folder + name + ("/" if is_dir else ""), folder))
            return match
        above = folder.rstrip("/").split("/") if folder else []
        if floor is not None:
            del above[:floor.count("/")]
        folders, any_entry = self.folders, self.any_entry
        if folders is not None and any(folders.match(part) for part in above):
            return lambda name, is_dir: True

        def match_name(name: str, is_dir: bool) -> bool:
            entry = folders if is_dir else any_entry
            return entry is not None and entry.match(name) is not None
        return match_name

    def match_file(self, rel: str, floor: str | None = None) -> bool:
        """Whether ``rel`` (``/``-separated, ending in ``/`` for a folder) or a folder
        above it is matched; with ``floor`` (a folder above ``rel``, ending in ``/``), as if
        the walk had started there: what matches ``floor`` or a folder above it is not
        counted."""
        if self.spec is not None:
            return bool(_last_match(self.spec, rel, floor))
        is_dir = rel.endswith("/")
        *above, last = rel.rstrip("/").split("/")
        if floor is not None:
            del above[:floor.count("/")]
        folders = self.folders
        if folders is not None and any(folders.match(part) for part in above):
            return True
        entry = folders if is_dir else self.any_entry
        return entry is not None and entry.match(last) is not None


def _last_match(spec: Any, rel: str, floor: str | None) -> bool | None:
    """gitignore's answer for ``rel`` (True: ignored, False: re-included, None: no pattern
    matches); with ``floor``, patterns that match ``floor`` do not count (so inside a named
    ``gen/`` that ``gen/`` excludes, a deeper ``gen/gen/`` is not left out by that pattern
    either: a corner this approximation gives up, for patterns with a slash only)."""
    return _answers(spec, floor)(rel)


_ANSWERS: dict[tuple[int, str | None], tuple[Any, _Answers]] = {}


def _answers(spec: Any, floor: str | None) -> _Answers:
    """_last_match for one spec and floor (made once: a walk asks for every entry)."""
    found = _ANSWERS.get((id(spec), floor))
    if found is None or found[0] is not spec:
        found = _ANSWERS[(id(spec), floor)] = (spec, _Answers(spec, floor))
    return found[1]


class _Answers:
    """_last_match for one pathspec spec and floor. Most entries of a walk match none of a
    .gitignore's patterns, and pathspec tries them one by one, each making a match object:
    that cost more than the rest of a warm run's walk. So the patterns' regular expressions
    are tried first, and the spec is asked only when one of them matches.

    Once asked ``JOIN_AFTER`` times (a small folder's .gitignore is not worth compiling
    again), the patterns are joined (see _Joined), and for the entries of one folder what
    the folder's own path matches is found once."""

    JOIN_AFTER = 25

    def __init__(self, spec: Any, floor: str | None) -> None:
        from pathspec.pattern import RegexPattern
        from pathspec.util import normalize_file

        self.spec, self.floor = spec, floor
        self.normalize: Callable[[str], str] = normalize_file  # as check_file has a path
        if floor is None:
            self.patterns = [p for p in spec.patterns if p.include is not None]
        else:
            # The last pattern that matches wins: look from the end, among the patterns that
            # count below ``floor``.
            self.patterns = [p for p in reversed(spec.patterns)
                             if p.include is not None and p.match_file(floor) is None]
        # A pattern matches a path when its regular expression is found in it (pathspec's
        # RegexPattern.match_file); another kind of pattern is asked itself.
        plain = all(type(p).match_file is RegexPattern.match_file for p in self.patterns)
        self.searches: list[Callable[[str], Any]] | None = (
            [p.regex.search for p in self.patterns if p.regex is not None] if plain else None)
        self.asked = 0
        self.joined: _Joined | None = None
        self.folders: dict[str, bool] = {}  # folder (``a/b/``) -> its path matches a pattern

    def __call__(self, rel: str, folder: str = "") -> bool | None:
        """The answer for ``rel``; ``folder``: the part of it before the entry's name (the
        same for a folder's entries), ending in ``/``, or empty."""
        text = rel if self.floor is not None else self.normalize(rel)
        if self.searches is not None:
            if self.joined is None:
                self.asked += 1
                if self.asked >= self.JOIN_AFTER:
                    self.joined = _Joined(self.patterns)
            joined = self.joined
            if joined is not None and joined.usable:
                # The split below holds for a path in ``folder`` whose name is one segment.
                slash = rel.find("/", len(folder))
                if text == rel and "\n" not in rel and rel.startswith(folder) \
                        and (not folder or (len(folder) > 1 and folder.endswith("/"))) \
                        and (slash == -1 or slash == len(rel) - 1):
                    hit = self.folders.get(folder)
                    if hit is None:
                        hit = self.folders[folder] = joined.in_folder(folder)
                    maybe = hit or joined.entry(rel, len(folder))
                else:
                    maybe = joined.anywhere(text)
                if not maybe:
                    return None
            elif not any(search(text) is not None for search in self.searches):
                return None  # what pathspec says when no pattern matches
        if self.floor is None:
            return self.spec.check_file(rel).include  # type: ignore[no-any-return]
        for pattern in self.patterns:
            if pattern.match_file(rel) is not None:
                return pattern.include  # type: ignore[no-any-return]
        return None


_GROUP = "(?P<ps_d>"  # the one group pathspec's gitignore patterns capture (a folder's /)
# pathspec's expression for a pattern without a slash (a name, at any depth): the folders
# above, then one path segment, then a slash (the ``/`` of a folder-only pattern) or the end
_ANY_DEPTH = "^(?:.+/)?"
_NAME_ENDS = {"(?:(?P<ps_d>/)|$)": "(?:/|$)", "(?P<ps_d>/)": "/"}
# What such a segment may be made of, so that it never matches a slash (or a newline, which
# ``.`` leaves out): literal characters, escaped ones, and ``[^/]``, ``[^/]*``.
_SEGMENT = re.compile(r"(?:\\[^0-9A-Za-z/\n]|\[\^/\]\*?|[^\\.^$*+?{}\[\]|()/\n])*")


class _Joined:
    """Where any of some pathspec patterns matches, in two regular expressions: ``names``
    for the patterns that match one path segment at any depth (``^(?:.+/)?SEGMENT`` then a
    slash or the end: most lines of a .gitignore), tried at the start of each segment, and
    ``others`` searched as the patterns themselves are. Not ``usable`` when the patterns
    are not pathspec's regular expressions as known (no group but the folder mark)."""

    def __init__(self, patterns: Sequence[Any]) -> None:
        names, others = [], []
        self.usable = False
        self.names: re.Pattern[str] | None = None
        self.others: re.Pattern[str] | None = None
        for p in patterns:
            regex = getattr(p, "regex", None)
            if regex is None:
                continue  # matches nothing
            if not isinstance(regex, re.Pattern) or not isinstance(regex.pattern, str) \
                    or regex.flags != re.UNICODE \
                    or regex.groups != regex.pattern.count(_GROUP):
                return
            source = regex.pattern
            end = next((e for e in _NAME_ENDS if source.endswith(e)), None)
            if end is not None and source.startswith(_ANY_DEPTH):
                segment = source[len(_ANY_DEPTH):-len(end)]
                if _SEGMENT.fullmatch(segment):
                    names.append(f"(?:{segment}){_NAME_ENDS[end]}")
                    continue
            others.append(f"(?:{source.replace(_GROUP, '(?:')})")
        try:
            self.names = re.compile("|".join(names)) if names else None
            self.others = re.compile("|".join(others)) if others else None
        except re.error:
            return
        self.usable = all(r is None or r.groups == 0 for r in (self.names, self.others))

    def _name_at(self, text: str, starts: Iterator[int]) -> bool:
        names = self.names
        return names is not None and any(names.match(text, i) is not None for i in starts)

    @staticmethod
    def _starts(text: str, stop: int) -> Iterator[int]:
        """Where ``^(?:.+/)?`` can end in ``text``, before ``stop``: at 0, and after each
        slash that has something before it."""
        if stop > 0:
            yield 0
        i = text.find("/", 1)
        while i != -1 and i + 1 < stop:
            yield i + 1
            i = text.find("/", i + 1)

    def anywhere(self, text: str) -> bool:
        """Whether any pattern matches ``text`` (searched as pathspec searches it)."""
        if self.others is not None and self.others.search(text) is not None:
            return True
        # ``.+/`` holds no newline: the folders above end before the first one
        stop = text.index("\n") + 1 if "\n" in text else len(text) + 1
        return self._name_at(text, self._starts(text, stop))

    def in_folder(self, folder: str) -> bool:
        """Whether a name pattern matches a segment of ``folder`` (``a/b/``, no newline):
        then it matches every entry of the folder."""
        return self._name_at(folder, self._starts(folder, len(folder)))

    def entry(self, rel: str, start: int) -> bool:
        """For ``rel`` (no newline) in a folder ``in_folder`` said no to, its name starting
        at ``start``: whether a pattern matches it."""
        if self.names is not None and self.names.match(rel, start) is not None:
            return True
        return self.others is not None and self.others.search(rel) is not None


class Excluder:
    """Which paths are left out: ``exclude`` and ``extend-exclude`` (from the configuration
    that governs each folder, relative to its file; from the command line, relative to the
    current folder) and, unless turned off, ``.gitignore`` files.

    Patterns are gitignore patterns (matched by pathspec): a name without a slash (``build``,
    ``*_pb2.py``) matches at any depth, one with a slash (``src/gen/``) from the pattern's
    folder, a trailing slash matches folders only. A pattern with a slash never matches a
    path outside its folder. ``.gitignore`` files are read as git reads them, inside a git
    repository only: the repository's ``.git/info/exclude``, then each folder's ``.gitignore``
    from the top down, the last match winning.
    """

    def __init__(self, config_for: Callable[[str], Config],
                 exclude: Sequence[str] | None = None, extend_exclude: Sequence[str] = (),
                 respect_gitignore: bool | None = None, cwd: str | None = None) -> None:
        self.config_for = config_for
        self.exclude = tuple(exclude) if exclude is not None else None
        self.extend_exclude = tuple(extend_exclude)
        self.respect_gitignore = respect_gitignore
        self.cwd = os.path.abspath(cwd or os.getcwd())
        self._here = os.getcwd()  # what relative paths are relative to
        self._specs: dict[tuple[str, ...], Any] = {}
        self._levels: dict[str, list[tuple[str, Any]] | None] = {}  # see _repository_levels

    def _spec(self, lines: Sequence[str]) -> Any:
        key = tuple(lines)
        if key not in self._specs:
            self._specs[key] = _Patterns(key)
        return self._specs[key]

    @staticmethod
    def _relative(path: str, base: str, is_dir: bool) -> str | None:
        """``path`` relative to ``base`` (both absolute and normalised), None if not below it.
        A string test, not os.path.relpath: this runs for every entry of a walk."""
        prefix = base if base.endswith(os.sep) else base + os.sep
        if not path.startswith(prefix):
            return None
        rel = path[len(prefix):]
        if os.sep != "/":  # pragma: no cover - Windows
            rel = rel.replace(os.sep, "/")
        return rel + ("/" if is_dir else "")

    def _matches(self, patterns: Sequence[str], base: str, path: str, is_dir: bool,
                 floor: str | None) -> bool:
        if not patterns:
            return False
        rel = self._relative(path, base, is_dir)
        if rel is None:
            if self._relative(base, path, True) is not None or base == path:
                return False  # the patterns' own folder or one above it
            # outside the patterns' folder: only names without a slash apply
            rel = os.path.basename(path) + ("/" if is_dir else "")
            patterns = [p for p in patterns if "/" not in p.rstrip("/")]
            floor = None
        return self._spec(patterns).match_file(
            rel, None if floor is None else self._relative(floor, base, True))

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

    def _below(self, folder: str, base: str) -> str | None:
        """``folder`` relative to ``base`` as the prefix of its entries' relative paths
        (``sub/dir/``; empty for ``base`` itself), None if it is not below ``base``."""
        return "" if folder == base else self._relative(folder, base, True)

    def _matcher(self, patterns: Sequence[str], base: str, folder: str, floor: str | None
                 ) -> Callable[[str, bool], bool]:
        """``_matches`` (with ``patterns``, not empty) for the entries of ``folder``."""
        below = self._below(folder, base)
        if below is not None:
            return self._spec(patterns).in_folder(  # type: ignore[no-any-return]
                below, None if floor is None else self._relative(floor, base, True))
        # The entries are outside the patterns' folder: only names without a slash apply,
        # and nothing matches the patterns' own folder or one above it.
        names = [p for p in patterns if "/" not in p.rstrip("/")]
        prefix = folder if folder.endswith(os.sep) else folder + os.sep
        match: list[Callable[[str, bool], bool]] = []  # made when first needed, as there

        def outside(name: str, is_dir: bool) -> bool:
            path = prefix + name
            if base == path or base.startswith(path + os.sep):
                return False
            if not match:
                match.append(self._spec(names).in_folder(""))
            return match[0](name, is_dir)
        return outside

    def _gitignored(self, path: str, is_dir: bool, floor: str | None) -> bool:
        result = None
        for base, spec in self._gitignore_levels(os.path.dirname(path)):
            rel = self._relative(path, base, is_dir)
            if rel is not None:
                below = None if floor is None else self._relative(floor, base, True)
                include = _last_match(spec, rel, below)
                if include is not None:
                    result = include
        return bool(result)

    def _gitignore_levels(self, folder: str) -> list[tuple[str, Any]]:
        """The (folder, spec) pairs that apply to entries of ``folder``, weakest first."""
        found = self._repository_levels(folder)
        return found or []

    def _repository_levels(self, folder: str) -> list[tuple[str, Any]] | None:
        """As _gitignore_levels; None when ``folder`` is in no git repository."""
        if folder in self._levels:
            return self._levels[folder]
        levels: list[tuple[str, Any]] | None
        if os.path.lexists(os.path.join(folder, ".git")):
            levels = self._ignore_file(os.path.join(folder, ".git", "info", "exclude"), folder)
        else:
            parent = os.path.dirname(folder)
            levels = None if parent == folder else self._repository_levels(parent)
        if levels is not None:
            levels = levels + self._ignore_file(os.path.join(folder, ".gitignore"), folder)
        self._levels[folder] = levels
        return levels

    def _ignore_file(self, path: str, base: str) -> list[tuple[str, Any]]:
        from jaxlint.config import ConfigError, read_limited

        try:
            text = read_limited(path).decode("utf-8", errors="replace")
        except (OSError, ConfigError):
            return []  # no such file (the usual case), or not one git would read either
        lines = [line for line in text.splitlines() if line.strip()]
        if not lines:
            return []
        import pathspec  # a .gitignore may use anything git accepts: always pathspec's matcher

        return [(base, pathspec.GitIgnoreSpec.from_lines(lines))]


class _InFolder:
    """Excluder.excluded for the entries of one folder. Its configuration, its path below
    each pattern list's folder and the .gitignore files that apply are found when the first
    entry needs them, in the order ``excluded`` needs them (a configuration that cannot be
    read, or a pattern that cannot be compiled, fails at the same entry as there); each
    entry then costs a few matches of its name."""

    def __init__(self, excluder: Excluder, folder: str, floor: str | None) -> None:
        self.excluder, self.folder, self.floor = excluder, folder, floor
        self.lists: list[tuple[Sequence[str], str]] | None = None  # (patterns, their folder)
        self.tests: list[Callable[[str, bool], bool] | None] = []
        self.respect = True
        self.levels: list[tuple[str, _Answers]] | None = None  # (folder below it, answers)

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
            levels = []
            for base, spec in x._gitignore_levels(self.folder):
                below = x._below(self.folder, base)
                if below is not None:
                    levels.append((below, _answers(spec, None if self.floor is None
                                                   else x._relative(self.floor, base, True))))
            self.levels = levels
        result = None
        mark = "/" if is_dir else ""
        for below, answer in self.levels:
            include = answer(below + name + mark, below)
            if include is not None:
                result = include
        return bool(result)


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
