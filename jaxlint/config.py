"""``[tool.jaxlint]`` in pyproject.toml: which rules run where, the project's own names, and
which paths are left out.

```toml
[tool.jaxlint]
select = ["JAX"]                      # codes or prefixes (default: all)
ignore = ["JAX104"]
per-file-ignores = { "tests/*" = ["JAX105"] }
timers = ["mylib.clock.now"]          # more clock functions, by qualified name
jax-work = ["mylib.ops.launch"]       # more functions that dispatch JAX work
syncs = ["mylib.utils.sync"]          # more functions that wait for their JAX arguments
extend-exclude = ["generated/"]       # gitignore-style, relative to this file's folder
```

Each file uses the nearest ``pyproject.toml`` with a ``[tool.jaxlint]`` table in its own
folder or above it (``--config`` names one file for all). The search stops at the project
root: the first folder that holds ``.git`` or ``.hg`` (its own pyproject.toml still counts),
or the filesystem root. It never reads a configuration from, or goes above, a folder that
other users can write to or that another user owns (``/tmp``, a shared parent): such a
folder's ``pyproject.toml`` is ignored with one warning line.
"""

from __future__ import annotations

import fnmatch
import os
import re
import stat
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any

from jaxlint.analysis.names import Extras

KEYS = {"select", "extend-select", "ignore", "per-file-ignores", "timers", "jax-work", "syncs",
        "exclude", "extend-exclude", "respect-gitignore"}
MAX_CONFIG_BYTES = 1 << 20  # far more than any real pyproject.toml; /dev/zero never ends
PROJECT_MARKERS = (".git", ".hg")
DEFAULT_LINE_LENGTH = 88  # ruff's and black's
# Where a project's formatter keeps its line length, nearest first in each folder.
LINE_LENGTH_FILES = (("ruff.toml", ()), (".ruff.toml", ()), ("pyproject.toml", ("tool", "ruff")),
                     ("pyproject.toml", ("tool", "black")))


class ConfigError(Exception):
    """A configuration that cannot be used: one line, ``path[:line:col]: message``."""


def did_you_mean(word: str, choices: Sequence[str], cutoff: float = 0.6) -> str:
    """`` (did you mean 'select'?)`` for the closest of ``choices``, or nothing."""
    import difflib

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=cutoff)
    return f" (did you mean {close[0]!r}?)" if close else ""


def _error_at(path: str, keys: Sequence[str], message: str, value: str | None = None
              ) -> ConfigError:
    """``message`` about ``path``, at the line and column where it sets the key ``keys``
    (or the string ``value`` in it) when that can be found."""
    from jaxlint.toml_places import locate

    where = None
    try:
        where = locate(read_limited(path).decode("utf-8", "replace"), keys, value)
    except (OSError, ConfigError):
        pass
    at = f":{where[0]}:{where[1]}" if where else ""
    return ConfigError(f"{path}{at}: {message}")


_TABLE = ("tool", "jaxlint")


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] | None = None
    extend_select: tuple[str, ...] = ()  # added to select (or to the default: all)
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    extras: Extras = field(default_factory=Extras)
    root: str = "."
    source: str | None = None
    exclude: tuple[str, ...] | None = None  # None: the default list (files.DEFAULT_EXCLUDE)
    extend_exclude: tuple[str, ...] = ()
    respect_gitignore: bool = True
    line_length: int = DEFAULT_LINE_LENGTH  # the formatter's (Resolver.line_length)

    def ignores_for(self, path: str) -> tuple[str, ...]:
        """Global ignores plus those of every per-file pattern that matches ``path``."""
        if not self.per_file_ignores:
            return self.ignore
        out = list(self.ignore)
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root))
        rel = rel.replace(os.sep, "/")
        name = os.path.basename(path)
        for pattern, codes in self.per_file_ignores:
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(name, pattern):
                out.extend(codes)
        return tuple(out)

    def fingerprint(self) -> str:
        """What decides findings, as text that is the same in every run (no set order)."""
        return repr((self.select, self.extend_select, self.ignore, self.per_file_ignores,
                     sorted(self.extras.timers), sorted(self.extras.work),
                     sorted(self.extras.syncs), self.root))


def _strings(table: dict[str, object], key: str, where: str,
             label: str | None = None, keys: Sequence[str] | None = None) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        name = label if label is not None else (key if key.isprintable() else repr(key))
        raise _error_at(where, keys or (*_TABLE, key),
                        f"[tool.jaxlint] {name} must be a list of strings")
    return tuple(value)


