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

    ``covers``: sites that are finished once this value is ready (dispatched no later).
    ``origin``: the sites that produced this value.
    ``deps``: sites whose results this value was computed from (data flow).
    ``container``: a Python container the value was put in (``results.append(y)``).
    """

    covers: frozenset[Site] = EMPTY
    origin: frozenset[Site] = EMPTY
    deps: frozenset[Site] = EMPTY
    container: bool = False


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
        return JaxVal(
            a.covers | b.covers, a.origin | b.origin, a.deps | b.deps, a.container or b.container
        )
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


def union_jax(values: Iterable[Value]) -> JaxVal | None:
    """The pytree of all JAX values among ``values`` (a tuple, a list, call arguments)."""
    found = [v for v in values if isinstance(v, JaxVal)]
    if not found:
        return None
    covers = frozenset().union(*(v.covers for v in found))
    origin = frozenset().union(*(v.origin for v in found))
    deps = frozenset().union(*(v.deps for v in found))
    return JaxVal(covers, origin, deps)


@dataclass
class State:
    """What is known at one program point, on all paths that reach it.

    ``env``: what local names (and ``a.b`` attribute paths) hold.
    ``bound``: names bound on every path (safe to name in an inserted sync).
    ``pending``: work not yet waited for -> the timer reads made before it was dispatched.
    ``transferred``: work waited for only by a host transfer -> the same timer reads.
    ``reads``: timer calls executed so far.
    ``called``: jitted functions (by origin) called or compiled on every path so far.
    ``compiles``: first calls of jitted functions (call sites) -> timer reads before them.
    ``idle_syncs``: syncs that waited for no pending work -> timer reads before them.
    """

    env: dict[str, Value] = field(default_factory=dict)
    bound: set[str] = field(default_factory=set)  # grown in place: copy() copies it
    pending: dict[Site, frozenset[Site]] = field(default_factory=dict)
    transferred: dict[Site, frozenset[Site]] = field(default_factory=dict)
    reads: frozenset[Site] = EMPTY
    called: frozenset[Site] = EMPTY
    compiles: dict[Site, frozenset[Site]] = field(default_factory=dict)
    idle_syncs: dict[Site, frozenset[Site]] = field(default_factory=dict)
    live: bool = True

    def copy(self) -> State:
        return replace(self, env=dict(self.env), bound=set(self.bound), pending=dict(self.pending),
                       transferred=dict(self.transferred), compiles=dict(self.compiles),
                       idle_syncs=dict(self.idle_syncs))

    def tagged(self) -> tuple[dict[Site, frozenset[Site]], ...]:
        """The tables whose entries carry the timer reads made before them."""
        return self.pending, self.transferred, self.compiles, self.idle_syncs

    def same_as(self, other: State) -> bool:
        return (
            self.live == other.live
            and self.env == other.env
            and self.bound == other.bound
            and self.pending == other.pending
            and self.transferred == other.transferred
            and self.reads == other.reads
            and self.called == other.called
            and self.compiles == other.compiles
            and self.idle_syncs == other.idle_syncs
        )


def _merge_tags(a: dict[Site, frozenset[Site]], b: dict[Site, frozenset[Site]]) -> None:
    for site, tags in b.items():
        a[site] = a.get(site, EMPTY) | tags


def join_states(states: Iterable[State]) -> State:
    live = [s for s in states if s.live]
    if not live:
        return State(live=False)
    out = live[0].copy()
    for other in live[1:]:
        for name, value in other.env.items():
            out.env[name] = join_values(out.env.get(name), value) if name in out.env else value
        out.bound &= other.bound
        for mine, theirs in zip(out.tagged(), other.tagged()):
            _merge_tags(mine, theirs)
        out.reads |= other.reads
        out.called &= other.called
    return out
