"""A live session's cells, and the lint of the cell about to run in their context.

A notebook run cell by cell is linted the way a saved one is (``jaxlint.notebook``): the cells
run so far, in the order they ran, and the new one are read as one notebook, each cell as
IPython runs it, and what is reported is what is new: the findings in the new cell, and those
its calls make appear in the functions earlier cells defined (a timing helper of cell 3
called with a jitted function in cell 9). Each cell's number is its ``In [N]`` when IPython
numbers cells in order.

**What earlier cells contribute** (the policy, in ``Session.context`` and ``_slice``). Linting
every cell so far costs what the session has grown to: 2.7 ms more per earlier cell on this
project's 2-core machine (27 ms after 10 timing cells, 171 ms after 60, 527 ms after 120),
most of it spent re-reporting old regions the user has already seen. A new cell's findings
depend on what earlier cells left behind, not on how they timed it, so:

* a cell that reads a clock (itself, by a magic, or through a helper or Timer an earlier
  cell made) keeps the ``WHOLE`` cells before it whole: a region may start in one of them;
* of older cells (all of them, for a cell that reads no clock: it stops no region), only
  the top-level statements that matter are kept, found backwards from the new cell as a
  liveness analysis finds them: one that binds (an import too) or mutates
  (``xs.append``, ``params["w"] = ...``) a name live after it; one that calls a live name
  a cell defines (a warm-up: ``step(x)``, without which the new cell's first call would
  look like a compile; identical ones count once); and, from a statement that binds a live
  name to a clock reading (``t0 = time.perf_counter()`` stopped many cells later) on,
  everything. A kept statement makes what it reads live; a kept def, what its body reads,
  from the new cell back (it runs when called); repeated to a fixed point;
* an older ``%timeit stmt`` is read as ``stmt`` (what it ran, many times: a warm-up), not
  as the harness it is (its own timing was reported when it ran); an older ``%time`` as
  the statement it also runs in the session.

Parameters and comprehension variables are local to what binds them; a clock is found by
qualified name through the session's imports. The cost then follows what the new cell
depends on, not the length of the session (``tests/test_ipython.py`` holds the median check
of a 40-cell session under 50 ms).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from jaxlint.analysis.names import TIMERS, Extras
from jaxlint.errors import SourceError
from jaxlint.finding import Finding
from jaxlint.notebook import HEADER, Builder, Virtual, lint_virtual
from jaxlint.settings import Settings

if TYPE_CHECKING:
    from jaxlint.notebook import _Harness, _VLine

WHOLE = 2  # earlier cells kept whole, for regions that start in one and stop in the new cell


@dataclass
class _Statement:
    """One top-level statement of a cell, as the slice sees it."""

    lines: list[int]  # indices into Virtual.lines
    kills: set[str] = field(default_factory=set)  # names it surely rebinds
    binds: set[str] = field(default_factory=set)  # names it may bind or mutate
    loads: set[str] = field(default_factory=set)  # names it reads (free names, for a def)
    calls: set[str] = field(default_factory=set)  # base names of what it calls
    always: bool = False  # a cell CPython cannot read (newer syntax): kept whole
    clock: bool = False  # an assignment whose value reads a clock
    reads_clock: bool = False  # reads a clock anywhere (in a def or class: when called)
    harness: bool = False  # a magic that times (%timeit, %time)
    body: bool = False  # a def or class: findings inside it may be new
    replacement: list[_VLine] | None = None  # a magic: what it ran (nothing for %time)
    text: str = ""  # its source: identical warm-ups count once


def _base(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def _qualified(node: ast.expr, aliases: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name) or node.id not in aliases:
        return None
    return ".".join([aliases[node.id], *reversed(parts)])


def _targets(node: ast.stmt) -> set[str]:
    """The names a simple statement surely binds."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {node.name}
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return {(a.asname or a.name).split(".")[0] for a in node.names}
    targets: list[ast.expr] = []
    if isinstance(node, ast.Assign):
        targets = node.targets
    elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
        targets = [node.target]
    return {n.id for t in targets for n in ast.walk(t)
            if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}


