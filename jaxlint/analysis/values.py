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
from typing import Any

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
    # what an unknown function gave back for JAX values: probably a JAX value made by then
    # (waiting for it waits for all work before it), but operations on it are not known to
    # be device work (it may be a NumPy array or a number)
    opaque: bool = False
    # an object of a class that is no registered pytree (a plain ``@dataclass``) holding JAX
    # values: ``jax.block_until_ready(obj)`` sees one leaf that is no array and waits for
    # nothing; its fields (``obj.logits``) are the JAX values
    record: bool = False
    # one device's part of a value spread over devices: ``per_device`` is a pmapped
    # function's result (its leading axis is the devices), ``shards`` a list of an array's
    # shards (``y.addressable_shards``), ``listed`` one of those (``...[0].data``), ``one``
    # one device's part otherwise (``out[0]``, ``y.addressable_data(0)``): waiting for
    # ``one`` or ``listed`` waits for the device that holds it, not for the others (JAX107
    # ``one_shard``). Operations on ``shards`` and ``listed`` are not followed.
    shard: str = ""
    # what the array is, as jit's cache sees it, when known from the code that made it
    # (``jnp.ones((64, 512))``: "(64, 512):float32"); several for a loop over literal
    # shapes; empty: not known (see ``avals.py``)
    aval: tuple[str, ...] = ()
    # the list of the leaves of one call's outputs (``tree_flatten(out)[0]``): all outputs
    # of one call are ready together, so each leaf waits for the call, unlike an element of
    # a list filled round by round
    leaves: bool = False
    # the avals of a tuple's elements, in order, when it was spelt out (``return x, key``
    # of a helper): unpacking it (``x, _ = batch(key, 128)``) gives each target its own
    parts: tuple[tuple[str, ...], ...] = ()

    def covers(self, site: Site, tick: int) -> bool:
        """Whether waiting for this value waits for ``site``, last dispatched at ``tick``."""
        return tick <= self.tick and site not in self.uncovered


INPUT = JaxVal()  # a JAX value made outside the code being analysed; nothing pending on it


@dataclass(frozen=True)
class TimerRead:
    """A clock reading, and the timer calls that may have made it. ``shifted``: a reading
    plus a constant (``deadline = time.time() + 60``), a point in time to wait for rather
    than the start of a region."""

    sites: frozenset[Site]
    shifted: bool = False


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
    # static arguments, each as (position, name) as far as known: a call with a new value
    # of one compiles again (``static_argnums``/``static_argnames``)
    static: tuple[tuple[int | None, str | None], ...] = ()
    # another module's function whose only work is operations on what it is given: called
    # with no JAX values (a PyTorch tensor, a NumPy array), it dispatches no JAX work
    needs_jax_args: bool = False
    # made by ``jax.pmap`` (or another pmap) of a function that returns one array: a call's
    # result is spread over the devices along its leading axis (``JaxVal.shard``)
    pmapped: bool = False
    # another module's function that waits for its work (``synced``) and returns no JAX
    # value (host numbers, a list of token ids, nothing): what it returns is not an array,
    # and arithmetic on it is no device work. So is a method of another module's class that
    # waits: its summary sees fields set from constructor arguments it does not know, and
    # takes what it returns (``outputs, num_tokens`` of an engine's ``step()``) for arrays
    # far more often than they are (README, "What another module's function gives back")
    host_result: bool = False
    # ``functools.partial`` of it with arguments bound: a call passes the function more than
    # it spells, so its arguments are not compared with other calls' (``avals.py``)
    bound_args: bool = False
    # a method of another module's class (``Engine.submit``): with ``needs_jax_args``, a
    # call given no JAX value does no JAX work even in a JAX module (a replay buffer's
    # ``add(obs, action, reward)`` of what the environment gave, stored in NumPy arrays)
    method: bool = False
    # a function of another module that imports no JAX (a NumPy helper): likewise, given
    # no JAX value it does no JAX work in any module
    host_module: bool = False
    # (``synced``) waits for its work only by copying it to the host (``np.asarray`` of
    # what it computed): the caller's work is finished, through a host transfer
    by_transfer: bool = False


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
class TimedBlock:
    """What a ``@contextmanager`` timer gives: ``with timed():`` reads a clock on entry and
    subtracts it from a reading on exit, so the ``with`` body is a timed region."""


