"""``%load_ext jaxlint``: JAX timing mistakes shown in a live IPython or Jupyter session, where
most JAX timing is done.

Before a cell runs, it is linted in the context of the cells run so far
(``jaxlint.session``), and each new finding is printed under the cell, one line each:
``jaxlint: JAX101 line 3: ...`` (``%jaxlint explain`` prints the evidence). While it runs,
every clock read in the session's code is checked for JAX work still running when it stops
a region, as ``jaxlint verify --detect`` checks a script (``jaxlint.verify.live``); when the
cell ends, each region whose stop found pending work is printed the same way, ending in
``[runtime]``. ``%timeit`` and ``%time`` are checked too: the runs of ``%timeit`` drop each
result, so an IPython AST transformer (``shell.ast_transformers``, which both magics apply to
the statement they time) keeps the statement's last value in a local of the timing loop,
where the check at the timer's stop sees it. Nothing is ever stopped or changed: a finding is
a message, and the cell runs as written.

``%jaxlint on|off|static|runtime|select CODES|ignore CODES|status|explain [LINE]`` controls
it; the ``[tool.jaxlint]`` table nearest the notebook (Jupyter starts kernels in the
notebook's folder) applies as it does to the command line.

This module imports IPython only when loaded as an extension; the base install does not
depend on it (``pip install ".[ipython]"`` adds it).
"""

from __future__ import annotations

import ast
import functools
import inspect
import os
import sys
import time
import timeit
from collections import deque
from dataclasses import dataclass
from types import FrameType
from typing import Any

from jaxlint.codes import CODES
from jaxlint.config import Config, ConfigError, Resolver, check_codes
from jaxlint.engine import enabled
from jaxlint.finding import Finding
from jaxlint.session import Session
from jaxlint.settings import Settings, for_file
from jaxlint.verify import instrument
from jaxlint.verify.detect import Static, runtime_findings
from jaxlint.verify.live import LiveCheck, placed

KEEP = "__jaxlint_last__"  # the local of %timeit's loop that holds each run's result
PREFIX = "jaxlint: "
USAGE = ("usage: %jaxlint on | off | static | runtime | select CODES | ignore CODES | status"
         " | explain [LINE]")
_EXTENSIONS: dict[int, _Extension] = {}  # by id of the shell


def load_ipython_extension(shell: Any) -> None:
    """``%load_ext jaxlint``."""
    if id(shell) in _EXTENSIONS:
        return
    extension = _Extension(shell)
    _EXTENSIONS[id(shell)] = extension
    extension.load()


def unload_ipython_extension(shell: Any) -> None:
    """``%unload_ext jaxlint``: everything as it was (the timer functions, the magic)."""
    extension = _EXTENSIONS.pop(id(shell), None)
    if extension is not None:
        extension.unload()


class _KeepResults(ast.NodeTransformer):
    """Given the statement ``%timeit`` times, each top-level expression statement becomes
    an assignment to a local of the timing loop (``KEEP``), so the last run's result is alive
    when the timer stops and the check can see it still computing. Any other code (a cell,
    ``%time``'s statement, whose value the magic keeps) is left alone. The assignment is one
    store of a local per run, inside what ``%timeit`` measures."""

    def __init__(self, timeit_code: Any) -> None:
        self.timeit_code = timeit_code

    def visit(self, node: ast.AST) -> ast.AST:
        if not isinstance(node, ast.Module) or not self._in_timeit():
            return node
        for k, stmt in enumerate(node.body):
            if isinstance(stmt, ast.Expr) and not isinstance(stmt.value, ast.Constant):
                keep = ast.Assign(targets=[ast.Name(KEEP, ast.Store())], value=stmt.value)
                node.body[k] = ast.copy_location(keep, stmt)
        return node

    def _in_timeit(self) -> bool:
        frame: FrameType | None = sys._getframe(1)
        for _ in range(4):  # us <- InteractiveShell.transform_ast <- the magic
            if frame is None:
                return False
            if frame.f_code is self.timeit_code:
                return True
            frame = frame.f_back
        return False


@dataclass
class _Cell:
    """The cell running now: its number in the session and its file, once known."""

    number: int
    file: str | None