class _Reader:
    """Reads statements for the slice, knowing the session's imports: a clock is found by
    qualified name (``time.perf_counter`` however it was imported), as the analysis does."""

    def __init__(self, clocks: frozenset[str]) -> None:
        self.clocks = clocks
        self.aliases: dict[str, str] = {}  # name -> qualified name, from the imports
        self.modules: set[str] = set()  # names bound to modules (``import jax.numpy as jnp``)

    def imports(self, tree: ast.Module) -> None:
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    name = a.asname or a.name.split(".")[0]
                    self.aliases[name] = a.name if a.asname else name
                    self.modules.add(name)
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                for a in node.names:
                    self.aliases[a.asname or a.name] = f"{node.module}.{a.name}"

    def read(self, node: ast.AST, s: _Statement) -> None:
        """Fill ``s`` from ``node``; for a def or class, with what it uses from outside.
        Parameters and comprehension variables are local to what binds them."""
        local: set[str] = set()
        for n in ast.walk(node):
            if isinstance(n, ast.Name):
                (s.loads if isinstance(n.ctx, ast.Load) else s.binds).add(n.id)
            elif isinstance(n, ast.arg):
                local.add(n.arg)
            elif isinstance(n, ast.comprehension):
                local.update(t.id for t in ast.walk(n.target) if isinstance(t, ast.Name))
            elif isinstance(n, (ast.Attribute, ast.Subscript)) and not isinstance(
                    n.ctx, ast.Load):
                base = _base(n)  # ``params["w"] = ...``, ``state.step = ...``: a mutation
                if base is not None:
                    s.binds.add(base)
            elif isinstance(n, ast.Call):
                clock = _qualified(n.func, self.aliases) in self.clocks
                s.clock = s.clock or clock
                base = _base(n.func)
                if base is not None and not clock:
                    s.calls.add(base)
        body = isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))
        if body:
            local |= s.binds  # the body's own names (an approximation of its free ones)
        s.loads -= local
        s.calls -= local
        s.binds -= local
        s.reads_clock = s.reads_clock or s.clock
        if isinstance(node, ast.stmt):
            s.kills = _targets(node)
            s.binds |= s.kills
            s.body = body
            s.clock = s.clock and isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign))


@dataclass
class _Ran:
    """A cell the session ran: its number, source as typed, where its lines are in the
    builder's module, and its top-level statements (read once, when it ran)."""

    number: int
    source: str
    first: int
    end: int
    statements: list[_Statement]