@dataclass(frozen=True)
class TimerFactory:
    """What another module of the project exports for a timer used in ``with``: a class
    whose ``__enter__`` reads the clock and whose ``__exit__`` subtracts it, or a
    ``@contextmanager`` timer. Calling it gives a ``TimedBlock``."""


@dataclass(frozen=True)
class ElapsedFn:
    """What another module of the project exports for a clock helper that reads the clock
    and subtracts the reading it is given (``def elapsed(t0): return now() - t0``): its
    call is a stop read, paired with the reading passed in."""


@dataclass(frozen=True)
class JitFactory:
    """What another module of the project exports for a function that returns a jitted
    function made anew on each call (``make_step()`` returning ``jax.jit(step)``): in the
    importing file each call gives a fresh function, which compiles on its first call."""

    static: tuple[tuple[int | None, str | None], ...] = ()


@dataclass(frozen=True)
class StartStopTimer:
    """What another module of the project exports for a class whose methods start and stop
    a clock (``timer.start(label)`` keeps a reading on the object, ``timer.stop(label)``
    subtracts it: scico's ``Timer``), and what its instances are: a call of a ``starts``
    method is a start read, of a ``stops`` method a stop read paired with the object's
    starts."""

    starts: frozenset[str] = frozenset()
    stops: frozenset[str] = frozenset()
    # stop methods that wait for the JAX values they are given (``sw.stop(result)`` calls
    # ``jax.block_until_ready(result)``), and those that copy them to the host
    waiting: frozenset[str] = frozenset()
    copying: frozenset[str] = frozenset()


@dataclass(frozen=True)
class TimerObject:
    """What another module of the project exports for a module-level object whose methods
    are timers used in ``with`` (big_vision's ``chrono = Chrono()`` and its
    ``@contextmanager def log_timing(self, name)``): ``methods`` are those methods' names."""

    methods: frozenset[str] = frozenset()


@dataclass(frozen=True)
class LibObject:
    """An object made by a JAX library (``optax.adam(...)``, ``nnx.Linear(...)``): its methods
    and calls compute on the JAX values they are given. ``name``: what made it, when known
    (``numpyro.infer.MCMC``)."""

    name: str = ""
    # the JAX values its constructor was given (a project class's ``InputData(tokens)``):
    # its fields hold them, and waiting for it waits for them
    holds: JaxVal | None = None


@dataclass(frozen=True)
class HostValue:
    """A value a host library made (a NumPy array, an h5py file or dataset, a pandas frame,
    a PyTorch tensor): storing a JAX value into it (``out[i] = f(x)``) or giving one to its
    methods (``h5.create_dataset(data=y)``) copies the JAX value to the host, which waits
    for it. ``name``: what made it, when known (``numpy.zeros``)."""

    name: str = ""


@dataclass(frozen=True)
class Transform:
    """``jax.jit``, ``partial(jax.jit, ...)``: applied to a function it gives a JaxCallable."""

    jit: bool = False
    static_nums: tuple[int, ...] = ()
    static_names: tuple[str, ...] = ()
    pmap: bool = False  # ``partial(jax.pmap, axis_name=...)``


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


class Kinds(tuple[tuple[str, type], ...]):
    """A tuple that hashes once: a memo key holding it is hashed at every lookup, and
    hashing N pairs at each of N calls was the quadratic part of a class of N methods.
    Equality stays the tuple's (a dict or set compares by identity first, so the kept
    object costs O(1) on a hit)."""

    _hash: int

    def __hash__(self) -> int:
        try:
            return self._hash
        except AttributeError:
            self._hash = tuple.__hash__(self)
            return self._hash


