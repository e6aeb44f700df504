"""Calls: of JAX APIs by qualified name, of jitted functions, and of the file's own
functions, which are interpreted at each call with what the call passes in.

A call of one of the file's functions is summarised (``Summary``: does it dispatch work,
wait for it, return a JAX value, call jitted functions) and memoised by the function and the
kinds of its arguments. A jitted function's first call on every path compiles (JAX105).
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis import avals, names
from jaxlint.analysis.names import CallKind
from jaxlint.analysis.state import State, join_states
from jaxlint.analysis.syntax import (
    YieldFinder,
    all_params,
    annotated_fields,
    base_name,
    children,
    dotted,
    generator_verdicts,
    is_const_string,
    literal_text,
    literal_truth,
    params_of,
    static_spec,
    walk,
)
from jaxlint.analysis.timers import CLEARS, COMPILE, Event, bookkeeping
from jaxlint.analysis.values import (
    CALLABLES,
    INPUT,
    BenchmarkFixture,
    ElapsedFn,
    Func,
    HarnessTimer,
    HostValue,
    Instance,
    JaxCallable,
    JaxVal,
    JitFactory,
    Klass,
    LibObject,
    Lowered,
    Ref,
    Site,
    StartStopTimer,
    TimedBlock,
    TimerFactory,
    TimerRead,
    Transform,
    Value,
    join_values,
    union_elements,
    union_jax,
)

MAX_CALL_DEPTH = 12
# Summaries of one function kept apart by the integers its calls give it (``batch(key, 128)``
# and ``batch(key, 4096)``): past this many, further calls share the summary without them,
# so that N calls with N integers of a long function cost N lookups, not N analyses.
MAX_INT_VARIANTS = 8
# Literals of Python containers: no ``block_until_ready`` method (``jax.block_until_ready``
# takes them as pytrees)
CONTAINER_LITERALS = (cst.Tuple, cst.List, cst.Dict, cst.Set, cst.ListComp, cst.DictComp,
                      cst.SetComp)

# In ``State.called``: the compile caches were cleared (``jax.clear_caches()``) on every path
# so far, so every jitted function compiles on its next call, wherever it was made.
CLEARED: cst.CSTNode = cst.Name("clear_caches")
# In ``State.called``: a function made anew on this path was called (``Frame.fresh_jit``):
# a function compiles on every call only when every path through it does so.
FRESH: cst.CSTNode = cst.Name("fresh_jit")

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis


@dataclass(frozen=True)
class Summary:
    """What calling a file's own function does, for one way of calling it."""

    work: bool = False  # dispatches JAX work
    waits: bool = False  # waits (with a real sync) for all work dispatched before it returns
    waits_by_transfer: bool = False  # waits, but only through a host transfer
    result: Value = None
    jit_calls: frozenset[Site] = frozenset()  # jitted functions (by origin) it calls
    reads: frozenset[Site] = frozenset()  # timer reads it makes (its own and its callees')
    pairs: frozenset[tuple[Site, Site]] = frozenset()  # (stop, start) pairs it makes
    generator: bool = False  # a generator function: calling it runs nothing yet
    made: frozenset[Site] = frozenset()  # jitted functions (by origin) made by each call
    # compiles on every call: eager lax control flow over a function it makes anew
    recompiles: bool = False
    # how its first such call compiles: "retrace" (eager lax control flow) or "fresh_jit"
    recompile_kind: str = ""
    # makes a jitted function anew (of a function made anew: a lambda, a partial, a nested
    # ``def``) and calls it, on every call: each call compiles it again
    fresh_jit: bool = False
    # it (or a function it calls) handed JAX values to a function or object not known here,
    # or was cut off (recursion, depth): what it leaves running is a guess
    unknown: bool = False
    waits_args: bool = False  # waits (with a real sync) for its JAX arguments only
    # names it reads from outside, not given, whose values it waited for on every path
    # (``State.outer``): ``def finish(): y.block_until_ready()`` beside ``y``, in the
    # enclosing function or at module level
    outer_syncs: frozenset[str] = frozenset()
    args_by_transfer: bool = False  # waits for its JAX arguments, through a host transfer
    # its own work (dispatched in the call) may still run when it returns; or, if not,
    # was waited for only through a host transfer. A helper that finishes its own work
    # (``np.array(state["tokens"])`` each step) but not the caller's is not new work.
    leaves_work: bool = True
    own_by_transfer: bool = False
    # of the work it leaves running, some is a call of JAX (a jitted function, a JAX API, a
    # library, a helper that does), not only operations on values (``x[0] * 2``), which on
    # what a caller gives may well be host arrays
    leaves_calls: bool = True
    # of the work it leaves running, all only fills or rearranges buffers (``fill_sites``):
    # its call is such work to the caller as well
    leaves_fill: bool = False
    # of the work it leaves running, all is operators (no matrix product) and elementwise
    # functions of jax.numpy (``jnp.cos``, ``jnp.where``; ``_scalar_work``), no jitted
    # function, constructor, reduction or factorisation: called with host numbers only
    # (``lr = schedule(step)``), it computes a few scalars
    leaves_ops_only: bool = False
    # a method's: the attributes it stores on ``self`` with JAX values its own work made
    # (``self.params = sgd(self.params, g)``), which its caller's object holds after the
    # call (``trainer.step(g)``, then ``trainer.params``)
    stores: frozenset[str] = frozenset()
    # (jitted function's origin, the signature of a call of it) for each of its jitted
    # calls ("?" where the shapes are not known): a warm-up helper's shapes
    jit_signatures: frozenset[tuple[Site, avals.Signature | str]] = frozenset()
    # every host copy it made (of its own work or what it was given) was made in a loop of
    # its own (a generator's ``int(token)`` each step, an evaluator's ``device_get`` of each
    # batch): to another module's caller a copy made round by round, part of the work
    # timed, not its way of waiting (``JaxCallable.by_transfer``)
    copies_per_round: bool = False

    @property
    def leaves_running(self) -> bool:
        """Whether a call returns with JAX work of its own still running, waited for by
        nothing it did (not even through a host copy)."""
        return self.work and self.leaves_work and not (self.waits or self.waits_by_transfer)

    @property
    def waits_for_args(self) -> bool:
        """Whether calling it waits for (at least) the JAX values passed to it."""
        return self.waits or self.waits_args

    @property
    def transfers_args(self) -> bool:
        return self.waits_by_transfer or self.args_by_transfer


NOTHING = Summary()


@dataclass
class Frame:
    func: Func | None
    entry: Site | None = None
    entered: int = -1  # the tick of the call's entry (what the caller left running)
    returns: list[tuple[State, Value]] = field(default_factory=list)
    loops: list[tuple[list[State], list[State]]] = field(default_factory=list)
    did_work: bool = False
    created: set[Site] = field(default_factory=set)  # jitted functions made in this frame
    # Events a region may contain, in tick order: first (compiling) calls, idle syncs.
    events: list[Event] = field(default_factory=list)
    jit_calls: set[Site] = field(default_factory=set)
    jit_signatures: set[tuple[Site, avals.Signature | str]] = field(
        default_factory=set)  # see Summary
    binds: dict[str, set[cst.CSTNode]] = field(default_factory=dict)  # name -> its targets
    # a timer read made inside a call -> the calls in this frame that made it (``_lift``)
    lifted: dict[Site, set[Site]] = field(default_factory=dict)
    # parameters the caller left at a literal default -> that default (``as_numpy=True``):
    # a test of one takes one branch (``_known_test``)
    defaults: dict[str, cst.BaseExpression] = field(default_factory=dict)
    # parameters the call gave an integer the caller knows (``batch(key, 128)``, ``N``
    # of ``N = 128``) -> that integer: a shape spelt with one is known (``_int_value``)
    given_ints: dict[str, int] = field(default_factory=dict)
    # the loops of this frame being interpreted, outermost first
    loop_stmts: list[cst.For | cst.While] = field(default_factory=list)
    branches: list[cst.If] = field(default_factory=list)  # the ``if`` statements being run
    # (a test's outcome, the ``if`` statements it decides) while ``_exec_correlated``
    # runs one of its paths
    forced: tuple[bool, frozenset[cst.If]] | None = None
    last_read: int = -1  # the tick of this frame's latest clock read (``_note_left_running``)
    recompiles: bool = False  # see Summary.recompiles
    recompile_kind: str = ""  # see Summary.recompile_kind
    fresh_jit: bool = False  # see Summary.fresh_jit
    unknown: bool = False  # see Summary.unknown
    # called from the module's own code (a script's ``main()``): its first calls of the
    # module's jitted functions are judged too, from what the module called before
    judges_module: bool = False
    # ``for fn in fns.values():`` ran -> (what ``fns`` held, the jitted functions every round
    # called): a later loop over the same collection runs only if this one did
    loop_called: dict[str, tuple[Value, frozenset[Site]]] = field(default_factory=dict)

    @property
    def closure(self) -> tuple[dict[str, Value], ...]:
        if self.func is None or self.func.closure is None:
            return ()
        return self.func.closure


_MAGIC_RUNNERS = {"run_line_magic": 1, "run_cell_magic": 2}  # -> where the statement is


def _numpy_data(value: Value) -> bool:
    """Whether ``value`` is an array NumPy made (``np.linspace(...)``, ``np.zeros(50)``)."""
    return isinstance(value, HostValue) and value.name.startswith("numpy.")


def _host_or(made: Value, result: Value) -> Value:
    """What a call of a function whose own work is finished when it returns gives: what
    it returned when that is the host's (``return np.asarray(c[-1])``, a tuple of such),
    else ``result``, its work as one JAX value."""
    return made if isinstance(made, HostValue) else result


def _exported_magic(attr: str, node: cst.Call) -> cst.Arg | None:
    """The statement argument of ``run_line_magic("timeit", STMT)`` or
    ``run_cell_magic("time", LINE, CELL)`` (IPython's ``%time``/``%timeit`` and their cell
    forms, as a notebook exported to a script calls them); None for any other call."""
    at = _MAGIC_RUNNERS.get(attr)
    if at is None or len(node.args) <= at or any(a.keyword or a.star for a in node.args[:at + 1]):
        return None
    name = node.args[0].value
    if not (isinstance(name, cst.SimpleString) and name.evaluated_value in ("time", "timeit")):
        return None
    return node.args[at] if is_const_string(node.args[at].value) else None