class _Extension:
    def __init__(self, shell: Any) -> None:
        self.shell = shell
        self.static = True
        self.runtime = True
        self.select: tuple[str, ...] | None = None  # %jaxlint select: replaces the config's
        self.ignore: tuple[str, ...] = ()  # %jaxlint ignore: added to the config's
        self.path = _notebook_path(shell)
        self.resolver = Resolver(warn=self._say, known=list(CODES))
        self.config = self._configuration()
        self.modules: dict[str, Any] = {}  # the project index's analysed modules
        self.mtimes: dict[str, tuple[int, int]] = {}
        self.session = Session(self.config.extras)
        self.check_s: deque[float] = deque(maxlen=10_000)  # static check time per cell
        self.files: dict[str, int] = {}  # a cell's file -> its number in the session
        self.current: _Cell | None = None
        self.last: list[Finding] = []  # the latest findings shown, for %jaxlint explain
        self.last_number = 0  # and the cell they were shown under
        self.shown: dict[int, list[Finding]] = {}  # cell -> the static findings shown in it
        self.hinted = False
        self.timeit_code = _code(shell, "timeit")
        self.time_code = _code(shell, "time")
        self.transformer = _KeepResults(self.timeit_code)
        self.live = LiveCheck(self._owns)
        self._rebound: list[tuple[str, Any]] = []

    # --------------------------------------------------------------- loading
    def load(self) -> None:
        history = getattr(self.shell, "history_manager", None)
        raw = list(getattr(history, "input_hist_raw", None) or [])
        for count, source in enumerate(raw[1:], 1):  # this session's cells so far
            if source.strip():
                self.session.add(source, count)
        self.shell.events.register("pre_run_cell", self.pre_run_cell)
        self.shell.events.register("post_run_cell", self.post_run_cell)
        self.shell.register_magic_function(self.magic, "line", "jaxlint")
        self._warm()
        self._set_runtime(self.runtime)
        self._say("checking JAX timings in each cell before it runs (static) and while it "
                  "runs (runtime); %jaxlint status, %jaxlint off")

    def unload(self) -> None:
        for event, callback in (("pre_run_cell", self.pre_run_cell),
                                ("post_run_cell", self.post_run_cell)):
            try:
                self.shell.events.unregister(event, callback)
            except ValueError:
                pass
        self._set_runtime(False)
        self.shell.magics_manager.magics["line"].pop("jaxlint", None)

    def _warm(self) -> None:
        """Import and run the engine once, so the first cell's check costs what the others
        do (libcst's import alone takes 0.4 s)."""
        probe = Session()
        probe.check("import time, jax\nt0 = time.perf_counter()\ny = jax.numpy.ones(3)\n"
                    "print(time.perf_counter() - t0)\n", 1, Settings(), self.path)

    def _set_runtime(self, on: bool) -> None:
        transformers = self.shell.ast_transformers
        if on:
            self.live.install()
            if self.transformer not in transformers:
                transformers.append(self.transformer)
            self._rebind()
        else:
            self._unbind()
            if self.transformer in transformers:
                transformers.remove(self.transformer)
            self.live.uninstall()

    def _rebind(self) -> None:
        """Names the session bound to a timer function before jaxlint was loaded
        (``from time import perf_counter``) are pointed at the instrumented one, which
        returns the same values; ``_unbind`` puts them back."""
        timers = [getattr(time, name) for name, _ in instrument.TIMERS if hasattr(time, name)]
        wrapped = {id(f.__wrapped__): f for f in (*timers, timeit.default_timer)
                   if hasattr(f, "__wrapped__")}
        ns = self.shell.user_ns
        for name, value in list(ns.items()):
            if id(value) in wrapped and not name.startswith("_"):
                ns[name] = wrapped[id(value)]
                self._rebound.append((name, value))

    def _unbind(self) -> None:
        ns = self.shell.user_ns
        for name, original in self._rebound:
            if getattr(ns.get(name), "__wrapped__", None) is original:
                ns[name] = original
        self._rebound.clear()

    def _configuration(self) -> Config:
        try:
            return self.resolver.for_file(self.path)
        except ConfigError as exc:
            self._say(f"error: {exc}; using the default settings")
            return Config(root=os.path.dirname(self.path))

    # --------------------------------------------------------------- each cell
    def pre_run_cell(self, info: Any) -> None:
        store = bool(getattr(info, "store_history", False))
        count = self.shell.execution_count - 1 if store else self.shell.execution_count
        raw = info.raw_cell
        number = self.session.next_number(count if store else None)
        self.current = _Cell(number, self._file_of(info, count))
        if self.current.file is not None:
            self.files[self.current.file] = number
        if not self.static:
            self.session.add(raw, number)
        else:
            began = time.perf_counter()
            try:
                found = self.session.check(raw, number, self._settings(), self.path)
            except Exception as exc:  # noqa: BLE001 - a bug of ours must not stop the cell
                self._say(f"error: the check failed ({type(exc).__name__}: {exc})")
                found = []
            self.check_s.append(time.perf_counter() - began)
            for f in found:
                self.shown.setdefault(f.cell or number, []).append(f)
            self._show(found, number)
        self.live.take(0)  # what was read between cells is no cell's

    def post_run_cell(self, result: Any) -> None:
        cell, self.current = self.current, None
        if cell is None or not self.runtime:
            return
        try:
            found = self._runtime_findings(cell)
        except Exception as exc:  # noqa: BLE001
            self._say(f"error: the runtime check failed ({type(exc).__name__}: {exc})")
            return
        self._show(found, cell.number)

    def _runtime_findings(self, cell: _Cell) -> list[Finding]:
        checks = self.live.take()
        if not checks or not (self._enabled("JAX101") or self._enabled("JAX106")):
            return []
        out: list[Finding] = []
        for file, group in placed(checks, self._is_cell).items():
            number = self._number(file)
            static = self.shown.get(number, []) if number is not None else []
            regions = {f.region for f in static if f.region and f.region_cells == (
                number, number)}
            lines = {f.line for f in static if f.cell == number}
            codes = {(f.code, f.line) for f in static if f.cell == number}
            found, _ = runtime_findings(self.path, group, functools.partial(_source, file),
                                        functools.partial(_pair, (regions, lines, codes)))
            out.extend(Finding(f.code, f.message, f.line, f.col, region=f.region, path=self.path,
                               cell=number, explanation=f.explanation) for f in found
                       if self._enabled(f.code))
        return out

    def _owns(self, frame: FrameType) -> bool:
        """The session's code (cells, what they define, ``%timeit``'s loop: all run in the
        user namespace) and ``%time``'s own reads."""
        g = frame.f_globals
        return g is self.shell.user_global_ns or g is self.shell.user_ns or (
            frame.f_code is self.time_code)

    def _is_cell(self, file: str) -> bool:
        return file in self.files or file in getattr(self.shell.compile, "_filename_map", {})

    def _number(self, file: str) -> int | None:
        if file in self.files:
            return self.files[file]
        count = getattr(self.shell.compile, "_filename_map", {}).get(file)
        return int(count) if isinstance(count, int) else None

    def _file_of(self, info: Any, count: int) -> str | None:
        """The name IPython gives the cell's code (its frames' ``co_filename``)."""
        try:
            transformed = info.transformed_cell or self.shell.transform_cell(info.raw_cell)
            return str(self.shell.compile.get_code_name(info.raw_cell, transformed, count))
        except Exception:  # noqa: BLE001 - an IPython without it: found through its cache
            return None

    def _settings(self) -> Settings:
        from jaxlint.project import forget_reads

        forget_reads(self.modules)  # files may have appeared or changed since the last cell
        for key, stamp in list(self.mtimes.items()):  # a project module edited since
            if _stamp(key) != stamp:
                self.modules.pop(key, None)
                del self.mtimes[key]
        for key in self.modules:
            self.mtimes.setdefault(key, _stamp(key))
        return for_file(self.path, self.config, self.modules, select=self.select,
                        ignore=self.ignore)

    def _enabled(self, code: str) -> bool:
        select = self.select if self.select is not None else self.config.select
        return enabled(code, select, (*self.config.ignores_for(self.path), *self.ignore))

    # --------------------------------------------------------------- output
    def _say(self, text: str) -> None:
        print(PREFIX + text, file=sys.stderr, flush=True)

    def _where(self, f: Finding, number: int) -> str:
        return f"line {f.line}" if f.cell in (None, number) else f"cell {f.cell}, line {f.line}"

    def _show(self, found: list[Finding], number: int) -> None:
        if found:
            if self.last_number != number:
                self.last, self.last_number = [], number
            self.last.extend(found)
        for f in found:
            self._say(f"{f.code} {self._where(f, number)}: {f.message}")
        if found and not self.hinted:
            self.hinted = True
            self._say("%jaxlint explain shows the evidence; # noqa: CODE on the line silences "
                      "a finding")

    # --------------------------------------------------------------- %jaxlint
    def magic(self, line: str) -> None:
        """%jaxlint on | off | static | runtime | select CODES | ignore CODES | status |
        explain [LINE]"""
        word, _, rest = line.strip().partition(" ")
        rest = rest.strip()
        modes = {"on": (True, True), "off": (False, False), "static": (True, False),
                 "runtime": (False, True)}
        if word in modes and not rest:
            self.static, runtime = modes[word]
            if runtime != self.runtime:
                self.runtime = runtime
                self._set_runtime(runtime)
            self._say(self._mode())
        elif word in ("select", "ignore"):
            codes = tuple(c.strip() for c in rest.split(",") if c.strip())
            try:
                check_codes(codes, list(CODES), f"%jaxlint {word}")
            except ConfigError as exc:
                self._say(f"error: {exc}")
                return
            if word == "select":
                self.select = codes or None
            else:
                self.ignore = codes
            self._say(self._rules())
        elif word == "status" and not rest:
            self._status()
        elif word == "explain":
            self._explain(rest)
        else:
            self._say(USAGE)

    def _mode(self) -> str:
        parts = [name for name, on in (("static", self.static), ("runtime", self.runtime)) if on]
        return ("on: " + " and ".join(parts) + " checks") if parts else "off"

    def _rules(self) -> str:
        select = self.select if self.select is not None else self.config.select
        ignore = (*self.config.ignores_for(self.path), *self.ignore)
        return (f"select {', '.join(select) if select else 'all'}; "
                f"ignore {', '.join(ignore) if ignore else 'none'}")

    def _status(self) -> None:
        self._say(f"{self._mode()}; {self._rules()}; configuration: "
                  f"{self.config.source or 'none found (defaults)'}")
        cells = len(self.session.cells)
        if self.check_s:
            median = sorted(self.check_s)[len(self.check_s) // 2]
            self._say(f"static: {len(self.check_s)} cells checked, {median * 1e3:.1f} ms per "
                      f"cell (median; the last {self.check_s[-1] * 1e3:.1f} ms); {cells} cells "
                      "in the session")
        else:
            self._say(f"static: no cell checked yet; {cells} cells in the session")
        if not self.runtime:
            self._say("runtime: off")
            return
        cost, reads = self.live.cost_s(), self.live.reads
        where = f"{reads} clock reads checked"
        if cost is None:
            cost, where = self._calibrate(), "measured now on 100 reads"
        if cost is not None:
            self._say(f"runtime: {cost * 1e6:.0f} us per clock read (median; {where}), "
                      "outside what the reads measure")

    def _calibrate(self) -> float | None:
        """The check's cost per read, from 100 reads made now, with the session's live
        arrays, in a frame of the session's namespace (what the cells' reads cost). What
        this cell has checked so far is put back."""
        recorder = self.live.recorder
        checks, costs = recorder.take(0)
        code = compile("for _ in range(50):\n    t0 = clock()\n    t1 = clock()\n",
                       "<jaxlint-calibration>", "exec")
        exec(code, self.shell.user_global_ns, {"clock": time.perf_counter})
        measured = recorder.take(0)[1]
        recorder.checks[:0], recorder.costs[:0] = checks, costs
        return sorted(measured)[len(measured) // 2] if measured else None

    def _explain(self, rest: str) -> None:
        if rest and not rest.isdigit():
            self._say("usage: %jaxlint explain [LINE]")
            return
        shown = [f for f in self.last if not rest or f.line == int(rest)]
        if not shown:
            self._say("no finding" + (f" at line {rest}" if rest else "") + " in the last cell")
            return
        self._say(f"cell {self.last_number}:")
        for f in shown:
            self._say(f"{f.code} {self._where(f, self.last_number)}: {f.message}")
            for text in (f.explanation or "(no evidence recorded)").splitlines():
                print("    " + text, file=sys.stderr)


def _code(shell: Any, name: str) -> Any:
    """The code object of IPython's ``%name`` magic (what its frames run)."""
    magic = inspect.unwrap(shell.magics_manager.magics["line"].get(name))
    return getattr(getattr(magic, "__func__", magic), "__code__", None)


def _pair(index: Static) -> Static:
    return index


def _source(file: str) -> str:
    import linecache

    return "".join(linecache.getlines(file))


def _stamp(path: str) -> tuple[int, int]:
    try:
        st = os.stat(path)
    except OSError:
        return (-1, -1)
    return (st.st_mtime_ns, st.st_size)


def _notebook_path(shell: Any) -> str:
    """Where the notebook is, for its ``[tool.jaxlint]``: VS Code and JupyterLab say so;
    else the kernel's folder, which Jupyter makes the notebook's."""
    named = shell.user_ns.get("__vsc_ipynb_file__") or os.environ.get("JPY_SESSION_NAME")
    if isinstance(named, str) and named.endswith(".ipynb") and os.path.isabs(named):
        return named
    return os.path.join(os.getcwd(), "<notebook>.ipynb")