class Members(dict[str, "Value"]):
    """A class's members (methods, class attributes, what instances were seen to store).

    ``kinds()``: each member's name and the type of what it holds, which the memo of method
    calls keys an instance by (a method analysed before a constructor stored attributes is
    analysed again after). Kept until a member changes kind, and hashed once: building or
    hashing it at every call of a method cost a class of N methods calling each other N**2."""

    __slots__ = ("_kinds",)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._kinds: Kinds | None = None

    def kinds(self) -> Kinds:
        if self._kinds is None:
            self._kinds = Kinds((k, type(v)) for k, v in self.items())
        return self._kinds

    def __setitem__(self, key: str, value: Value) -> None:
        if key not in self or type(self[key]) is not type(value):
            self._kinds = None
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self._kinds = None
        super().__delitem__(key)

    def update(self, *args: Any, **kwargs: Any) -> None:
        for key, value in dict(*args, **kwargs).items():
            self[key] = value

    def setdefault(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        if key not in self:
            self[key] = default
        return self[key]

    def pop(self, *args: Any) -> Any:
        self._kinds = None
        return super().pop(*args)

    def popitem(self) -> tuple[str, Value]:
        self._kinds = None
        return super().popitem()

    def clear(self) -> None:
        self._kinds = None
        super().clear()

    def __ior__(self, other: Any) -> Members:  # type: ignore[override,misc]
        self.update(other)
        return self


@dataclass(frozen=True, eq=False)
class Klass:
    """A class of the file. ``library``: the JAX library class it derives from (``flax.linen.
    Module``, ``equinox.Module``), whose methods it inherits (``model.apply``), if any."""

    node: cst.ClassDef
    members: Members = field(default_factory=Members)
    library: str | None = None


@dataclass(frozen=True)
class Instance:
    klass: Klass
    # for a class registered as a pytree that has its own ``__init__``: the JAX values its
    # constructor was given and made (its leaves, as far as the analysis knows), so that
    # waiting for the object waits for them. Not part of its identity: a join of two
    # instances of one class keeps either's.
    holds: JaxVal | None = field(default=None, compare=False)


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
    | TimedBlock
    | TimerFactory
    | ElapsedFn
    | TimerObject
    | JitFactory
    | StartStopTimer
    | HostValue
    | None
)

_PRIORITY = (
    JaxVal, TimerRead, JaxCallable, Func, Instance, Klass, Transform, Lowered, LibObject, Ref,
    HostValue,
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
                  a.container or b.container, _still_uncovered(a, b) | _still_uncovered(b, a),
                  a.opaque and b.opaque, a.record and b.record,
                  a.shard if a.shard == b.shard else "", a.aval if a.aval == b.aval else (),
                  parts=a.parts if a.parts == b.parts else ())


def union_jax(values: Iterable[Value]) -> JaxVal | None:
    """The pytree of all JAX values among ``values`` (a tuple, a list, call arguments).

    The same value as ``join_jax`` folded over them from the left, in one pass: folding
    rebuilds the growing ``origin`` and ``deps`` sets at each element, which made a dict
    literal of N JAX values cost N**2 (``test_checkout_attacks``)."""
    jax = [v for v in values if isinstance(v, JaxVal)]
    if len(jax) <= 1:  # (the value itself, not a copy)
        return None if not jax else replace(jax[0], container=False) if (
            jax[0].container) else jax[0]
    first = jax[0]
    tick, uncovered = first.tick, first.uncovered
    for v in jax[1:]:
        if uncovered or v.uncovered:  # (rare: elements of a list filled in a loop)
            uncovered = frozenset(
                [u for u in uncovered if u in v.uncovered or v.tick < tick]
                + [u for u in v.uncovered if u in uncovered or tick < v.tick])
        tick = max(tick, v.tick)
    shards, avals = {v.shard for v in jax}, {v.aval for v in jax}
    return JaxVal(tick, frozenset().union(*(v.origin for v in jax)),
                  frozenset().union(*(v.deps for v in jax)), False, uncovered,
                  all(v.opaque for v in jax), all(v.record for v in jax),
                  first.shard if len(shards) == 1 else "",
                  first.aval if len(avals) == 1 else ())


# Values that a Python container can hold and that matter when taken out and called.
CALLABLES = (JaxCallable, Func, Instance, Klass, LibObject, Transform)


def union_elements(values: Iterable[Value]) -> Value:
    """What a container literal (or ``list(...)``, ``zip(...)``) holds, as one value.

    JAX values make it a pytree of them (a container). Otherwise, functions and objects it
    holds are joined into one: ``steps["adam"](x)`` or ``for name, fn in pairs: fn(x)`` calls
    one of them, and which one is not known, so each behaves like their join."""
    values = list(values)
    joined = union_jax(values)
    if joined is not None:
        return replace(joined, container=True)
    out: Value = None
    for v in values:
        if isinstance(v, CALLABLES):
            out = join_values(out, v)
    return out
