"""What one module of the project tells the others: the cross-file index.

When a linted file imports a name (``from pkg.ops import step``, ``from .ops import step``),
the index finds the module's file the way Python would (from the file's folder, from the
folder above its top-level package, from the current folder), analyses it once, and records
what its module-level functions are: jitted, doing JAX work, or waiting for their arguments.
A module's functions are worked out one by one when asked for (engine.Exports), and what
they call of other modules of the project is looked up in turn (a trainer's ``run_eval``
calling ``train_utils.unreplicate_and_get``), ``MAX_DEPTH`` modules deep.
Lookups are lazy and cached, so only modules that are imported are read, and the answer does
not depend on which files were named on the command line (pre-commit names only changed ones).
The flake8 plugin sees one file at a time and goes without.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import TYPE_CHECKING, Any, NamedTuple, cast

from jaxlint.analysis.names import NO_EXTRAS, Extras
from jaxlint.config import is_project_root
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
        if parent == folder or is_project_root(folder):
            break  # (a checkout's root with an __init__.py: nothing above it is read)
        folder = parent
    names = [".".join(parts)] if parts else []
    if stem != "__init__" and stem not in names:
        names.append(stem)
    return names


def import_roots(path: str, tops: dict[str, str] | None = None) -> list[str]:
    """Folders Python would import from when running or importing ``path``. ``tops``
    remembers, for the folders looked at, the folder above their top-level package: the
    files of a tree share them (a warm run asks for every folder of the tree)."""
    here = os.path.dirname(os.path.abspath(path))
    if tops is None:
        tops = {}
    chain = []
    top = here
    while top not in tops and os.path.isfile(os.path.join(top, "__init__.py")):
        chain.append(top)
        if is_project_root(top) or os.path.dirname(top) == top:
            break  # the folder above a checkout is not the project's
        top = os.path.dirname(top)
    top = tops.get(top, top)
    for folder in chain:
        tops[folder] = top
    if not chain:
        tops[here] = top
    cwd = os.getcwd()
    roots = [here, top]
    # A layout's import roots between the file and the project's top (the working folder):
    # ``src/`` and ``python/`` (``pip install -e .`` puts them on the path), and the folder
    # above a package without ``__init__.py`` (a namespace package, ``src/trainer/``).
    folder = here
    if not chain and folder != cwd and _inside(os.path.dirname(folder), cwd):
        roots.append(os.path.dirname(folder))
    while folder != os.path.dirname(folder) and _inside(folder, cwd) and folder != cwd:
        if os.path.basename(folder) in _LAYOUT_ROOTS:
            roots.append(folder)
        folder = os.path.dirname(folder)
    roots.append(cwd)
    # A script outside the layout (``scripts/train.py`` beside ``src/pkg/``) imports the
    # project's packages from it too, once the project is installed.
    # (Not a link: a checkout's ``src`` pointing out of it would make the index read files
    # outside the project.)
    for layout in _TOP_LAYOUT_ROOTS:
        folder = os.path.join(cwd, layout)
        if _inside(here, cwd) and os.path.isdir(folder) and not os.path.islink(folder):
            roots.append(folder)
    return list(dict.fromkeys(roots))


_LAYOUT_ROOTS = frozenset({"src", "python", "lib"})
_TOP_LAYOUT_ROOTS = ("src", "python")  # the project's own, for files anywhere in it


MAX_DEPTH = 3  # modules followed from the linted file: those it imports, and two more
MAX_REEXPORTS = 4  # re-exports followed from one name (``from .sub import name``)
MAX_CALLERS = 200  # files of a timing helper's package looked through for its callers
# folders looked through for them (a working folder with no project marker, such as a home
# folder, is the project: its data and documents are not walked without end)
MAX_FOLDERS = 1000

# The index of the file being linted. A module's exports, cached for the whole run (their
# answers; the analysis they are worked out from is kept only for the modules asked most
# recently, see engine.LIVE_SOURCE), look up names through the index that made them; what
# those lookups read and miss is recorded for the file being linted now (its cached result
# depends on it), whichever file's index first analysed the module.
_linting: list[ProjectIndex] = []


def _project_top(folder: str) -> bool:
    """A project's top folder: a repository's (``is_project_root``) or one with the files
    that describe a Python project."""
    return is_project_root(folder) or any(
        os.path.isfile(os.path.join(folder, f)) for f in ("pyproject.toml", "setup.py",
                                                          "setup.cfg"))


# Folders of a project that hold no code of its own (environments, builds, caches).
_NOT_SOURCES = frozenset({"venv", "env", "site-packages", "node_modules", "build", "dist",
                          "__pycache__", "_build", "wheelhouse"})


def package_files(folder: str) -> list[str]:
    """The .py files under ``folder`` (at most ``MAX_CALLERS``, from its first
    ``MAX_FOLDERS`` folders, nearest first, in a stable order), without following links or
    entering hidden folders."""
    found: list[str] = []
    todo = [os.path.abspath(folder)]
    seen = 0
    while todo and len(found) < MAX_CALLERS and seen < MAX_FOLDERS:
        here = todo.pop(0)
        seen += 1
        try:
            entries = sorted(os.scandir(here), key=lambda e: e.name)
        except OSError:
            continue
        for entry in entries:
            if entry.name.startswith(".") or entry.is_symlink() or (
                    entry.name in _NOT_SOURCES):
                continue
            if entry.is_dir(follow_symlinks=False):
                todo.append(entry.path)
            elif entry.name.endswith(".py"):
                found.append(entry.path)
    return found[:MAX_CALLERS]


def _package_of(path: str, module: str) -> str:
    """The package relative imports in ``path`` (module ``module``) start from."""
    return module if os.path.basename(path) == "__init__.py" else module.rpartition(".")[0]


def _import_source(node: object, package: str) -> str:
    """The absolute module a ``from X import ...`` statement imports from ("" if none):
    ``from .timing import Timer`` in ``pkg.utils`` is ``pkg.timing``."""
    import ast

    assert isinstance(node, ast.ImportFrom)
    if not node.level:
        return node.module or ""
    parts = package.split(".") if package else []
    if node.level - 1 > len(parts):
        return ""
    base = ".".join(parts[:len(parts) - (node.level - 1)])
    return ".".join(p for p in (base, node.module or "") if p)


class TopLevel(NamedTuple):
    """What the top level of a module file binds, read once with CPython's parser (also
    inside ``try``/``if`` blocks there; ``_top_level``)."""

    # ``{name: absolute origin}`` of its ``from X import name [as other]`` statements
    imports: dict[str, str]
    # the names only ``class`` statements bind (no other statement of the top level does)
    classes: frozenset[str]
    # what ``from M import *`` binds of it (``ProjectIndex.star_origin``): its ``__all__``
    # when that is a literal list or tuple of strings (else None), the public names its
    # top level binds, the modules its own ``from X import *`` statements name (absolute),
    # and where the names it imports come from (``import numpy as np``: ``numpy``)
    listed: frozenset[str] | None
    public: frozenset[str]
    stars: tuple[str, ...]
    origins: dict[str, str]


_NOTHING = TopLevel({}, frozenset(), None, frozenset(), (), {})


def _top_level(path: str, module: str) -> TopLevel:
    """``TopLevel`` of the module file ``path`` (module ``module``)."""
    import ast

    try:
        tree = ast.parse(read(path))
    except (OSError, SyntaxError, ValueError, RecursionError, MemoryError):
        return _NOTHING
    package = _package_of(path, module)
    out: dict[str, str] = {}
    classes: set[str] = set()
    others: set[str] = set()
    listed: frozenset[str] | None = None
    bound: set[str] = set()
    stars: list[str] = []
    origins: dict[str, str] = {}
    todo: list[ast.stmt] = list(tree.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Try, ast.If)):
            todo.extend(node.body)
            todo.extend(node.orelse)
            if isinstance(node, ast.Try):
                for handler in node.handlers:
                    todo.extend(handler.body)
            continue
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound.add(node.name)
        if isinstance(node, ast.ClassDef):
            classes.add(node.name)
            continue
        # every other name the statement binds (a def, an assignment, an import, a
        # ``for`` or ``with`` target, a walrus): the name may hold something else
        for inner in ast.walk(node):
            if isinstance(inner, ast.Name) and isinstance(inner.ctx, ast.Store):
                others.add(inner.id)
            elif isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                others.add(inner.name)
            elif isinstance(inner, (ast.Import, ast.ImportFrom)):
                others.update((a.asname or a.name).split(".")[0] for a in inner.names)
            elif isinstance(inner, (ast.Global, ast.Nonlocal)):
                others.update(inner.names)
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                bound.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
                if isinstance(target, ast.Name) and target.id == "__all__" and isinstance(
                        node.value, (ast.List, ast.Tuple)) and all(
                        isinstance(e, ast.Constant) and isinstance(e.value, str)
                        for e in node.value.elts):
                    listed = frozenset(e.value for e in node.value.elts)  # type: ignore
        if isinstance(node, ast.Import):
            for alias in node.names:
                name = (alias.asname or alias.name).split(".")[0]
                bound.add(name)
                origins.setdefault(name, alias.name if alias.asname else name)
        if not isinstance(node, ast.ImportFrom):
            continue
        source = _import_source(node, package)
        for alias in node.names:
            if alias.name == "*":
                if source:
                    stars.append(source)
            else:
                bound.add(alias.asname or alias.name)
                if source:
                    out.setdefault(alias.asname or alias.name, f"{source}.{alias.name}")
    # (the statements were taken last first: ``setdefault`` kept the last binding, as
    # Python does; the star imports are put back in their order)
    origins.update(out)
    public = frozenset(n for n in bound if not n.startswith("_"))
    return TopLevel(out, frozenset(classes - others), listed, public, tuple(reversed(stars)),
                    origins)


def _statements(body: list[Any]) -> Iterator[Any]:
    """Every statement of ``body``, nested ones too (those of functions, classes, loops,
    branches, ``with``, ``try`` and ``match`` blocks), each with whether a function holds it
    (a ``def``'s own header is in the function). Statements only: a module's imports and
    ``with`` blocks are statements, and an expression walk visits ten times the nodes."""
    todo = [(node, False) for node in reversed(body)]
    while todo:
        node, in_function = todo.pop()
        yield node, in_function
        inner = in_function or type(node).__name__ in ("FunctionDef", "AsyncFunctionDef")
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list):
                todo.extend((stmt, inner) for stmt in reversed(block))
        for part in getattr(node, "handlers", None) or getattr(node, "cases", None) or ():
            todo.extend((stmt, inner) for stmt in reversed(part.body))


_BLOCKS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})


def _reads_clock_in_function(tree: Any, data: bytes) -> bool:
    """Whether a function of the module calls a clock's (or harness's) name, or enters a
    ``with``: it may time a call of its parameters for the project's other modules. Only
    the statements of functions on a line whose bytes spell such a name are searched for
    the call (``data``: the module's bytes, which ``tree`` was parsed from)."""
    import ast

    from jaxlint.settings import CLOCK_FUNCTIONS

    lines: set[int] | None = None  # the lines that spell a clock's name (at first need)
    for stmt, in_function in _statements(tree.body):
        if not in_function and not isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue  # (a ``def``'s decorators and defaults are read as its body is)
        if in_function and isinstance(stmt, (ast.With, ast.AsyncWith)):
            return True
        if lines is None:
            lines = _lines_naming(data, _clock_name(CLOCK_FUNCTIONS))
        if not lines:
            continue  # (a ``with`` is still looked for)
        end = getattr(stmt, "end_lineno", None) or stmt.lineno
        first = min([stmt.lineno, *(d.lineno for d in getattr(stmt, "decorator_list", ()))])
        if not any(line in lines for line in range(first, end + 1)):
            continue
        for name, value in ast.iter_fields(stmt):
            if name in _BLOCKS:
                if name in ("handlers", "cases"):  # ``except E``, ``case P if guard``
                    parts = [getattr(p, f, None) for p in value for f in ("type", "guard")]
                    value = [p for p in parts if p is not None]
                else:
                    continue
            for root in value if isinstance(value, list) else [value]:
                if not isinstance(root, ast.AST):
                    continue
                for node in ast.walk(root):
                    if isinstance(node, ast.Call):
                        func = node.func
                        called = func.attr if isinstance(func, ast.Attribute) else (
                            func.id if isinstance(func, ast.Name) else None)
                        if called in CLOCK_FUNCTIONS:
                            return True
    return False


def _lines_naming(data: bytes, pattern: Any) -> set[int]:
    """The numbers of the lines of ``data`` where ``pattern`` matches, as CPython counts
    lines (``\\r\\n``, ``\\n`` and ``\\r`` end one)."""
    if b"\r" in data:
        data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    lines: set[int] = set()
    line, done = 1, 0
    for match in pattern.finditer(data):
        line += data.count(b"\n", done, match.start())
        done = match.start()
        lines.add(line)
    return lines


_CLOCK_NAME: dict[frozenset[str], Any] = {}


def _clock_name(names: frozenset[str]) -> Any:
    """The pattern of the clock functions' names as words in a module's bytes."""
    found = _CLOCK_NAME.get(names)
    if found is None:
        import re

        found = _CLOCK_NAME[names] = re.compile(
            rb"\b(?:" + b"|".join(re.escape(n.encode()) for n in sorted(names)) + rb")\b")
    return found


def _inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


class _Memo:
    """Answers read off the project's files by bytes and CPython's parse, each a function
    of one file's content (or of which files exist) and of the index's roots and
    configuration. Whoever asks records the file as a dependency (``used``, ``absent``)
    whether or not the answer was known: a cached result stays keyed by what it read."""

    __slots__ = ("computes", "may_time", "misses", "paths", "takes", "tops")

    def __init__(self, shared: _Memo | None = None) -> None:
        self.paths: dict[str, str | None] = {}
        self.misses: dict[str, list[str]] = {}
        self.computes: dict[str, bool | bytes] = {}
        self.takes: dict[str, tuple[bool, frozenset[str], frozenset[str]]] = {}
        # Answers of a file's content alone (and of the name it is imported under), the
        # same whatever the roots: shared by every memo of a run with one configuration
        # (``shared``), so a package's ``__init__`` is parsed once, not once per folder of
        # linted files (a research repository's 40 training scripts in 20 folders).
        self.tops: dict[tuple[str, str], TopLevel] = shared.tops if shared is not None else {}
        self.may_time: dict[str, bool] = shared.may_time if shared is not None else {}


_MEMO_KEY = "\0project-index"  # no module file's path: a key of its own in the cache


def forget_reads(cache: dict[str, Any]) -> None:
    """Let the next lint read the project's files afresh (which exist, what they import):
    for a session that outlives its files' content (an editor, a live notebook), whose
    cached analyses are dropped module by module as files change."""
    cache.pop(_MEMO_KEY, None)


def _memo_of(cache: dict[str, Mapping[str, Value]], roots: list[str], extras: Extras
             ) -> _Memo:
    memos = cast("dict[tuple[tuple[str, ...], Extras], _Memo]",
                 cache.setdefault(_MEMO_KEY, cast("Mapping[str, Value]", {})))
    key = (tuple(roots), extras)
    memo = memos.get(key)
    if memo is None:
        shared_key = ((), extras)  # (no index has no roots: a key of its own)
        shared = memos.get(shared_key)
        if shared is None:
            shared = memos[shared_key] = _Memo()
        memo = memos[key] = _Memo(shared)
    return memo


class ProjectIndex(Mapping[str, "Value"]):
    """``"pkg.ops.step"`` -> what calling it does, for modules found under ``roots``."""

    def __init__(self, roots: list[str], extras: Extras = NO_EXTRAS,
                 cache: dict[str, Mapping[str, Value]] | None = None, depth: int = 1,
                 parent: ProjectIndex | None = None) -> None:
        self.roots = roots
        self.depth = depth
        self._tops = [os.path.realpath(r) for r in roots]
        self.extras = extras
        self._modules = cache if cache is not None else {}
        # What is read off the project's files without analysing them, shared by the index
        # of every file of a run with the same roots and configuration (they live as long
        # as ``cache``; the editor server and the notebook extension call ``forget_reads``
        # before each lint, since their files change under them)
        memo = parent._memo if parent is not None else _memo_of(self._modules, roots, extras)
        self._memo: _Memo = memo
        self._paths: dict[str, str | None] = memo.paths
        self._misses: dict[str, list[str]] = memo.misses
        # module files consulted (a cached result depends on them)
        self.used: set[str] = set()
        # Files looked for and not found: a cached result is stale once one appears.
        self.absent: set[str] = set()
        # module -> True if it names jax, else its text (or b"")
        self._computes: dict[str, bool | bytes] = memo.computes
        # module -> whether it takes a name from the project's JAX code (``_takes_jax``),
        # and the module files and misses that answer read
        self._takes: dict[str, tuple[bool, frozenset[str], frozenset[str]]] = memo.takes
        self._busy: set[str] = parent._busy if parent is not None else set()
        # (module file, its name) -> what its top level binds (``_top``)
        self._top_levels: dict[tuple[str, str], TopLevel] = memo.tops
        # module file -> whether it may define a timer (see ``may_time``)
        self._may_time: dict[str, bool] = memo.may_time
        # module file -> whether a JAX value can come from it (see ``carries_jax``)
        self._carries: dict[str, bool] = parent._carries if parent is not None else {}

    def _sink(self) -> ProjectIndex:
        """Where to record what is read and missed: the linted file's index."""
        return _linting[-1] if _linting else self

    def _file_for(self, module: str) -> str | None:
        if module not in self._paths:
            rel = module.replace(".", os.sep)
            found = None
            misses = []
            for root in self.roots:
                for candidate in (rel + ".py", os.path.join(rel, "__init__.py")):
                    full = os.path.join(root, candidate)
                    if os.path.isfile(full) and any(
                            _inside(os.path.realpath(full), top) for top in self._tops):
                        found = full
                        break
                    # Not there (or a link out of the tree, which the folder walk refuses).
                    misses.append(os.path.abspath(full))
                if found:
                    break
            self._paths[module] = found
            self._misses[module] = misses
        self._sink().absent.update(self._misses[module])
        return self._paths[module]

    def _exports(self, module: str) -> Mapping[str, Value]:
        from jaxlint.engine import Settings, SourceError, exports_of

        path = self._file_for(module)
        if path is None:
            return {}
        key = os.path.abspath(path)
        self._sink().used.add(key)
        if key in self._modules:
            return self._modules[key]
        if key in self._busy:
            return {}  # its module-level code imports it back: an import cycle
        deeper = None
        if self.depth < MAX_DEPTH:
            deeper = ProjectIndex(self.roots, self.extras, self._modules, self.depth + 1, self)
        self._busy.add(key)
        try:
            data = read(path)
            if b"\0" in data:
                found: Mapping[str, Value] = {}
            else:
                names = module_names(path)
                found = exports_of(data, Settings(extras=self.extras, index=deeper,
                                                  module_name=names[0] if names else None))
        except (OSError, SourceError, RecursionError):
            found = {}  # reported when the file itself is linted
        finally:
            self._busy.discard(key)
        self._modules[key] = found
        return found

    def calls_of(self, path: str, helpers: list[str]
                 ) -> dict[str, list[list[tuple[str | None, str, Value]]]]:
        """How other modules of the project call ``path``'s timing helpers (``time_it`` of
        a ``bench_utils`` module that never names jax): the arguments of each call, as
        the callers' analyses see them. Callers are looked for in the helper's project (at
        most ``MAX_CALLERS`` files that spell the module's and a helper's name); each
        is analysed once per run; every file of the package is a dependency of the helper's
        result (its content, and the package's list of files)."""
        from jaxlint.engine import SourceError, calls_in

        names = module_names(path)
        if not names or not helpers:
            return {}
        wanted = {f"{m}.{h}": h for m in names for h in helpers}
        # ... and under the names its packages re-export them by (``from .timing import
        # timed`` in ``utils/__init__.py``, called as ``from .utils import timed``)
        spelled = {os.path.splitext(os.path.basename(path))[0].encode()}
        called = {h.encode() for h in helpers}
        for package, alias, helper in self._reexports(names[0], set(helpers)):
            wanted[f"{package}.{alias}"] = helper
            spelled.add(package.rpartition(".")[2].encode())
            called.add(alias.encode())
        out: dict[str, list[list[tuple[str | None, str, Value]]]] = {}
        for caller in self._package_files(path):
            # Every file looked at is a dependency, callers or not: an existing file that
            # starts calling the helper with JAX work changes the helper's findings.
            self._sink().used.add(os.path.abspath(caller))
            try:
                data = read(caller)
            except OSError:
                continue
            if not any(w in data for w in spelled) or not any(c in data for c in called):
                continue
            caller_names = module_names(caller)
            try:
                found = calls_in(data, set(wanted), self, caller_names[0] if caller_names
                                 else None)
            except (SourceError, RecursionError):
                continue
            for q, calls in found.items():
                out.setdefault(wanted[q], []).extend(calls)
        return out

    def _reexports(self, module: str, helpers: set[str]) -> list[tuple[str, str, str]]:
        """``(package, name, helper)`` for each package above ``module`` whose
        ``__init__`` imports one of its ``helpers`` (``from .timing import timed as t``):
        the helper is called by that name too. Read with CPython's parser; each
        ``__init__`` read is a dependency of the helper's result."""
        out = []
        origins = {f"{module}.{h}": h for h in helpers}
        package = module.rpartition(".")[0]
        while package:
            path = self._file_for(package)
            if path is None or os.path.basename(path) != "__init__.py":
                break
            self._sink().used.add(os.path.abspath(path))
            for name, origin in self._top(package, path).imports.items():
                if origin in origins:
                    out.append((package, name, origins[origin]))
            package = package.rpartition(".")[0]
        return out

    def _package_files(self, path: str) -> list[str]:
        """The .py files of ``path``'s package (its top-level package's folder, or its own
        folder for a script) but ``path``; the helper's result depends on their list."""
        from jaxlint.cache import PACKAGE_FILES

        folder = os.path.dirname(os.path.abspath(path))
        while os.path.isfile(os.path.join(os.path.dirname(folder), "__init__.py")) \
                and not is_project_root(folder) and os.path.dirname(folder) != folder:
            folder = os.path.dirname(folder)
        # Callers of a timing helper are looked for in the whole project (a package's
        # ``utils.timing`` called by the scripts beside the package): up to the project's
        # root (a folder with a project marker) inside the working folder, if there is one,
        # else the working folder itself (a tutorial's folder of scripts and a package,
        # with no pyproject.toml: the folder jaxlint is run in is the project).
        cwd, up = os.getcwd(), folder
        while not _project_top(up) and _inside(os.path.dirname(up), cwd) and (
                os.path.dirname(up) != up):
            up = os.path.dirname(up)
        if _inside(up, cwd):
            folder = up
        self._sink().used.add(folder + PACKAGE_FILES)
        return [f for f in package_files(folder) if f != os.path.abspath(path)]

    def carries_jax(self, path: str, data: bytes) -> bool:
        """Whether the file ``path`` (its bytes ``data``) can hold JAX work, so that its
        analysis can find something: it spells jax or a JAX library (``names_jax``), or
        imports a module of the project that can give it JAX values (one that spells them,
        or imports one that does, and so on), or defines a function that reads a clock (a
        timing helper, which the project's JAX code may call with its work). The policy
        "what makes a module JAX" of the README, decided from bytes and CPython's parse
        (a fraction of libcst's) before the module is analysed: a PyTorch trainer beside a
        JAX one is not analysed at all. A file that does not parse is analysed (its error
        is reported there); so is a plain ``import pkg`` of a project package (its
        submodules are reached as attributes: not followed here)."""
        _linting.append(self if not _linting else _linting[-1])
        try:
            return self._carries_of(path, data, helpers=True)
        finally:
            _linting.pop()

    def _carries_of(self, path: str, data: bytes, helpers: bool = False) -> bool:
        import ast

        from jaxlint.settings import names_jax

        if names_jax(data, self.extras):
            return True
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return True
        if helpers and _reads_clock_in_function(tree, data):
            return True
        names = module_names(path)
        package = _package_of(path, names[0] if names else "")
        for node, _ in _statements(tree.body):
            if isinstance(node, ast.Import):
                if any(self._file_for(a.name.split(".", 1)[0]) is not None
                       for a in node.names):
                    return True  # ``import pkg``: its submodules are attributes
            elif isinstance(node, ast.ImportFrom):
                source = _import_source(node, package)
                if not source:
                    continue
                for alias in node.names:
                    found = (self._file_for(f"{source}.{alias.name}") if alias.name != "*"
                             else None) or self._file_for(source)
                    if found is not None and self._module_carries(found):
                        return True
        return False

    def _module_carries(self, path: str) -> bool:
        key = os.path.abspath(path)
        self._sink().used.add(key)
        known = self._carries.get(key)
        if known is None:
            if key in self._busy:
                return False  # an import cycle: the modules on it are judged by the others
            self._busy.add(key)
            try:
                data = read(path)
                known = b"\0" not in data and self._carries_of(path, data)
            except OSError:
                known = False
            finally:
                self._busy.discard(key)
            self._carries[key] = known
        return known

    def holds(self, module: str) -> bool:
        """Whether the project has a module (or package) of this name."""
        _linting.append(self if not _linting else _linting[-1])
        try:
            return self._file_for(module) is not None
        finally:
            _linting.pop()

    def computes(self, qualified: str) -> bool:
        """Whether ``qualified`` names something of a project module that uses JAX (a class
        or function of the project's own JAX code, as ``whisper_jax.PjitPartitioner``):
        calls of it are judged as a JAX library's are."""
        _linting.append(self if not _linting else _linting[-1])
        try:
            return self._computes_of(qualified)
        finally:
            _linting.pop()

    def _computes_of(self, qualified: str, depth: int = 0) -> bool:
        parts = qualified.split(".")
        for i in range(len(parts) - 1, 0, -1):
            module = ".".join(parts[:i])
            path = self._file_for(module)
            if path is not None:
                self._sink().used.add(os.path.abspath(path))
                if module not in self._computes:
                    try:
                        data = read(path)
                    except OSError:
                        data = b""
                    # the text is kept only of modules that do not name jax (a package's
                    # ``__init__`` importing from its submodules, looked at below)
                    self._computes[module] = b"jax" in data or data
                found = self._computes[module]
                if found is True:
                    return True
                if found and depth < 4 and self._takes_jax(module, path, depth):
                    return True
                if found and depth < 4:
                    # a package's ``__init__`` naming what a submodule defines
                    # (``from .partitioner import PjitPartitioner``): read once per module
                    # with CPython's parser (a regular expression over the text was
                    # quadratic on an unclosed ``from .m import (`` and ran for every call)
                    origin = self._imported_from(module, parts[i])
                    if origin is not None and origin.startswith(module + ".") \
                            and origin != f"{module}.{parts[i]}":
                        return self._computes_of(origin, depth + 1)
                return False
        return False

    def may_time(self, qualified: str, hops: int = 0) -> bool:
        """Whether ``qualified`` may be a timer: the module it comes from can define one
        (``settings.may_define_timer``), or imports it from a module that can (a package's
        ``__init__`` re-exporting it, followed as far as ``_lookup`` follows one). Reads
        the modules' bytes, never analyses them: a call or ``with`` item outside any
        timing is looked up only when this says yes. (A package re-exporting its layers,
        ``nnx.LayerNorm``, made every such call analyse the layer's module to find no
        timer there.)"""
        parts = qualified.split(".")
        for i in range(len(parts) - 1, 0, -1):
            path = self._file_for(".".join(parts[:i]))
            if path is None:
                continue
            if self._module_may_time(path):
                return True
            origin = self._imported_from(".".join(parts[:i]), parts[i])
            if origin is None or origin == qualified:
                return False
            if hops >= MAX_REEXPORTS:
                return True  # (not followed further: taken for a timer's module)
            return self.may_time(".".join([origin, *parts[i + 1:]]), hops + 1)
        return False

    def __getitem__(self, key: str) -> Value:
        _linting.append(self if not _linting else _linting[-1])
        try:
            return self._lookup(key)
        finally:
            _linting.pop()

    def _module_may_time(self, path: str) -> bool:
        """Whether the module file ``path`` can define a timer (``may_define_timer``, of
        its bytes: never false for a module that can)."""
        from jaxlint.settings import may_define_timer

        key = os.path.abspath(path)
        self._sink().used.add(key)
        found = self._may_time.get(key)  # (of the module, whatever the name)
        if found is None:
            try:
                data = read(path)
            except OSError:
                data = b""
            found = self._may_time[key] = may_define_timer(data, self.extras)
        return found

    def _lookup(self, key: str, hops: int = 0) -> Value:
        module, _, name = key.rpartition(".")
        if not module:
            raise KeyError(key)
        path = self._file_for(module)
        if path is not None and not self._module_may_time(path) and (
                name in self._top(module, path).classes):
            # A class (``nnx.Linear``, asked for when a clock runs around a call of it) of
            # a module that cannot define a timer: a class is exported only as a timer
            # (``FlowAnalysis.export``), so there is nothing to tell, and the module is
            # not analysed to learn so. (The bytes first: a module that may define a timer
            # is analysed anyway, and its top level need not be parsed for this.)
            raise KeyError(key)
        exported = self._exports(module)
        if name in exported:
            return exported[name]
        # ``from proj import Timer`` where proj/__init__.py says ``from .timing import Timer``,
        # or ``proj.simulate``: what the package re-exports is what its module defines. Not
        # of a known JAX library (flax's ``nnx`` in flax's own repository): what it
        # re-exports of its own work is judged by its name, as a JAX library's, and only a
        # timer is followed.
        origin = self._imported_from(module, name) if hops < MAX_REEXPORTS else None
        if origin is not None and origin != key:
            from jaxlint.analysis.names import is_jax_library
            from jaxlint.analysis.values import TimerFactory, TimerObject

            try:
                found = self._lookup(origin, hops + 1)
            except KeyError:
                found = None
            if isinstance(found, (TimerFactory, TimerObject)) or (
                    found is not None and not is_jax_library(key)):
                return found
        # ``utils.chrono.log_timing``: a timer method of an object the module exports
        owner, _, obj = module.rpartition(".")
        if owner and self._file_for(module) is None:
            from jaxlint.analysis.values import TimerFactory, TimerObject

            exports = self._exports(owner)
            holder = exports.get(obj)
            if isinstance(holder, TimerObject) and name in holder.methods:
                return TimerFactory()
            # ``utils.Logger.print_stats``: a method of a class the module defines
            method = exports.get(f"{obj}.{name}")
            if method is not None:
                return method
            # ``proj.Solver.run`` where proj/__init__.py says ``from .solver import Solver``
            origin = self._imported_from(owner, obj) if hops < MAX_REEXPORTS else None
            if origin is not None and origin != module:
                return self._lookup(f"{origin}.{name}", hops + 1)
        raise KeyError(key)

    def star_origin(self, module: str, name: str, hops: int = 0) -> str | None:
        """What ``name`` is, as an absolute dotted name, after ``from module import *``
        (``module`` absolute), when ``module`` is the project's and binds it (its
        ``__all__`` lists it, or, without a literal ``__all__``, its top level binds it):
        ``module.name`` for what the module defines, where it comes from for what the module
        imports (``from timer import timer`` in ``transformer.py``: ``timer.timer``, no JAX
        code of the project), or what one of the module's own star imports gives (``from
        .core import *`` in a package's ``__init__``). None when it does not bind it."""
        _linting.append(self if not _linting else _linting[-1])
        try:
            path = self._file_for(module)
            if path is None:
                return None
            self._sink().used.add(os.path.abspath(path))
            top = self._top(module, path)
            if top.listed is not None and name not in top.listed:
                return None
            if name in top.public:
                return top.origins.get(name, f"{module}.{name}")
            for other in reversed(top.stars) if hops < MAX_REEXPORTS else ():
                found = self.star_origin(other, name, hops + 1)
                if found is not None:
                    return found
            return None
        finally:
            _linting.pop()

    def _takes_jax(self, module: str, path: str, depth: int) -> bool:
        """Whether ``module`` (its file ``path``, which does not name jax) takes a name from
        the project's JAX code at its top level (``trainer.py``: ``from models.mlp import
        apply``): then it is that code too. Not for a plain ``import env_utils`` (an
        environment wrapper importing a helper module is no JAX code), nor for a package's
        ``__init__``, whose names are followed to their own modules (``_computes_of``)."""
        if os.path.basename(path) == "__init__.py":
            return False
        sink = self._sink()
        known = self._takes.get(module)
        if known is None:
            # (what the answer read, kept with it: a later file's cached result depends on
            # those modules too)
            used, absent = sink.used, sink.absent
            sink.used, sink.absent = set(), set()
            self._takes[module] = (False, frozenset(), frozenset())  # (an import cycle)
            try:
                verdict = any(self._computes_of(origin, depth + 1)
                              for origin in sorted(set(self._top(module, path).imports.values())))
                known = self._takes[module] = (verdict, frozenset(sink.used),
                                               frozenset(sink.absent))
            finally:
                used |= sink.used
                absent |= sink.absent
                sink.used, sink.absent = used, absent
        sink.used.update(known[1])
        sink.absent.update(known[2])
        return known[0]

    def _imported_from(self, module: str, name: str) -> str | None:
        """Where ``module`` imports ``name`` from (``from .timing import Timer``, also with
        ``as``), as an absolute dotted name: a package re-exporting what a submodule
        defines. Read with CPython's parser from the module's top-level imports."""
        path = self._file_for(module)
        if path is None:
            return None
        return self._top(module, path).imports.get(name)

    def _top(self, module: str, path: str) -> TopLevel:
        """``_top_level`` of the module file ``path``, read once per run."""
        key = (os.path.abspath(path), module)
        found = self._top_levels.get(key)
        if found is None:
            found = self._top_levels[key] = _top_level(path, module)
        return found

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
