"""The abstract values and program state the flow analysis computes with.

A *site* is the CST node of one operation (a call, a binary operation, ...). Work is tracked
per site, not per execution: a loop body's call is one site however often it runs. The model
of the device is JAX's: work runs in dispatch order, so once a value is ready, every site
dispatched before it has finished too. That is why blocking only on the last result of a loop
is a correct sync.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace

import libcst as cst

Site = cst.CSTNode
Sites = frozenset  # of Site

EMPTY: frozenset[Site] = frozenset()


@dataclass(frozen=True)
class JaxVal:
    """A (pytree of) JAX array(s), maybe not yet computed.

    ``tick``: when it was dispatched, on the analysis' clock (see ``State``). Work runs in
    dispatch order, so once this value is ready every pending site dispatched at or before
    ``tick`` is finished too, except the sites in ``uncovered``.
    ``origin``: the sites that produced this value.
    ``deps``: sites whose results this value was computed from (data flow).
    ``container``: a Python container the value was put in (``results.append(y)``).
    ``uncovered``: sites of ``origin`` not finished when this value is (``outs[0]`` of a list
    filled in a loop does not wait for the later elements).
    """

    tick: int = -1
    origin: frozenset[Site] = EMPTY
    deps: frozenset[Site] = EMPTY
    container: bool = False
    uncovered: frozenset[Site] = EMPTY

    def covers(self, site: Site, tick: int) -> bool:
        """Whether waiting for this value waits for ``site``, last dispatched at ``tick``."""
        return tick <= self.tick and site not in self.uncovered


INPUT = JaxVal()  # a JAX value made outside the code being analysed; nothing pending on it


@dataclass(frozen=True)
class TimerRead:
    """A clock reading, and the timer calls that may have made it."""

    sites: frozenset[Site]


@dataclass(frozen=True)
class JaxCallable:
    """A function whose calls dispatch JAX work (``jax.jit(f)``, ``compiled``).

    ``synced`` is true when a call also waits for its own result. ``jitted`` callables
    compile on their first call; ``origin`` is the node that made the function object
    (``jax.jit(...)`` or the decorated ``def``), which identifies it across names.
    """

    synced: bool = False
    jitted: bool = False
    origin: cst.CSTNode | None = None


@dataclass(frozen=True)
class Ref:
    """A function or object from outside the file, by qualified name (``jax.numpy.dot``)."""

    name: str


@dataclass(frozen=True)
class HarnessTimer:
    """A ``timeit.Timer(stmt, ...)``: its ``timeit``/``repeat``/``autorange`` time ``stmt``."""

    call: cst.Call


@dataclass(frozen=True)
class BenchmarkFixture:
    """pytest-benchmark's ``benchmark`` fixture: ``benchmark(fn, *args)`` times ``fn``."""


@dataclass(frozen=True)
class LibObject:
    """An object made by a JAX library (``optax.adam(...)``, ``nnx.Linear(...)``): its methods
    and calls compute on the JAX values they are given."""


@dataclass(frozen=True)
class Transform:
    """``jax.jit``, ``partial(jax.jit, ...)``: applied to a function it gives a JaxCallable."""

    jit: bool = False


@dataclass(frozen=True)
class Lowered:
    """``jitted.lower(x)``: compiling it is synchronous; its ``.compile()`` is a JaxCallable."""

    origin: cst.CSTNode | None = None


@dataclass(frozen=True, eq=False)
class Func:
    """A function or lambda defined in the file, analysed at its calls.

    ``closure`` holds the enclosing function's bindings at definition time (None at module
    level, where free names are the module's globals).
    """

    node: cst.FunctionDef | cst.Lambda
    closure: tuple[dict[str, Value], ...] | None = None
    owner: Klass | None = None


@dataclass(frozen=True, eq=False)
class Klass:
    node: cst.ClassDef
    members: dict[str, Value] = field(default_factory=dict)


@dataclass(frozen=True)
class Instance:
    klass: Klass


Value = (
    JaxVal
    | TimerRead
    | JaxCallable
    | Transform
    | Lowered
    | Func
    | Klass
    | Instance
    | Ref
    | LibObject
    | HarnessTimer
    | BenchmarkFixture
    | None
)

_PRIORITY = (
    JaxVal, TimerRead, JaxCallable, Func, Instance, Klass, Transform, Lowered, LibObject, Ref
)


def join_values(a: Value, b: Value) -> Value:
    """What a name may hold after two paths meet: the union of what each path knows."""
    if a is b or a == b:
        return a
    if isinstance(a, JaxVal) and isinstance(b, JaxVal):
        return join_jax(a, b)
    if isinstance(a, TimerRead) and isinstance(b, TimerRead):
        return TimerRead(a.sites | b.sites)
    if a is None:
        return b
    if b is None:
        return a
    for kind in _PRIORITY:
        if isinstance(a, kind):
            return a
        if isinstance(b, kind):
            return b
    return a


def _still_uncovered(a: JaxVal, b: JaxVal) -> frozenset[Site]:
    """``a``'s uncovered sites that waiting for ``b`` does not finish either. ``b`` finishes
    a site of ``a.origin`` (dispatched by ``a.tick``) for sure only when ``b.tick >= a.tick``."""
    if not a.uncovered:
        return EMPTY
    return frozenset(u for u in a.uncovered if u in b.uncovered or b.tick < a.tick)


