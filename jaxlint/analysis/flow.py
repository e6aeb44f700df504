"""The one place that decides whether a timed region's JAX work is finished when the clock is read.

``FlowAnalysis`` interprets a module abstractly, statement by statement, over every path
(branches, loops to a fixed point, try/except, early exits). It tracks which names hold JAX
values, which work is still pending on the device, and every timer read. Functions defined in
the file are interpreted at their calls (with what the call passes in) and once on their own,
so work and syncs behind helpers, lambdas, methods and ``jit`` wrappers are seen.

At each timer read it takes a snapshot of the pending work, tagged with the earlier timer reads
it was dispatched after. A region is a stop read paired with a start read (``t1 - t0``); its
unsynced work is the snapshot's work tagged with the start. Rules ask ``regions()``; they never
re-derive any of this.
"""

from __future__ import annotations

import builtins
import textwrap
from bisect import bisect_right
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace

import libcst as cst

from jaxlint.analysis import names
from jaxlint.analysis.names import CallKind
from jaxlint.analysis.values import (
    EMPTY,
    INPUT,
    BenchmarkFixture,
    Func,
    HarnessTimer,
    Instance,
    JaxCallable,
    JaxVal,
    Klass,
    LibObject,
    Lowered,
    Ref,
    Site,
    State,
    TimerRead,
    Transform,
    Value,
    join_states,
    join_values,
    union_jax,
)

Event = tuple[int, Site, int]  # (tick, site, kind)
COMPILE, IDLE = 0, 1

MAX_LOOP_ROUNDS = 6
MAX_CALL_DEPTH = 12
# The last line of defence against a file that would take the analysis minutes or gigabytes:
# statements and expressions interpreted, and entries recorded in snapshots. The largest file
# of the benchmark corpus needs a few hundred thousand steps (benchmarks/RESULTS.md).
MAX_STEPS = 5_000_000
MAX_RECORDED = 2_000_000


class TooComplex(Exception):
    """The file needs more analysis than the budget allows; the message says which part."""


@dataclass(frozen=True)
class StmtLoc:
    """Where a sync for a timer read would go: before ``node``, if ``fixable``."""

    node: cst.CSTNode
    fixable: bool


@dataclass
class Snapshot:
    """What was pending when a timer call ran, over all paths and loop rounds that reach it.

    Only what a region can contain is recorded: work dispatched after the oldest start read
    still held by a name (a region's start must be subtracted later, so a name holds it).
    Each recorded site maps to the start reads it was dispatched after; ``ticks`` keeps its
    latest dispatch, so that ``JaxVal.covers`` can be asked of it.
    """

    pending: dict[Site, frozenset[Site]] = field(default_factory=dict)
    transferred: dict[Site, frozenset[Site]] = field(default_factory=dict)
    ticks: dict[Site, int] = field(default_factory=dict)
    holders: dict[str, JaxVal] = field(default_factory=dict)
    unbound: set[str] = field(default_factory=set)  # holders not bound on every path
    _binds: list[Mapping[str, set[cst.CSTNode]]] = field(default_factory=list)
    _windows: list[tuple[list[Event], dict[Site, int], int]] = field(default_factory=list)

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

    def record(self, site: Site, tick: int, table: int, tags: frozenset[Site]) -> None:
        mine = (self.pending, self.transferred)[table]
        mine[site] = mine.get(site, EMPTY) | tags
        if tick > self.ticks.get(site, -1):
            self.ticks[site] = tick

    def add_window(self, events: list[Event], starts: dict[Site, int], now: int) -> None:
        self._windows.append((events, starts, now))

    def events_in(self, starts: Collection[Site], kind: int) -> frozenset[Site]:
        """The events of ``kind`` after one of ``starts`` and before this read, in the frame
        the read ran in: the frame's events are in tick order, so each execution of the
        read looks only at its own window of them."""
        out: set[Site] = set()
        for events, ticks, now in self._windows:
            lows = [ticks[s] for s in starts if s in ticks]
            if not lows:
                continue
            i = bisect_right(events, min(lows), key=_first)
            for tick, site, what in events[i:]:
                if tick > now:
                    break
                if what == kind:
                    out.add(site)
        return frozenset(out)

    def hold(self, name: str, value: JaxVal, bound: bool) -> None:
        if not bound:
            self.unbound.add(name)
        old = self.holders.get(name)
        joined = value if old is None else join_values(old, value)
        assert isinstance(joined, JaxVal)
        self.holders[name] = joined


@dataclass(frozen=True)
class Summary:
    """What calling a file's own function does, for one way of calling it."""

    work: bool = False  # dispatches JAX work
    waits: bool = False  # waits (with a real sync) for all work dispatched before it returns
    waits_by_transfer: bool = False  # waits, but only through a host transfer
    result: Value = None
    jit_calls: frozenset[Site] = frozenset()  # jitted functions (by origin) it calls


NOTHING = Summary()


@dataclass
class Frame:
    func: Func | None
    entry: Site | None = None
    returns: list[tuple[State, Value]] = field(default_factory=list)
    loops: list[tuple[list[State], list[State]]] = field(default_factory=list)
    did_work: bool = False
    created: set[Site] = field(default_factory=set)  # jitted functions made in this frame
    # Events a region may contain, in tick order: first (compiling) calls, idle syncs.
    events: list[Event] = field(default_factory=list)
    jit_calls: set[Site] = field(default_factory=set)
    binds: dict[str, set[cst.CSTNode]] = field(default_factory=dict)  # name -> its targets

    @property
    def closure(self) -> tuple[dict[str, Value], ...]:
        if self.func is None or self.func.closure is None:
            return ()
        return self.func.closure


@dataclass
class Region:
    """A timed region: a stop read and the start read(s) it is subtracted from."""

    stop: cst.Call
    starts: frozenset[Site]
    where: StmtLoc
    unsynced: frozenset[Site]  # work dispatched after the start, not waited for at the stop
    host_synced: frozenset[Site]  # work waited for only by a host transfer
    compiled: frozenset[Site]  # first calls of jitted functions (they compile) in the region
    idle_syncs: frozenset[Site]  # syncs in the region that waited for none of its work
    snapshot: Snapshot