class Session:
    """The cells a live session has run, in order, each read once as IPython runs it, and
    what has been reported so far."""

    def __init__(self, extras: Extras | None = None) -> None:
        self.builder = Builder(strict=False)
        self.reader = _Reader(TIMERS | (extras.timers if extras is not None else frozenset()))
        self.cells: list[_Ran] = []
        self._reported: set[tuple[int, int, str]] = set()

    def next_number(self, count: int | None = None) -> int:
        """The next cell's number: IPython's execution count when it numbers cells in order
        (so that "cell 7" is ``In [7]``), else one more than the last."""
        last = self.cells[-1].number if self.cells else 0
        return count if count is not None and count > last else last + 1

    def add(self, source: str, number: int | None = None) -> _Ran:
        """Read a cell the session runs (or ran before jaxlint was loaded)."""
        number = self.next_number(number)
        lines = self.builder.v.lines
        first = len(lines)
        self.builder.cell(number, source)
        ran = _Ran(number, source, first, len(lines),
                   self._statements(list(range(first, len(lines)))))
        self.cells.append(ran)
        return ran

    def check(self, source: str, number: int, settings: Settings, path: str
              ) -> list[Finding]:
        """The findings to show before cell ``number`` runs ``source``: those in it, and
        new ones in the functions earlier cells defined. The cell is then part of the
        session. A cell that does not parse gets none (IPython says why)."""
        ran = self.add(source, number)
        if ran.number in self.builder.v.broken:
            return []
        kept, bodies = self.context(ran)
        try:
            found = lint_virtual(kept, path, settings)
        except SourceError:
            return []
        out = []
        for f in found:
            key = (f.cell or 0, f.line, f.code)
            if key in self._reported:
                continue
            if f.cell == ran.number or (f.cell, f.line) in bodies:
                self._reported.add(key)
                out.append(replace(f, path=path))
        return out

    # ------------------------------------------------------------------ the context
    def context(self, new: _Ran) -> tuple[Virtual, set[tuple[int, int]]]:
        """The module ``new`` is linted in (see the module docstring), and the (cell, line)
        pairs of the older defs and classes it keeps, where new findings may appear."""
        at = self.cells.index(new)
        # A region stops at a clock read: a cell that reads none, directly or through what
        # earlier cells made (a helper, a Timer), stops none that began before it.
        first = max(at - WHOLE, 0) if self._times(new, self.cells[:at]) else at
        whole = self.cells[first:at + 1]
        older = [s for ran in self.cells[:first] for s in ran.statements]
        live: set[str] = set()  # names the kept cells read before binding them
        bound: set[str] = set()
        for ran in whole:
            for s in ran.statements:
                live |= (s.loads | s.calls) - bound
                bound |= s.kills
        keep = self._slice(older, live)
        v = self.builder.v
        lines = [v.lines[0]]
        # the line of the session's module each kept line was (for ``shown``)
        moved: dict[int, int] = {0: 0}
        bodies: set[tuple[int, int]] = set()
        for s in older:
            if id(s) not in keep:
                continue
            if s.replacement is not None:
                kept = s.replacement
            else:
                kept = [v.lines[i] for i in s.lines]
                moved.update((i, len(lines) + k) for k, i in enumerate(s.lines))
            lines.extend(kept)
            if s.body:
                bodies.update((x.cell, x.line) for x in kept)
        for ran in whole:
            moved.update((i, len(lines) + k) for k, i in enumerate(range(ran.first, ran.end)))
            lines.extend(v.lines[ran.first:ran.end])
            if ran is not new:
                bodies.update((v.lines[i].cell, v.lines[i].line)
                              for s in ran.statements if s.body for i in s.lines)
        text = "".join(x.text + "\n" for x in lines)
        assert text.startswith(HEADER + "\n")
        # how the cells write the code the module stands in for (a magic's statement)
        shown = {(moved[line - 1] + 1, col): written for (line, col), written in v.shown.items()
                 if line - 1 in moved}
        return Virtual(text=text, lines=lines, shown=shown), bodies

    def _times(self, new: _Ran, before: list[_Ran]) -> bool:
        """Whether ``new`` reads a clock: itself, by a magic, or by calling what an earlier
        cell bound to something that reads one (a timing helper, a Timer and its objects)."""
        clocky: set[str] = set()
        for ran in before:
            for s in ran.statements:
                if s.reads_clock or s.calls & clocky:
                    clocky |= s.binds - self.reader.modules
        return any(s.reads_clock or s.harness or s.calls & clocky for s in new.statements)

    def _statements(self, indices: list[int]) -> list[_Statement]:
        lines = self.builder.v.lines
        code = "".join(lines[i].text + "\n" for i in indices)
        try:
            tree = ast.parse(code)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            # newer syntax than this Python (libcst reads it): kept as a whole
            return [_Statement(indices, always=True, reads_clock=True)]
        self.reader.imports(tree)
        harnesses = {h.vline: h for h in self.builder.v.harnesses}
        out = []
        for node in tree.body:
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
            span = indices[first - 1:node.end_lineno or node.lineno]
            s = _Statement(span, text=ast.get_source_segment(code, node) or "")
            harness = harnesses.get(span[0])
            if harness is not None:
                self._harness(s, harness)
            else:
                self.reader.read(node, s)
            out.append(s)
        return out

    def _harness(self, s: _Statement, harness: _Harness) -> None:
        """A magic: ``%time``'s statements run in the session too and follow it (read on
        their own), so its harness adds nothing; ``%timeit``'s statement is read as what it
        ran, and an older one is kept as that."""
        lines = self.builder.v.lines
        v = lines[harness.vline]
        s.replacement = []
        s.harness = True
        after = harness.vline + 1
        if harness.persists or (after < len(lines) and lines[after].removed
                                and (lines[after].cell, lines[after].line) == (v.cell, v.line)):
            return
        try:
            tree = ast.parse(harness.timed)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return
        self.reader.read(tree, s)
        s.kills, s.clock, s.text = set(), False, harness.timed
        s.replacement = [replace(v, text=text, kind="code", cut=0, removed="", inserts=False)
                         for text in harness.timed.split("\n")]

    def _slice(self, older: list[_Statement], live_after: set[str]) -> set[int]:
        """The older statements kept, by id. Backwards from the kept cells, a statement is
        kept if it binds (an import too) or mutates a name live after it, calls such a name
        that a cell defines (a warm-up: only the latest of identical ones counts), or waits
        for JAX work (``block_until_ready``); kept, it
        makes what it reads live. A kept def's body runs when it is called, so what it
        reads is live from the new cell back. Repeated until nothing more is kept."""
        defined = set().union(*(s.binds for s in older)) - self.reader.modules
        keep: set[int] = set()
        live_after = set(live_after)
        while True:
            before = len(keep)
            live = set(live_after)
            warmups: set[str] = set()
            for s in reversed(older):
                warmup = bool(s.calls & live & defined) or "block_until_ready" in s.text
                # (a sync is kept as a warm-up is, the latest of identical ones: what an
                # older cell left running, or waited for, is what a region of the new cell
                # starts with, JAX106)
                if id(s) in keep or s.always or s.binds & live or (
                        warmup and s.text not in warmups):
                    keep.add(id(s))
                    warmups.add(s.text)
                    if s.body:
                        live_after |= s.loads | s.calls
                    live = (live - s.kills) | s.loads | s.calls
            if len(keep) == before:
                break
        # A clock reading bound to a name live after it may start a region that stops in
        # the new cell: everything from there on is kept, as it ran.
        live = set(live_after)
        first = None
        for k in range(len(older) - 1, -1, -1):
            s = older[k]
            if id(s) in keep:
                if s.clock and s.kills & live:
                    first = k
                live = (live - s.kills) | s.loads | s.calls
        if first is not None:
            keep.update(id(s) for s in older[first:])
        return keep
