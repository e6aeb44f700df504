"""``[tool.jaxlint]`` in pyproject.toml: which rules run where, and the project's own names.

```toml
[tool.jaxlint]
select = ["JAX"]                      # codes or prefixes (default: all)
ignore = ["JAX104"]
per-file-ignores = { "tests/*" = ["JAX105"] }
timers = ["mylib.clock.now"]          # more clock functions, by qualified name
jax-work = ["mylib.ops.launch"]       # more functions that dispatch JAX work
syncs = ["mylib.utils.sync"]          # more functions that wait for their JAX arguments
```

The file used is the nearest ``pyproject.toml`` with a ``[tool.jaxlint]`` table, looking from
the current folder upward, or the one given with ``--config``.
"""

from __future__ import annotations

import fnmatch
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from jaxlint.analysis.names import Extras

KEYS = {"select", "ignore", "per-file-ignores", "timers", "jax-work", "syncs"}


class ConfigError(Exception):
    pass


@dataclass(frozen=True)
class Config:
    select: tuple[str, ...] | None = None
    ignore: tuple[str, ...] = ()
    per_file_ignores: tuple[tuple[str, tuple[str, ...]], ...] = ()
    extras: Extras = field(default_factory=Extras)
    root: str = "."
    source: str | None = None

    def ignores_for(self, path: str) -> tuple[str, ...]:
        """Global ignores plus those of every per-file pattern that matches ``path``."""
        out = list(self.ignore)
        rel = os.path.relpath(os.path.abspath(path), os.path.abspath(self.root))
        rel = rel.replace(os.sep, "/")
        name = os.path.basename(path)
        for pattern, codes in self.per_file_ignores:
            if fnmatch.fnmatch(rel, pattern) or fnmatch.fnmatch(name, pattern):
                out.extend(codes)
        return tuple(out)


def _strings(table: dict[str, object], key: str, where: str) -> tuple[str, ...]:
    value = table.get(key, [])
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise ConfigError(f"{where}: [tool.jaxlint] {key} must be a list of strings")
    return tuple(value)


def _read(path: str) -> dict[str, Any]:
    # tomllib is imported here: most runs find no configuration to parse, and start-up time
    # matters to a pre-commit hook.
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - exercised on Python 3.10 only
        import tomli as tomllib
    try:
        with open(path, "rb") as f:
            return tomllib.load(f)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {exc.strerror or exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def load(path: str, data: dict[str, Any] | None = None) -> Config:
    """Read ``[tool.jaxlint]`` from ``path`` (an empty Config if the table is absent);
    ``data``: the file's TOML, if the caller has already parsed it."""
    if data is None:
        data = _read(path)
    table = data.get("tool", {}).get("jaxlint")
    root = os.path.dirname(os.path.abspath(path))
    if table is None:
        return Config(root=root, source=path)
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [tool.jaxlint] must be a table")
    unknown = sorted(set(table) - KEYS)
    if unknown:
        raise ConfigError(f"{path}: unknown [tool.jaxlint] key(s): {', '.join(unknown)} "
                          f"(known: {', '.join(sorted(KEYS))})")
    pfi = table.get("per-file-ignores", {})
    if not isinstance(pfi, dict):
        raise ConfigError(f"{path}: [tool.jaxlint] per-file-ignores must be a table")
    per_file = tuple((pattern, _strings(pfi, pattern, path)) for pattern in pfi)
    select = _strings(table, "select", path) if "select" in table else None
    return Config(
        select=select,
        ignore=_strings(table, "ignore", path),
        per_file_ignores=per_file,
        extras=Extras(
            timers=frozenset(_strings(table, "timers", path)),
            work=frozenset(_strings(table, "jax-work", path)),
            syncs=frozenset(_strings(table, "syncs", path)),
        ),
        root=root,
        source=path,
    )


def discover(start: str = ".") -> Config:
    """The nearest pyproject.toml with a [tool.jaxlint] table, from ``start`` upward."""
    folder = os.path.abspath(start)
    while True:
        candidate = os.path.join(folder, "pyproject.toml")
        if _may_have_table(candidate):
            data = _read(candidate)
            if "jaxlint" in data.get("tool", {}):
                return load(candidate, data)
        parent = os.path.dirname(folder)
        if parent == folder:
            return Config(root=os.path.abspath(start))
        folder = parent


def _may_have_table(path: str) -> bool:
    """A pyproject.toml without the word jaxlint has no [tool.jaxlint] table (no need to
    parse it, or to stop at it if it is not valid TOML: it is not ours)."""
    try:
        with open(path, "rb") as f:
            return b"jaxlint" in f.read()
    except OSError:
        return False


def check_codes(codes: Sequence[str], known: Sequence[str], where: str) -> None:
    for c in codes:
        if not any(k.startswith(c) for k in known):
            raise ConfigError(f"{where}: unknown rule code or prefix: {c}")