def join_jax(a: JaxVal, b: JaxVal) -> JaxVal:
    """A value that is ``a`` on some paths and ``b`` on others, or a pytree of both: waiting
    for it waits for what either one covers."""
    return JaxVal(max(a.tick, b.tick), a.origin | b.origin, a.deps | b.deps,
                  a.container or b.container, _still_uncovered(a, b) | _still_uncovered(b, a))


def union_jax(values: Iterable[Value]) -> JaxVal | None:
    """The pytree of all JAX values among ``values`` (a tuple, a list, call arguments)."""
    out: JaxVal | None = None
    for v in values:
        if isinstance(v, JaxVal):
            out = v if out is None else join_jax(out, v)
    if out is None:
        return None
    return replace(out, container=False) if out.container else out


Ticks = dict  # of Site -> int: the tick of a site's latest dispatch (or event)


@dataclass
class State:
    """What is known at one program point, on all paths that reach it.

    Time is the analysis' own clock: every dispatch, timer read and other event gets the next
    *tick*, a number that only grows. Work runs in dispatch order, so "which work is still
    running, dispatched after which timer read" needs no sets of earlier reads per site: a
    site is inside a region when its tick is greater than the start read's tick.

    ``env``: what local names (and ``a.b`` attribute paths) hold.
    ``bound``: names bound on every path (safe to name in an inserted sync).
    ``pending``: work not yet waited for -> the tick of its latest dispatch.
    ``transferred``: work waited for only by a host transfer -> the same tick.
    ``reads``: timer calls executed so far -> the tick of the latest execution.
    ``timers``: names holding a timer reading -> the timer calls that may have made it.
    ``called``: jitted functions (by origin) called or compiled on every path so far.

    Events that a region contains but that are not state (a first, compiling call; a sync
    that waited for nothing) are kept in the frame's ``events``, in order, not here.

    Paths join by taking, for each entry, the latest tick: the union of what each path
    leaves running, as seen by a read made after both.
    """

    env: dict[str, Value] = field(default_factory=dict)
    bound: set[str] = field(default_factory=set)  # grown in place: copy() copies it
    pending: Ticks[Site, int] = field(default_factory=dict)
    transferred: Ticks[Site, int] = field(default_factory=dict)
    reads: Ticks[Site, int] = field(default_factory=dict)
    timers: dict[str, frozenset[Site]] = field(default_factory=dict)
    called: frozenset[Site] = EMPTY
    live: bool = True

    def copy(self) -> State:
        return replace(self, env=dict(self.env), bound=set(self.bound), pending=dict(self.pending),
                       transferred=dict(self.transferred), reads=dict(self.reads),
                       timers=dict(self.timers))

    def tagged(self) -> tuple[Ticks[Site, int], ...]:
        """The tables whose entries a region can contain (by their ticks)."""
        return self.pending, self.transferred

    def same_shape(self, other: State, since: int) -> bool:
        """Whether two rounds of a loop that began at tick ``since`` left the same state:
        the same values, and the ticks made in the loop in the same order (their numbers
        grow every round). Entries older than the loop are the same objects in both, so
        only what the loop made is ordered: the cost is the loop's, not the file's."""
        if (self.live != other.live or self.env.keys() != other.env.keys()
                or self.bound != other.bound or self.timers != other.timers
                or self.called != other.called):
            return False
        pairs: list[tuple[int, int]] = []
        for key, mine in self.env.items():
            theirs = other.env[key]
            if mine is theirs:
                if isinstance(mine, JaxVal) and mine.tick > since:
                    pairs.append((mine.tick, mine.tick))
                continue
            if isinstance(mine, JaxVal) and isinstance(theirs, JaxVal):
                if replace(mine, tick=0) != replace(theirs, tick=0):
                    return False
                pairs.append((mine.tick, theirs.tick))
            elif mine != theirs:
                return False
        for mine_t, theirs_t in ((self.pending, other.pending),
                                 (self.transferred, other.transferred),
                                 (self.reads, other.reads)):
            if mine_t.keys() != theirs_t.keys():
                return False
            for site, tick in mine_t.items():
                if tick > since or theirs_t[site] > since:
                    pairs.append((tick, theirs_t[site]))
                elif tick != theirs_t[site]:
                    return False
        pairs.sort()
        for (a1, b1), (a2, b2) in zip(pairs, pairs[1:]):
            if (a1 == a2) != (b1 == b2) or b2 < b1:
                return False
        return all((a > since) == (b > since) for a, b in pairs)


_MISSING = object()


def _merge_ticks(a: Ticks[Site, int], b: Ticks[Site, int]) -> None:
    for site, tick in b.items():
        old = a.get(site)
        if old is None or tick > old:
            a[site] = tick


def join_states(states: Iterable[State]) -> State:
    live = [s for s in states if s.live]
    if not live:
        return State(live=False)
    out = live[0].copy()
    for other in live[1:]:
        env = out.env
        for name, value in other.env.items():
            mine = env.get(name, _MISSING)
            if mine is not value:
                env[name] = value if mine is _MISSING else join_values(mine, value)
        out.bound &= other.bound
        for mine, theirs in zip(out.tagged(), other.tagged()):
            _merge_ticks(mine, theirs)
        _merge_ticks(out.reads, other.reads)
        for name, sites in other.timers.items():
            out.timers[name] = out.timers.get(name, EMPTY) | sites
        out.called &= other.called
    return out
