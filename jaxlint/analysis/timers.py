"""Timer reads, the snapshots they take, and timed regions.

A region is a stop read paired with a start read (``t1 - t0``); its unsynced work is what
was dispatched after the start and still pending at the stop. Pairs are found later than
the reads (the subtraction may come much later), so each read records what a region ending
there may contain: the work after the oldest start read a name still holds, found by tick
in the journal, plus the window of the frame's events (compiling calls, idle syncs).
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.budget import TooComplex
from jaxlint.analysis.compiles import (
    COMPILE_WORDS,
    EXCLUDES_COMPILE,
    FIGURE_WORDS,
    JIT_TIME,
    WARMS_UP,
    comments_of,
    divides,
    drops_first_rounds,
    measures_speed,
    says_measuring,
    skips_first_rounds,
)
from jaxlint.analysis.liveness import ScopeText, only_subtracted
from jaxlint.analysis.state import State
from jaxlint.analysis.syntax import (
    StmtLoc,
    by_tick,
    children,
    counter_start,
    dotted,
    names_in,
)
from jaxlint.analysis.values import (
    JaxVal,
    Site,
    TimerRead,
    join_values,
)

# What a statement's blocks are made of: statements, blocks, and the parts of a compound
# statement that hold blocks (``else``, ``except``, ``finally``, ``case``, ``elif``).
_STATEMENT_PARTS = (cst.BaseStatement, cst.BaseSuite, cst.Else, cst.ExceptHandler,
                    cst.ExceptStarHandler, cst.Finally, cst.MatchCase)

Event = tuple[int, Site, int]  # (tick, site, kind)
# a first (compiling) call; a sync that waited for nothing; a sync that waited for work
COMPILE, IDLE, SYNCED, INEFFECTIVE = 0, 1, 2, 3  # INEFFECTIVE: a sync that cannot wait
CLEARS = 4  # ``jax.clear_caches()``: every later call compiles again
# a figure named for the dispatch (``dispatch_times``, ``t_dispatch``, "dispatch only")
DISPATCH_WORD = re.compile(r"(?i)(?<![a-z])dispatch(?:es|ed|ing)?(?![a-z])")

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis


def collects(loop: cst.For | cst.While, stmt: cst.CSTNode, sums: bool = True) -> bool:
    """Whether the value ``stmt`` computes (a clock reading, an elapsed time) is collected
    across the rounds of ``loop``: ``times.append(...)``, ``total += ...``, ``t[i] = ...``,
    directly or through names bound from it in the loop's body. A record's field
    (``summary["steps_per_second"] = ...``, ``self.elapsed = ...``) is not a collection.
    Without ``sums``, only a collection of one figure per round counts (a list, an array),
    not a running total (``train_time += ...``)."""
    if (sums and isinstance(stmt, cst.AugAssign)) or _collecting_call(stmt):
        return True
    if not isinstance(stmt, (cst.Assign, cst.AnnAssign)):
        return False
    targets = [t.target for t in stmt.targets] if isinstance(stmt, cst.Assign) else [
        stmt.target]
    if any(_indexed(t) for t in targets):
        return True
    names = {t.value for t in targets if isinstance(t, cst.Name)}
    finder = _SmallStatements()
    loop.body.visit(finder)
    grew = True
    while names and grew:
        grew = False
        for small in finder.found:
            value = getattr(small, "value", None)
            if small is stmt or value is None or not _mentions(value, names):
                continue
            if (sums and isinstance(small, cst.AugAssign)) or _collecting_call(small):
                return True
            if isinstance(small, (cst.Assign, cst.AnnAssign)):
                targets = [t.target for t in small.targets] if isinstance(
                    small, cst.Assign) else [small.target]
                if any(_indexed(t) for t in targets):
                    return True
                new = {t.value for t in targets if isinstance(t, cst.Name)} - names
                if new:
                    names |= new
                    grew = True
    return False


def fed_in(loop: cst.For | cst.While) -> set[str]:
    """The names a loop binds on its rounds that can hold an earlier round's results: its
    assignments (the container of an item assignment, ``z[i, j] = ...`` binds no index),
    ``with ... as``, and the targets of its ``for`` loops, except those over a counter
    (``range(n)``, ``trange(n)``: indices, ``syntax.counter_start``)."""
    out: set[str] = set()

    class _Find(cst.CSTVisitor):
        def visit_AssignTarget(self, node: cst.AssignTarget) -> None:
            target = node.target
            out.update(names_in(target.value if isinstance(target, cst.Subscript) else target))

        def visit_AugAssign(self, node: cst.AugAssign) -> None:
            out.update(names_in(node.target))

        def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
            out.update(names_in(node.target))

        def visit_For(self, node: cst.For) -> None:
            if counter_start(node.iter) is None:
                out.update(names_in(node.target))

        def visit_AsName(self, node: cst.AsName) -> None:
            out.update(names_in(node.name))

        def visit_NamedExpr(self, node: cst.NamedExpr) -> None:
            out.update(names_in(node.target))

    loop.visit(_Find())
    return out


def repeated_unfed(loop: cst.For | cst.While, call: cst.CSTNode,
                   fed: set[str] | None = None) -> bool:
    """Whether ``call`` runs on every round of ``loop`` given nothing an earlier round bound
    (``for _ in range(1000): fast(xd, wd)``, a sweep over a grid's indices
    ``z[i, j] = f(x[i], y[j])``): the loop repeats it to measure it, as a benchmark does,
    not a training loop feeding each step the last one's state. ``fed``: ``fed_in(loop)``,
    when the caller asks about several calls of one loop."""
    return not names_in(call) & (fed_in(loop) if fed is None else fed) and _every_round(
        loop, call)


def _every_round(loop: cst.For | cst.While, call: cst.CSTNode) -> bool:
    """Whether ``call`` runs on every round of ``loop``: no ``if`` (its test, body or
    ``else``), conditional expression or ``except`` of the loop's body holds it (an
    evaluation every ``eval_every`` steps of a training loop is not a benchmark loop's
    repeated call; a loop nested in the round runs, as loops do)."""
    todo: list[tuple[cst.CSTNode, bool]] = [(loop.body, True)]
    while todo:
        node, every = todo.pop()
        if node is call:
            return every
        every = every and not isinstance(node, (cst.If, cst.IfExp, cst.ExceptHandler))
        todo.extend((child, every) for child in children(node))
    return False


def _collected_after_first_rounds(loop: cst.For | cst.While, stmt: cst.CSTNode,
                                  counter: str) -> bool:
    """Whether every statement of ``loop`` that collects the figure ``stmt`` computes (or a
    name bound from it in the loop) is under an ``if`` that skips the first rounds
    (``if i >= num_warmup: total_time += dur``), and there is one."""
    figure = bound_names(stmt)
    if not figure:
        return False
    guarded: list[bool] = []

    class _Find(cst.CSTVisitor):
        def __init__(self) -> None:
            self.skipping = 0

        def visit_If(self, node: cst.If) -> bool:
            # (only its body skips the first rounds: an ``else`` runs in them)
            skips = skips_first_rounds(node.test, counter)
            self.skipping += skips
            node.body.visit(self)
            self.skipping -= skips
            if node.orelse is not None:
                node.orelse.visit(self)
            return False

        def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
            return False

        def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
            for small in node.body:
                if small is stmt or not _mentions(small, figure):
                    continue
                if isinstance(small, cst.AugAssign) or _collecting_call(small) or (
                        isinstance(small, cst.Assign)
                        and any(_indexed(t.target) for t in small.targets)):
                    guarded.append(self.skipping > 0)
                elif isinstance(small, (cst.Assign, cst.AnnAssign)):
                    figure.update(bound_names(small))  # ``dur = toc - tic``
            return False

    loop.body.visit(_Find())
    return bool(guarded) and all(guarded)


def _indexed(target: cst.BaseExpression) -> bool:
    """``times[i] = ...`` collects; ``summary["steps_per_second"] = ...`` names a field of a
    record (a log line's), as an attribute does."""
    return isinstance(target, cst.Subscript) and not (
        len(target.slice) == 1 and isinstance(target.slice[0].slice, cst.Index)
        and isinstance(target.slice[0].slice.value, cst.SimpleString))


def bound_names(stmt: cst.CSTNode) -> set[str]:
    """The plain names an assignment binds (``elapsed = ...``, ``a, b = ...``)."""
    if isinstance(stmt, cst.Assign):
        targets = [t.target for t in stmt.targets]
    elif isinstance(stmt, (cst.AnnAssign, cst.AugAssign)):
        targets = [stmt.target]
    else:
        return set()
    out = set()
    for t in targets:
        for el in (t.elements if isinstance(t, (cst.Tuple, cst.List)) else [t]):
            value = el.value if isinstance(el, (cst.Element, cst.StarredElement)) else el
            if isinstance(value, cst.Name):
                out.add(value.value)
    return out


def _collecting_call(stmt: cst.CSTNode) -> bool:
    return (isinstance(stmt, cst.Expr) and isinstance(stmt.value, cst.Call)
            and isinstance(stmt.value.func, cst.Attribute)
            and stmt.value.func.attr.value in ("append", "extend", "insert", "add"))


def _mentions(node: cst.CSTNode, names: set[str]) -> bool:
    return not names.isdisjoint(names_in(node))


def _subtracts(text: str, names: Collection[str]) -> bool:
    """Whether ``text`` subtracts one of ``names`` (``- t4``, ``- (second``)."""
    return any(re.search(r"-\s*\(?\s*" + re.escape(n) + r"\b", text) is not None
               for n in names)


class _SmallStatements(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found: list[cst.BaseSmallStatement] = []

    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> bool:
        self.found.extend(node.body)
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False


def _counter_name(loop: cst.For | cst.While) -> str | None:
    """The counter of ``for i in range(...)`` / ``for i, x in enumerate(...)``, else None."""
    if not isinstance(loop, cst.For):
        return None
    target = loop.target
    if isinstance(target, cst.Name):
        return target.value
    if isinstance(target, cst.Tuple) and target.elements and isinstance(
            target.elements[0].value, cst.Name) and isinstance(loop.iter, cst.Call) and (
            dotted(loop.iter.func) == "enumerate"):
        return target.elements[0].value.value
    return None


def _inside(node: cst.CSTNode, loop: cst.For | cst.While) -> bool:
    """Whether ``node`` (a statement, a call) is somewhere in ``loop``'s body."""
    found = False

    class _Find(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            nonlocal found
            if n is node:
                found = True
            return not found

    loop.body.visit(_Find())
    return found


def bookkeeping(site: Site) -> bool:
    """Whether the device work at ``site`` is an operator on values (``total += loss``,
    ``loss / n``, ``-x``, ``x[0]``, ``a < b``): arithmetic, selection and comparison, not a
    matrix product (``w @ w.T`` is work) and not a call."""
    if isinstance(site, cst.BinaryOperation):
        return not isinstance(site.operator, cst.MatrixMultiply)
    if isinstance(site, cst.AugAssign):
        return not isinstance(site.operator, cst.MatrixMultiplyAssign)
    return isinstance(site, (cst.UnaryOperation, cst.Subscript, cst.Comparison))


def _label_of(small: cst.BaseSmallStatement, figure: set[str], module: cst.Module) -> str:
    """The words a statement puts beside the figure it uses: the text just before it in an
    f-string (``f"compile {t_c:.2f} s, run {t_r:.2f} s"`` labels ``t_r`` "run"), and after
    it when no other figure follows (``f"Time: {t:.2f}s (includes compilation)"``), the string
    argument before it (``print("compile:", t_c)``), a name it is stored under
    (``compile_time = t_c``), else the whole statement."""
    labels: list[str] = []

    class _Find(cst.CSTVisitor):
        def visit_FormattedString(self, node: cst.FormattedString) -> bool:
            before = ""
            last = None  # the label of the string's last expression, if it is the figure
            for part in node.parts:
                if isinstance(part, cst.FormattedStringText):
                    before = part.value
                elif isinstance(part, cst.FormattedStringExpression):
                    last = None
                    if _mentions(part.expression, figure):
                        labels.append(before)
                        last = len(labels) - 1
                    before = ""
            if last is not None and before:
                labels[last] += " " + before
            return False

        def visit_Call(self, node: cst.Call) -> bool:
            for prev, arg in zip(node.args, node.args[1:]):
                if isinstance(prev.value, cst.SimpleString) and _mentions(arg.value, figure):
                    labels.append(prev.value.value)
            return True

    small.visit(_Find())
    if labels:
        return " ".join(labels)
    if isinstance(small, (cst.Assign, cst.AnnAssign, cst.AugAssign)):
        targets = ([t.target for t in small.targets] if isinstance(small, cst.Assign)
                   else [small.target])
        return " ".join(module.code_for_node(t) for t in targets)
    return module.code_for_node(small)


def only_words(line: cst.SimpleStatementLine) -> bool:
    """A line that only prints or logs constant text (``print("compilation complete!")``):
    it labels the statement before it."""
    if len(line.body) != 1 or not isinstance(line.body[0], cst.Expr):
        return False
    call = line.body[0].value
    return isinstance(call, cst.Call) and bool(call.args) and all(
        isinstance(a.value, (cst.SimpleString, cst.ConcatenatedString)) for a in call.args)


def _held(read: Site) -> str:
    """The name under which a start read made inside a call is held (not a Python name)."""
    return f"@timer {id(read)}"


@dataclass
class Snapshot:
    """What was pending when a timer call ran, over all paths and loop rounds that reach it.

    Only what a region can contain is recorded: work dispatched after the oldest start read
    still held by a name (a region's start must be subtracted later, so a name holds it).
    Each recorded site maps to the (window, tick) of each execution of the read that saw
    it, and a window keeps the ticks of that execution's start reads: the site is inside
    the regions of the starts older than its tick (``inside``). ``ticks`` keeps its latest
    dispatch, so that ``JaxVal.covers`` can be asked of it.
    """

    # site -> (window, tick) of each execution of the read that recorded it
    pending: dict[Site, list[tuple[int, int]]] = field(default_factory=dict)
    transferred: dict[Site, list[tuple[int, int]]] = field(default_factory=dict)
    ticks: dict[Site, int] = field(default_factory=dict)
    holders: dict[str, JaxVal] = field(default_factory=dict)
    unbound: set[str] = field(default_factory=set)  # holders not bound on every path
    _binds: list[Mapping[str, set[cst.CSTNode]]] = field(default_factory=list)
    _windows: list[tuple[list[Event], dict[Site, int], int, tuple[tuple[int, int], ...]]] = (
        field(default_factory=list))

    def binds_of(self, name: str) -> set[cst.CSTNode]:
        """Where ``name`` is bound in the frames the read ran in (all of each frame's binds,
        earlier and later: plans compare positions)."""
        out: set[cst.CSTNode] = set()
        for binds in self._binds:
            out.update(binds.get(name, ()))
        return out

    @property
    def frames_key(self) -> tuple[int, ...]:
        return tuple(id(b) for b in self._binds)

    def add_binds(self, binds: Mapping[str, set[cst.CSTNode]]) -> None:
        if not any(b is binds for b in self._binds):
            self._binds.append(binds)

    def record(self, site: Site, tick: int, table: int, window: int) -> None:
        """``site`` was pending (``table`` 0) or transferred (1) at tick ``tick`` in the
        execution of the read whose window is ``window``: it is inside the regions of that
        execution's start reads older than ``tick`` (``inside``). The tick, not the set of
        those start reads: that set is as large as the live start reads."""
        mine = (self.pending, self.transferred)[table]
        entries = mine.get(site)
        if entries is None:
            mine[site] = [(window, tick)]
        else:
            entries.append((window, tick))
        if tick > self.ticks.get(site, -1):
            self.ticks[site] = tick

    def add_window(self, events: list[Event], starts: dict[Site, int], now: int,
                   hidden: tuple[tuple[int, int], ...] = ()) -> int:
        """Add the window of one execution of the read; its index (for ``record``).
        ``hidden``: tick ranges ``(after, upto]`` of another path run before this one
        (``Statements._exec_correlated``), whose events this execution did not see."""
        self._windows.append((events, starts, now, hidden))
        return len(self._windows) - 1

    def inside(self, table: int, starts: Collection[Site]) -> frozenset[Site]:
        """The sites of ``table`` (0 pending, 1 transferred) dispatched after one of
        ``starts`` in an execution of the read in which that start was live."""
        lows: list[int | None] = []
        for _, ticks, _, _ in self._windows:
            found = [ticks[s] for s in starts if s in ticks]
            lows.append(min(found) if found else None)
        out = []
        for site, entries in (self.pending, self.transferred)[table].items():
            for window, tick in entries:
                low = lows[window]
                if low is not None and low < tick:
                    out.append(site)
                    break
        return frozenset(out)

    def events_in(self, starts: Collection[Site], kind: int,
                  meant: Callable[[int, int, Site], bool] | None = None) -> frozenset[Site]:
        """The events of ``kind`` after one of ``starts`` and before this read, in the frame
        the read ran in: the frame's events are in tick order, so each execution of the
        read looks only at its own window of them. ``meant(tick, start, read)``: whether
        the event at ``tick`` in a window that starts at ``start`` (the tick of the start
        read ``read``) is one the region includes on purpose (``Compiles.compile_meant``),
        left out."""
        out: set[Site] = set()
        for events, ticks, now, hidden in self._windows:
            lows = [(ticks[s], s) for s in starts if s in ticks]
            if not lows:
                continue
            low, first = min(lows, key=lambda ts: ts[0])
            i = bisect_right(events, low, key=by_tick)
            for tick, site, what in events[i:]:
                if tick > now:
                    break
                if hidden and any(after < tick <= upto for after, upto in hidden):
                    continue  # (an event of the other path of a correlated test)
                if what == kind and not (meant is not None and meant(tick, low, first)):
                    out.add(site)
        return frozenset(out)

    def hold(self, name: str, value: JaxVal, bound: bool) -> None:
        if not bound:
            self.unbound.add(name)
        old = self.holders.get(name)
        joined = value if old is None else join_values(old, value)
        assert isinstance(joined, JaxVal)
        self.holders[name] = joined


@dataclass
class Region:
    """A timed region: a stop read and the start read(s) it is subtracted from."""

    stop: cst.BaseExpression  # the stop read (a call; for a ``with`` timer, its item)
    starts: frozenset[Site]
    where: StmtLoc
    unsynced: frozenset[Site]  # work dispatched after the start, not waited for at the stop
    host_synced: frozenset[Site]  # work waited for only by a host transfer
    compiled: frozenset[Site]  # first calls of jitted functions (they compile) in the region
    idle_syncs: frozenset[Site]  # syncs in the region that waited for none of its work
    snapshot: Snapshot
    syncs: frozenset[Site] = frozenset()  # real syncs in the region that waited for work
    # a first call compiles in the region and the reads' statements say the region includes
    # compilation ("compile_time", "first call"), and that it times compilation only
    # ("compile_time", not "first step took")
    names_compile: bool = False
    names_compile_only: bool = False
    # its figure is named for the dispatch of a call whose wait a region from the same
    # reading times (``dispatch_times.append(t1 - t0)``, then the sync and ``t2 - t1``): it
    # measures the dispatch on purpose (JAX101 is not reported), as a figure named for the
    # compile alone measures the compile
    names_dispatch: bool = False
    # the region is a timing decorator's wrapper: the decorated functions (their ``def``)
    # whose calls leave JAX work running when it reads the clock
    uses: tuple[cst.FunctionDef, ...] = ()
    # syncs in the region that cannot wait (``FlowAnalysis.no_op_syncs`` says why): JAX107
    ineffective: frozenset[Site] = frozenset()
    # work of the user's functions still running when a start read was made (JAX106)
    left_running: frozenset[Site] = frozenset()


class Timers:
    """The timers part of ``FlowAnalysis`` (see the module docstring)."""

    _regions: list[Region] | None  # regions(), once the run is over
    _may_name: bool | None  # whether the module's text spells a word naming the compile
    _may_dispatch: bool | None  # whether the module's text spells "dispatch"
    _region_heads: set[int] | None  # statements just before a start read (_heads_a_region)
    _class_names: dict[cst.CSTNode, list[str]] | None  # a method's classes (_classes_of)
    _measuring_file: bool | None  # path says benchmark, or it warms up (_measures_speed)
    _subtracted_only: frozenset[str] | None  # names only subtracted from (_only_starts)
    _partner: tuple[cst.CSTNode, frozenset[Site]] | None  # see _eval_BinaryOperation

    def _timer_read(self: FlowAnalysis, node: cst.Call, st: State) -> TimerRead:
        partner = self._partner
        self._snapshot(node, st, partner[1] if partner is not None and partner[0] is node
                       else None, self._only_starts(node, st))
        self.where.setdefault(node, self._loc)
        self.next_of.setdefault(node, self._next_stmt)
        self.prev_of.setdefault(node, self._prev_stmt)
        self.context_of.setdefault(node, (tuple(self.frame.loop_stmts),
                                          tuple(self.frame.branches)))
        self.read_loops.setdefault(node, self.all_loops())
        self.scope_of.setdefault(node, self.frame.func.node if self.frame.func else None)
        loops = self.frame.loop_stmts
        self.read_loop.setdefault(node, loops[-1] if loops else None)
        if self._stmt_line is not None:
            self.read_lines.setdefault(node, self._stmt_line)
        self._note_left_running(node, st)
        st.reads[node] = self._tick()
        self.frame.last_read = self._now
        self.read_ticks.setdefault(node, []).append(self._now)
        self._read_log.append(node)
        return TimerRead(frozenset({node}))

    def left_into(self: FlowAnalysis, region: Region) -> frozenset[Site]:
        """The work left running into ``region`` (``Region.left_running``) that its time
        is charged with in a way the figure does not mean, counting calls of jitted
        functions only (a helper's few operations before the clock, a schedule or a slice,
        cost next to nothing): a call of a jitted function the region runs once (a warm-up
        left unsynced: the figure holds two runs), when the start read is in no loop; or a
        jitted call of the loop the start read is in, dispatched in an earlier round after
        its stop (every round's figure holds it). (Work made before the clock starts to get
        ready, an input or a model's parameters, and a warm-up before a region that runs the
        function many times, are not reported: they are a small part of the figure.)"""
        if not region.left_running:
            return frozenset()
        loops = {self.read_loop.get(s) for s in region.starts} - {None}
        runs = self._region_sites(region)
        once = {self.why.get(site) for site, n in runs.items() if n == 1}
        many = {self.why.get(site) for site, n in runs.items() if n > 1}
        out = set()
        for site in region.left_running:
            why = self.why.get(site)
            if why is None or why[0] != "jitted":
                continue
            if loops & set(self.site_loops.get(site, ())):
                out.add(site)  # an earlier round's, in every round
            elif not loops and why in once and why not in many:
                # (a warm-up before a loop whose rounds are each timed leaks into the first
                # round only, which a minimum, a median or a dropped first round leaves out:
                # not reported)
                out.add(site)
        return frozenset(out)

    def _region_sites(self: FlowAnalysis, region: Region) -> dict[Site, int]:
        """The work dispatched between a start read of ``region`` and the stop read after
        it: each site, with the most times it was dispatched in one run of the region."""
        return self._sites_between(region.stop, region.starts)

    def _sites_between(self: FlowAnalysis, stop: Site, starts: Collection[Site]
                       ) -> dict[Site, int]:
        """``_region_sites`` of the region of ``stop`` and ``starts``."""
        stops = sorted(self.read_ticks.get(stop, ()))
        out: dict[Site, int] = {}
        for start in starts:
            for tick in self.read_ticks.get(start, ()):
                k = bisect_right(stops, tick)
                if k == len(stops):
                    continue
                lo = bisect_right(self._journal, tick, key=by_tick)
                hi = bisect_right(self._journal, stops[k], key=by_tick)
                counts: dict[Site, int] = {}
                for _, site in self._journal[lo:hi]:
                    counts[site] = counts.get(site, 0) + 1
                for site, n in counts.items():
                    out[site] = max(out.get(site, 0), n)
        return out

    def _note_left_running(self: FlowAnalysis, node: Site, st: State) -> None:
        """The work of the user's own functions (jitted ones, helpers) that this frame
        dispatched since its last clock read and that is still running at this read: if
        the read starts a region, that work runs into it and the region's sync waits for it
        too (JAX106). The cost is the smaller of that work and what is pending."""
        i = bisect_right(self._journal, self.frame.last_read, key=by_tick)
        if not st.pending or i == len(self._journal):
            return
        if len(st.pending) <= len(self._journal) - i:
            floor = self.frame.last_read
            found: Iterable[Site] = [s for s, t in st.pending.items() if t > floor]
        else:
            found = [site for _, site in self._journal[i:] if site in st.pending]
        left = frozenset(s for s in found if self.why.get(s, ("op", None))[0] in (
            "jitted", "helper"))
        if left:
            self.left_running[node] = self.left_running.get(node, frozenset()) | left

    def _stamp(self: FlowAnalysis, key: str | None, held: object, read: TimerRead,
               st: State) -> None:
        """``stamps.append(time.perf_counter())`` in a loop, the stamps differenced later
        (``np.diff(stamps)``, ``zip(stamps, stamps[1:])``): each stamp stops the region the
        one before it started. The list's name holds the latest stamp, as a start; lists of
        readings that are never differenced are not timings of their own."""
        if key is None or not self._differenced(key):
            return
        if isinstance(held, TimerRead):
            for stop in read.sites:
                for start in held.sites:
                    self._pair(stop, start)
                    self.stamp_reads.add(stop)
        self._set(st, key, read)

    def _differenced(self: FlowAnalysis, key: str) -> bool:
        """Whether the module's text differences the list ``key`` of clock readings."""
        found = self._diffed.get(key)
        if found is None:
            n = re.escape(key)
            found = self._diffed[key] = re.search(
                rf"diff\(\s*(?:\w+\.\w+\(\s*)?{n}\b|zip\(\s*{n}\s*,\s*{n}\s*\[\s*1\s*:"
                rf"|(?<![\w.]){n}\s*\[[^\]]+\]\s*-\s*{n}\s*\[", self._code) is not None
        return found

    def _pair(self: FlowAnalysis, stop: Site, start: Site) -> None:
        if self._comparing:
            return  # a deadline (``time.time() - t0 > 30``), not a measurement
        self.pairs.add((stop, start))
        self._pair_log.append((stop, start))

    # ------------------------------------------------------------------ timers split across calls
    def _lift(self: FlowAnalysis, node: cst.CSTNode, reads: frozenset[Site],
              pairs: frozenset[tuple[Site, Site]], returns_reading: bool,
              st: State) -> TimerRead | None:
        """A call (``node``) of the file's own code that reads a clock is a timer read here.

        ``timer.start()`` that stores ``perf_counter()`` on ``self``, ``__enter__``, a
        ``now()`` helper: the call is a start read. ``timer.stop()`` or ``__exit__`` that
        subtracts a start read made by an earlier call: the call is a stop read, paired with
        that earlier call, and what it finds pending *here* is the region's work. Pairs made
        inside one call (a timing decorator's wrapper) are the callee's own regions."""
        if not reads:
            return None
        lifted = self.frame.lifted
        starts: set[Site] = set()
        internal: set[Site] = set()
        live: set[Site] | None = None
        for stop, start in pairs:
            if start in reads and start != stop:
                internal.update((start, stop))
                continue  # both reads inside this call: the callee's own region
            if live is None:
                # the start reads still held here: a timer already stopped starts nothing
                live = set().union(*st.timers.values()) if st.timers else set()
            starts.update(c for c in lifted.get(start, ()) if c in live)
            if start in st.reads:
                starts.add(start)  # a reading made here and passed in (``since(t0)``)
        if starts:
            self._snapshot(node, st)
            self.where.setdefault(node, self._loc)
            for start in starts:
                self._pair(node, start)
                st.timers.pop(_held(start), None)  # a stopped timer starts no later region
        for read in reads:
            lifted.setdefault(read, set()).add(node)
        if returns_reading and not starts and isinstance(node, cst.Call):
            # ``def now(): return time.perf_counter()``: its call is a clock read here,
            # a stop read too (``now() - t0``), seen as a read of the clock is
            return self._timer_read(node, st)
        if self._stmt_line is not None:
            self.read_lines.setdefault(node, self._stmt_line)
        self.read_loops.setdefault(node, self.all_loops())
        st.reads[node] = self._tick()
        self._read_log.append(node)
        if returns_reading:
            return TimerRead(frozenset({node}))
        if not starts and reads - internal:
            # A reading stays inside the object (``self.start``): hold it under a name no
            # code can spell until a stop is paired with it. (A helper that times a whole
            # region inside itself leaves no reading behind.)
            st.timers[_held(node)] = frozenset({node})
        return None

    def _only_starts(self: FlowAnalysis, node: cst.Call, st: State) -> bool:
        """Whether the read ``node`` can start regions but end none: its statement stores
        it under a name the module only subtracts from (``t7 = time.perf_counter()``,
        ``liveness.only_subtracted``). Asked only when many starts are held, where a
        snapshot costs their number."""
        if len(st.timers) < 16:
            return False
        stmt = self._loc.node if self._loc is not None else None
        if not (isinstance(stmt, cst.Assign) and stmt.value is node and len(stmt.targets) == 1
                and isinstance(stmt.targets[0].target, cst.Name)):
            return False
        if self._subtracted_only is None:
            self._subtracted_only = only_subtracted(self.module)
        return stmt.targets[0].target.value in self._subtracted_only

    def _snapshot(self: FlowAnalysis, node: Site, st: State,
                  partner: frozenset[Site] | None = None, only_starts: bool = False) -> None:
        """Record at the read ``node`` what a region ending here may contain.

        A region's start is a read whose value a name still holds (it is subtracted later),
        so only work after the oldest such read matters; the journal, ordered by tick, gives
        exactly that work. The cost is the work since the oldest live start, not all the
        work of the file so far. A read subtracted at once from a start (``partner``:
        ``time.perf_counter() - t0``) can end only that start's regions: the other live
        starts are not asked, so that a file of regions whose starts all stay live (printed
        together at the end) costs each read its own region, not the number of starts."""
        top = self.current_top()
        if top is not None:
            self.tops.add(top)
        snap = self.snapshots.setdefault(node, Snapshot())
        snap.add_binds(self.frame.binds)
        if only_starts:
            return  # no region ends here: only the frames' binds are asked of it
        starts: dict[Site, int] = {}
        reads = st.reads
        if partner is not None and all(s in reads for s in partner):
            starts = {s: reads[s] for s in partner}
        else:
            for sites in st.timers.values():
                for start in sites:
                    tick = reads.get(start)
                    if tick is not None:
                        starts[start] = tick
            if len(starts) > 1:
                starts = self._live_starts(starts, st)
            # A read no name holds can start no later region: forget it, so that the state
            # does not grow with every read of the file (the read being made is added
            # back, so ``st.reads`` still says whether this frame has read a clock).
            if len(reads) > len(starts):
                st.reads = dict(starts)
        if not starts:
            return
        window = snap.add_window(self.frame.events, starts, self._now,
                                 tuple(self._hidden_ticks))
        floor = min(starts.values())
        journal = self._journal
        first = bisect_right(journal, floor, key=by_tick)
        oldest = self._now + 1
        for which, table in enumerate(st.tagged()):
            # The work after the floor: from the journal or from the table, whichever is
            # shorter (a total timer around a whole file keeps the floor at its start).
            if len(table) <= len(journal) - first:
                found: Iterable[Site] = [s for s, t in table.items() if t > floor]
            else:
                found = dict.fromkeys(journal[i][1] for i in range(first, len(journal)))
            for site in found:
                tick = table.get(site)
                if tick is not None and tick > floor:
                    snap.record(site, tick, which, window)
                    oldest = min(oldest, tick)
                    self.recorded += 1
        if self.recorded > self.max_recorded:
            raise TooComplex(f"more than {self.max_recorded:,} pending values at timer reads")
        # The names that may hold a result to sync: bound after the oldest work recorded
        # (a value covering that work was made, and so bound, after it).
        names: set[str] = set()
        bound_at = self._bound_at
        for i in range(bisect_right(bound_at, oldest, key=by_tick), len(bound_at)):
            name = bound_at[i][1]
            if name not in names:
                names.add(name)
                value = st.env.get(name)
                if isinstance(value, JaxVal):
                    snap.hold(name, value, name in st.bound)

    def _live_starts(self: FlowAnalysis, starts: dict[Site, int], st: State
                     ) -> dict[Site, int]:
        """The start reads of ``starts`` that later code may still subtract: held by a name
        the scope may read after this statement (``liveness``), or by something else (an
        attribute path, a name of another frame). Sequential regions with names of their
        own (``t0``, ``t1``, ...) then record only their own work at each stop read."""
        fn = self.frame.func if self._frames else None
        scope = fn.node if fn is not None else self.module
        text = self._scope_texts.get(scope)
        if text is None:
            text = self._scope_texts[scope] = ScopeText(scope)
        at, binds = text.position(self._loc.node), self.frame.binds
        if at is None:
            return starts
        live: set[Site] = set()
        dead = []
        for name, sites in st.timers.items():
            if name in binds and name.isidentifier() and text.dead(at, name):
                dead.append(name)
            else:
                live.update(sites)
        # (a dead reading stays dead on this path: later reads need not ask again, and no
        # later call is inside a region that it starts)
        for name in dead:
            del st.timers[name]
        if len(live) >= len(starts):
            return starts
        return {s: t for s, t in starts.items() if s in live}

    def _drops_first(self: FlowAnalysis, loop: cst.For | cst.While,
                     scope: cst.CSTNode | None, stop: Site) -> bool:
        """Whether the figures a loop collects (``times.append(...)``) are used without the
        first rounds' (``times[3:]``, ``min(times)``), or the stop read is kept out of the
        first rounds by a guard on the loop's counter (``if i >= warmup:``): their compile
        is left out (``compiles.drops_first_rounds``)."""
        counter = _counter_name(loop)
        _, ifs = self.context_of.get(stop, ((), ()))
        loop_ifs = [b for b in ifs if isinstance(b, cst.If) and _inside(b, loop)]
        if any(skips_first_rounds(b.test, counter) for b in loop_ifs):
            return True
        if counter is not None and _collected_after_first_rounds(
                loop, self.where[stop].node, counter):
            return True  # ``dur = toc - tic`` then ``if i >= num_warmup: total += dur``
        finder = _SmallStatements()
        loop.body.visit(finder)
        lists = {dotted(small.value.func.value) for small in finder.found
                 if isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
                 and isinstance(small.value.func, cst.Attribute) and _collecting_call(small)}
        lists.discard(None)
        if not lists:
            return False
        text = self.module.code_for_node(scope) if scope is not None else self._code
        return drops_first_rounds(text, {name for name in lists if name})

    # ------------------------------------------------------------------ results
    def _region_names(self: FlowAnalysis, stop: Site, starts: Collection[Site],
                      compiles: bool = True, forced: bool = False) -> tuple[bool, bool]:
        """Whether the region names the compile or a first run, and whether it names the
        compile alone (``Compiles.named_compile``): from its reads' statements and the
        comments on their lines (and just above the start), the statement after the stop if
        it mentions the figure or only prints words (``print("compilation complete!")``),
        and the statements of its scope that use the figure (``t_first += ...`` then
        ``print(f"Jit-compile done in {t_first:.1f} s")``)."""
        texts = [self.module.code_for_node(loc.node)
                 for loc in (self.where[stop], *(self.where[s] for s in starts
                                                 if s in self.where))
                 if isinstance(loc.node, cst.BaseSmallStatement)]
        # Comments name a cold run (``# cold: includes compilation``) but are not read as
        # the region timing compilation alone, nor when they say it is left out.
        notes = [comments_of(self.read_lines.get(stop))]
        notes += [comments_of(self.read_lines.get(s), above=True) for s in starts]
        # So does a message printed just before the start (``print("Compiling +
        # generating...")``): it says what is timed next.
        for s in starts:
            before = self.prev_of.get(s)
            if isinstance(before, cst.SimpleStatementLine) and only_words(before):
                notes.append(self.module.code_for_node(before))
        noted = any(COMPILE_WORDS.search(n) and not EXCLUDES_COMPILE.search(n) for n in notes)
        bound = bound_names(self.where[stop].node)
        after = self.next_of.get(stop)
        after_texts = []
        if isinstance(after, cst.SimpleStatementLine) and (
                (bound and _mentions(after, bound))
                or (only_words(after) and not self._heads_a_region(after))):
            # ``dt = time.time() - t0`` then ``log("compilation took %s", dt)`` (not
            # "warmup": a flag's name may spell it). A message just before another start
            # (``print("5. First forward pass (JIT compiling)...")``) is that region's.
            after_texts.append(self.module.code_for_node(after))
        if bound and compiles:
            # (asked only of a region with a compile in it: JAX105 is what it decides)
            after_texts += self._uses_of(bound, self.scope_of.get(stop), self.where[stop].node)
        named, only = self.named_compile(texts, None, forced)
        for text in after_texts:
            if _subtracts(text, bound):
                # ``print("compile time:", t2 - t1 - t4 + t3)`` ends the run ``t3`` to
                # ``t4`` too: a figure that subtracts this region's names the compile of
                # another region, the one this region's run is told apart from
                continue
            n, o = self.named_compile(texts, text, forced)
            named, only = named or n, only or o
        return named or noted, only

    def _names_dispatch(self: FlowAnalysis, stop: Site, starts: Collection[Site],
                        scope: cst.CSTNode | None) -> bool:
        """Whether the figure of a region whose stop read also starts a region (``t1`` in
        ``t0``, the call, ``t1``, the sync, ``t2``: the caller asks only then) is named for
        the dispatch: the stop read's statement
        (``dispatch = time.perf_counter() - t0``), a statement of its scope that subtracts
        one of the region's starts from the stop (``dispatch_times.append((t1 - t0) *
        1e3)``), or the words a statement puts beside a figure so made
        (``print(f"dispatch only: {dt * 1e6:.1f} us")``) say "dispatch". The names that
        hold the start readings are left out (``dispatch_start`` names when the clock
        started, not what the figure measures)."""
        stmt = self.where[stop].node
        stop_names = set(bound_names(stmt))
        start_names: set[str] = set()
        for s in starts:
            if s in self.where:
                start_names.update(bound_names(self.where[s].node))
        texts = [self.module.code_for_node(stmt)]
        figures = set(stop_names)
        if stop_names and start_names:
            for use in self._statements_using(stop_names, scope, stmt):
                if _mentions(use, start_names):
                    texts.append(self.module.code_for_node(use))
                    figures.update(bound_names(use))
        if figures - stop_names:
            texts += self._uses_of(figures - stop_names, scope, stmt)
        elif stop_names and not start_names.isdisjoint(names_in(stmt)):
            texts += self._uses_of(stop_names, scope, stmt)  # ``dt = clock() - t0``
        for name in start_names:
            texts = [re.sub(rf"(?<![\w.]){re.escape(name)}(?!\w)", " ", t) for t in texts]
        return any(DISPATCH_WORD.search(t) for t in texts)

    def _heads_a_region(self: FlowAnalysis, stmt: cst.CSTNode) -> bool:
        """Whether ``stmt`` comes just before a start read (a heading for what is timed
        next: it names that region, not the one that ended before it)."""
        if self._region_heads is None:  # (asked once the file's reads are all paired)
            self._region_heads = {id(self.prev_of.get(start)) for _, start in self.pairs}
        return id(stmt) in self._region_heads

    def _uses_of(self: FlowAnalysis, figure: set[str], scope: cst.CSTNode | None,
                 stmt: cst.CSTNode) -> list[str]:
        """What the statements of ``scope`` (a function, or the module) other than ``stmt``
        that use one of the names ``figure`` call it (``_label_of``; a few at most)."""
        return [_label_of(small, figure, self.module)
                for small in self._statements_using(figure, scope, stmt)]

    def _statements_using(self: FlowAnalysis, figure: set[str] | frozenset[str],
                          scope: cst.CSTNode | None, stmt: cst.CSTNode
                          ) -> list[cst.BaseSmallStatement]:
        """The statements of ``scope`` other than ``stmt`` that use one of the names
        ``figure`` (a few at most)."""
        index = self._uses_index.get(scope)
        if index is None:
            # each statement of the scope by the names it mentions, made once per scope:
            # asked for every region, a scan per region would cost regions x statements
            finder = _SmallStatements()
            body = scope.body if isinstance(scope, (cst.FunctionDef, cst.Lambda)) else (
                self.module)
            body.visit(finder)
            index = self._uses_index[scope] = {}
            for small in finder.found:
                for name in names_in(small):
                    uses = index.setdefault(name, [])
                    if not uses or uses[-1] is not small:
                        uses.append(small)
        found: list[cst.BaseSmallStatement] = []
        for name in sorted(figure):
            found += [u for u in index.get(name, ())[:8] if u is not stmt and u not in found]
        return found[:8]

    def _measures_speed(self: FlowAnalysis, stop: Site, starts: Collection[Site],
                        stmt: cst.CSTNode, loop: cst.For | cst.While | None,
                        compiled: frozenset[Site]) -> bool:
        """Whether the region that ``stop`` ends is a measurement of speed, where a first
        call's compile distorts the figure (``compiles.measures_speed``): its file, its
        function or its function's class says so by name (``benchmarks/``, ``bench_rbf()``,
        ``class ConvBench``), or so do the words printed beside its figure (a latency, a
        rate, ``ms``), or its file warms a function up (``compiles.WARMS_UP``); or its
        figure is one of many per-call figures: divided by a count of rounds or dividing one
        (an average, steps per second), collected round by round into a list, or the total
        of a loop in the region that repeats the compiling call with the same arguments on
        every round (a benchmark loop; a training loop feeds each round's results to the
        next)."""
        scope = self.scope_of.get(stop)
        if self._named_for_speed(scope):
            return True
        bound = frozenset(bound_names(stmt))
        uses = self._statements_using(bound, scope, stmt) if bound else []
        if divides(stmt, stop, rate=True) or any(
                divides(use, names=bound, rate=True) for use in uses):
            return True
        if loop is not None and collects(loop, stmt, sums=False):
            return True
        around = set().union(*(self.read_loops.get(s, ()) for s in starts))
        for call in compiled:
            for inner in self.loops_of.get(call, ()):
                if inner not in around and isinstance(call, cst.Call) and repeated_unfed(
                        inner, call):
                    return True  # a benchmark's repetitions, a sweep over a grid's indices
        texts = [self.module.code_for_node(stmt)]
        texts += [_label_of(use, set(bound), self.module) for use in uses]
        return any(FIGURE_WORDS.search(t) for t in texts)

    def _named_for_speed(self: FlowAnalysis, scope: cst.CSTNode | None) -> bool:
        """Whether the code around a timing says it measures speed: its file is named for
        it or warms a function up (``compiles.WARMS_UP``), or its function or that
        function's class is named for it (``bench_rbf()``, ``class ConvBench``). Asked by
        regions (``_measures_speed``) and by harnesses timing one cold run."""
        if self._measuring_file is None:  # (once per file: its path and its text)
            self._measuring_file = measures_speed(self.path) or (
                WARMS_UP.search(self._code) is not None)
        if self._measuring_file:
            return True
        return isinstance(scope, cst.FunctionDef) and (
            says_measuring(scope.name.value)
            or any(says_measuring(k) for k in self._classes_of(scope)))

    def _classes_of(self: FlowAnalysis, func: cst.FunctionDef) -> list[str]:
        """The names of the classes whose bodies hold ``func`` (a method's class)."""
        if self._class_names is None:
            found: dict[cst.CSTNode, list[str]] = {}
            # (node, the names of the classes around it); a def or class is a statement,
            # so only statements and their blocks are walked
            todo: list[tuple[cst.CSTNode, list[str]]] = [(self.module, [])]
            while todo:
                node, classes = todo.pop()
                if isinstance(node, cst.ClassDef):
                    classes = [*classes, node.name.value]
                elif isinstance(node, cst.FunctionDef) and classes:
                    found[node] = classes
                for child in children(node):
                    if isinstance(child, _STATEMENT_PARTS):
                        todo.append((child, classes))
            self._class_names = found
        return self._class_names.get(func, [])

    def regions(self: FlowAnalysis) -> list[Region]:
        """The file's timed regions, computed once (every rule asks)."""
        if self._regions is not None:
            return self._regions
        by_stop: dict[Site, set[Site]] = {}
        by_start: dict[Site, set[Site]] = {}
        for stop, start in self.pairs:
            by_stop.setdefault(stop, set()).add(start)
            by_start.setdefault(start, set()).add(stop)
        out = []
        for stop, starts in by_stop.items():
            snap = self.snapshots.get(stop)
            if snap is None or not isinstance(stop, cst.BaseExpression):
                continue

            syncs = snap.events_in(starts, SYNCED)
            host_synced = snap.inside(1, starts)
            unsynced = snap.inside(0, starts)
            if unsynced and unsynced <= self.fill_sites and any(
                    site not in self.fill_sites
                    for site in self._sites_between(stop, starts)):
                # The region's work was waited for; all that is left running only fills
                # new buffers or rearranges finished ones (``opt_state =
                # optimizer.init(params)`` after a learning-rate decay, ``jnp.zeros_like``,
                # host data put on the device, ``jnp.where``, a helper that leaves only
                # such work): not timed work (``names.FILL_CALLS``, ``Summary.leaves_fill``).
                unsynced = frozenset()
            if unsynced and (syncs or host_synced) and all(
                    (bookkeeping(s) and s not in self.why) or s in self.scalar_sites
                    for s in unsynced):
                # The work was waited for, explicitly (``train_loss +=
                # jax.block_until_ready(loss)``) or by a copy to the host (``float(loss)``,
                # ``np.array(pcov)``); what is left running is arithmetic on finished
                # results (the sum, ``train_loss /= n``, ``pcov * s_sq``, ``probs[:, 1]``),
                # a cast of them (``jnp.float32(loss)``) or scalars of host numbers (a
                # learning rate from a schedule of the step counter), not the timed work.
                unsynced = frozenset()
            if syncs and all(self.why.get(s, ("op", None))[0] in ("op", "api")
                             for s in host_synced):
                # The work was waited for explicitly; what is copied after is a small
                # operation on its results (``float(loss.mean())``), not the timed work.
                host_synced = frozenset()
            if host_synced:
                # A copy the timed loop makes on every round (an RL loop's
                # ``jax.device_get(actions)``, an evaluator's per-batch ``device_get``, a
                # progress print of the loss) is part of the work timed, not the region's
                # way of waiting at its end: the region is synced, and no JAX104.
                around = set().union(*(self.read_loops.get(s, ()) for s in starts))
                host_synced = frozenset(
                    s for s in host_synced
                    if all(loop in around for loop in self.transfer_loops.get(s, ())))
            # (a function made after the start read: the region is a total that contains
            # its making, compile included: ``compiles``' policy)
            # (a function made anew on each round of a loop in the region is compiled on
            # each: that is meant unless the figure is a per-round average)
            stmt = self.where[stop].node
            after = self.next_of.get(stop)
            averaged = divides(stmt, stop) or (after is not None and divides(
                after, names=frozenset(bound_names(stmt))))

            def meant(tick: int, low: int, read: Site, averaged: bool = bool(averaged)) -> bool:
                return self.compile_meant(tick, low, read, averaged)

            compiled = snap.events_in(starts, COMPILE, meant)
            # (words that could name the compile appear nowhere in most files: then
            # nothing of the region is generated back into text to be searched)
            named = only = False
            if self._may_name is None:
                self._may_name = (COMPILE_WORDS.search(self._code) is not None
                                  or JIT_TIME.search(self._code) is not None)
            if self._may_name:
                # (a compile the region means, a cold run beside a warm one, is in it too:
                # whether the figure names the compile alone decides its JAX101)
                named, only = self._region_names(
                    stop, starts, bool(compiled) or bool(snap.events_in(starts, COMPILE)),
                    bool(snap.events_in(starts, CLEARS)))
            loop = self.read_loop.get(stop)
            if compiled and loop is not None and (
                    stop in self.stamp_reads or not collects(loop, self.where[stop].node)
                    or self._drops_first(loop, self.scope_of.get(stop), stop)):
                # A progress log read on every round of a loop (``steps/s`` every 100
                # steps, an epoch's time): the function compiles in the first round only,
                # so only the first of many figures includes it, as any training log's.
                # Figures collected to be summed or averaged all carry it.
                # (A call given an array that grows each round compiles in every round.)
                compiled = frozenset(c for c in compiled if c in self.grown_compiles
                                     or loop not in self.loops_of.get(c, ()))
            if compiled:
                # The total of a logged run: the same start is read as a progress log on the
                # rounds of a loop it is outside of (``elapsed`` every k updates, then
                # "total time" after the loop): the run's clock, whose total includes the
                # first round's compile as the log's first figure does.
                around = set().union(*(self.read_loops.get(s, ()) for s in starts))
                logged = set()
                for other in set().union(*(by_start.get(s, ()) for s in starts)) - {stop}:
                    round_loop = self.read_loop.get(other)
                    if round_loop is not None and round_loop not in around and (
                            other in self.stamp_reads
                            or not collects(round_loop, self.where[other].node)):
                        logged.add(round_loop)
                if logged:
                    compiled = frozenset(c for c in compiled if c in self.grown_compiles
                                         or not logged & self.loops_of.get(c, set()))
            if compiled and not self._measures_speed(stop, starts, stmt, loop, compiled):
                # Not a measurement of speed: a first call's compile is part of the run
                # timed (``compiles.measures_speed``), and so is a call that compiles on
                # every call, unless the region is read on every round of a loop (each
                # figure then carries a compile: a sweep's); calls that compile again after
                # a warm-up or a cleared cache are reported wherever they are.
                compiled = frozenset(c for c in compiled if c in self.cleared_compiles
                                     or c in self.shape_compiles or c in self.grown_compiles
                                     or (c in self.recompiling and loop is not None))
            scope = self.scope_of.get(stop)
            uses = tuple(d for d, leaves in self.decorations.get(scope, ()) if leaves) if (
                scope is not None) else ()
            if self._may_dispatch is None:
                self._may_dispatch = DISPATCH_WORD.search(self._code) is not None
            # (its stop read must also start a region, of the wait: else the figure is the
            # dispatch alone, the mistake a tutorial shows)
            dispatch = bool(unsynced) and self._may_dispatch and stop in by_start and (
                self._names_dispatch(stop, starts, scope))
            out.append(Region(stop, frozenset(starts), self.where[stop],
                              unsynced, host_synced, compiled,
                              snap.events_in(starts, IDLE), snap, syncs, named, only,
                              dispatch, uses, snap.events_in(starts, INEFFECTIVE),
                              frozenset().union(*(self.left_running.get(s, frozenset())
                                                  for s in starts))))
        # A compile one region's figure names (``print(f"run time including compilation:
        # {dt}")``) is known to its author: it is meant in every other region that
        # contains the same call (a later stop of the same start, a run's total around it).
        known = set().union(*(r.compiled for r in out if r.names_compile))
        if known:
            for region in out:
                if region.compiled & known and not region.names_compile:
                    region.compiled = region.compiled - known
        self._regions = out
        return out