def _scalar_work(site: Site, why: tuple[str, object] | None) -> bool:
    """Whether the work at ``site`` makes scalars of scalars: an operator that is no matrix
    product (``bookkeeping``), an elementwise function of jax.numpy (``jnp.cos``,
    ``jnp.where``) or a dtype cast; not a constructor, a reduction, a product or a
    factorisation, which given a size (``jnp.ones((n, n))``) make and work on arrays."""
    if why is None or why[0] == "op":
        return bookkeeping(site)
    if why[0] != "api" or not isinstance(why[1], str):
        return False
    return why[1] in names.ELEMENTWISE or avals.is_cast(why[1])


class Calls:
    """The calls part of ``FlowAnalysis`` (see the module docstring)."""

    harness_recompiled: bool  # see FlowAnalysis
    harness_signatures: list[tuple[Site, avals.Signature | str, Site]]  # see FlowAnalysis
    harness_only_lambda: bool  # see FlowAnalysis
    harness_host_only: bool  # see FlowAnalysis
    harness_called: set[cst.CSTNode]  # see FlowAnalysis
    _verdicts: dict[str, frozenset[bool]] | None

    def _eval_Call(self: FlowAnalysis, node: cst.Call, st: State) -> Value:
        func = node.func
        if isinstance(func, cst.Attribute):
            key = dotted(func)
            found = key is not None and self._lookup(key, st)[0]
            root = base_name(func)
            q = None
            if not found and root is not None and not self._lookup(root, st)[0]:
                q = self._qualified(func)
            if q is not None:
                return self._call_value(self._external(q), node, st)
            if found:
                assert key is not None
                return self._call_value(self._lookup(key, st)[1], node, st)
            base = self._eval(func.value, st)
            # ``history[key].append(y)``: what the entry holds, the container holds
            receiver = func.value
            while dotted(receiver) is None and isinstance(receiver, cst.Subscript):
                receiver = receiver.value
            return self._call_method(base, func.attr.value, dotted(receiver), node, st)
        callee = self._eval(func, st)
        return self._call_value(callee, node, st)

    def procedure(self: FlowAnalysis, node: cst.CSTNode) -> bool:
        """Whether ``node`` is a ``def`` that returns no value on any path: no ``return``
        with a value and no ``yield`` in its own body (nested functions aside). Once per
        function."""
        if not isinstance(node, cst.FunctionDef) or node.asynchronous is not None or (
                node.name.value == "__init__"):
            # (an ``async def``'s call gives a coroutine, not None; ``__init__`` is called
            # by calling its class, which gives the object)
            return False
        known = self._procedures.get(node)
        if known is None:
            known = self._procedures[node] = not any(
                (isinstance(n, cst.Return) and n.value is not None)
                or isinstance(n, (cst.Yield, cst.Await))
                for n in walk(node.body, skip=(cst.FunctionDef, cst.Lambda, cst.ClassDef)))
        return known

    def _log_call(self: FlowAnalysis, node: cst.Call, kind: str, name: str) -> None:
        """Note what ``node`` called (``call_log``). A call the analysis runs more than once
        (a loop's rounds, a harness's statement) keeps what it was seen to call when known."""
        assert self.call_log is not None
        before = self.call_log.get(node)
        if before is None or before[0] in ("unknown", "object"):
            self.call_log[node] = (kind, name)

    def _args(self: FlowAnalysis, node: cst.Call, st: State) -> list[tuple[str | None, str, Value]]:
        out: list[tuple[str | None, str, Value]] = []
        for arg in node.args:
            value = self._eval(arg.value, st)
            kw = arg.keyword.value if arg.keyword is not None else None
            out.append((kw, arg.star, value))
        return out

    def _call_value(self: FlowAnalysis, callee: Value, node: cst.Call, st: State) -> Value:
        if isinstance(callee, Ref):
            return self._call_ref(callee.name, node, st)
        if self.call_log is not None:
            self._log_call(node, "unknown" if callee is None else type(callee).__name__, "")
        args = self._args(node, st)
        values = [v for _, _, v in args]
        if isinstance(callee, JaxCallable):
            if callee.needs_jax_args and (
                    callee.method or callee.host_module or not self.is_jax_module()
                    or any(isinstance(v, HostValue) for v in values)) and not any(
                    isinstance(v, (JaxVal, LibObject)) for v in values):
                # what makes a module JAX: in one that imports no JAX, a function whose
                # only work is operations on its arguments computes on this module's own
                # arrays (PyTorch, NumPy): no JAX work unless given JAX values, or what
                # JAX code made (``x = mylib.make_data(n)``, not looked up outside timing).
                # So does such a method of another module's object anywhere: given
                # nothing JAX made, it is judged as a library's method is, and does nothing.
                # And in any module, given NumPy's arrays and no JAX value
                # (``retrieval_eval(-similarities, ids)``), its operations are NumPy's.
                return None
            self._note_call(callee, node, st, values=values)
            self.why[node] = ("jitted", callee.origin)
            result = self._dispatch(node, values, st)
            if callee.synced:
                self._sync(result, st, transfer=callee.by_transfer)
                if callee.host_result:
                    return None
            return replace(result, shard="per_device") if callee.pmapped else result
        if isinstance(callee, StartStopTimer):
            return callee  # ``timer = Timer()`` of another module: an object that times
        if isinstance(callee, JitFactory):
            # another module's ``make_step()``: the function it returns is made here, by
            # this call, and compiles on its first call (anew on each round of a loop)
            self.frame.created.add(node)
            self.made_in[node] = set(self.frame.loop_stmts)
            self.made_at[node] = self._now
            st.called = st.called - {node}
            return JaxCallable(jitted=True, origin=node, static=callee.static)
        if isinstance(callee, Transform):
            return self._make_callable(node, callee.jit,
                                       (callee.static_nums, callee.static_names),
                                       values[0] if values else None, callee.pmap)
        if isinstance(callee, Func):
            return self._call_func(callee, node, args, None, st)
        if isinstance(callee, Klass):
            init = callee.members.get("__init__")
            if isinstance(init, Func):
                made = self._call_func(init, node, args, Instance(callee), st)
                if self.is_pytree_class(callee):
                    # (``@register_pytree_node_class`` with its own ``__init__``: what it
                    # stores is what it was given or made; JAX sees into it)
                    held = union_jax([*values, made])
                    if held is not None:
                        return Instance(callee, holds=held)
                return Instance(callee)
            return self._construct_record(callee, args)
        if isinstance(callee, Instance):
            call = callee.klass.members.get("__call__")
            if isinstance(call, JaxCallable):
                self.why[node] = ("jitted", call.origin)
                return self._dispatch(node, values, st)
            if isinstance(call, Func):
                return self._call_func(call, node, args, callee, st)
            return None
        if isinstance(callee, LibObject):
            if values:
                # an object a JAX library made, called on data: a model or a layer
                # (``tl.Accelerate(model)(inputs)``, ``nnx.Linear(...)(x)``), a function
                # it made (``partitioner.partition(generate, ...)(params, batch)``)
                self.why[node] = ("library", None)
                return self._dispatch(node, values, st)
            return LibObject()
        if isinstance(callee, BenchmarkFixture):
            self._harness(node, node, args, st, fixture=True)
            return None
        if isinstance(callee, TimerFactory):
            return TimedBlock()
        if isinstance(callee, ElapsedFn):
            # ``clock.elapsed(t0)`` of another module: a stop read paired with ``t0``
            reading = self._timer_read(node, st)
            for v in values:
                if isinstance(v, TimerRead):
                    for start in v.sites:
                        self._pair(node, start)
            return None if any(isinstance(v, TimerRead) for v in values) else reading
        if isinstance(callee, JaxVal) and any(
                isinstance(v, JaxVal) or _numpy_data(v) for v in values):
            # a function that JAX code made from JAX values (``train_step_fn, metrics =
            # get_train_step_fn(state, batch=batch)``, another module's factory of a step),
            # called on JAX values, or on NumPy's arrays (``model = build(8); model(x)``):
            # it computes on them, as a library's model does
            self.why[node] = ("made", None)
            return self._dispatch(node, values, st)
        if isinstance(callee, JaxVal) or (callee is None and any(
                isinstance(v, JaxVal) for v in values)):
            # an unknown function (a parameter, what a library returned) given JAX values,
            # or a function that JAX work returned (another module's factory of a closure):
            # what it returns is of JAX, and a sync of it waits for the work before it
            return self._opaque()
        return None

    def _call_ref(self: FlowAnalysis, q: str, node: cst.Call, st: State) -> Value:
        if self.call_log is not None:
            self._log_call(node, "ref", q)
        backend = self.backend_switch(q, node)
        if backend is not None:
            self._args(node, st)
            return backend  # ``K = tc.set_backend("jax")``
        q = self.as_jax(q)  # ``K.jit`` -> ``jax.jit``
        kind = self._classify(q)
        if q == "jax.effects_barrier":
            # waits for computations with effects (callbacks, ordered effects) only, not for
            # the results of others: no sync
            self.ineffective_sync(node, "effects_barrier")
        # The project index answers for calls made while a clock reading is held (it may
        # start a region), not merely after a clock was read: a stamp formatted into a file
        # name (``f"{time.time_ns()}-trace.json"``) or a seed starts nothing. Outside timing,
        # a call (or a ``with`` item) is looked up only if its module may define a timer or
        # a clock helper (its bytes spell a clock: ``t0 = clock.now()``).
        capturing = self.capture is not None and self.absolute(q) in self.capture
        if kind is CallKind.UNKNOWN and (
                st.timers or self._timing_harness or self._under_timer
                or (self.index and not capturing and self._may_time(q))):
            known = self._from_index(q)
            if known is not None:
                return self._call_value(known, node, st)
        elif kind is CallKind.UNKNOWN and self.index:
            # Not looked up, but called: if it is another module's jitted function, this
            # call compiled it (a warm-up before the clock starts), see ``_from_index``.
            origin = self.imported_origin(self.absolute(q))
            self._unlooked_calls.setdefault(origin, {})[node] = (
                self.frame.func.node if self.frame.func is not None else None)
            if origin not in st.called:  # (every unknown call passes here: no copy if known)
                st.called = st.called | {origin}
        if kind is CallKind.TIMER:
            self._args(node, st)
            return self._timer_read(node, st)
        if self._with_item and (q in names.LIBRARY_TIMERS or (
                # (with the project index on: a class it does not know is not the
                # project's own, whose timers are analysed from their source)
                self.index and kind is CallKind.UNKNOWN and "." in q
                and q not in names.NOT_TIMER_CLASSES
                and names.TIMER_CLASS.fullmatch(q.rsplit(".", 1)[-1]) is not None
                and not self.jax_library(q))):
            self._args(node, st)
            return TimedBlock()
        args = self._args(node, st)
        if self.capture is not None and self.absolute(q) in self.capture:
            # (names of this module's imports made absolute: the helper's module reads them;
            # a function of this module, ``lambda: f(x)``, as what calling it does here)
            self.capture[self.absolute(q)].append([
                (kw, star, Ref(self.absolute(v.name)) if isinstance(v, Ref) else
                 JaxCallable(synced=not self._leaves_running_given(v, args, i))
                 if isinstance(v, Func) else v)
                for i, (kw, star, v) in enumerate(args)])  # see FlowAnalysis.follow_callers
        values = [v for _, _, v in args]
        jax_args = [v for v in values if isinstance(v, JaxVal)]
        if kind is CallKind.HARNESS:
            self._harness(node, node, args, st)
            return None
        if kind is CallKind.HARNESS_TIMER:
            return HarnessTimer(node)
        if kind is CallKind.SYNC:
            if not node.args:
                # ``jax.block_until_ready()``: raises TypeError (it takes the values to wait
                # for; it does not wait for everything). Not a project function that waits
                # for what it is given, called with nothing (``utils.flush()``): it waits
                # for nothing here, and raises nothing.
                spelled = dotted(node.func) or ""
                held = st.env.get(spelled) if "." not in spelled else None
                if spelled.rsplit(".", 1)[-1] == "block_until_ready" or (
                        isinstance(held, Ref) and held.name == q) or (
                        self.globals.get(spelled) == Ref(q)):
                    self.ineffective_sync(node, "no_argument")
                return None
            if not jax_args and len(node.args) == 1 and node.args[0].value in self.none_calls:
                # ``jax.block_until_ready(trainer.step(g))`` of a function that returns
                # nothing: it is given None, and waits for nothing
                self.ineffective_sync(node, "returns_none")
                return None
            if isinstance(node.args[0].value, cst.GeneratorExp):
                # ``jax.block_until_ready(o for o in outs)``: a generator is one leaf that is
                # no array: nothing is waited for (nor is the generator even run)
                self.ineffective_sync(node, "generator")
                return None
            if len(node.args) == 1 and self._iterator_made(node.args[0].value, st):
                # ``jax.block_until_ready(outs.values())``, ``(iter(xs))``: a dict view or an
                # iterator is one leaf that is no array, as a generator is
                self.ineffective_sync(node, "iterator")
                return None
            # (an object of a registered pytree class: its leaves are what it holds)
            jax_args += [v.holds for v in values if isinstance(v, Instance) and v.holds]
            records = [v for v in jax_args if v.record]
            if not jax_args and values and all(
                    isinstance(v, Instance) and not self.is_pytree_class(v.klass)
                    and "block_until_ready" not in v.klass.members for v in values):
                # an object of a plain class of the file's: one leaf that is no array (and
                # has no ``block_until_ready`` of its own to call)
                self.ineffective_sync(node, "record")
                return None
            if records and len(records) == len(jax_args):
                self.ineffective_sync(node, "record")  # an object that is no registered pytree
                return None
            if jax_args and all(v.shard in ("one", "listed") for v in jax_args):
                # ``jax.block_until_ready(out[0])`` of a pmapped result: one device's part
                self.ineffective_sync(node, "one_shard")
                return union_jax(jax_args)
            self._sync(union_jax(jax_args), st, site=node)
            if not jax_args and len(values) == 1:
                # ``jax.block_until_ready(jax.vmap(f))`` gives back what it was given: a
                # function is no array, so nothing waits and the function is unchanged
                return values[0]
            return union_jax(values)
        if kind is CallKind.TRANSFER:
            if len(values) == 1 and isinstance(values[0], TimerRead):
                return values[0]  # ``int(time.time())``, ``float(t0)``: the same reading
            for v in jax_args:
                self._sync(v, st, transfer=True)
            return None
        if kind is CallKind.TREE_MAP:
            return self._tree_map(node, values, st, with_path=q.endswith("with_path"))
        if q in names.TREE_LEAVES:
            if len(jax_args) == 1 and len(jax_args[0].origin) == 1 and not (
                    jax_args[0].container or jax_args[0].uncovered):
                return replace(jax_args[0], container=True, leaves=True)  # one call's
            return union_elements(jax_args)
        if q in names.BARRIERS:
            self._sync_all(st, site=node)
            return None
        if q in names.RUNNERS:
            return self._run_elsewhere(values[names.RUNNERS[q]:], node, st)
        if kind is CallKind.TRANSFORM:
            return self._make_callable(node, q in names.JIT_TRANSFORMS, static_spec(node.args),
                                       values[0] if values else None,
                                       q in names.PMAP_TRANSFORMS)
        if kind is CallKind.PARTIAL:
            first = values[0] if values else None
            if isinstance(first, JaxCallable) and len(node.args) > 1:
                # its calls pass the function more than they spell: not compared by shape
                return replace(first, bound_args=True)
            if isinstance(first, Ref) and self._classify(first.name) is CallKind.TRANSFORM:
                nums, argnames = static_spec(node.args)
                jit = self.as_jax(first.name) in names.JIT_TRANSFORMS
                return Transform(jit=jit, static_nums=nums, static_names=argnames,
                                 pmap=self.as_jax(first.name) in names.PMAP_TRANSFORMS)
            return first
        if kind is CallKind.WORK:
            self.why[node] = ("api", q)
            if avals.is_cast(q):
                self.scalar_sites.add(node)  # a cast (``jnp.float32(loss)``): elementwise
            if q in names.LAX_CONTROL_FLOW and (q in names.LAX_WRAPS_ANEW or any(
                    isinstance(v, Func) and v.closure is not None for v in values)):
                # ``lax.while_loop(cond, step, init)`` with ``step`` made by this call of
                # the enclosing function, or ``lax.map``, which makes its own closure:
                # traced and compiled again on every call
                self.why[node] = ("retrace", q)
                self.recompile_why[node] = ("retrace", q)
                self._recompiles(node, "retrace")
            value_shaped = (
                q in names.VALUE_SHAPED_CALLS
                or (q == "jax.numpy.where" and len(node.args) == 1 and not node.args[0].star)
            ) and not any(a.keyword is not None and a.keyword.value == "size"
                          for a in node.args)
            if value_shaped:
                # the output's shape is the input's values: read on the host first
                # (``names.VALUE_SHAPED_CALLS``), then the answer put on the device
                for v in jax_args:
                    self._sync(v, st, transfer=True)
            out = self._dispatch(node, values, st)
            if q in names.FILL_CALLS or q in names.REARRANGE_CALLS or value_shaped or (
                    q in names.TO_DEVICE_CALLS and not jax_args):
                self.fill_sites.add(node)
            elif q in names.TO_DEVICE_CALLS:
                self.fill_sites.discard(node)  # (given a JAX value here: not only a copy)
            shaped = avals.made(q, node, [*self._loop_literals, *self._loop_shapes],
                                self._int_value) if self.avals_known else ()
            return replace(out, aval=shaped) if shaped else out
        if kind is CallKind.HOST:
            for v in jax_args:
                self._sync(v, st, transfer=True)
            return HostValue(q)
        if q in names.TREE_UNFLATTEN:
            return values[1] if len(values) > 1 else None  # the tree holds the leaves
        if kind is CallKind.NO_WORK:
            if q in names.CLEAR_CACHES:
                # every compiled program is dropped: each jitted function compiles again,
                # wherever it was made (``CLEARED`` stands for that on every path)
                st.called = frozenset({CLEARED})
                self.frame.events.append((self._tick(), node, CLEARS))
            return None
        if q in names.BARRIERS:
            self._sync_all(st, site=node)
            return None
        if q == "builtins.sum" and jax_args:
            return self._dispatch(node, values, st)
        if q == "builtins.map" and len(values) >= 2:
            return self._mapped(values[0], values[1:], node, st)  # ``map(f, xs)``
        if q == "builtins.vars" and len(jax_args) == 1:
            return replace(jax_args[0], record=False, container=True)  # a record's fields
        if q in ("builtins.list", "builtins.tuple", "builtins.sorted",
                 "builtins.reversed") and len(values) == 1 and isinstance(
                    values[0], JaxVal) and values[0].container:
            return values[0]  # ``list(outs)`` of a list of results: the same elements
        if q in ("builtins.list", "builtins.tuple", "builtins.sorted",
                 "builtins.reversed") and len(node.args) >= 1 and node.args[0].keyword is None and (
                    not node.args[0].star) and isinstance(values[0], JaxVal):
            # ``xs = list(xs)`` of a value that may be an array or a pytree: a Python
            # sequence of its elements now, and taking one out is no device work
            return replace(values[0], container=True)
        if q in ("builtins.list", "builtins.tuple", "builtins.dict", "builtins.sorted",
                 "builtins.reversed") or q in names.RESTRUCTURE:
            return union_jax(values) or union_elements(values)
        if q in ("builtins.enumerate", "builtins.zip", "builtins.iter", "builtins.next") and (
            not jax_args
        ):
            return union_elements(values)
        if q in ("builtins.zip", "builtins.iter") and all(
                v.container or v.opaque for v in jax_args):
            # ``zip(*leaves_per_step)``: the containers' arrays, regrouped (of what unknown
            # functions gave back: more such values)
            regrouped = union_jax(jax_args)
            assert regrouped is not None  # (jax_args is not empty: tested above)
            return replace(regrouped, container=all(v.container for v in jax_args))
        if q in ("builtins.max", "builtins.min") and jax_args:
            for v in jax_args:
                self._sync(v, st, transfer=True)
            return None
        if self.jax_library(q) or (kind is CallKind.UNKNOWN and not q.startswith(
                "builtins.") and self._project_computes(q)):
            # a JAX library's function or class, or the project's own JAX code's
            if q.rsplit(".", 1)[-1][:1].isupper():
                if jax_args and not self.jax_library(q):
                    # a class of the project's own (``InputData("", tokens, n)``,
                    # ``MLP(key, sizes)``) given JAX values: an object that holds them
                    return LibObject(q, holds=union_jax(jax_args))
                # a class of the library (``MCMC(kernel, ...)``, ``nnx.Linear(...)``): an
                # object whose methods compute, not work in itself
                return LibObject(q)
            if jax_args:
                self.why[node] = ("api", q)
                return self._dispatch(node, values, st)
            return LibObject(q)
        if kind is CallKind.UNKNOWN and jax_args and q.rsplit(".", 1)[-1] == "block_until_ready":
            self._sync(union_jax(jax_args), st, site=node)  # a library's wrapper of the sync
            return union_jax(jax_args)
        if kind is CallKind.UNKNOWN and jax_args and names.HOST_FETCH_NAME.search(
                q.rsplit(".", 1)[-1]):
            for v in jax_args:  # ``train_utils.unreplicate_and_get(metrics)``
                self._sync(v, st, transfer=True)
            return None
        if kind is CallKind.UNKNOWN and jax_args and not q.startswith("builtins."):
            return self._opaque()  # what an unknown function makes of JAX values
        return None

    def _call_method(self: FlowAnalysis, base: Value, attr: str, base_key: str | None,
                     node: cst.Call, st: State) -> Value:
        magic = _exported_magic(attr, node)
        if magic is not None:
            # ``get_ipython().run_line_magic("timeit", "f(x)")``: a notebook's ``%timeit``
            # as nbconvert and jupytext export it, timing the statement string
            self._harness(node, cst.Call(func=node.func, args=[magic]), [(None, "", None)], st)
            return None
        if isinstance(base, Ref):
            return self._call_ref(f"{base.name}.{attr}", node, st)
        if self.call_log is not None:
            kind = type(base).__name__
            if base is None or (isinstance(base, JaxVal) and base.opaque):
                kind = "object"
            elif isinstance(base, Instance):
                # the member called: a method (followed), or a field holding what is not
                # known here as a function (``self.model = load(...)``), or a method
                # inherited from a base class not known here (another package's)
                member = base.klass.members.get(attr)
                if member is not None:
                    kind = type(member).__name__
                    if not isinstance(member, (Func, JaxCallable, Ref, Klass)):
                        kind = "unknown"
                elif attr in base.klass.members or not any(
                        dotted(b.value) not in (None, "object")
                        for b in base.klass.node.bases):
                    kind = "unknown"
                else:
                    kind = "inherited"
            self._log_call(node, kind, f"{base.name}.{attr}" if isinstance(base, LibObject)
                           and base.name else attr)
        if isinstance(base, StartStopTimer) and attr in base.starts | base.stops:
            # ``timer.start(label)``, ``timer.stop(label)`` of another module's timer class:
            # a start read kept on the object, a stop read paired with its starts (as a
            # method of the file's own timer class is, ``Timers._lift``)
            # (by label when both calls spell one: ``start("total")`` and ``start("step")``
            # are two timers of one object)
            given = union_jax(v for _, _, v in self._args(node, st))
            if given is not None and attr in base.waiting | base.copying:
                # ``sw.stop(u)`` that waits for ``u`` before it reads the clock
                self._sync(given, st, site=node, transfer=attr in base.copying)
            first = node.args[0].value if node.args and not node.args[0].keyword else None
            label = first.value if isinstance(first, cst.SimpleString) else None
            started = self._object_starts.setdefault(base_key or "", {})
            if attr in base.starts:
                self._lift(node, frozenset({node}), frozenset(), False, st)
                started[node] = label
            else:
                self._lift(node, frozenset({node}), frozenset(
                    (node, s) for s, other in started.items()
                    if label is None or other is None or other == label), False, st)
            return None
        if isinstance(base, Instance) and isinstance(base.klass.members.get(attr), Ref):
            # a function stored on the object (``self._clock = clock``, a clock injected
            # with ``time.perf_counter`` as its default): a call of that function
            held = base.klass.members[attr]
            assert isinstance(held, Ref)
            return self._call_ref(held.name, node, st)
        if isinstance(base, LibObject) and base.name and self.index and not self.jax_library(
                base.name):
            # An instance of a class of the project's own JAX code: what its method does,
            # as its module's analysis summarises it with the fields the class's
            # ``__init__`` stores (``FlowAnalysis.export``, ``_construct``): a wait
            # (``logger.print_stats(state)`` prints the state's stats), or work left
            # running (``engine.submit(tokens)`` calls the jitted function the constructor
            # stored). A summary of doing nothing, or one that relied on something not
            # known there (``Summary.unknown``: the module tells nothing), is not taken:
            # such a method is judged as a JAX library's, and that judgement is a guess.
            # (Measured before the constructor's fields were seen: taking a summary that
            # leaves work found 2 more development mistakes and flagged 6 more correct
            # timings, and 1 more held-out correct timing, finding none. With them, and
            # ``Summary.unknown``: README, "What makes a library JAX".)
            known = self._from_index(f"{base.name}.{attr}")
            if isinstance(known, JaxCallable) or (
                    isinstance(known, Ref) and known.name in ("jax.block_until_ready",
                                                              "jax.device_get")):
                return self._call_value(known, node, st)
            if known is None:
                self._note_unknown()  # (judged as a library's below: a guess)
        args = self._args(node, st)
        if attr == "block_until_ready" and not isinstance(base, (JaxVal, Instance, Klass)):
            # ``timer.block_until_ready(result)``, ``profiler.block_until_ready(out)``: an
            # object's method spelt as JAX's sync (a timing library's, wrapping
            # jax.block_until_ready) waits for what it is given
            given = union_jax(v for _, _, v in args)
            if given is not None:
                self._sync(given, st, site=node)
                return given
        if isinstance(base, TimerRead) and attr in names.READING_METHODS:
            return base
        if isinstance(base, CALLABLES) and attr in names.CONTAINER_READERS and not (
            isinstance(base, Instance) and attr in base.klass.members
        ):
            return base  # ``steps.items()``, ``fns.get(name)``: the functions it holds
        values = [v.holds if isinstance(v, LibObject) and v.holds is not None else v
                  for _, _, v in args]
        if isinstance(base, JaxVal):
            if attr == "block_until_ready":
                receiver = node.func.value if isinstance(node.func, cst.Attribute) else None
                if isinstance(receiver, CONTAINER_LITERALS):
                    # ``(a, b).block_until_ready()``: a tuple (list, dict, set) has no such
                    # method; only ``jax.block_until_ready`` takes a pytree
                    self.ineffective_sync(node, "container")
                    return None
                if base.shard in ("one", "listed"):
                    # ``out[0].block_until_ready()`` of a pmapped result, or of one shard
                    # (``y.addressable_shards[0].data``): waits for one device only
                    self.ineffective_sync(node, "one_shard")
                    return base
                self._sync(base, st, site=node)
                return base
            if attr == "addressable_data":
                return replace(base, shard="one")  # ``y.addressable_data(0)``: one shard
            if attr in names.TRANSFER_METHODS:
                self._sync(base, st, transfer=True)
                return None
            if attr in names.CONTAINER_MUTATORS:
                self._put(base_key, values, st)
                return None
            if attr in names.INERT_ATTRIBUTES:
                return None
            if attr in ("get", "pop") and len(values) >= 1 and node.args and is_const_string(
                    node.args[0].value):
                return base  # ``metrics.get("loss")``: a leaf of a dict pytree, as [...]
            if attr not in names.ARRAY_METHODS and not (base.container and values):
                # not an array's method: the value is an object (see ARRAY_METHODS); a
                # container's or pytree object's method computes only on what it is given
                # (``state.apply_gradients(grads=g)``), not when given nothing (a logger
                # that was given the loss, ``plotlosses.update({"loss": loss})``, then
                # ``plotlosses.send()``)
                return self._opaque()
            out = self._operate(node, [base, *values], st)
            if attr == "astype" and isinstance(out, JaxVal) and base.aval:
                return replace(out, aval=avals.as_dtype(base.aval, node))
            return out
        if attr in names.CONTAINER_MUTATORS and any(isinstance(v, JaxVal) for v in values):
            self._put(base_key, values, st)
            return None
        if attr == "append" and len(values) == 1 and isinstance(values[0], TimerRead):
            self._stamp(base_key, base, values[0], st)  # ``stamps.append(time.time())``
            return None
        if attr in names.MAP_METHODS and len(values) >= 2 and not isinstance(
                base, (Instance, Klass, JaxVal)):
            # ``pool.imap(convert, xs)``, ``executor.map(f, xs)``: ``f`` of each element
            return self._mapped(values[0], values[1:], node, st)
        if attr in names.RUNNER_METHODS and not isinstance(base, (Instance, Klass)):
            # ``loop.run_in_executor(None, jax.block_until_ready, y)``, ``pool.submit(f, x)``
            found = self._run_elsewhere(values[names.RUNNER_METHODS[attr]:], node, st)
            if found is not None:
                return found
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
                overrides = self._overrides(base.klass, attr) if self.is_abstract(member) else []
                if overrides:
                    # an abstract method: what the subclasses' implementations do, on any path
                    paths = []
                    result: Value = None
                    for impl, sub in overrides:
                        path = st.copy()
                        result = join_values(result, self._call_func(impl, node, args,
                                                                     Instance(sub), path))
                        paths.append(path)
                    self._become(st, join_states(paths))
                    return result
                return self._call_func(member, node, args, base, st)
            if isinstance(member, JaxCallable):
                self._note_call(member, node, st, bound=True, values=values)
                self.why[node] = ("jitted", member.origin)
                return self._dispatch(node, values, st)
            if member is None and base.klass.library is not None:
                # ``model.apply(params, x)`` of a flax module: the library's own method
                return self._library_method(LibObject(base.klass.library), attr, values,
                                            node, st)
            return None
        if isinstance(base, Klass):
            member = base.members.get(attr)
            if isinstance(member, Func):
                return self._call_func(member, node, args, None, st)
            if isinstance(member, JaxCallable):
                return self._dispatch(node, values, st)
            return None
        if isinstance(base, LibObject):
            return self._library_method(base, attr, values, node, st)
        if isinstance(base, HostValue):
            # ``h5file.create_dataset(data=y)``, ``frame.loc[...].append(y)``, ``t.copy_(y)``:
            # a host object's method given JAX values copies them
            for v in values:
                if isinstance(v, JaxVal):
                    self._sync(v, st, transfer=True)
            return HostValue(base.name)
        if isinstance(base, str):
            return None
        if isinstance(base, (Ref,)) or base is None:
            # ``"{}".format(y)``, ``row_format.format(y)``: formatting copies JAX arguments
            if attr == "format" or (attr in names.DECODE_METHODS and base_key is not None
                                    and names.TOKENIZER_NAME.search(base_key) is not None):
                # ``tokenizer.batch_decode(tokens)``: a tokenizer turns the token ids into
                # text on the host, as formatting does
                for v in values:
                    self._sync(v, st, transfer=True)
            elif base is None and any(isinstance(v, JaxVal) for v in values):
                # ``self.engine.generate(params, state)`` on an object not known here:
                # given JAX values, what it gives is one made by then (see ``_opaque``)
                return self._opaque()
        return None

    def _library_method(self: FlowAnalysis, base: LibObject, attr: str, values: list[Value],
                        node: cst.Call, st: State) -> Value:
        """A method of an object of a JAX library (or one the file's class inherits from
        it), given ``values``."""
        if f"{base.name}.{attr}" in names.LIBRARY_TRANSFERS:
            # ``mcmc.print_summary()``: reads what the object computed to the host
            self._sync_all(st, transfer=True)
            for v in values:
                self._sync(v, st, transfer=True)
            return None
        if values and isinstance(values[0], (Func, JaxCallable)) and attr not in (
                "init", "apply"):
            # ``partitioner.partition(generate, ...)``: the function it makes of one
            return LibObject(f"{base.name}.{attr}")
        if any(isinstance(v, JaxVal) or _numpy_data(v) for v in values) or attr in (
                "init", "apply"):
            # (given NumPy arrays, as given JAX ones: the library puts them on the device
            # and computes, ``model.predict_y(X=x_plot)``, ``solver.run(np.zeros(50))``)
            if attr == "init" and base.name.startswith("optax."):
                self.fill_sites.add(node)  # an optimizer's state: zeros like the params
            return self._dispatch(node, values, st)
        if attr in names.LIBRARY_READERS or (base.name and not values):
            # ``metrics.compute()``, ``mcmc.get_samples()``, ``solver.ask()``: what the
            # object computed so far, or gives back; copying it waits for that work
            return self._opaque()
        return LibObject()

    def _construct_record(self: FlowAnalysis, klass: Klass,
                          args: list[tuple[str | None, str, Value]]) -> Value:
        """A class without its own ``__init__``: a dataclass, a NamedTuple, a flax or equinox
        module, whose fields are its annotated names in order. Functions passed in become
        what its instances' fields hold (``cfg.step(x)``); with JAX values it is a pytree of
        them, so waiting for it waits for them."""
        fields = list(annotated_fields(klass.node))
        i = 0
        for kw, star, value in args:
            name = kw if kw is not None else (fields[i] if not star and i < len(fields) else None)
            if kw is None and not star:
                i += 1
            if name is not None and isinstance(value, CALLABLES):
                old = klass.members.get(name)
                klass.members[name] = (join_values(old, value) if isinstance(old, CALLABLES)
                                       else value)
        pytree = union_jax(v for _, _, v in args)
        if pytree is not None and not self.is_pytree_class(klass):
            return replace(pytree, record=True)
        return pytree if pytree is not None else Instance(klass)

    def _note_call(self: FlowAnalysis, callee: JaxCallable, node: Site, st: State,
                   bound: bool = False, values: Sequence[Value] | None = None) -> None:
        """A call of a jitted function compiles when it is the first on every path so far,
        or when its arguments have shapes or dtypes no earlier call had (``avals.py``).

        Only functions made in the frame being analysed are judged: a function from
        elsewhere may have been called (warmed up) before this frame ran.
        """
        if not callee.jitted or callee.origin is None:
            return
        self.frame.jit_calls.add(callee.origin)
        signature = self._aval_signature(callee, node, values, bound)
        self.frame.jit_signatures.add((callee.origin, signature))
        variant = self._static_variant(callee, node, bound)
        if variant is not None and callee.origin in st.called:
            self._warm_variants(callee, node, st, bound)
        self._first_call(callee.origin, node, st, variant, signature)
        grown = self._grown_argument(node)
        if grown is not None:
            # Given an array that grows on every round of a loop around the call, each
            # call has a new shape: it compiles again on every round, whatever warm-up
            # came before. (Not on every call of the function the loop is in: a second
            # run of the loop gives the same shapes again, compiled the first time.)
            self.grown_compiles[node] = grown
            self.frame.events.append((self._tick(), node, COMPILE))

    def _warm_variants(self: FlowAnalysis, callee: JaxCallable, node: Site, st: State,
                       bound: bool) -> None:
        """Another module's jitted function, called by this frame before a clock reading
        was held (then not looked up, so its static values were not recorded): the values
        those calls gave it, recorded now as a call of a function of this file records
        them. A value that is not literal is recorded as not known ("?"), after which no
        static value counts as new."""
        origin = callee.origin
        if origin is None or any(
                isinstance(c, tuple) and len(c) == 2 and c[0] is origin for c in st.called):
            return
        here = self.frame.func.node if self.frame.func is not None else None
        earlier = [call for call, scope in self._unlooked_calls.get(origin, {}).items()
                   if scope is here and call is not node]
        if earlier:
            given = [self._static_variant(callee, call, bound) for call in earlier]
            st.called = st.called | {  # type: ignore[operator]
                (origin, v if isinstance(v, tuple) else "?") for v in given}

    def _leaves_running_given(self: FlowAnalysis, fn: Func,
                              args: list[tuple[str | None, str, Value]], at: int) -> bool:
        """Whether calling ``fn`` (the argument at ``at`` of a call of another module's
        timing helper, ``wall(preprocess, raw)``) leaves JAX work running, given the call's
        other positional arguments, as a helper that times ``fn(*args)`` passes them (NumPy
        data stays NumPy: ``raw.astype(np.float32)`` is no JAX work)."""
        rest = [a for j, a in enumerate(args) if j != at and a[0] is None]
        return self._call_function(fn, self._bind_params(fn, rest, None)).leaves_running

    def _grown_argument(self: FlowAnalysis, node: Site
                        ) -> tuple[str, cst.For | cst.While, cst.Assign] | None:
        """The argument of the call ``node`` (a plain name) that a loop around it makes
        longer on every round (``tokens = jnp.concatenate([tokens, new], axis=1)``), with
        that loop and the assignment; None if there is none."""
        if not isinstance(node, cst.Call) or not self.frame.loop_stmts:
            return None
        given = {a.value.value for a in node.args if isinstance(a.value, cst.Name)}
        if not given:
            return None
        for loop in reversed(self.frame.loop_stmts):
            grows = self._grows_in(loop)
            for name in sorted(given & grows.keys()):
                return name, loop, grows[name]
        return None

    def _grows_in(self: FlowAnalysis, loop: cst.For | cst.While) -> dict[str, cst.Assign]:
        """The names ``loop``'s body binds to a longer array made of themselves
        (``x = jnp.concatenate([x, y])``, ``jnp.append(x, y)``, ``jnp.hstack((x, y))``, or
        NumPy's), each with its assignment (read once per loop)."""
        found = self._growth.get(loop)
        if found is not None:
            return found
        found = {}
        # the body's statements only (an assignment is one; expressions hold none)
        todo: list[cst.CSTNode] = [loop.body]
        while todo:
            n = todo.pop()
            if isinstance(n, (cst.FunctionDef, cst.ClassDef, cst.BaseExpression)):
                continue
            if isinstance(n, cst.Assign) and len(n.targets) == 1 and isinstance(
                    n.targets[0].target, cst.Name) and isinstance(n.value, cst.Call):
                name = n.targets[0].target.value
                if self._makes_longer(n.value, name):
                    found.setdefault(name, n)
                continue
            todo.extend(children(n))
        self._growth[loop] = found
        return found

    def _makes_longer(self: FlowAnalysis, call: cst.Call, name: str) -> bool:
        """Whether ``call`` joins the array ``name`` with more (``jnp.concatenate([name,
        ...])``, ``np.append(name, ...)``, ``jnp.vstack((name, ...))``)."""
        q = dotted(call.func)
        if q is None or "." not in q:
            return False
        base, _, attr = q.rpartition(".")
        module = self.globals.get(base)
        where = self.as_jax(module.name) if isinstance(module, Ref) else base
        if where not in ("jax.numpy", "numpy") or attr not in names.GROW_CALLS or not call.args:
            return False
        first = call.args[0].value
        if attr == "append":
            return isinstance(first, cst.Name) and first.value == name
        return isinstance(first, (cst.List, cst.Tuple)) and any(
            isinstance(e, cst.Element) and isinstance(e.value, cst.Name) and e.value.value == name
            for e in first.elements)

    def _aval_signature(self: FlowAnalysis, callee: JaxCallable, node: Site,
                        values: Sequence[Value] | None, bound: bool
                        ) -> avals.Signature | str:
        """The shapes and dtypes a call gives its array arguments, by position or keyword
        (static ones left out); "?" when the arguments cannot be told apart (``*args``)."""
        if not isinstance(node, cst.Call) or values is None or len(values) != len(node.args) or (
                any(a.star for a in node.args)) or callee.bound_args:
            return "?"
        static_pos = {(pos - 1 if bound else pos) for pos, _ in callee.static
                      if pos is not None}
        static_names = {name for _, name in callee.static if name is not None}
        out: list[tuple[str, tuple[str, ...]]] = []
        positional, keywords = 0, []
        for i, (arg, value) in enumerate(zip(node.args, values)):
            key = arg.keyword.value if arg.keyword is not None else str(i)
            if key in static_names or (arg.keyword is None and i in static_pos):
                continue
            if arg.keyword is None:
                positional += 1
            else:
                keywords.append(key)
            aval = value.aval if isinstance(value, JaxVal) else (
                avals.weak(arg.value) if self.avals_known else ())
            out.append((key, aval))
            tree = avals.structure(arg.value) or (avals.LEAF if aval and isinstance(
                value, JaxVal) and not value.container else None)  # (an array made here)
            if tree is not None:
                out.append((key + "#", (f"{tree}:{avals.STRUCTURE}",)))
        out.append(avals.passing(positional, keywords))
        return tuple(out)

    def _iterator_made(self: FlowAnalysis, expr: cst.BaseExpression, st: State) -> bool:
        """Whether ``expr`` makes a dict view or an iterator (``names.VIEW_METHODS``,
        ``names.ITERATOR_BUILTINS``): ``outs.values()``, ``d.items()`` (no arguments: a
        mapping's), ``iter(xs)``, ``zip(a, b)``, a builtin no scope rebinds."""
        if not isinstance(expr, cst.Call):
            return False
        func = expr.func
        if isinstance(func, cst.Attribute):
            return func.attr.value in names.VIEW_METHODS and not expr.args
        return (isinstance(func, cst.Name) and func.value in names.ITERATOR_BUILTINS
                and not self._lookup(func.value, st)[0])

    def _recompiles(self: FlowAnalysis, node: Site, kind: str) -> None:
        """``node`` compiles whenever it runs (see ``Summary.recompiles``), as ``kind``
        says (``Summary.recompile_kind``)."""
        self.frame.recompiles = True
        self.frame.recompile_kind = self.frame.recompile_kind or kind
        if self._timing_harness:
            self.harness_recompiled = True
        self.recompiling.add(node)
        self.frame.events.append((self._tick(), node, COMPILE))

    def _first_call(self: FlowAnalysis, origin: Site, node: Site, st: State,
                    variant: tuple[str, ...] | str | list[tuple[str, ...]] | None = None,
                    signature: avals.Signature | str = "?") -> None:
        """``variant``: the call's static argument values (None: it has none; "?": not all
        literal). A jitted function compiles again for each new static value: that is
        judged whenever this frame called it with another value before (its warm-up)."""
        made_here = self._made_here(origin, st)
        compiles = made_here and origin not in st.called
        variants = variant if isinstance(variant, list) else [variant]
        by_sweep = False  # a round of ``for k in (8, 16)`` with a value not compiled yet
        shape_sweep = False  # a round of ``for shape in [(8, 4), (16, 4)]``, as by_sweep
        for one in variants:
            if isinstance(one, tuple) and (origin, one) not in st.called and (
                    origin, "?") not in st.called and any(
                        isinstance(c, tuple) and len(c) == 2 and c[0] is origin
                        for c in st.called):
                compiles = True
                by_sweep = by_sweep or isinstance(variant, list)
        if made_here and not compiles and not isinstance(signature, str) and (
                origin, "aval", "?") not in st.called:
            # and every call of it the analysis has seen so far at other places, on any
            # path or in any scratch state (a harness's runs): none may have had these
            # (``len(nodes) > (node in nodes)``: a node other than this one, without
            # copying the set, which holds every call of the function seen so far)
            elsewhere = [sig for sig, nodes in self.signatures_seen.get(origin, {}).items()
                         if len(nodes) > (node in nodes)]
            before = avals.recompiled_from(avals.called_with(origin, st.called), signature,
                                           elsewhere)
            if before is not None:
                # a new shape, dtype or structure: traced and compiled again
                compiles = True
                self.shape_compiles[node] = before
                shape_sweep = any(len(a) > 1 for _, a in signature)
        if compiles and self.frame.func is not None and origin in self.frame.created and (
                origin not in self._shared_origins and origin not in self._memo_origins.values()):
            self.frame.fresh_jit = True  # made anew by this call, and called by it
            st.called = st.called | {FRESH}
        scope = self.frame.func.node if self.frame.func is not None else None
        # the call as written: a cold/warm pair times the same call twice (with the same
        # static values), not another function that shares an origin or another variant
        text = ""
        if compiles or st.timers:
            text = self._call_texts.get(node, "")
            if not text:  # (once per call: loops and both passes call it again)
                text = self._call_texts[node] = " ".join(
                    self.module.code_for_node(node).split())
        if compiles:
            if self.call_log is not None:
                self.compiling_calls.add(node)  # (for ``--explain``: ``jaxlint.quiet``)
            if CLEARED in st.called:
                self.cleared_compiles.add(node)  # compiles because the caches were cleared
            tick = self._tick()
            judged = self.frame.func is None or self.frame.judges_module
            self.compile_events[tick] = (origin, self.made_at.get(origin, -1), judged,
                                         (scope, text), bool(self.frame.loop_stmts),
                                         frozenset(self.made_in.get(origin, ())))
            self.frame.events.append((tick, node, COMPILE))
            # the loops whose rounds call the same function object (one made inside a
            # loop is a new function, compiled anew, on every round); not a sweep over
            # static values, each of whose rounds compiles a new one (a progress log of
            # it is not exempt: its later figures carry a compile too)
            made_in = self.made_in.get(origin, set())
            swept: set[cst.CSTNode] = set()
            if by_sweep and isinstance(node, cst.Call):
                given = {a.value.value for a in node.args if isinstance(a.value, cst.Name)}
                swept = {loop for name, _, loop in self._loop_literals if name in given}
            if shape_sweep:
                swept |= {loop for _, _, loop in self._loop_shapes}
            self.loops_of.setdefault(node, set()).update(
                loop for loop in self.frame.loop_stmts
                if loop not in made_in and loop not in swept)
        elif st.timers and made_here:
            # a call of it timed warm, known to be (a cold/warm pair); not a function this
            # frame cannot judge, which may or may not have been called before
            self.warm_timed.add((origin, (scope, text)))
        if self._timing_harness:
            self.harness_signatures.append((origin, signature, node))
        st.called = st.called | {origin, (origin, "aval", signature)}  # type: ignore[arg-type]
        self.signatures_seen.setdefault(origin, {}).setdefault(signature, set()).add(node)
        for one in variants:
            if one is not None:
                # a (function, static values) pair, kept beside the functions themselves
                st.called = st.called | {(origin, one)}  # type: ignore[arg-type]

    def _made_here(self: FlowAnalysis, origin: Site, st: State) -> bool:
        """Whether this frame judges the first calls of the jitted function ``origin``: it
        was made here (or the caches were cleared), so no call before this frame ran can
        have compiled it."""
        return origin in self.frame.created or CLEARED in st.called or (
            self.frame.judges_module and origin in self._module_frame.created)

    def _static_variant(self: FlowAnalysis, callee: JaxCallable, node: Site,
                        bound: bool) -> tuple[str, ...] | None | str | list[tuple[str, ...]]:
        """The literal values of a call's static arguments; "?" when one is not literal;
        a list of them when one is a loop's variable over literals (``for k in (8, 16)``)."""
        if not callee.static or not isinstance(node, cst.Call):
            return None
        positional = [a.value for a in node.args if a.keyword is None and not a.star]
        if any(a.star for a in node.args):
            return "?"
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        out: list[list[str]] = []
        for pos, name in callee.static:
            arg = keywords.get(name) if name is not None else None
            if arg is None and pos is not None:
                i = pos - 1 if bound else pos
                arg = positional[i] if 0 <= i < len(positional) else None
            text = literal_text(arg) if arg is not None else "default"
            if text is not None:
                out.append([text])
                continue
            swept = [v for n, v, _ in reversed(self._loop_literals)
                     if isinstance(arg, cst.Name) and n == arg.value]
            if not swept:
                return "?"
            out.append(swept[0])
        combos = [tuple(c) for c in itertools.product(*out)]
        return combos[0] if len(combos) == 1 else combos

    def _put(self: FlowAnalysis, key: str | None, values: Sequence[Value], st: State) -> None:
        item = union_jax(values)
        if key is None or item is None:
            return
        old = st.env.get(key)
        new = replace(item, container=True)
        self._set(st, key, join_values(old, new) if isinstance(old, JaxVal) else new)

    def _run_elsewhere(self: FlowAnalysis, values: list[Value], node: cst.Call,
                       st: State) -> Value:
        """``asyncio.to_thread(fn, *args)`` and executor forms run ``fn(*args)``: awaiting
        (or ``.result()``) gives what it gives, so its effect on the arguments is the
        call's: a sync, a transfer, or work."""
        if not values:
            return None
        fn, rest = values[0], values[1:]
        effect = self._effect_on_args(fn, len(rest))
        tree = union_jax(rest)
        if effect == "sync":
            self._sync(tree, st, site=node)
            return tree
        if effect == "transfer":
            for v in rest:
                self._sync(v, st, transfer=True)
            return None
        if effect == "work":
            return self._dispatch(node, rest, st)
        return None

    def _mapped(self: FlowAnalysis, fn: Value, iterables: list[Value], node: cst.Call,
                st: State) -> Value:
        """``map(fn, xs)`` (and a pool's ``map``/``imap``): what ``fn`` does to each element
        (its work is left running, its sync or host copy waits), as one value. Lazy maps are
        taken as consumed (``list(map(...))``, a loop over them: what timing code does)."""
        effect = self._effect_on_args(fn, len(iterables))
        elements = [replace(v, container=False) if isinstance(v, JaxVal) else v
                    for v in iterables]
        if effect == "sync":
            self._sync(union_jax(elements), st, site=node)
            return union_jax(iterables)
        if effect == "transfer":
            for v in elements:
                self._sync(v, st, transfer=True)
            return HostValue()
        if effect == "work":
            self.why[node] = ("helper", fn.node) if isinstance(fn, Func) else (
                "jitted", fn.origin if isinstance(fn, JaxCallable) else None)
            if isinstance(fn, JaxCallable):
                self._note_call(fn, node, st)
            return replace(self._dispatch(node, elements, st), container=True)
        if effect == "nothing" and isinstance(fn, Func) and self._gives_back_args(fn, len(
                iterables)):
            # ``map(lambda x: jax.tree_util.tree_flatten(x)[0], xs)``: parts of the
            # elements, no work of its own: the mapped values hold the elements' arrays
            found = union_jax(iterables)
            return replace(found, container=True) if found is not None else None
        return None

    def _gives_back_args(self: FlowAnalysis, fn: Func, arity: int) -> bool:
        """Whether the file's function ``fn`` returns (parts of) the JAX values it is given
        and makes none of its own (``_effect_on_args`` said it leaves nothing running)."""
        params = self._positional_params(fn.node)
        summary = self._call_function(fn, {p: INPUT for p in params[: max(arity, 1)]})
        return isinstance(summary.result, JaxVal) and not summary.result.origin and (
            not summary.work)

    def _tree_map(self: FlowAnalysis, node: cst.Call, values: list[Value], st: State,
                  with_path: bool = False) -> Value:
        fn = values[0] if values else None
        trees = values[1:]
        effect = self._effect_on_args(fn, len(trees), with_path)
        if effect == "sync":
            self._sync(union_jax(trees), st, site=node)
            return union_jax(trees)
        if effect == "transfer":
            for v in trees:
                self._sync(v, st, transfer=True)
            return None
        given = any(isinstance(v, JaxVal) for v in trees)
        if effect == "work" and not given and isinstance(fn, Func) and not self._works_alone(
                fn, top=False):
            # ``jax.tree.map(permute, outputs)`` over trees nothing says hold JAX arrays,
            # of a function that only operates on its arguments: unknown leaves are not
            # JAX arrays (a NumPy or Python tree), as for any call given unknown values
            return None
        if effect == "work" or (effect is None and given):
            return self._dispatch(node, trees, st)
        return None

    def _effect_on_args(self: FlowAnalysis, fn: Value, arity: int,
                        with_path: bool = False) -> str | None:
        """What a function does to JAX values passed to it: sync, transfer, work (left
        running) or nothing. ``with_path``: its first parameter is a key path, not a value
        (``tree.map_with_path``)."""
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
            bound: dict[str, Value] = {p: INPUT for p in params[: max(arity, 1)]}
            if with_path and params:
                bound = {p: INPUT for p in params[1: 1 + max(arity, 1)]}
                bound[params[0]] = None
            summary = self._call_function(fn, bound)
            if summary.waits_for_args:
                return "sync"
            if summary.transfers_args:
                return "transfer"
            if summary.work and summary.leaves_work:
                return "work"
            return "nothing"  # the file's function, known to leave nothing running
        return None

    # ------------------------------------------------------------------ calls of own functions
    @staticmethod
    def _positional_params(node: cst.FunctionDef | cst.Lambda) -> list[str]:
        p = node.params
        return [x.name.value for x in (*p.posonly_params, *p.params)]

    def _default_params(self: FlowAnalysis, fn: Func) -> dict[str, Value]:
        params = self._positional_params(fn.node)
        out: dict[str, Value] = {
            name: BenchmarkFixture() for name in all_params(fn.node) if name == "benchmark"
        }
        if fn.owner is not None and params and isinstance(fn.node, cst.FunctionDef):
            decos = {dotted(d.decorator) for d in fn.node.decorators}
            if "staticmethod" not in decos:
                out[params[0]] = fn.owner if "classmethod" in decos else Instance(fn.owner)
        for param in params_of(fn.node):
            # ``def run(sampler: BaseSampler)``: an instance of the file's class
            if param.annotation is not None and param.name.value not in out:
                typed = self._instance_of(param.annotation.annotation)
                if typed is not None:
                    out[param.name.value] = typed
        return out

    def _call_func(self: FlowAnalysis, fn: Func, node: cst.CSTNode,
                   args: list[tuple[str | None, str, Value]], self_value: Value,
                   st: State) -> Value:
        params = self._bind_params(fn, args, self_value)
        given = self._final_round_params(fn, node) if self._final_rounds else {}
        if given:
            # the last round of a loop of known count passes its counter on
            # (``evaluate_model(epoch)``, whose ``if epoch % 10 == 0:`` prints): the callee's
            # periodic test is decided from the counter's last value too
            saved = dict(self._final_rounds)
            self._final_rounds.update(given)
            try:
                return self._call_func_bound(fn, node, args, params, st)
            finally:
                self._final_rounds.clear()
                self._final_rounds.update(saved)
        return self._call_func_bound(fn, node, args, params, st)

    def _params_given(self: FlowAnalysis, fn: Func, node: cst.CSTNode
                      ) -> list[tuple[str, cst.BaseExpression]]:
        """The callee's parameters a call gives an argument, by keyword or by position
        (not past a ``*args``, after which positions are not known), with the argument."""
        if not isinstance(node, cst.Call) or not isinstance(fn.node, cst.FunctionDef):
            return []
        names = self._positional_params(fn.node)
        if fn.owner is not None and names:
            names = names[1:]  # (a method's ``self``)
        out: list[tuple[str, cst.BaseExpression]] = []
        positions = True
        for i, arg in enumerate(node.args):
            if arg.star:
                positions = False
            elif arg.keyword is not None:
                out.append((arg.keyword.value, arg.value))
            elif positions and i < len(names):
                out.append((names[i], arg.value))
        return out

    def _int_params(self: FlowAnalysis, fn: Func, node: cst.CSTNode) -> dict[str, int]:
        """The callee's parameters a call gives an integer the caller knows (a literal, a
        name only ever bound to one: ``_int_value``)."""
        out: dict[str, int] = {}
        for name, arg in self._params_given(fn, node):
            value = self._int_value(arg)
            if value is not None:
                out[name] = value
        return out

    def _final_round_params(self: FlowAnalysis, fn: Func, node: cst.CSTNode) -> dict[str, int]:
        """The callee's parameters given a counter in its loop's last round, with the
        counter's last value."""
        out: dict[str, int] = {}
        for name, arg in self._params_given(fn, node):
            value = self._final_rounds.get(arg.value) if isinstance(arg, cst.Name) else None
            if value is not None:
                out[name] = value
        return out

    def _call_func_bound(self: FlowAnalysis, fn: Func, node: cst.CSTNode,
                         args: list[tuple[str | None, str, Value]], params: dict[str, Value],
                         st: State) -> Value:
        # A function called while a clock runs (a reading is held) is analysed with the
        # project index too: the sync or the work it hides may come from another module
        # (``unreplicate_and_get``).
        timed = bool(st.timers) and not self._under_timer
        if timed:
            self._under_timer += 1
        judging = self.frame is self._module_frame or self.frame.judges_module
        if judging and not self.frame.loop_stmts:
            # (called in a loop of the module's, each call is one round of a progress log:
            # only the first compiles, as for a loop in a function). A function the
            # module's code calls (``main()``) judges the functions it calls in turn
            # (``bench_cold(...)``), from what was called before each call.
            self._entry_called = st.called  # see Frame.judges_module
        given_ints = self._int_params(fn, node)
        try:
            if self.frame is self._module_frame:
                with self.module_call(st, fn):
                    summary = self._call_function(fn, params, given_ints)
            else:
                summary = self._call_function(fn, params, given_ints)
        finally:
            self._entry_called = None
            if timed:
                self._under_timer -= 1
        if summary.generator:
            return summary.result
        made = summary.result
        if isinstance(made, JaxCallable) and made.origin in summary.made and (
                fn.node in self.memoised and isinstance(node, cst.Call)):
            # A memoised factory gives the same function for the same arguments.
            origin = self.memo_origin(fn.node, node)
            if origin not in self.made_at:
                self.made_at[origin] = self._now
            self.frame.created.add(origin)
            self.made_in.setdefault(origin, set(self.frame.loop_stmts))
            summary = replace(summary, result=replace(made, origin=origin))
        elif isinstance(made, JaxCallable) and made.origin in summary.made and (
                made.origin not in self._shared_origins):
            # A factory (``step = make_step(loss)``): each call makes a fresh jitted
            # function, which compiles on its first call here. (One that wraps a function
            # made once shares that function's compiled programs: ``compiles``.)
            self.frame.created.add(made.origin)
            self.made_in[made.origin] = set(self.frame.loop_stmts)
            self.made_at[made.origin] = self._now
            st.called = st.called - {made.origin}
        values = [v for _, _, v in args]
        for origin in summary.jit_calls:
            self.frame.jit_calls.add(origin)
            signatures = [sig for o, sig in summary.jit_signatures if o is origin]
            if signatures and not any(isinstance(sig, str) for sig in signatures):
                # the shapes and dtypes the function called it with (a warm-up helper on
                # a 32-row batch): a later call on another shape is judged against them
                for sig in signatures:
                    self._first_call(origin, node, st, signature=sig)
                    self.frame.jit_signatures.add((origin, sig))
            else:
                self._first_call(origin, node, st)
                self.frame.jit_signatures.add((origin, "?"))
        if summary.recompiles:
            # (``why`` says what else the call does: the rule words its compile from this)
            self.recompile_why[node] = ("helper", (fn.node, summary.recompile_kind))
            self._recompiles(node, summary.recompile_kind)
        elif summary.fresh_jit and (self._timing_harness or self.frame.loop_stmts):
            # Called again and again (by a harness, in a loop), each call compiles anew. (A
            # single call inside a region is a total that contains the function's making.)
            self.why[node] = ("fresh_jit", fn.node)
            self.recompile_why[node] = ("fresh_jit", fn.node)
            self._recompiles(node, "fresh_jit")
        elif summary.fresh_jit and self.frame.func is not None:
            # (``update`` calls ``inner``, which jits a lambda anew and calls it: each call
            # of ``update`` does so too)
            self.frame.fresh_jit = True
            st.called = st.called | {FRESH}
        if summary.waits or summary.waits_by_transfer:
            self._sync_all(st, transfer=not summary.waits)
        elif summary.waits_args or summary.args_by_transfer:
            # ``wait_all(tree)``: waits for what it was given (and, in dispatch order,
            # everything before it), not for work dispatched after that.
            self._sync(union_jax(values), st, transfer=not summary.waits_args, site=node)
        if summary.outer_syncs and isinstance(fn.node, cst.FunctionDef) and isinstance(
                node, cst.Call) and isinstance(node.func, cst.Name) and (
                    fn.node.name in self.frame.binds.get(node.func.value, ())):
            # a function this frame defined (nested, or at module level for the module's
            # code) waits for this frame's names, as they are bound now
            for name in sorted(summary.outer_syncs):
                found, value = self._lookup(name, st)
                if found:
                    self._sync(value, st)
        reading = self._lift(node, summary.reads, summary.pairs,
                             isinstance(summary.result, TimerRead), st)
        if reading is not None:
            return reading
        if summary.work:
            self.why[node] = ("helper", fn.node)
        if summary.waits or summary.waits_by_transfer:
            if summary.work:
                result = self._dispatch(node, values, st)
                if not (summary.leaves_work and summary.leaves_calls):
                    self._sync(result, st, transfer=not summary.waits)
                elif summary.leaves_fill:
                    self.fill_sites.add(node)
                else:
                    self.fill_sites.discard(node)
                # (else it waited early, then called JAX again and left that running: the
                # caller's earlier work is finished, its result is not)
                return _host_or(summary.result, result)
        elif summary.work and summary.leaves_work:
            result = self._dispatch(node, values, st)
            if isinstance(summary.result, JaxVal) and (summary.result.aval
                                                       or summary.result.parts):
                # the shape and dtype the function's every return gives (``batch(key, 128)``
                # returning ``jax.random.normal(key, (n, 784))``), or its tuple's elements'
                result = replace(result, aval=summary.result.aval,
                                 parts=summary.result.parts)
            if summary.stores and isinstance(node, cst.Call) and isinstance(
                    node.func, cst.Attribute):
                # ``trainer.step(g)`` stored ``self.params``: ``trainer.params`` now holds
                # this call's work (a wait for it waits for the call)
                receiver = dotted(node.func.value)
                if receiver is not None:
                    for attr in sorted(summary.stores):
                        self._set(st, f"{receiver}.{attr}", result)
                        self.frame.binds.setdefault(f"{receiver}.{attr}", set()).add(node)
            if summary.leaves_fill:
                self.fill_sites.add(node)
            else:
                self.fill_sites.discard(node)  # (another call of it left other work)
            if summary.leaves_ops_only and values and all(
                    v is None or isinstance(v, HostValue) for v in values):
                self.scalar_sites.add(node)
            else:
                self.scalar_sites.discard(node)  # (another call of it was given arrays)
            if isinstance(summary.result, Func):
                # A factory that dispatched work and returns a closure over it
                # (neural-tangents' ``predict_fn = gradient_descent_mse_ensemble(...)``): the
                # work is pending here, and calling the closure is analysed, so a sync of
                # what it returns waits for that work too (dispatch order).
                return summary.result
            if isinstance(summary.result, JaxVal) and summary.result.record:
                return replace(result, record=True)  # a plain dataclass of its results
            if self.procedure(fn.node):
                # a procedure (no ``return`` of a value): its call's value is None, whatever
                # it leaves running (stored on ``self``, appended to a list); waiting for
                # that None waits for nothing, and a fix must not wrap the call
                self.none_calls.add(node)
                return None
            return result
        elif summary.work and summary.own_by_transfer:
            result = self._dispatch(node, values, st)
            self._sync(result, st, transfer=True)
            return _host_or(summary.result, result)
        if isinstance(summary.result, JaxVal):
            return union_jax(values) or INPUT
        return summary.result

    def _default_clock(self: FlowAnalysis, default: cst.BaseExpression | None) -> Value:
        """A parameter left at its default is that default when it names a clock
        (``def __init__(self, clock=time.perf_counter)``: a clock injected so that tests can
        pass a fake one, the real one otherwise). Any other default stays unknown."""
        spelled = dotted(default) if isinstance(default, (cst.Name, cst.Attribute)) else None
        if spelled is None:
            return None
        head, _, rest = spelled.partition(".")
        bound = self.globals.get(head)  # (a default is evaluated where the ``def`` is)
        if not isinstance(bound, Ref):
            return None
        q = f"{bound.name}.{rest}" if rest else bound.name
        return Ref(q) if self._classify(q) is CallKind.TIMER else None

    def _bind_params(self: FlowAnalysis, fn: Func, args: list[tuple[str | None, str, Value]],
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
            return "jax-opaque" if value.opaque else "jax"
        if isinstance(value, TimerRead):
            return None
        if isinstance(value, Instance):
            # what its class knows of instances so far: a method analysed when its class was
            # defined (attributes unknown) is analysed again once a constructor stored them
            return value, value.klass.members.kinds()
        return value

    def closure_key(self: FlowAnalysis, fn: Func) -> object:
        """What of a nested function's closure decides what its calls do: the functions and
        objects it closes over (a decorator's ``wrapper`` calls the ``fn`` it wraps), and
        which of its names hold JAX values (``ranks = dist.argsort()``, then a nested
        ``recall_at(k)`` compares ``ranks[:k]``: JAX work only when ``dist`` was a JAX
        array). Computed once per function object: the closure does not change."""
        if not fn.closure:
            return None
        key = self._closure_keys.get(fn)
        if key is None:
            key = self._closure_keys[fn] = tuple(sorted(
                (k, "jax" if isinstance(v, JaxVal) else v) for k, v in fn.closure[0].items()
                if isinstance(v, (Func, JaxCallable, Instance, Klass, JaxVal))))
        return key

    def _call_function(self: FlowAnalysis, fn: Func, params: dict[str, Value],
                       given_ints: dict[str, int] | None = None) -> Summary:
        """What calling ``fn`` with ``params`` does (memoised). ``given_ints``: the
        parameters the call gives a known integer (``_int_params``)."""
        generator = isinstance(fn.node, cst.FunctionDef) and self._is_generator(fn.node)
        given_ints = given_ints or {}
        if given_ints:
            variants = self._int_variants.setdefault(fn.node, set())
            ints = tuple(sorted(given_ints.items()))
            if ints not in variants and len(variants) >= MAX_INT_VARIANTS:
                given_ints = {}
            else:
                variants.add(ints)
        # The memo key: the function, what it closes over, and what each parameter holds
        # (JAX values as one kind).
        key = (fn.node, self.closure_key(fn), self._under_timer > 0,
               tuple(sorted(((k, self._key_of(v)) for k, v in params.items()),
                            key=lambda kv: kv[0])),
               tuple(sorted(self._final_rounds.items())) if self._final_rounds else (),
               tuple(sorted(given_ints.items())) if given_ints else (),
               self._globals_tag)
        if key in self._memo:
            known = self._memo[key]
            if known.unknown:
                self._note_unknown()
            return known
        if key in self._active or len(self._frames) > MAX_CALL_DEPTH:
            self._note_unknown()
            return NOTHING
        self._active.add(key)
        entry = fn.node
        frame = Frame(func=fn, entry=entry, given_ints=given_ints)
        # What the caller left running, as two pseudo-sites: its JAX arguments, and (later
        # on the clock) everything else. Waiting for an argument waits for the first only;
        # waiting for work the function made, or for everything, waits for both.
        given = self._event(fn.node.params)
        entered = self._event(entry)
        st = State(pending={fn.node.params: given, entry: entered})
        frame.entered = entered
        if self._entry_called is not None and (self.frame is self._module_frame
                                               or self.frame.judges_module):
            frame.judges_module = True
            st.called = self._entry_called - {FRESH}
            self._entry_called = None
        for name, value in params.items():
            # (what an unknown function gave back stays such a value: operations on it are
            # not known to be device work, in the helper as in its caller)
            self._set(st, name, JaxVal(given, opaque=value.opaque)
                      if isinstance(value, JaxVal) else value)
        for param in params_of(fn.node):
            frame.binds.setdefault(param.name.value, set()).add(param.name)
            if (param.default is not None and param.name.value not in params
                    and (literal_truth(param.default) is not None
                         or isinstance(param.default, (cst.Tuple, cst.List)))):
                frame.defaults[param.name.value] = param.default
            if param.name.value not in st.env:
                self._set(st, param.name.value, self._default_clock(param.default))
        saved_loc = self._loc
        first_read, first_pair = len(self._read_log), len(self._pair_log)
        outer_loops = set(self.all_loops())  # (the callers')
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
        args = fn.node.params
        waits_args = bool(exits) and not waits and all(
            args not in s.pending and args not in s.transferred for s in exits)
        args_by_transfer = bool(exits) and not (waits or by_transfer or waits_args) and all(
            args not in s.pending for s in exits)
        result: Value = None
        for _, v in frame.returns:
            result = join_values(result, v)
        given_sites = (entry, args)
        leaves_work = not exits or any(
            site not in given_sites for s in exits for site in s.pending)
        own_by_transfer = not leaves_work and any(
            site not in given_sites for s in exits for site in s.transferred)
        copied = {site for s in exits for site in s.transferred}
        copies_per_round = bool(copied) and all(
            any(loop not in outer_loops for loop in self.transfer_loops.get(site, ()))
            for site in copied)
        leaves_calls = leaves_work and any(
            site not in given_sites and self.why.get(site, ("op", None))[0] != "op"
            for s in exits for site in s.pending)
        # (not operations on values: in op-by-op code they are all the work, waited for
        # or not at the start)
        leaves_fill = leaves_work and all(
            site in given_sites or site in self.fill_sites
            for s in exits for site in s.pending)
        leaves_ops_only = leaves_work and not frame.jit_calls and all(
            site in given_sites or _scalar_work(site, self.why.get(site))
            for s in exits for site in s.pending)
        reads = frozenset(self._read_log[first_read:])
        pairs = frozenset(self._pair_log[first_pair:])
        stores: frozenset[str] = frozenset()
        if fn.owner is not None and leaves_work and isinstance(fn.node, cst.FunctionDef):
            positional = self._positional_params(fn.node)
            prefix = positional[0] + "." if positional else None
            if prefix is not None and exits:
                # only values whose wait waits for all the work the method leaves running
                # (the last it dispatched, on every exit): a key split early in the method
                # is no wait for the step after it
                found = None
                for s in exits:
                    own = [(site, t) for site, t in s.pending.items()
                           if site not in given_sites]
                    here = {key[len(prefix):] for key, v in s.env.items()
                            if key.startswith(prefix) and "." not in key[len(prefix):]
                            and isinstance(v, JaxVal) and not v.opaque
                            and any(site not in given_sites for site in v.origin)
                            and all(v.covers(site, t) for site, t in own)}
                    found = here if found is None else found & here
                stores = frozenset(found or ())
        if generator:
            # Calling a generator function runs none of its body: its own regions were
            # found just now. A ``@contextmanager`` that reads the clock before and after
            # its ``yield`` times the ``with`` body.
            timed = any(start in reads and start != stop for stop, start in pairs)
            summary = Summary(result=TimedBlock() if timed else None, generator=True)
        else:
            summary = Summary(frame.did_work, waits, by_transfer, result,
                              frozenset(frame.jit_calls), reads, pairs,
                              jit_signatures=frozenset(frame.jit_signatures),
                              made=frozenset(frame.created),
                              waits_args=waits_args, args_by_transfer=args_by_transfer,
                              outer_syncs=(frozenset.intersection(*(s.outer for s in exits))
                                           if exits else frozenset()),
                              leaves_work=leaves_work, own_by_transfer=own_by_transfer,
                              leaves_calls=leaves_calls, leaves_fill=leaves_fill,
                              leaves_ops_only=leaves_ops_only,
                              recompiles=frame.recompiles,
                              # (on every path: a helper that pmaps a lambda only in a
                              # distributed run compiles it on no call of the default path)
                              fresh_jit=frame.fresh_jit and bool(exits) and all(
                                  FRESH in s.called for s in exits),
                              recompile_kind=frame.recompile_kind,
                              unknown=frame.unknown, stores=stores,
                              copies_per_round=copies_per_round)
        self._memo[key] = summary
        if summary.unknown:
            self._note_unknown()
        return summary

    def _is_generator(self: FlowAnalysis, node: cst.FunctionDef) -> bool:
        if not self._may_yield:
            return False
        found = self._generators.get(node)
        if found is None and self._verdicts is None:
            tree = self.cpython_tree()
            self._verdicts = generator_verdicts(tree) if tree is not None else {}
        if found is None:
            verdicts = self._verdicts.get(node.name.value, frozenset()) if self._verdicts else ()
            if len(verdicts) == 1:
                found = next(iter(verdicts))  # every function of that name agrees
                self._generators[node] = found
                return found
            # Same-named functions that differ (or none CPython saw): generating the body's
            # text is twice as fast as visiting it; visit (to leave out nested functions)
            # only a body that spells ``yield``.
            found = "yield" in self.module.code_for_node(node.body)
            if found:
                finder = YieldFinder()
                node.body.visit(finder)
                found = finder.found
            self._generators[node] = found
        return found