@dataclass
class HarnessUse:
    """A benchmark harness call (``timeit.timeit``, ``Timer(...).repeat``, ``benchmark(fn)``)
    and whether what it times leaves JAX work unsynced when each run ends."""

    call: cst.Call  # the call that runs the timing
    stmt: cst.BaseExpression  # what is timed: a callable expression or a statement string
    setup: cst.BaseExpression | None = None
    has_globals: bool = False
    fixture: bool = False  # pytest-benchmark: the timed callable gets the call's other args
    unsynced: bool = False
    namespace: cst.Dict | None = None  # globals={...} given as a dict literal


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def _base_name(node: cst.BaseExpression) -> str | None:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def _is_const_string(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


class FlowAnalysis:
    """Abstract interpretation of one module; see the module docstring."""

    def __init__(self, module: cst.Module, extras: names.Extras = names.NO_EXTRAS,
                 index: Mapping[str, Value] | None = None, module_name: str | None = None,
                 code: str | None = None) -> None:
        """``code``: the module's text, if the caller has it (saves generating it)."""
        self.module = module
        # Finding generators walks a function's whole body; most modules have none at all.
        self._may_yield = "yield" in (module.code if code is None else code)
        self._generators: dict[cst.CSTNode, bool] = {}
        # Every ``a`` and ``a.b`` that is the start of a dotted name ever bound (``a.b.c``):
        # rebinding a name that is none of them has no attribute paths to forget, which
        # keeps binding constant-time in modules with thousands of names.
        self._parents: set[str] = set()
        self.module_name = module_name
        # The analysis' clock (see ``State``) and what happened at each tick, in order: work
        # dispatched, compiled or synced idly (``_journal``) and names bound (``_bound_at``).
        # A timer read looks back only as far as the oldest start it may be paired with.
        self._now = 0
        self._journal: list[tuple[int, Site]] = []
        self._bound_at: list[tuple[int, str]] = []
        self.steps = 0
        self.recorded = 0
        self.max_steps = MAX_STEPS
        self.max_recorded = MAX_RECORDED
        self.extras = extras
        self.index = index or {}
        self.globals: dict[str, Value] = {}
        self.snapshots: dict[Site, Snapshot] = {}
        self.where: dict[Site, StmtLoc] = {}
        self.pairs: set[tuple[Site, Site]] = set()
        self.bare: dict[Site, cst.Expr] = {}
        self.bare_ticks: dict[Site, int] = {}  # the latest tick of a dropped result
        self.transfer_where: dict[Site, StmtLoc] = {}
        self.harnesses: dict[cst.Call, HarnessUse] = {}
        self.plan_cache: dict[object, list[tuple[int, int]]] = {}  # for plans, once analysed
        # the element values of the last tuple/list literal evaluated (``a, b = f(x), g(x)``)
        self._last_elements: list[Value] | None = None
        self._timing_harness = 0  # > 0 while interpreting what a harness times
        self._memo: dict[tuple[object, ...], Summary] = {}
        self._active: set[tuple[object, ...]] = set()
        self._frames: list[Frame] = []
        self._loc: StmtLoc = StmtLoc(module, False)
        self._funcs: list[Func] = []
        self._klass: Klass | None = None

    # ------------------------------------------------------------------ driver
    def run(self) -> FlowAnalysis:
        # Pass 1 learns what module-level names hold, so that functions see globals bound
        # after their definition; pass 2 is the real run, with those globals.
        end = self._run_module()
        self.globals = dict(end.env)
        self._reset()
        self._run_module()
        done: set[cst.CSTNode] = set()
        i = 0
        while i < len(self._funcs):
            fn = self._funcs[i]
            i += 1
            if fn.node in done:
                continue
            done.add(fn.node)
            self._call_function(fn, self._default_params(fn))
        return self

    def _reset(self) -> None:
        self.snapshots.clear()
        self.where.clear()
        self.pairs.clear()
        self.bare.clear()
        self.bare_ticks.clear()
        self._journal.clear()
        self._bound_at.clear()
        self.transfer_where.clear()
        self.harnesses.clear()
        self._memo.clear()
        self._active.clear()
        self._funcs.clear()

    def _run_module(self) -> State:
        self._frames = [Frame(func=None)]
        st = self._exec_block(self.module.body, State())
        self._frames.pop()
        return st

    @property
    def frame(self) -> Frame:
        return self._frames[-1]

    # ------------------------------------------------------------------ results
    def regions(self) -> list[Region]:
        by_stop: dict[Site, set[Site]] = {}
        for stop, start in self.pairs:
            by_stop.setdefault(stop, set()).add(start)
        out = []
        for stop, starts in by_stop.items():
            snap = self.snapshots.get(stop)
            if snap is None or not isinstance(stop, cst.Call):
                continue
            def inside(table: dict[Site, frozenset[Site]], starts: set[Site]) -> frozenset[Site]:
                return frozenset(s for s, tags in table.items() if tags & starts)

            out.append(Region(stop, frozenset(starts), self.where[stop],
                              inside(snap.pending, starts), inside(snap.transferred, starts),
                              snap.events_in(starts, COMPILE), snap.events_in(starts, IDLE),
                              snap))
        return out

    # ------------------------------------------------------------------ names
    def _classify(self, q: str) -> CallKind:
        return names.classify(q, self.extras)

    def _external(self, q: str) -> Value:
        """An imported name, by qualified name. The project index is consulted only at calls
        made where timing is going on (see ``_from_index``): reading the modules every name
        of a file comes from would cost far more than the file itself."""
        return Ref(q)

    def _from_index(self, q: str) -> Value:
        """What the project index knows of ``q`` (None if nothing)."""
        if self.index:
            key = q
            if q.startswith(".") and self.module_name:
                dots = len(q) - len(q.lstrip("."))
                package = self.module_name.split(".")[:-dots]
                key = ".".join([*package, q.lstrip(".")])
            if key in self.index:
                return self.index[key]
        return None

    def is_external(self, name: str) -> bool:
        """Whether ``name`` at module level is an import or a builtin."""
        value = self.globals.get(name)
        if name in self.globals:
            return isinstance(value, Ref)
        return name in _BUILTINS

    def _lookup(self, name: str, st: State) -> tuple[bool, Value]:
        """A name (or ``a.b`` path) in the innermost scope that binds its first part."""
        base = name.split(".", 1)[0]
        levels: list[Mapping[str, Value]] = [st.env, *self.frame.closure]
        if self.frame.func is not None:
            levels.append(self.globals)
        for env in levels:
            if base in env or name in env:
                return (True, env[name]) if name in env else (False, None)
        return False, None

    def _qualified(self, node: cst.BaseExpression) -> str | None:
        """The qualified name of a name no scope binds: a builtin (``builtins.print``).

        Imports are bound as ``Ref``s by the interpretation itself (``_bind_import``), so
        this small lookup is all that is left of libcst's scope analysis, which cost more
        than parsing and the whole interpretation together (benchmarks/RESULTS.md)."""
        name = dotted(node)
        if name is None:
            return None
        base = name.split(".", 1)[0]
        return f"builtins.{name}" if base in _BUILTINS else None

    # ------------------------------------------------------------------ effects
    def _tick(self) -> int:
        self._now += 1
        return self._now

    def _event(self, site: Site) -> int:
        """A new tick for an event a region may contain (dispatch, compile, idle sync)."""
        tick = self._tick()
        self._journal.append((tick, site))
        return tick

    def _dispatch(self, site: Site, inputs: Sequence[Value], st: State) -> JaxVal:
        """``site`` dispatches device work; return the (pending) value it produces.

        Values dispatched before this run keep their older ticks, so they no longer cover
        the site: nothing else needs updating."""
        self.frame.did_work = True
        tick = self._event(site)
        st.pending[site] = tick
        st.transferred.pop(site, None)
        deps = EMPTY
        for v in inputs:
            if isinstance(v, JaxVal):
                deps = deps | v.origin | v.deps
        return JaxVal(tick, frozenset({site}), deps)

    def _sync(self, value: Value, st: State, transfer: bool = False,
              site: Site | None = None) -> None:
        """Wait for ``value`` (and, in dispatch order, everything before it).

        ``site`` is the syncing call; a real sync that finds none of the pending work to wait
        for is remembered as idle (it synced the wrong value: an input, a stale result).
        """
        if not isinstance(value, JaxVal):
            return
        waited = False
        for work, tick in list(st.pending.items()):
            if value.covers(work, tick):
                waited = True
                del st.pending[work]
                if transfer:
                    st.transferred[work] = tick
                    self.transfer_where.setdefault(work, self._loc)
        if not transfer:
            for work, tick in list(st.transferred.items()):
                if value.covers(work, tick):
                    waited = True
                    del st.transferred[work]
        if site is not None and not transfer and not waited and (st.pending or st.transferred):
            self.frame.events.append((self._tick(), site, IDLE))

    def _sync_all(self, st: State, transfer: bool = False) -> None:
        self._sync(JaxVal(self._now), st, transfer)

    def _timer_read(self, node: cst.Call, st: State) -> TimerRead:
        self._snapshot(node, st)
        self.where.setdefault(node, self._loc)
        st.reads[node] = self._tick()
        return TimerRead(frozenset({node}))

    def _snapshot(self, node: cst.Call, st: State) -> None:
        """Record at the read ``node`` what a region ending here may contain.

        A region's start is a read whose value a name still holds (it is subtracted later),
        so only work after the oldest such read matters; the journal, ordered by tick, gives
        exactly that work. The cost is the work since the oldest live start, not all the
        work of the file so far."""
        snap = self.snapshots.setdefault(node, Snapshot())
        snap.add_binds(self.frame.binds)
        starts: dict[Site, int] = {}
        for sites in st.timers.values():
            for start in sites:
                tick = st.reads.get(start)
                if tick is not None:
                    starts[start] = tick
        # A read no name holds can start no later region: forget it, so that the state
        # does not grow with every read of the file (the read being made is added back, so
        # ``st.reads`` still says whether this frame has read a clock).
        if len(st.reads) > len(starts):
            st.reads = dict(starts)
        if not starts:
            return
        snap.add_window(self.frame.events, starts, self._now)
        floor = min(starts.values())
        journal = self._journal
        first = bisect_right(journal, floor, key=_first)
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
                    tags = frozenset(s for s, t in starts.items() if t < tick)
                    snap.record(site, tick, which, tags)
                    oldest = min(oldest, tick)
                    self.recorded += 1
        if self.recorded > self.max_recorded:
            raise TooComplex(f"more than {self.max_recorded:,} pending values at timer reads")
        # The names that may hold a result to sync: bound after the oldest work recorded
        # (a value covering that work was made, and so bound, after it).
        names: set[str] = set()
        bound_at = self._bound_at
        for i in range(bisect_right(bound_at, oldest, key=_first), len(bound_at)):
            name = bound_at[i][1]
            if name not in names:
                names.add(name)
                value = st.env.get(name)
                if isinstance(value, JaxVal):
                    snap.hold(name, value, name in st.bound)

    def _truth(self, value: Value, st: State) -> None:
        """Python asks for ``bool(value)`` (``if``, ``while``, ``assert``, ``and``): it waits.

        It is a host copy, but one the algorithm needs (a convergence test, a check), not one
        added to the timing, so it counts as a real wait: JAX104 does not report it.
        """
        self._sync(value, st)

    # ------------------------------------------------------------------ binding
    def _bind(self, target: cst.BaseExpression, value: Value, st: State,
              source: cst.BaseExpression | None = None) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            elems = [e.value for e in target.elements]
            if isinstance(source, (cst.Tuple, cst.List)) and len(source.elements) == len(elems):
                # a, b = f(x), g(x): each target gets its own element, already evaluated
                values = self._last_elements or [value] * len(elems)
                for t, v in zip(elems, values):
                    self._bind(t, v, st)
                return
            part = value if isinstance(value, JaxVal) else None
            for t in elems:
                self._bind(t.value if isinstance(t, cst.StarredElement) else t, part, st)
            return
        if isinstance(target, cst.StarredElement):
            self._bind(target.value, value, st)
            return
        if isinstance(target, cst.Subscript):
            key = dotted(target.value)
            if key is not None and isinstance(value, JaxVal):
                old = st.env.get(key)
                new = replace(value, container=True)
                self._set(st, key, join_values(old, new) if isinstance(old, JaxVal) else new)
            return
        key = dotted(target)
        if key is None:
            return
        if key in self._parents:
            prefix = key + "."
            for k in [k for k in st.env if k.startswith(prefix)]:
                self._unbind(k, st)
        self._set(st, key, value)
        self.frame.binds.setdefault(key, set()).add(target)

    def _set(self, st: State, key: str, value: Value) -> None:
        """Bind ``key`` (a name or ``a.b`` path) on this path, and note when."""
        st.env[key] = value
        st.bound.add(key)
        if isinstance(value, TimerRead):
            st.timers[key] = value.sites
        elif st.timers:
            st.timers.pop(key, None)
        self._note_key(key)
        self._bound_at.append((self._tick(), key))

    def _note_key(self, key: str) -> None:
        while "." in key:
            key = key.rsplit(".", 1)[0]
            self._parents.add(key)

    def _unbind(self, key: str, st: State) -> None:
        st.env.pop(key, None)
        st.bound.discard(key)
        st.timers.pop(key, None)

    # ------------------------------------------------------------------ statements
    def _exec_block(self, body: Sequence[cst.CSTNode], st: State) -> State:
        for stmt in body:
            if not st.live:
                break
            st = self._exec_stmt(stmt, st)
        return st

    def _exec_suite(self, suite: cst.BaseSuite, st: State) -> State:
        if isinstance(suite, cst.IndentedBlock):
            return self._exec_block(suite.body, st)
        return self._exec_stmt(suite, st)

    def _exec_stmt(self, stmt: cst.CSTNode, st: State) -> State:
        self._step()
        if isinstance(stmt, (cst.SimpleStatementLine, cst.SimpleStatementSuite)):
            for small in stmt.body:
                if not st.live:
                    break
                self._loc = StmtLoc(small, True)
                st = self._exec_small(small, st)
            return st
        method = getattr(self, "_exec_" + type(stmt).__name__, None)
        if method is None:
            return st
        result: State = method(stmt, st)
        return result

    def _exec_small(self, small: cst.BaseSmallStatement, st: State) -> State:
        if isinstance(small, cst.Expr):
            value = self._eval(small.value, st)
            if isinstance(value, JaxVal) and small.value in value.origin:
                self.bare[small.value] = small
                self.bare_ticks[small.value] = max(value.tick,
                                                   self.bare_ticks.get(small.value, -1))
        elif isinstance(small, cst.Assign):
            self._last_elements = None
            value = self._eval(small.value, st)
            for t in small.targets:
                self._bind(t.target, value, st, small.value)
            self._last_elements = None
        elif isinstance(small, cst.AnnAssign):
            if small.value is not None:
                self._last_elements = None
                value = self._eval(small.value, st)
                self._bind(small.target, value, st, small.value)
                self._last_elements = None
        elif isinstance(small, cst.AugAssign):
            left = self._eval(small.target, st)
            right = self._eval(small.value, st)
            if isinstance(left, JaxVal) or isinstance(right, JaxVal):
                result: Value = self._dispatch(small, [left, right], st)
            else:
                result = None
            self._bind(small.target, result, st)
        elif isinstance(small, cst.Return):
            value = self._eval(small.value, st) if small.value is not None else None
            self.frame.returns.append((st.copy(), value))
            st.live = False
        elif isinstance(small, cst.Raise):
            if small.exc is not None:
                self._eval(small.exc, st)
            st.live = False
        elif isinstance(small, cst.Assert):
            self._truth(self._eval(small.test, st), st)
            if small.msg is not None:
                self._eval(small.msg, st)
        elif isinstance(small, cst.Del):
            self._del(small.target, st)
        elif isinstance(small, (cst.Break, cst.Continue)):
            if self.frame.loops:
                which = 0 if isinstance(small, cst.Break) else 1
                self.frame.loops[-1][which].append(st.copy())
            st.live = False
        elif isinstance(small, (cst.Import, cst.ImportFrom)):
            self._bind_import(small, st)
        return st

    def _bind_import(self, small: cst.Import | cst.ImportFrom, st: State) -> None:
        """Bind what an import binds to the ``Ref`` of its qualified name, as libcst names
        them: ``import a.b`` binds ``a`` to ``a``; ``from .m import f as g`` binds ``g`` to
        ``.m.f`` (the project index resolves the dots)."""
        if isinstance(small.names, cst.ImportStar):
            return
        base = ""
        if isinstance(small, cst.ImportFrom):
            module = dotted(small.module) if small.module is not None else ""
            if module is None:
                return
            if module == "__main__" and not small.relative:
                return  # ``from __main__ import f``: the module's own names, already bound
            base = "." * len(small.relative) + module
            if module:
                base += "."
        for alias in small.names:
            full = dotted(alias.name)
            if full is None:
                continue
            if alias.asname is not None and isinstance(alias.asname.name, cst.Name):
                key, value = alias.asname.name.value, base + full
            elif base:
                key, value = full, base + full
            else:
                key = value = full.split(".")[0]
            self._set(st, key, Ref(value))

    def _del(self, target: cst.BaseExpression, st: State) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for e in target.elements:
                self._del(e.value, st)
            return
        key = dotted(target)
        if key is not None:
            self._unbind(key, st)

    def _exec_If(self, stmt: cst.If, st: State, is_elif: bool = False) -> State:
        self._loc = StmtLoc(stmt, not is_elif)
        self._truth(self._eval(stmt.test, st), st)
        then = self._exec_suite(stmt.body, st.copy())
        if stmt.orelse is None:
            other = st
        elif isinstance(stmt.orelse, cst.If):
            other = self._exec_If(stmt.orelse, st.copy(), is_elif=True)
        else:
            other = self._exec_suite(stmt.orelse.body, st.copy())
        return join_states([then, other])

    def _loop(self, head: State, run_body: object, stmt: cst.For | cst.While,
              test: cst.BaseExpression | None) -> State:
        breaks: list[State] = []
        last_ends: list[State] = []
        exit_state = head
        since = self._now
        for _ in range(MAX_LOOP_ROUNDS):
            cond = head.copy()
            if test is not None:
                self._loc = StmtLoc(stmt, False)
                self._truth(self._eval(test, cond), cond)
            exit_state = cond
            brk: list[State] = []
            cont: list[State] = []
            self.frame.loops.append((brk, cont))
            assert callable(run_body)
            end = run_body(cond.copy())
            self.frame.loops.pop()
            breaks.extend(brk)
            last_ends = [s for s in [end, *cont, *brk] if s.live]
            new_head = join_states([head, end, *cont])
            if new_head.same_shape(head, since):
                break
            head = new_head
        infinite = isinstance(test, cst.Name) and test.value == "True"
        normal = [] if infinite else [exit_state]
        if stmt.orelse is not None and normal:
            normal = [self._exec_suite(stmt.orelse.body, exit_state.copy())]
        out = join_states(normal + breaks)
        if last_ends and out.live:
            # Names bound in the body count as bound after it: code that syncs "the last
            # result of the loop" assumes the loop ran, and so does our inserted sync.
            bound = set.intersection(*(s.bound for s in last_ends))
            out.bound = out.bound | (bound & out.env.keys())
        return out

    def _exec_For(self, stmt: cst.For, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        it = self._eval(stmt.iter, st)
        elem = it if isinstance(it, JaxVal) else None

        def body(state: State) -> State:
            self._bind(stmt.target, elem, state)
            return self._exec_suite(stmt.body, state)

        return self._loop(st, body, stmt, None)

    def _exec_While(self, stmt: cst.While, st: State) -> State:
        return self._loop(st, lambda state: self._exec_suite(stmt.body, state), stmt, stmt.test)

    def _exec_Try(self, stmt: cst.Try | cst.TryStar, st: State) -> State:
        body_end = self._exec_suite(stmt.body, st.copy())
        # An exception can leave the body anywhere; its two ends bound what handlers see.
        start = join_states([st, body_end])
        ends = []
        for handler in stmt.handlers:
            h = start.copy()
            if handler.type is not None:
                self._eval(handler.type, h)
            if handler.name is not None:
                self._bind(handler.name.name, None, h)
            ends.append(self._exec_suite(handler.body, h))
        if stmt.orelse is not None:
            body_end = self._exec_suite(stmt.orelse.body, body_end)
        out = join_states([body_end, *ends])
        if stmt.finalbody is not None:
            if not out.live:
                self._exec_suite(stmt.finalbody.body, start.copy())
                return out
            out = self._exec_suite(stmt.finalbody.body, out)
        return out

    _exec_TryStar = _exec_Try

    def _exec_With(self, stmt: cst.With, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        for item in stmt.items:
            self._eval(item.item, st)
            if item.asname is not None:
                self._bind(item.asname.name, None, st)
        return self._exec_suite(stmt.body, st)

    def _exec_Match(self, stmt: cst.Match, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        self._eval(stmt.subject, st)
        ends = [st]
        for case in stmt.cases:
            c = st.copy()
            if case.guard is not None:
                self._truth(self._eval(case.guard, c), c)
            ends.append(self._exec_suite(case.body, c))
        return join_states(ends)

    def _exec_FunctionDef(self, stmt: cst.FunctionDef, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        closure = None
        if self.frame.func is not None:
            closure = (dict(st.env), *self.frame.closure)
        fn = Func(stmt, closure, self._klass)
        self._funcs.append(fn)
        value: Value = fn
        for deco in reversed(stmt.decorators):
            d = self._eval(deco.decorator, st)
            value = self._apply_decorator(d, value, stmt)
        self._bind(stmt.name, value, st)
        return st

    def _make_callable(self, origin: Site, jitted: bool) -> JaxCallable:
        self.frame.created.add(origin)
        return JaxCallable(jitted=jitted, origin=origin)

    def _apply_decorator(self, deco: Value, value: Value, stmt: cst.FunctionDef) -> Value:
        if isinstance(deco, Transform):
            return self._make_callable(stmt, deco.jit)
        if isinstance(deco, Ref):
            kind = self._classify(deco.name)
            if kind is CallKind.TRANSFORM:
                return self._make_callable(stmt, deco.name in names.JIT_TRANSFORMS)
            if deco.name in ("builtins.staticmethod", "builtins.classmethod", "builtins.property"):
                return value
            if kind is CallKind.UNKNOWN and names.is_jax_library(deco.name):
                return JaxCallable()
        if isinstance(deco, JaxCallable):
            return JaxCallable()
        return value

    def _exec_ClassDef(self, stmt: cst.ClassDef, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        klass = Klass(stmt)
        outer = self._klass
        self._klass = klass
        body_state = State(env={})
        body_state = self._exec_suite(stmt.body, body_state)
        self._klass = outer
        klass.members.update(body_state.env)
        self._bind(stmt.name, klass, st)
        # Learn the instance's attributes before any method is analysed at a call:
        # constructors first, then every other method.
        methods = [v for v in klass.members.values() if isinstance(v, Func)]
        methods.sort(key=lambda f: f.node.name.value not in ("__init__", "setup", "__post_init__")
                     if isinstance(f.node, cst.FunctionDef) else True)
        for fn in methods:
            self._call_function(fn, self._default_params(fn))
        return st

    # ------------------------------------------------------------------ expressions
    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise TooComplex(f"more than {self.max_steps:,} analysis steps")

    def _eval(self, node: cst.BaseExpression, st: State) -> Value:
        self._step()
        method = getattr(self, "_eval_" + type(node).__name__, None)
        if method is None:
            for child in node.children:
                if isinstance(child, cst.BaseExpression):
                    self._eval(child, st)
            return None
        result: Value = method(node, st)
        return result

    def _eval_Name(self, node: cst.Name, st: State) -> Value:
        found, value = self._lookup(node.value, st)
        if found:
            return value
        q = self._qualified(node)
        return self._external(q) if q else None

    def _eval_Attribute(self, node: cst.Attribute, st: State) -> Value:
        key = dotted(node)
        if key is not None:
            found, value = self._lookup(key, st)
            if found:
                return value
            base_name = _base_name(node)
            if base_name is not None and not self._lookup(base_name, st)[0]:
                q = self._qualified(node)
                if q:
                    return self._external(q)
        base = self._eval(node.value, st)
        return self._attribute_of(base, node.attr.value, node, st)

    def _attribute_of(self, base: Value, attr: str, node: cst.CSTNode, st: State) -> Value:
        if isinstance(base, JaxVal):
            if attr in names.WORK_ATTRIBUTES:
                return self._dispatch(node, [base], st)
            if attr in names.INERT_ATTRIBUTES:
                return None
            return base  # a field of a pytree (state.params) or ``.at``
        if isinstance(base, (Instance, Klass)):
            klass = base.klass if isinstance(base, Instance) else base
            return klass.members.get(attr)
        if isinstance(base, LibObject):
            return LibObject()
        if isinstance(base, Ref):
            return Ref(f"{base.name}.{attr}")
        return None

    def _eval_Call(self, node: cst.Call, st: State) -> Value:
        func = node.func
        if isinstance(func, cst.Attribute):
            key = dotted(func)
            found = key is not None and self._lookup(key, st)[0]
            base_name = _base_name(func)
            q = None
            if not found and base_name is not None and not self._lookup(base_name, st)[0]:
                q = self._qualified(func)
            if q is not None:
                return self._call_value(self._external(q), node, st)
            if found:
                assert key is not None
                return self._call_value(self._lookup(key, st)[1], node, st)
            base = self._eval(func.value, st)
            return self._call_method(base, func.attr.value, dotted(func.value), node, st)
        callee = self._eval(func, st)
        return self._call_value(callee, node, st)

    def _args(self, node: cst.Call, st: State) -> list[tuple[str | None, str, Value]]:
        out: list[tuple[str | None, str, Value]] = []
        for arg in node.args:
            value = self._eval(arg.value, st)
            kw = arg.keyword.value if arg.keyword is not None else None
            out.append((kw, arg.star, value))
        return out

    def _call_value(self, callee: Value, node: cst.Call, st: State) -> Value:
        if isinstance(callee, Ref):
            return self._call_ref(callee.name, node, st)
        args = self._args(node, st)
        values = [v for _, _, v in args]
        if isinstance(callee, JaxCallable):
            self._note_call(callee, node, st)
            result = self._dispatch(node, values, st)
            if callee.synced:
                self._sync(result, st)
            return result
        if isinstance(callee, Transform):
            return self._make_callable(node, callee.jit)
        if isinstance(callee, Func):
            return self._call_func(callee, node, args, None, st)
        if isinstance(callee, Klass):
            init = callee.members.get("__init__")
            if isinstance(init, Func):
                self._call_func(init, node, args, Instance(callee), st)
            return Instance(callee)
        if isinstance(callee, Instance):
            call = callee.klass.members.get("__call__")
            if isinstance(call, JaxCallable):
                return self._dispatch(node, values, st)
            if isinstance(call, Func):
                return self._call_func(call, node, args, callee, st)
            return None
        if isinstance(callee, LibObject):
            if any(isinstance(v, JaxVal) for v in values):
                return self._dispatch(node, values, st)
            return LibObject()
        if isinstance(callee, BenchmarkFixture):
            self._harness(node, node, args, st, fixture=True)
        return None

    def _call_ref(self, q: str, node: cst.Call, st: State) -> Value:
        kind = self._classify(q)
        if kind is CallKind.UNKNOWN and (st.reads or self._timing_harness):
            known = self._from_index(q)
            if known is not None:
                return self._call_value(known, node, st)
        if kind is CallKind.TIMER:
            self._args(node, st)
            return self._timer_read(node, st)
        args = self._args(node, st)
        values = [v for _, _, v in args]
        jax_args = [v for v in values if isinstance(v, JaxVal)]
        if kind is CallKind.HARNESS:
            self._harness(node, node, args, st)
            return None
        if kind is CallKind.HARNESS_TIMER:
            return HarnessTimer(node)
        if kind is CallKind.SYNC:
            self._sync(union_jax(jax_args), st, site=node)
            return union_jax(values)
        if kind is CallKind.TRANSFER:
            for v in jax_args:
                self._sync(v, st, transfer=True)
            return None
        if kind is CallKind.TREE_MAP:
            return self._tree_map(node, values, st)
        if kind is CallKind.TRANSFORM:
            return self._make_callable(node, q in names.JIT_TRANSFORMS)
        if kind is CallKind.PARTIAL:
            first = values[0] if values else None
            if isinstance(first, Ref) and self._classify(first.name) is CallKind.TRANSFORM:
                return Transform(jit=first.name in names.JIT_TRANSFORMS)
            return first
        if kind is CallKind.WORK:
            return self._dispatch(node, values, st)
        if kind is CallKind.HOST:
            for v in jax_args:
                self._sync(v, st, transfer=True)
            return None
        if kind is CallKind.NO_WORK:
            return None
        if q == "builtins.sum" and jax_args:
            return self._dispatch(node, values, st)
        if q in ("builtins.list", "builtins.tuple", "builtins.dict", "builtins.sorted",
                 "builtins.reversed"):
            return union_jax(values)
        if q in ("builtins.max", "builtins.min") and jax_args:
            for v in jax_args:
                self._sync(v, st, transfer=True)
            return None
        if names.is_jax_library(q):
            if jax_args:
                return self._dispatch(node, values, st)
            return LibObject()
        return None

    def _call_method(self, base: Value, attr: str, base_key: str | None, node: cst.Call,
                     st: State) -> Value:
        if isinstance(base, Ref):
            return self._call_ref(f"{base.name}.{attr}", node, st)
        args = self._args(node, st)
        values = [v for _, _, v in args]
        if isinstance(base, JaxVal):
            if attr == "block_until_ready":
                self._sync(base, st, site=node)
                return base
            if attr in names.TRANSFER_METHODS:
                self._sync(base, st, transfer=True)
                return None
            if attr in names.CONTAINER_MUTATORS:
                self._put(base_key, values, st)
                return None
            if attr in names.INERT_ATTRIBUTES:
                return None
            return self._dispatch(node, [base, *values], st)
        if attr in names.CONTAINER_MUTATORS and any(isinstance(v, JaxVal) for v in values):
            self._put(base_key, values, st)
            return None
        if isinstance(base, HarnessTimer) and attr in names.HARNESS_METHODS:
            self._harness(node, base.call, self._args(base.call, st), st)
            return None
        if isinstance(base, BenchmarkFixture) and attr == "pedantic":
            self._harness(node, node, args, st, fixture=True)
            return None
        if isinstance(base, (JaxCallable, Func)) and attr in ("lower", "trace"):
            return Lowered(base.origin if isinstance(base, JaxCallable) else None)
        if isinstance(base, Lowered):
            if attr != "compile":
                return None
            # Compiling ahead of time is the warm-up: later calls do not compile.
            if base.origin is not None:
                st.called = st.called | {base.origin}
            return JaxCallable()
        if isinstance(base, (JaxCallable, Func, Instance, LibObject)) and attr == "__call__":
            return self._call_value(base, node, st)
        if isinstance(base, Instance):
            member = base.klass.members.get(attr)
            if isinstance(member, Func):
                return self._call_func(member, node, args, base, st)
            if isinstance(member, JaxCallable):
                self._note_call(member, node, st)
                return self._dispatch(node, values, st)
            return None
        if isinstance(base, Klass):
            member = base.members.get(attr)
            if isinstance(member, Func):
                return self._call_func(member, node, args, None, st)
            if isinstance(member, JaxCallable):
                return self._dispatch(node, values, st)
            return None
        if isinstance(base, LibObject):
            if any(isinstance(v, JaxVal) for v in values) or attr in ("init", "apply"):
                return self._dispatch(node, values, st)
            return LibObject()
        if isinstance(base, str):
            return None
        if isinstance(base, (Ref,)) or base is None:
            # ``"{}".format(y)`` formats (copies) its JAX arguments
            if attr == "format" and isinstance(node.func, cst.Attribute) and _is_const_string(
                node.func.value
            ):
                for v in values:
                    self._sync(v, st, transfer=True)
        return None

    # ------------------------------------------------------------------ harnesses
    def _harness(self, report: cst.Call, source: cst.Call,
                 args: list[tuple[str | None, str, Value]], st: State,
                 fixture: bool = False) -> None:
        """Record a harness call and whether each timed run leaves JAX work unsynced."""
        positional = [(a.value, v) for a, (kw, star, v) in zip(source.args, args)
                      if kw is None and not star]
        keyword = {kw: (a.value, v) for a, (kw, _, v) in zip(source.args, args)
                   if kw is not None}
        stmt = keyword.get("target" if fixture else "stmt") or (
            positional[0] if positional else None)
        if stmt is None:
            return
        setup = keyword.get("setup") or (positional[1] if len(positional) > 1 and not fixture
                                         else None)
        if fixture:
            fn_args = [x for x in args[1:] if x[0] is None]
            if "args" in keyword:
                fn_args = [(None, "*", keyword["args"][1])]
        else:
            fn_args = []
        namespace = None
        given = keyword.get("globals", (None, None))[0]
        if isinstance(given, cst.Dict) and all(
            isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)
            for e in given.elements
        ):
            namespace = given
        unsynced = self._leaves_work(stmt[0], stmt[1], setup[0] if setup else None, fn_args,
                                     st, namespace)
        use = self.harnesses.get(report)
        if use is None:
            use = HarnessUse(report, stmt[0], setup[0] if setup else None,
                             "globals" in keyword or len(positional) > 4, fixture,
                             namespace=namespace)
            self.harnesses[report] = use
        use.unsynced = use.unsynced or unsynced

    def _leaves_work(self, node: cst.BaseExpression, value: Value,
                     setup: cst.BaseExpression | None,
                     fn_args: list[tuple[str | None, str, Value]], st: State,
                     namespace: cst.Dict | None = None) -> bool:
        """Whether running the timed callable or statement leaves JAX work pending."""
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            return self._statement_leaves_work(node, setup, st, namespace)
        if isinstance(value, Func):
            params = self._bind_params(value, fn_args, None)
            self._timing_harness += 1
            try:
                summary = self._call_function(value, params)
            finally:
                self._timing_harness -= 1
            return summary.work and not (summary.waits or summary.waits_by_transfer)
        if isinstance(value, JaxCallable):
            return not value.synced
        if isinstance(value, Ref):
            known = self._from_index(value.name)
            if known is not None:
                return self._leaves_work(node, known, setup, fn_args, st, namespace)
            return self._classify(value.name) is CallKind.WORK
        return False

    def _statement_leaves_work(self, node: cst.SimpleString | cst.ConcatenatedString,
                               setup: cst.BaseExpression | None, st: State,
                               namespace: cst.Dict | None = None) -> bool:
        # timeit runs the strings in the namespace of globals= or of the setup's imports
        # (usually ``from __main__ import ...``): the module's names, or the dict given.
        env = dict(self.globals) if self.frame.func is not None else dict(st.env)
        if namespace is not None:
            env = {}
            for el in namespace.elements:
                assert isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString)
                key = el.key.evaluated_value
                if isinstance(key, str):
                    env[key] = self._eval(el.value, st.copy())
                    self._note_key(key)
        scratch = State(env=env, bound=set(env))
        for code in (setup, node):
            text = code.evaluated_value if isinstance(
                code, (cst.SimpleString, cst.ConcatenatedString)) else None
            if not isinstance(text, str):
                continue
            try:
                parsed = cst.parse_module(textwrap.dedent(text))
            except Exception:  # not Python: timeit would fail too; nothing to judge
                return False
            saved = self._loc
            self._timing_harness += 1
            try:
                scratch = self._exec_block(parsed.body, scratch)
            finally:
                self._timing_harness -= 1
            self._loc = saved
        return bool(scratch.pending)

    def _note_call(self, callee: JaxCallable, node: Site, st: State) -> None:
        """A call of a jitted function compiles when it is the first on every path so far.

        Only functions made in the frame being analysed are judged: a function from
        elsewhere may have been called (warmed up) before this frame ran.
        """
        if not callee.jitted or callee.origin is None:
            return
        self.frame.jit_calls.add(callee.origin)
        self._first_call(callee.origin, node, st)

    def _first_call(self, origin: Site, node: Site, st: State) -> None:
        if origin in self.frame.created and origin not in st.called:
            self.frame.events.append((self._tick(), node, COMPILE))
        st.called = st.called | {origin}

    def _put(self, key: str | None, values: Sequence[Value], st: State) -> None:
        item = union_jax(values)
        if key is None or item is None:
            return
        old = st.env.get(key)
        new = replace(item, container=True)
        self._set(st, key, join_values(old, new) if isinstance(old, JaxVal) else new)

    def _tree_map(self, node: cst.Call, values: list[Value], st: State) -> Value:
        fn = values[0] if values else None
        trees = values[1:]
        effect = self._effect_on_args(fn, len(trees))
        if effect == "sync":
            self._sync(union_jax(trees), st, site=node)
            return union_jax(trees)
        if effect == "transfer":
            for v in trees:
                self._sync(v, st, transfer=True)
            return None
        if effect == "work" or any(isinstance(v, JaxVal) for v in trees):
            return self._dispatch(node, trees, st)
        return None

    def _effect_on_args(self, fn: Value, arity: int) -> str | None:
        """What a function does to JAX values passed to it: sync, transfer, work or nothing."""
        if isinstance(fn, Ref):
            kind = self._classify(fn.name)
            if kind is CallKind.SYNC:
                return "sync"
            if kind in (CallKind.TRANSFER, CallKind.HOST):
                return "transfer"
            if kind is CallKind.WORK:
                return "work"
            return None
        if isinstance(fn, JaxCallable):
            return "sync" if fn.synced else "work"
        if isinstance(fn, Func):
            params = self._positional_params(fn.node)
            summary = self._call_function(
                fn, {p: INPUT for p in params[: max(arity, 1)]}
            )
            if summary.waits:
                return "sync"
            if summary.waits_by_transfer:
                return "transfer"
            return "work" if summary.work else None
        return None

    # ------------------------------------------------------------------ calls of own functions
    @staticmethod
    def _positional_params(node: cst.FunctionDef | cst.Lambda) -> list[str]:
        p = node.params
        return [x.name.value for x in (*p.posonly_params, *p.params)]

    def _default_params(self, fn: Func) -> dict[str, Value]:
        params = self._positional_params(fn.node)
        out: dict[str, Value] = {
            name: BenchmarkFixture() for name in _all_params(fn.node) if name == "benchmark"
        }
        if fn.owner is not None and params and isinstance(fn.node, cst.FunctionDef):
            decos = {dotted(d.decorator) for d in fn.node.decorators}
            if "staticmethod" not in decos:
                out[params[0]] = fn.owner if "classmethod" in decos else Instance(fn.owner)
        return out

    def _call_func(self, fn: Func, node: cst.Call, args: list[tuple[str | None, str, Value]],
                   self_value: Value, st: State) -> Value:
        params = self._bind_params(fn, args, self_value)
        summary = self._call_function(fn, params)
        values = [v for _, _, v in args]
        for origin in summary.jit_calls:
            self.frame.jit_calls.add(origin)
            self._first_call(origin, node, st)
        if summary.waits or summary.waits_by_transfer:
            self._sync_all(st, transfer=not summary.waits)
            if summary.work:
                result = self._dispatch(node, values, st)
                self._sync(result, st, transfer=not summary.waits)
                return result
        elif summary.work:
            return self._dispatch(node, values, st)
        if isinstance(summary.result, JaxVal):
            return union_jax(values) or INPUT
        return summary.result

    def _bind_params(self, fn: Func, args: list[tuple[str | None, str, Value]],
                     self_value: Value) -> dict[str, Value]:
        p = fn.node.params
        positional = self._positional_params(fn.node)
        out: dict[str, Value] = {}
        if self_value is not None and positional:
            out[positional[0]] = self_value
            positional = positional[1:]
        elif fn.owner is not None and positional and self_value is None:
            defaults = self._default_params(fn)
            out.update(defaults)
            positional = [x for x in positional if x not in defaults]
        star_name = p.star_arg.name.value if isinstance(p.star_arg, cst.Param) else None
        kwargs_name = p.star_kwarg.name.value if p.star_kwarg is not None else None
        keyword_names = {x.name.value for x in (*p.params, *p.kwonly_params)}
        i = 0
        extra: list[Value] = []
        for kw, star, value in args:
            if kw is not None:
                if kw in keyword_names:
                    out[kw] = value
                elif kwargs_name:
                    out[kwargs_name] = join_values(out.get(kwargs_name), value)
            elif star == "*":
                # f(*args): whatever it holds may land in any remaining positional parameter
                for name in positional[i:]:
                    out[name] = value
                extra.append(value)
                i = len(positional)
            elif star == "**":
                if kwargs_name:
                    out[kwargs_name] = value
            elif i < len(positional):
                out[positional[i]] = value
                i += 1
            else:
                extra.append(value)
        if star_name is not None:
            out[star_name] = union_jax(extra) if any(isinstance(v, JaxVal) for v in extra) else (
                extra[0] if len(extra) == 1 and not isinstance(extra[0], JaxVal) else None
            )
        return out

    @staticmethod
    def _key_of(value: Value) -> object:
        if isinstance(value, JaxVal):
            return "jax"
        if isinstance(value, TimerRead):
            return None
        return value

    def _call_function(self, fn: Func, params: dict[str, Value]) -> Summary:
        if isinstance(fn.node, cst.FunctionDef) and self._is_generator(fn.node):
            return NOTHING
        # The memo key: the function and what each parameter holds (JAX values as one kind).
        key = (fn.node, tuple(sorted(((k, self._key_of(v)) for k, v in params.items()),
                                     key=lambda kv: kv[0])))
        if key in self._memo:
            return self._memo[key]
        if key in self._active or len(self._frames) > MAX_CALL_DEPTH:
            return NOTHING
        self._active.add(key)
        entry = fn.node
        frame = Frame(func=fn, entry=entry)
        # What the caller left running, as one pseudo-site: the function waits for it when
        # it syncs its arguments (or everything).
        entered = self._event(entry)
        st = State(pending={entry: entered})
        for name, value in params.items():
            self._set(st, name, JaxVal(entered) if isinstance(value, JaxVal) else value)
        for param in _params(fn.node):
            frame.binds.setdefault(param.name.value, set()).add(param.name)
            if param.name.value not in st.env:
                self._set(st, param.name.value, None)
        saved_loc = self._loc
        self._frames.append(frame)
        try:
            if isinstance(fn.node, cst.Lambda):
                value = self._eval(fn.node.body, st)
                frame.returns.append((st, value))
            else:
                end = self._exec_suite(fn.node.body, st)
                if end.live:
                    frame.returns.append((end, None))
        finally:
            self._frames.pop()
            self._loc = saved_loc
            self._active.discard(key)
        exits = [s for s, _ in frame.returns]
        self._harvest_attributes(fn, params, exits)
        waits = bool(exits) and all(entry not in s.pending and entry not in s.transferred
                                    for s in exits)
        by_transfer = bool(exits) and not waits and all(entry not in s.pending for s in exits)
        result: Value = None
        for _, v in frame.returns:
            result = join_values(result, v)
        summary = Summary(frame.did_work, waits, by_transfer, result,
                          frozenset(frame.jit_calls))
        self._memo[key] = summary
        return summary

    def _is_generator(self, node: cst.FunctionDef) -> bool:
        if not self._may_yield:
            return False
        found = self._generators.get(node)
        if found is None:
            # Generating the body's text is twice as fast as visiting it; visit (to leave
            # out nested functions) only a body that spells ``yield``.
            found = "yield" in self.module.code_for_node(node.body)
            if found:
                finder = _YieldFinder()
                node.body.visit(finder)
                found = finder.found
            self._generators[node] = found
        return found

    def exports(self) -> dict[str, Value]:
        """What other modules of the project may import from this one: its module-level
        jitted functions, and functions that do JAX work or wait for their arguments."""
        out: dict[str, Value] = {}
        for name, value in self.globals.items():
            if isinstance(value, JaxCallable):
                out[name] = JaxCallable(value.synced, value.jitted)
            elif isinstance(value, Func) and isinstance(value.node, cst.FunctionDef):
                self._frames = [Frame(func=None)]
                params: dict[str, Value] = {
                    p: INPUT for p in self._positional_params(value.node)}
                summary = self._call_function(value, params)
                if summary.work:
                    out[name] = JaxCallable(synced=summary.waits or summary.waits_by_transfer)
                elif summary.waits:
                    out[name] = Ref("jax.block_until_ready")
                elif summary.waits_by_transfer:
                    out[name] = Ref("jax.device_get")
        return out

    def _harvest_attributes(self, fn: Func, params: dict[str, Value], exits: list[State]) -> None:
        """Remember what a method stores on ``self`` (``self.fn = jax.jit(...)`` in
        ``__init__``) so other methods see it as an attribute of the instance."""
        if fn.owner is None or isinstance(fn.node, cst.Lambda):
            return
        positional = self._positional_params(fn.node)
        if not positional or not isinstance(params.get(positional[0]), Instance):
            return
        prefix = positional[0] + "."
        members = fn.owner.members
        for st in exits:
            for key, value in st.env.items():
                if not key.startswith(prefix) or "." in key[len(prefix):] or value is None:
                    continue
                attr = key[len(prefix):]
                if isinstance(value, JaxVal):
                    value = INPUT
                if attr not in members or not isinstance(members[attr], (Func, JaxCallable)):
                    members[attr] = join_values(members.get(attr), value)

    # remaining expression kinds
    def _eval_Lambda(self, node: cst.Lambda, st: State) -> Value:
        closure = (dict(st.env), *self.frame.closure) if self.frame.func is not None else None
        fn = Func(node, closure, None)
        return fn

    def _eval_BinaryOperation(self, node: cst.BinaryOperation, st: State) -> Value:
        left = self._eval(node.left, st)
        right = self._eval(node.right, st)
        if isinstance(node.operator, cst.Subtract) and isinstance(left, TimerRead) and isinstance(
            right, TimerRead
        ):
            for stop in left.sites:
                for start in right.sites:
                    self.pairs.add((stop, start))
            return None
        if isinstance(node.operator, cst.Modulo) and _is_const_string(node.left):
            self._sync(right, st, transfer=True)
            return None
        if isinstance(left, JaxVal) or isinstance(right, JaxVal):
            return self._dispatch(node, [left, right], st)
        return None

    def _eval_UnaryOperation(self, node: cst.UnaryOperation, st: State) -> Value:
        value = self._eval(node.expression, st)
        if isinstance(node.operator, cst.Not):
            self._truth(value, st)
            return None
        if isinstance(value, JaxVal):
            return self._dispatch(node, [value], st)
        return None

    @staticmethod
    def _become(st: State, merged: State) -> None:
        """Make ``st`` the join of paths that split inside one expression."""
        st.env, st.bound, st.pending = merged.env, merged.bound, merged.pending
        st.transferred, st.reads, st.live = merged.transferred, merged.reads, merged.live
        st.timers = merged.timers

    def _eval_BooleanOperation(self, node: cst.BooleanOperation, st: State) -> Value:
        left = self._eval(node.left, st)
        self._truth(left, st)
        # ``a and b`` evaluates ``b`` only on some paths: a sync inside it may not happen.
        other = st.copy()
        right = self._eval(node.right, other)
        self._become(st, join_states([st, other]))
        return join_values(left, right)

    def _eval_Comparison(self, node: cst.Comparison, st: State) -> Value:
        values = [self._eval(node.left, st)]
        array_op = False
        for target in node.comparisons:
            values.append(self._eval(target.comparator, st))
            if not isinstance(target.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)):
                array_op = True
        if array_op and any(isinstance(v, JaxVal) for v in values):
            return self._dispatch(node, values, st)
        return None

    def _eval_Subscript(self, node: cst.Subscript, st: State) -> Value:
        base = self._eval(node.value, st)
        keys = []
        for el in node.slice:
            sl = el.slice
            if isinstance(sl, cst.Index):
                keys.append(sl.value)
                self._eval(sl.value, st)
            elif isinstance(sl, cst.Slice):
                for part in (sl.lower, sl.upper, sl.step):
                    if part is not None:
                        self._eval(part, st)
        if not isinstance(base, JaxVal):
            return None
        if len(keys) == 1 and _is_const_string(keys[0]):
            return base  # a leaf of a dict pytree
        if base.container:
            # An element of a Python container. Waiting for the last one (``outs[-1]``) waits
            # for all; waiting for a fixed earlier one (``outs[0]``) not for those after it.
            if len(keys) == 1 and isinstance(keys[0], cst.Integer):
                return replace(base, uncovered=base.uncovered | base.origin)
            return base
        return self._dispatch(node, [base], st)

    def _elements(self, node: cst.Tuple | cst.List | cst.Set, st: State) -> Value:
        values = [self._eval(e.value, st) for e in node.elements]
        self._last_elements = values
        joined = union_jax(values)
        return replace(joined, container=True) if joined is not None else None

    _eval_Tuple = _elements
    _eval_List = _elements
    _eval_Set = _elements

    def _eval_Dict(self, node: cst.Dict, st: State) -> Value:
        values = []
        for el in node.elements:
            if isinstance(el, cst.DictElement):
                self._eval(el.key, st)
            values.append(self._eval(el.value, st))
        joined = union_jax(values)
        return replace(joined, container=True) if joined is not None else None

    def _eval_IfExp(self, node: cst.IfExp, st: State) -> Value:
        self._truth(self._eval(node.test, st), st)
        then, other = st.copy(), st.copy()
        value = join_values(self._eval(node.body, then), self._eval(node.orelse, other))
        self._become(st, join_states([then, other]))
        return value

    def _eval_FormattedString(self, node: cst.FormattedString, st: State) -> Value:
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                # Formatting a JAX value copies it to the host, which waits for it.
                self._sync(self._eval(part.expression, st), st, transfer=True)
                if part.format_spec:
                    for spec in part.format_spec:
                        if isinstance(spec, cst.FormattedStringExpression):
                            self._eval(spec.expression, st)
        return None

    def _eval_NamedExpr(self, node: cst.NamedExpr, st: State) -> Value:
        value = self._eval(node.value, st)
        self._bind(node.target, value, st)
        return value

    def _comprehension(self, node: cst.BaseComp, st: State) -> Value:
        saved = dict(st.env)
        bound = set(st.bound)
        comp: cst.CompFor | None = node.for_in
        while comp is not None:
            it = self._eval(comp.iter, st)
            self._bind(comp.target, it if isinstance(it, JaxVal) else None, st)
            for cond in comp.ifs:
                self._truth(self._eval(cond.test, st), st)
            comp = comp.inner_for_in
        if isinstance(node, cst.DictComp):
            self._eval(node.key, st)
            value = self._eval(node.value, st)
        else:
            assert isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp))
            value = self._eval(node.elt, st)
        targets = set(st.env) - set(saved)
        for k in targets:
            del st.env[k]
            st.timers.pop(k, None)
        for k, v in saved.items():
            if k in st.env and not isinstance(st.env[k], JaxVal):
                st.env[k] = v
        st.bound = bound
        if isinstance(value, JaxVal):
            return replace(value, container=True)
        return None

    _eval_ListComp = _comprehension
    _eval_SetComp = _comprehension
    _eval_GeneratorExp = _comprehension
    _eval_DictComp = _comprehension

    def _eval_Await(self, node: cst.Await, st: State) -> Value:
        return self._eval(node.expression, st)


def _first(entry: tuple[int, object]) -> int:
    return entry[0]


def _params(node: cst.FunctionDef | cst.Lambda) -> Iterator[cst.Param]:
    p = node.params
    yield from (*p.posonly_params, *p.params, *p.kwonly_params)
    if isinstance(p.star_arg, cst.Param):
        yield p.star_arg
    if p.star_kwarg is not None:
        yield p.star_kwarg


def _all_params(node: cst.FunctionDef | cst.Lambda) -> Iterator[str]:
    for param in _params(node):
        yield param.name.value


class _YieldFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found = False

    def visit_Yield(self, node: cst.Yield) -> bool:
        self.found = True
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


_BUILTINS = frozenset(dir(builtins))