def read_limited(path: str, limit: int = MAX_CONFIG_BYTES) -> bytes:
    """The bytes of ``path`` if it is a regular file of at most ``limit`` bytes.

    Opened without blocking and checked with ``fstat`` before reading, so a FIFO, a device
    (``/dev/zero``) or a huge file under a configuration's name is an error, never a hang.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0)
    fd = os.open(path, flags)
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise ConfigError(f"{path}: not a regular file")
        if st.st_size > limit:
            raise ConfigError(f"{path}: larger than {limit // 1024} KiB")
        chunks = []
        size = 0
        while True:
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            size += len(chunk)
            if size > limit:  # grew while we read it
                raise ConfigError(f"{path}: larger than {limit // 1024} KiB")
            chunks.append(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _parse(path: str, raw: bytes) -> dict[str, Any]:
    # tomllib is imported here: most runs find no configuration to parse, and start-up time
    # matters to a pre-commit hook.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        return tomllib.loads(raw.decode("utf-8"))
    except UnicodeDecodeError:
        raise ConfigError(f"{path}: invalid TOML: not UTF-8") from None
    except tomllib.TOMLDecodeError as exc:
        # "... (at line 3, column 5)": the place goes where every error has it
        text = str(exc)
        m = re.search(r" \(at line (\d+), column (\d+)\)$", text)
        if m is not None:
            raise ConfigError(f"{path}:{m.group(1)}:{m.group(2)}: invalid TOML: "
                              f"{text[:m.start()]}") from None
        raise ConfigError(f"{path}: invalid TOML: {text}") from None
    except RecursionError:
        raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None


def _read(path: str) -> dict[str, Any]:
    try:
        raw = read_limited(path)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    return _parse(path, raw)


def _table(data: dict[str, Any], path: str) -> object:
    """``tool.jaxlint`` as written (None when absent), after checking that ``tool`` is a
    table: ``tool = "jaxlint"`` is an error, not a crash."""
    tool = data.get("tool", {})
    if not isinstance(tool, dict):
        raise _error_at(path, ("tool",), "[tool] must be a table")
    return tool.get("jaxlint")


def load(path: str, data: dict[str, Any] | None = None) -> Config:
    """Read ``[tool.jaxlint]`` from ``path`` (an empty Config if the table is absent);
    ``data``: the file's TOML, if the caller has already parsed it."""
    if data is None:
        data = _read(path)
    table = _table(data, path)
    root = os.path.dirname(os.path.abspath(path))
    if table is None:
        return Config(root=root, source=path)
    if not isinstance(table, dict):
        raise _error_at(path, _TABLE, "[tool.jaxlint] must be a table")
    unknown = [k for k in table if k not in KEYS]
    if unknown:
        first = unknown[0]  # (tomllib keeps the file's order)
        name = first if first.isprintable() else repr(first)
        more = f" (and {len(unknown) - 1} more)" if len(unknown) > 1 else ""
        hint = did_you_mean(first, sorted(KEYS)) or f" (known: {', '.join(sorted(KEYS))})"
        raise _error_at(path, (*_TABLE, first),
                        f"unknown [tool.jaxlint] key: {name}{hint}{more}")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise _error_at(path, (*_TABLE, "per-file-ignores"),
                        "[tool.jaxlint] per-file-ignores must be a table")
    # (a pattern is the user's text: shown quoted, so the error stays one line)
    per_file = tuple((pattern, _strings(pfi, pattern, path, f"per-file-ignores {pattern!r}",
                                        (*_TABLE, "per-file-ignores", pattern)))
                     for pattern in pfi)
    select = _strings(table, "select", path) if "select" in table else None
    exclude = _strings(table, "exclude", path) if "exclude" in table else None
    respect = table.get("respect-gitignore", True)
    if not isinstance(respect, bool):
        raise _error_at(path, (*_TABLE, "respect-gitignore"),
                        "[tool.jaxlint] respect-gitignore must be true or false")
    return Config(
        select=select,
        extend_select=_strings(table, "extend-select", path),
        ignore=_strings(table, "ignore", path),
        per_file_ignores=per_file,
        extras=Extras(
            timers=frozenset(_strings(table, "timers", path)),
            work=frozenset(_strings(table, "jax-work", path)),
            syncs=frozenset(_strings(table, "syncs", path)),
        ),
        root=root,
        source=path,
        exclude=exclude,
        extend_exclude=_strings(table, "extend-exclude", path),
        respect_gitignore=respect,
    )


