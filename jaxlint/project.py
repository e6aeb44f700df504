"""What one module of the project tells the others: the cross-file index.

When a linted file imports a name (``from pkg.ops import step``, ``from .ops import step``),
the index finds the module's file the way Python would (from the file's folder, from the
folder above its top-level package, from the current folder), analyses it once, and records
what its module-level functions are: jitted, doing JAX work, or waiting for their arguments.
Lookups are lazy and cached, so only modules that are imported are read, and the answer does
not depend on which files were named on the command line (pre-commit names only changed ones).
The flake8 plugin sees one file at a time and goes without.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING

from jaxlint.analysis.names import NO_EXTRAS, Extras
from jaxlint.files import read

if TYPE_CHECKING:
    from jaxlint.analysis.values import Value

# The engine (libcst) is imported only when a module is analysed: the command line asks
# for import_roots to key a cached result, which must not cost libcst's import.


def module_names(path: str) -> list[str]:
    """Names ``path`` can be imported under: its dotted package path (walking up through
    folders with ``__init__.py``) and, for scripts run from their folder, its bare name."""
    path = os.path.abspath(path)
    stem = os.path.splitext(os.path.basename(path))[0]
    parts = [] if stem == "__init__" else [stem]
    folder = os.path.dirname(path)
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        parts.insert(0, os.path.basename(folder))
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    names = [".".join(parts)] if parts else []
    if stem != "__init__" and stem not in names:
        names.append(stem)
    return names


def import_roots(path: str) -> list[str]:
    """Folders Python would import from when running or importing ``path``."""
    here = os.path.dirname(os.path.abspath(path))
    top = here
    while os.path.isfile(os.path.join(top, "__init__.py")):
        top = os.path.dirname(top)
    roots = [here, top, os.getcwd()]
    return list(dict.fromkeys(roots))


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class ProjectIndex(Mapping[str, "Value"]):
    """``"pkg.ops.step"`` -> what calling it does, for modules found under ``roots``."""

    def __init__(self, roots: list[str], extras: Extras = NO_EXTRAS,
                 cache: dict[str, dict[str, Value]] | None = None) -> None:
        self.roots = roots
        self._tops = [os.path.realpath(r) for r in roots]
        self.extras = extras
        self._modules = cache if cache is not None else {}
        self._paths: dict[str, str | None] = {}
        self._computes: dict[str, bool] = {}
        self.used: set[str] = set()  # module files consulted (a cached result depends on them)
        # Files looked for and not found: a cached result is stale once one appears.
        self.absent: set[str] = set()

    def _file_for(self, module: str) -> str | None:
        if module in self._paths:
            return self._paths[module]
        rel = module.replace(".", os.sep)
        found = None
        for root in self.roots:
            for candidate in (rel + ".py", os.path.join(rel, "__init__.py")):
                full = os.path.join(root, candidate)
                if os.path.isfile(full) and any(
                        _inside(os.path.realpath(full), top) for top in self._tops):
                    found = full
                    break
                # Not there (or a link out of the tree, which the folder walk refuses too).
                self.absent.add(os.path.abspath(full))
            if found:
                break
        self._paths[module] = found
        return found

    def _exports(self, module: str) -> dict[str, Value]:
        from jaxlint.engine import Settings, SourceError, exports_of

        path = self._file_for(module)
        if path is None:
            return {}
        key = os.path.abspath(path)
        self.used.add(key)
        if key in self._modules:
            return self._modules[key]
        try:
            data = read(path)
            if b"\0" in data:
                found: dict[str, Value] = {}
            else:
                names = module_names(path)
                # One level: an imported module is summarised on its own, without following
                # its imports in turn (in a large package that would analyse all of it).
                found = exports_of(data, Settings(extras=self.extras,
                                                  module_name=names[0] if names else None))
        except (OSError, SourceError, RecursionError):
            found = {}  # reported when the file itself is linted
        self._modules[key] = found
        return found

    def computes(self, qualified: str) -> bool:
        """Whether ``qualified`` names something of a project module that uses JAX (a class
        or function of the project's own JAX code, as ``whisper_jax.PjitPartitioner``):
        calls of it are judged as a JAX library's are."""
        parts = qualified.split(".")
        for i in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:i])
            if module in self._computes:
                return self._computes[module]
            path = self._file_for(module)
            if path is not None:
                try:
                    found = b"jax" in read(path)
                except OSError:
                    found = False
                self.used.add(os.path.abspath(path))
                self._computes[module] = found
                return found
        return False

    def __getitem__(self, key: str) -> Value:
        module, _, name = key.rpartition(".")
        if not module:
            raise KeyError(key)
        exported = self._exports(module)
        if name in exported:
            return exported[name]
        # ``utils.chrono.log_timing``: a timer method of an object the module exports
        owner, _, obj = module.rpartition(".")
        if owner and self._file_for(module) is None:
            from jaxlint.analysis.values import TimerFactory, TimerObject

            holder = self._exports(owner).get(obj)
            if isinstance(holder, TimerObject) and name in holder.methods:
                return TimerFactory()
        raise KeyError(key)

    def __contains__(self, key: object) -> bool:
        if not isinstance(key, str):
            return False
        try:
            self[key]
        except KeyError:
            return False
        return True

    def __iter__(self) -> Iterator[str]:
        return iter(())  # lazy: only lookups are supported

    def __len__(self) -> int:
        return 1  # never empty: lookups may succeed