def _strings_in(value: object) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for k, v in value.items():
            yield k
            yield from _strings_in(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings_in(v)


def foreign(table: object) -> bool:
    """Whether a ``[tool.jaxlint]`` table is another tool's: an unrelated linter on the
    package index is also named jaxlint and reads the same table (``per_file_ignores`` of
    its ``JL010``, ``JD001`` codes). A table none of whose keys is one of ours, and in which
    no key or value names one of our codes or prefixes (``JAX101``, ``JAX1``), is not ours.
    A table with one key of ours, or a code of ours, is ours: its unknown keys are errors
    (``per_file_ignores = {"tests/*" = ["JAX105"]}`` is a typo of ours)."""
    if not isinstance(table, dict) or not table or any(k in KEYS for k in table):
        return False
    return not any(_OUR_CODE.fullmatch(s.strip()) for s in _strings_in(table))


_OUR_CODE = re.compile(r"JAX\d*")  # (codes are case-sensitive: "jax" is no code of ours)


def untrusted(path: str) -> str | None:
    """Why ``path`` (a folder, or a file in one) could hold something another user put
    there, or None when only this user (or root) can have written it.

    Untrusted: writable by others; writable by a group other than the user's own primary
    group; owned by another user (except root). When running as root, only the first two
    count, so root can lint a user's checkout with its configuration.
    """
    if not hasattr(os, "geteuid"):
        return None  # no POSIX ownership to check (Windows)
    try:
        st = os.stat(path)
    except OSError:
        return None
    uid = os.geteuid()
    if st.st_mode & stat.S_IWOTH:
        return "is writable by other users"
    if st.st_mode & stat.S_IWGRP and st.st_gid != os.getegid():
        return "is writable by its group"
    if uid != 0 and st.st_uid not in (uid, 0):
        return "is owned by another user"
    return None


def is_project_root(folder: str) -> bool:
    return any(os.path.lexists(os.path.join(folder, m)) for m in PROJECT_MARKERS)


def _mentions_jaxlint(path: str) -> bool:
    """A pyproject.toml without the word jaxlint has no [tool.jaxlint] table (no need to
    parse it, or to stop at it if it is not valid TOML: it is not ours). Anything that is
    not a regular file is not ours either (it cannot be read without risking a hang)."""
    try:
        return b"jaxlint" in read_limited(path)
    except OSError:
        return False
    except ConfigError:
        try:
            st = os.stat(path)
        except OSError:
            return False
        if stat.S_ISREG(st.st_mode):
            raise  # a regular file too large to be a configuration: say so
        return False


class Resolver:
    """Which configuration each file uses: ``explicit`` (``--config``) for all, or the
    nearest one above the file, looked up once per folder.

    ``warn`` receives one line per configuration or cache ignored for safety. Raises
    ConfigError for a configuration that cannot be used (invalid TOML, an unknown key or,
    with ``known``, an unknown rule code).
    """

    def __init__(self, explicit: Config | None = None,
                 warn: Callable[[str], None] | None = None, cwd: str | None = None,
                 known: Sequence[str] | None = None) -> None:
        self.known = known  # rule codes: each configuration found is checked against them
        if explicit is not None and known is not None:
            check(explicit, known)
        self.explicit = explicit
        self.cwd = os.path.abspath(cwd or os.getcwd())
        self.default = Config(root=self.cwd)
        self._warn = warn or (lambda line: None)
        self._warned: set[str] = set()
        self._nearest: dict[str, Config | None] = {}
        self._lengths: dict[str, int] = {}

    def warn(self, line: str) -> None:
        if line not in self._warned:
            self._warned.add(line)
            self._warn(line)

    def for_file(self, path: str) -> Config:
        return self.for_folder(os.path.dirname(os.path.abspath(path)))

    def for_folder(self, folder: str) -> Config:
        if self.explicit is not None:
            return self.explicit
        return self._find(os.path.abspath(folder)) or self.default

    def _find(self, folder: str) -> Config | None:
        # Iterative (a path may be deep), filling the per-folder memo on the way back.
        chain: list[str] = []
        found: Config | None = None
        while True:
            if folder in self._nearest:
                found = self._nearest[folder]
                break
            chain.append(folder)
            why = untrusted(folder)
            if why is not None:
                self._ignore(folder, why)
                break
            candidate = os.path.join(folder, "pyproject.toml")
            if _mentions_jaxlint(candidate):
                why = untrusted(candidate)
                if why is not None:
                    self.warn(f"jaxlint: warning: ignoring {candidate}: the file {why}")
                else:
                    data = _read(candidate)
                    table = _table(data, candidate)
                    if isinstance(table, dict) and foreign(table):
                        keys = ", ".join(sorted(str(k) for k in table)[:3])
                        self.warn(f"jaxlint: warning: ignoring [tool.jaxlint] in {candidate}:"
                                  f" none of its keys ({keys}) nor any code in it is this "
                                  "jaxlint's (another tool of that name reads the same table)")
                    elif table is not None:
                        found = load(candidate, data)
                        if self.known is not None:
                            check(found, self.known)
                        break
            parent = os.path.dirname(folder)
            if parent == folder or is_project_root(folder):
                break
            folder = parent
        for f in chain:
            self._nearest[f] = found
        return found

    def _ignore(self, folder: str, why: str) -> None:
        """Say so when a folder we stop at holds a configuration or cache we will not use."""
        candidate = os.path.join(folder, "pyproject.toml")
        try:
            ours = _mentions_jaxlint(candidate)
        except ConfigError:
            ours = True
        if ours:
            self.warn(f"jaxlint: warning: ignoring {candidate}: its folder {why}")

    def line_length(self, path: str) -> int:
        """The line length the project formats ``path`` with: ``line-length`` from the
        nearest ``ruff.toml``, ``.ruff.toml``, or ``pyproject.toml`` with it in
        ``[tool.ruff]`` or ``[tool.black]``, searched as configurations are (up to the
        project root, never in a folder that is not safe); 88 when none sets it."""
        folder = os.path.dirname(os.path.abspath(path))
        chain: list[str] = []
        found = DEFAULT_LINE_LENGTH
        while True:
            if folder in self._lengths:
                found = self._lengths[folder]
                break
            chain.append(folder)
            if untrusted(folder) is not None:
                break
            length = self._length_in(folder)
            if length is not None:
                found = length
                break
            parent = os.path.dirname(folder)
            if parent == folder or is_project_root(folder):
                break
            folder = parent
        for f in chain:
            self._lengths[f] = found
        return found

    @staticmethod
    def _length_in(folder: str) -> int | None:
        for name, table in LINE_LENGTH_FILES:
            candidate = os.path.join(folder, name)
            try:
                raw = read_limited(candidate)
            except (OSError, ConfigError):
                continue
            if b"line-length" not in raw or untrusted(candidate) is not None:
                continue
            try:
                data: object = _parse(candidate, raw)
            except ConfigError:
                continue  # not ours to report: the formatter says what is wrong with it
            for key in table:
                data = data.get(key) if isinstance(data, dict) else None
            length = data.get("line-length") if isinstance(data, dict) else None
            if isinstance(length, int) and not isinstance(length, bool) and 0 < length < 1000:
                return length
        return None

    def cache_folder(self) -> str | None:
        """Where the cache lives: beside the configuration the current folder uses, or in
        the current folder; None (no cache) when that folder is not safe to write to."""
        config = self.for_folder(self.cwd)
        # "." rather than the absolute current folder: messages about it stay short
        folder = os.path.dirname(os.path.abspath(config.source)) if config.source else os.curdir
        why = untrusted(folder)
        if why is None:
            return folder
        from jaxlint.files import CACHE_DIRNAME

        if os.path.lexists(os.path.join(folder, CACHE_DIRNAME)):
            self.warn(f"jaxlint: warning: ignoring {os.path.join(folder, CACHE_DIRNAME)}: "
                      f"its folder {why}")
        return None


def discover(start: str = ".") -> Config:
    """The configuration for files in ``start`` (see Resolver)."""
    return Resolver(cwd=start).for_folder(start)


def check_codes(codes: Sequence[str], known: Sequence[str], where: str,
                keys: Sequence[str] = ()) -> None:
    """Every code is a known one or a prefix of one; ``keys``: the key in the file ``where``
    that lists them, for the error's line and column."""
    for c in codes:
        if not c.strip():
            message = "empty rule code (\"\" would match every rule)"
        elif not any(k.startswith(c) for k in known):
            message = f"unknown rule code or prefix: {c}{did_you_mean(c, known, 0.75)}"
        else:
            continue
        if keys and os.path.isfile(where):
            raise _error_at(where, keys, message, c)
        raise ConfigError(f"{where}: {message}")


def check(config: Config, known: Sequence[str]) -> None:
    """Every code a configuration names exists (a mistyped code would silently do nothing)."""
    where = config.source or "configuration"
    for key, codes in (("select", config.select or ()), ("extend-select", config.extend_select),
                       ("ignore", config.ignore)):
        check_codes(codes, known, where, (*_TABLE, key))
    for pattern, codes in config.per_file_ignores:
        check_codes(codes, known, where, (*_TABLE, "per-file-ignores", pattern))
