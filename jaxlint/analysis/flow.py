"""The one place that decides whether a timed region's JAX work is finished when the clock is read.

``FlowAnalysis`` interprets a module abstractly, statement by statement, over every path
(branches, loops to a fixed point, try/except, early exits). It tracks which names hold JAX
values, which work is still pending on the device, and every timer read. Functions defined in
the file are interpreted at their calls (with what the call passes in) and once on their own,
so work and syncs behind helpers, lambdas, methods and ``jit`` wrappers are seen.

The interpreter is split by the part of the question each piece answers; read them in this
order:

- ``values``: the abstract values (a pending JAX value, a timer reading, a jitted function...);
- ``state``: what is known at one program point, and how two paths join;
- ``device``: dispatching work and waiting for it;
- ``statements``, ``expressions``: the language;
- ``calls``: JAX APIs, jitted functions, and the file's own functions (summaries);
- ``objects``: classes, instances, attributes, decorators;
- ``timers``: timer reads, snapshots and regions (what rules ask for: ``regions()``);
- ``harnesses``: timeit and pytest-benchmark;
- ``budget``: the bound that turns a pathological file into one error line.

Rules ask ``regions()`` and ``harnesses``; they never re-derive any of this.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from dataclasses import replace

import libcst as cst

from jaxlint.analysis import avals, names
from jaxlint.analysis.backends import Backends
from jaxlint.analysis.budget import MAX_RECORDED, MAX_STEPS, TooComplex
from jaxlint.analysis.calls import Calls, Frame, Summary
from jaxlint.analysis.compiles import Compiles
from jaxlint.analysis.device import Device
from jaxlint.analysis.expressions import Expressions
from jaxlint.analysis.harnesses import Harnesses, HarnessUse
from jaxlint.analysis.liveness import ScopeText
from jaxlint.analysis.names import CallKind
from jaxlint.analysis.objects import Objects
from jaxlint.analysis.state import State
from jaxlint.analysis.statements import Statements
from jaxlint.analysis.syntax import (
    BUILTINS,
    LateGlobals,
    all_params,
    cpython_tree,
    dotted,
    params_of,
    walk,
)
from jaxlint.analysis.timers import Region, Snapshot, StmtLoc, Timers
from jaxlint.analysis.values import (
    INPUT,
    ElapsedFn,
    Func,
    HostValue,
    Instance,
    JaxCallable,
    JitFactory,
    Klass,
    LibObject,
    Ref,
    Site,
    StartStopTimer,
    TimedBlock,
    TimerFactory,
    TimerObject,
    TimerRead,
    Value,
)

__all__ = ["FlowAnalysis", "HarnessUse", "Region", "Snapshot", "StmtLoc", "Summary",
           "TooComplex"]


class _CalledNames(cst.CSTVisitor):
    """The plain names called in a body (``fn(*args)``), not in nested functions."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Call(self, node: cst.Call) -> None:
        if isinstance(node.func, cst.Name):
            self.names.add(node.func.value)

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False


def _nested_defs(node: cst.FunctionDef) -> list[cst.FunctionDef]:
    """The functions defined by the statements of ``node``'s body (a decorator's wrapper,
    also under ``@functools.wraps``), not deeper."""
    body = node.body.body if isinstance(node.body, cst.IndentedBlock) else ()
    return [stmt for stmt in body if isinstance(stmt, cst.FunctionDef)]


# The methods of a start/stop timer class (``FlowAnalysis._start_stop``).
START_METHODS = frozenset({"start", "tic", "begin", "restart"})
STOP_METHODS = frozenset({"stop", "toc", "end", "lap", "finish", "elapsed"})


# ``import time``, ``import os, time``, ``from x import time``, ``as time``, ``time =``:
# the module binds the name ``time`` somewhere
_BINDS_TIME = re.compile(
    r"\bimport\b[^\n]*\btime\b|\bas\s+time\b|(?<![\w.])time\s*(?::[^=\n]*)?=(?!=)")


class FlowAnalysis(Statements, Expressions, Calls, Compiles, Backends, Objects, Timers,
                   Harnesses, Device):
    """Abstract interpretation of one module; see the module docstring."""

    def __init__(self, module: cst.Module, extras: names.Extras = names.NO_EXTRAS,
                 index: Mapping[str, Value] | None = None, module_name: str | None = None,
                 code: str | None = None, path: str | None = None,
                 cpython: ast.Module | None = None) -> None:
        """``code``: the module's text, if the caller has it (saves generating it);
        ``path``: where the file is, as the user named it (``compiles.measures_speed``);
        ``cpython``: CPython's tree of ``code``, if the caller parsed it already."""
        self.module = module
        self.path = path
        self._class_names: dict[cst.CSTNode, list[str]] | None = None  # _classes_of
        self._measuring_file: bool | None = None  # see Timers._measures_speed
        self._subtracted_only: frozenset[str] | None = None  # see Timers._only_starts
        self._region_heads: set[int] | None = None  # see Timers._heads_a_region
        # Finding generators walks a function's whole body; most modules have none at all.
        self._code = module.code if code is None else code
        # The top-level statement being run, the one each function was made in, and those
        # in which a clock was read or a harness ran: where reported nodes are (``Positions``
        # places those statements first).
        self._top: cst.CSTNode | None = None
        self.top_of: dict[cst.CSTNode, cst.CSTNode | None] = {}
        self.tops: set[cst.CSTNode] = set()
        self._may_yield = "yield" in self._code
        # shapes and dtypes spelt out are known (``avals.py``); not where x64 may be on, as
        # the default dtype is then another
        self.avals_known = "x64" not in self._code
        self._generators: dict[cst.CSTNode, bool] = {}
        self._periodic: dict[cst.For, bool] = {}  # see _periodic_in
        self._tested_names: set[str] | None = None  # see _periodic_in
        self._call_texts: dict[cst.CSTNode, str] = {}  # see Calls._first_call
        # per function name, whether its definitions are generators (see _is_generator)
        self._verdicts: dict[str, frozenset[bool]] | None = None
        self._cpython: ast.Module | None = cpython  # see cpython_tree
        self._cpython_parsed = cpython is not None
        # Every ``a`` and ``a.b`` that is the start of a dotted name ever bound (``a.b.c``):
        # rebinding a name that is none of them has no attribute paths to forget, which
        # keeps binding constant-time in modules with thousands of names.
        self._parents: set[str] = set()
        self.module_name = module_name
        # the modules ``from M import *`` names, in order, and what an unbound name was
        # found to be of them (``_star_name``)
        self.star_sources: list[str] = []
        self._star_names: dict[str, str | None] = {}
        # the module's text nowhere binds ``time`` (``_qualified``): asked once, when needed
        self._time_unbound: bool | None = None
        self.imported = False  # see run()
        # The analysis' clock (see ``State``) and what happened at each tick, in order: work
        # dispatched (``_journal``) and names bound (``_bound_at``). Compiling calls and idle
        # syncs are in each frame's ``events``.
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
        # Every timer read and pair made, in order: a call of the file's own function reads
        # the clock (and makes pairs) that the caller sees as its own (``Summary.reads``).
        self._read_log: list[Site] = []
        self._pair_log: list[tuple[Site, Site]] = []
        self.bare: dict[Site, cst.Expr] = {}
        # the innermost loop (of its frame) around a timer read; the loops around a
        # compiling call: a region read in a loop that compiles there compiles once of many
        self.read_loop: dict[Site, cst.For | cst.While | None] = {}
        self.loops_of: dict[Site, set[cst.For | cst.While]] = {}
        self.made_in: dict[Site, set[cst.For | cst.While]] = {}  # jitted function -> loops
        self.recompiling: set[Site] = set()  # calls that compile whenever they run
        # such a call -> how it compiles: ("retrace", the lax function), ("fresh_jit", the
        # function that jits anew), ("helper", (the function, how a call inside it does))
        self.recompile_why: dict[Site, tuple[str, object]] = {}
        # calls whose work only fills or rearranges buffers (``names.FILL_CALLS``)
        self.fill_sites: set[Site] = set()
        # calls whose work is a few scalars or a cast: a dtype cast (``jnp.float32(loss)``),
        # a helper given only host numbers that leaves only JAX operations running
        # (``lr = schedule(step)``; ``Summary.leaves_ops_only``)
        self.scalar_sites: set[Site] = set()
        # a timing decorator's wrapper (its def) -> the functions it decorates, each with
        # whether a call of it leaves JAX work running (``Region.uses``)
        self.decorations: dict[cst.CSTNode, list[tuple[cst.FunctionDef, bool]]] = {}
        # the statement after a timer read's (see ``_exec_block``), and the function it is in
        self.next_of: dict[Site, cst.CSTNode | None] = {}
        self.prev_of: dict[Site, cst.CSTNode | None] = {}
        self.scope_of: dict[Site, cst.CSTNode | None] = {}
        # the loops and branches (of its frame) around a timer read or a sync that waited:
        # why a sync in the region does not wait on every path (``path_evidence``)
        self.context_of: dict[Site, tuple[tuple[cst.CSTNode, ...], tuple[cst.CSTNode, ...]]] = {}
        self._next_stmt: cst.CSTNode | None = None
        self._prev_stmt: cst.CSTNode | None = None
        # the start calls of each object of another module's start/stop timer class, by
        # the name that holds it (``StartStopTimer``)
        self._object_starts: dict[str, dict[Site, str | None]] = {}  # -> its label
        # a block's ``if`` statements of one test (``correlated_ifs``), by its first statement
        self._correlated: dict[cst.CSTNode, dict[int, tuple[int, frozenset[cst.If]]]] = {}
        self.bare_ticks: dict[Site, int] = {}  # the latest tick of a dropped result
        self.transfer_where: dict[Site, StmtLoc] = {}
        # the loops (of every frame on the call stack) around a host copy and a timer read:
        # a copy in a loop that the region's start read is not in recurs in the timed work
        # (``Timers.regions``)
        self.transfer_loops: dict[Site, tuple[cst.CSTNode, ...]] = {}
        self.read_loops: dict[Site, tuple[cst.CSTNode, ...]] = {}
        # The loops of its own frame that each site of work is written in (the loops whose
        # bodies hold it), from its dispatch
        self.site_loops: dict[Site, tuple[cst.CSTNode, ...]] = {}
        # Why a site is JAX work, for explanations: ("jitted", the node that made the
        # function), ("api", qualified name), ("helper", the function's node), ("library",
        # None), ("made", None): a function JAX code made; sites not here operate on JAX
        # values (``y @ y``, ``y[0]``).
        self.why: dict[Site, tuple[str, object]] = {}
        # what each call's callee was, when asked (``jaxlint --explain`` on a line with no
        # finding: the calls of a region that jaxlint could not see into): a kind and the
        # qualified name of another module's function ("ref", "numpy.mean"), "unknown" (a
        # value not known here), "object" (a method of an object of a class not known
        # here), or the callee's type; None when not asked (nothing is recorded)
        self.call_log: dict[cst.CSTNode, tuple[str, str]] | None = None
        self._procedures: dict[cst.FunctionDef, bool] = {}  # see Calls.procedure
        # calls of such functions that left JAX work running: their value is None
        self.none_calls: set[cst.CSTNode] = set()
        # with ``call_log``: the statement string a harness times, as parsed (by its node),
        # and the calls that compile (a jitted function's first call, a new static value)
        self.harness_code: dict[cst.CSTNode, cst.Module] = {}
        self.compiling_calls: set[cst.CSTNode] = set()
        # the statement string the last harness ran, as parsed to run it (``_sweeps``)
        self.harness_parsed: cst.Module | None = None
        self.harnesses: dict[cst.CSTNode, HarnessUse] = {}
        self._regions: list[Region] | None = None  # regions(), once the run is over
        self.plan_cache: dict[object, list[tuple[int, int]]] = {}  # for plans, once analysed
        self.plan_blocks: object = None  # plans' map of statement blocks, made once
        # qualified name -> the arguments of each call of it (set by follow_callers on the
        # analysis of a caller's module)
        self.capture: dict[str, list[list[tuple[str | None, str, Value]]]] | None = None
        self._helper_params: dict[cst.CSTNode, set[str]] = {}  # see timing_helpers
        # the element values of the last tuple/list literal evaluated (``a, b = f(x), g(x)``)
        self._last_elements: list[Value] | None = None
        # the entries of the last dict literal evaluated, by their key's code, if all known
        self._last_entries: dict[str, Value] | None = None
        self._timing_harness = 0  # > 0 while interpreting what a harness times
        self.harness_recompiled = False  # what the harness being interpreted times recompiles
        # the jitted calls made while interpreting what a harness times: (function by
        # origin, the call's shapes and dtypes, the call), for ``_new_shape_in_harness``
        self.harness_signatures: list[tuple[Site, avals.Signature | str, Site]] = []
        self.harness_only_lambda = False  # its statement only makes a lambda
        self.harness_host_only = False  # its runs wait for their work only by a host copy
        self.harness_called: set[cst.CSTNode] = set()  # the jitted functions its run calls
        self._comparing = 0  # > 0 while evaluating the operands of a comparison
        # (a clock read, the start readings it is subtracted from) while evaluating
        # ``time.perf_counter() - t0``: that read can end no other region (_snapshot)
        self._partner: tuple[cst.CSTNode, frozenset[Site]] | None = None
        self._under_timer = 0  # > 0 while analysing a call made with a clock running
        self._with_item = 0  # > 0 while evaluating a ``with`` item (it may be a timer)
        self._closure_keys: dict[Func, object] = {}  # see ``closure_key``
        self._constructed: set[cst.ClassDef] = set()  # see ``_construct``
        self._late: LateGlobals | None = None  # see ``module_call``
        self._globals_tag: tuple[object, ...] | None = None  # see ``module_call``
        # for loops with a counter: (counter, its first value's code, the loop, whether the
        # round being interpreted is the first iteration)
        self._counters: list[tuple[str, str, cst.For, bool]] = []
        self._memo: dict[tuple[object, ...], Summary] = {}
        self._active: set[tuple[object, ...]] = set()
        self._frames: list[Frame] = []
        self._module_frame = Frame(func=None)
        self._entry_called: frozenset[cst.CSTNode] | None = None  # see Frame.judges_module
        # a jitted function of another module of the project -> this file's node for it
        self._imported_jits: dict[str, cst.CSTNode] = {}
        # such a function called while no clock reading was held (not looked up then, see
        # ``Calls._call_ref``) -> its calls, each with the function it is in: a timed call
        # of it with static values asks what those calls gave (``Calls._warm_variants``)
        self._unlooked_calls: dict[cst.CSTNode, dict[Site, cst.CSTNode | None]] = {}
        # ``for k in (8, 16):`` being interpreted: (its variable, the values it takes, the loop)
        self._loop_literals: list[tuple[str, list[str], cst.For]] = []
        # literal-sequence loops being interpreted, each with the literal texts its names
        # hold in the round being interpreted (``Statements._literal_rounds``)
        self._round_literals: list[tuple[Frame, dict[str, str]]] = []
        self._loop_shapes: list[tuple[str, list[str], cst.For]] = []  # (see avals.made)
        # Binding targets given an integer literal (``n_warmup = 0``, ``def bench(reps=5)``):
        # a loop over ``range`` of one that is not positive never runs.
        self.int_bound: dict[cst.CSTNode, int] = {}
        # Binding targets given a literal (``SYNC = True``, ``BACKEND = "jax"``): a test of a
        # name every binding of which gives the same one is decided (``_bound_literal``)
        self.literal_bound: dict[cst.CSTNode, str] = {}
        self._declared_global: set[str] | None = None  # names ``global``/``nonlocal`` name
        # Binding targets given a loop counter (``pbar = trange(n)``) -> its first value.
        self.counter_bound: dict[cst.CSTNode, str] = {}
        # ``args = parser.parse_args()`` names and the int defaults of its arguments; loops
        # of known count with a periodic test -> (counter, last value); the last round
        # being run (``Statements._loop_rounds``)
        self.parsed_args: set[str] = set()
        self.argparse_defaults: dict[str, int] = {}
        self._last_rounds: dict[cst.CSTNode, tuple[str, int]] = {}
        self._final_rounds: dict[str, int] = {}
        # tick ranges ``(after, upto]`` of the first run of a correlated block while its
        # second runs (``Statements._exec_correlated``): events a read of it does not see
        self._hidden_ticks: list[tuple[int, int]] = []
        # the integer arguments each function was analysed with (``calls.MAX_INT_VARIANTS``)
        self._int_variants: dict[cst.CSTNode, set[tuple[tuple[str, int], ...]]] = {}
        self._periodic_names: dict[str, cst.FunctionDef] | None = None
        self._periodic_fns: dict[cst.FunctionDef, bool] = {}
        # When each jitted function (by origin) was last made, on the analysis' clock, and
        # for each compiling call's event (by tick), the function it compiles, when that was
        # made, and whether the frame knew what the module called before; the origins that
        # wrappers of one function share, and where each is made (``Compiles._jit_origin``);
        # the statement line of each timer read (its comments may name the compile).
        self.made_at: dict[Site, int] = {}
        self.compile_events: dict[int, tuple[Site, int, bool, tuple[cst.CSTNode | None, str],
                                             bool, frozenset[cst.CSTNode]]] = {}
        # (jitted function, (scope, the call's code)) of calls made warm while a clock
        # reading was held
        self.warm_timed: set[tuple[Site, tuple[cst.CSTNode | None, str]]] = set()
        self.shared_sites: dict[Site, set[Site]] = {}
        self._shared_jits: dict[object, Site] = {}
        self._shared_origins: set[Site] = set()
        self._memo_origins: dict[object, Site] = {}
        self.memoised: set[cst.CSTNode] = set()  # ``def``s memoised by functools
        self.jax_backed: set[str] = set()  # libraries switched to JAX here (``backends``)
        self.read_lines: dict[Site, cst.CSTNode] = {}
        # per scope, its statements by the names they mention (``Timers._uses_of``)
        self._uses_index: dict[cst.CSTNode | None, dict[str, list[cst.BaseSmallStatement]]] = {}
        self._may_name: bool | None = None
        self._may_dispatch: bool | None = None  # the module's text spells "dispatch"
        # stamps appended to a list that is differenced (``Timers._stamp``): each is the
        # stop of one round's region (a log of rounds: only the first carries a compile)
        self.stamp_reads: set[Site] = set()
        self.cleared_compiles: set[Site] = set()  # first calls after ``jax.clear_caches()``
        # calls that compile again for new shapes or dtypes -> (those compiled before, these)
        self.shape_compiles: dict[Site, tuple[str, str, str]] = {}  # before, kind, now
        # calls given an array a loop around them makes longer on every round: they compile
        # on every round (the name, the loop, the assignment that grows it)
        self.grown_compiles: dict[Site, tuple[str, cst.For | cst.While, cst.Assign]] = {}
        self._growth: dict[cst.CSTNode, dict[str, cst.Assign]] = {}  # see _grows_in
        # per jitted function, the shapes and dtypes of its calls so far -> where made
        self.signatures_seen: dict[Site, dict[avals.Signature | str, set[Site]]] = {}
        # calls written as syncs that cannot wait -> why: "no_argument"
        # (``jax.block_until_ready()`` raises TypeError), "uncalled" (``y.block_until_ready``
        # without the call), "container" (``(a, b).block_until_ready()`` raises
        # AttributeError), "generator" / "iterator" (a dict view, ``iter(...)``) / "record"
        # (one leaf that is no array: nothing waited for), "effects_barrier" (waits for
        # effects only), "one_shard" (one device's part of a value spread over devices:
        # ``out[0]`` of a pmapped result)
        self.no_op_syncs: dict[Site, str] = {}
        # a clock read -> the work of the user's functions still running when it was made,
        # dispatched since the frame's previous read (a warm-up left unsynced): JAX106
        self.left_running: dict[Site, frozenset[Site]] = {}
        self.read_ticks: dict[Site, list[int]] = {}  # a clock read -> the ticks it was made at
        self._diffed: dict[str, bool] = {}
        self._stmt_line: cst.CSTNode = module
        self._loc: StmtLoc = StmtLoc(module, False)
        self._scope_texts: dict[cst.CSTNode, ScopeText] = {}  # see Timers._live_starts
        self._funcs: list[Func] = []
        self._klass: Klass | None = None
        # while a class body runs: its frame, and the names of the scope the class
        # statement is in (the module's at its top level), which the body reads
        # (``@partial(jax.jit, ...)``); not the functions it calls, which read their own
        self._class_outer: tuple[Frame, Mapping[str, Value]] | None = None
        # the file's classes (the latest made by each class statement) and their subclasses
        self._klasses: dict[cst.ClassDef, Klass] = {}
        self._subclasses: dict[cst.ClassDef, set[cst.ClassDef]] = {}

    def current_top(self) -> cst.CSTNode | None:
        """The top-level statement whose code is being run (a function's: the statement
        it was made in)."""
        fn = self.frame.func if self._frames else None
        return self.top_of.get(fn.node, self._top) if fn is not None else self._top

    @property
    def text(self) -> str:
        """The module's source text, as parsed."""
        return self._code

    @contextmanager
    def module_call(self, st: State, fn: Func) -> Iterator[None]:
        """A call of ``fn`` made by the module's own code: the function reads the module's
        names as they are at the call (``LateGlobals``: names bound again further down,
        which the globals of the whole module, ``self.globals``, hold at their last
        binding). A notebook's NumPy ``T`` timed before the cell that redefines it under
        ``@jax.jit`` is NumPy. Calls of calls see the same (the names the function reads
        through the module's functions it names); the memo tells such calls apart."""
        if self._late is None:
            tree = self.cpython_tree()
            self._late = LateGlobals(tree if tree else ast.Module([], []), self._code)
        top = self.top_of.get(fn.node, fn.node)
        name = top.name.value if isinstance(top, (cst.FunctionDef, cst.ClassDef)) else None
        late = sorted(self._late.reads(name)) if name else ()
        if not late or self._globals_tag is not None:
            yield
            return
        saved: dict[str, Value] = {}
        missing: list[str] = []
        for n in late:
            if n in st.env:
                if n in self.globals:
                    saved[n] = self.globals[n]
                else:
                    missing.append(n)
                self.globals[n] = st.env[n]
        self._globals_tag = (tuple(late), tuple(self._key_of(self.globals.get(n)) for n in late))
        try:
            yield
        finally:
            self._globals_tag = None
            self.globals.update(saved)
            for n in missing:
                self.globals.pop(n, None)

    def cpython_tree(self) -> ast.Module | None:
        """CPython's tree of the module's text, parsed once when first asked (whether a
        function is a generator; where each top-level statement begins, for positions);
        None where this Python cannot parse it."""
        if not self._cpython_parsed:
            self._cpython, self._cpython_parsed = cpython_tree(self._code), True
        return self._cpython

    # ------------------------------------------------------------------ driver
    def run(self, functions: bool = True, imported: bool = False) -> FlowAnalysis:
        """``functions``: also analyse every function's body for its regions (not needed
        to answer what another module asks: ``export`` analyses what it is asked for).
        ``imported``: the module runs as an import of it would run it, its
        ``if __name__ == "__main__":`` block not taken (a training script's whole loop,
        which another module importing its model or its functions never runs)."""
        self.imported = imported
        # Pass 1 learns what module-level names hold, so that functions see globals bound
        # after their definition; pass 2 is the real run, with those globals.
        end = self._run_module()
        self.globals = dict(end.env)
        self._reset()
        end = self._run_module()
        # Pass 1 ran module-level calls of the file's functions before their globals were
        # known (``step = make_step(loss)`` where make_step uses ``jax``): what pass 2 learnt
        # of names pass 1 could not tell is what the functions analysed next see.
        learnt = {k: v for k, v in end.env.items()
                  if v is not None and self.globals.get(k) is None}
        # So do the attributes a class's constructor stores that pass 1 could not tell
        # (``self._clock = clock``, its default ``time.perf_counter`` a global not yet
        # bound): the class object pass 1 made, which the globals hold, learns them.
        grown = False
        for k, v in end.env.items():
            old = self.globals.get(k)
            if isinstance(old, Klass) and isinstance(v, Klass) and old is not v:
                # (functions stored on the object only: other attributes pass 2 saw,
                # a reading held, are one call's and not the class's)
                missing = {a: m for a, m in v.members.items()
                           if isinstance(m, Ref) and old.members.get(a) is None}
                old.members.update(missing)
                grown = grown or bool(missing)
        if learnt or grown:
            self.globals.update(learnt)
            self._memo.clear()
        if not functions:
            return self
        self.asv_suites()
        done: set[object] = set()
        i = 0
        while i < len(self._funcs):
            fn = self._funcs[i]
            i += 1
            key = (fn.node, self.closure_key(fn))
            if key in done:
                continue
            done.add(key)
            self._call_function(fn, self._default_params(fn))
        return self

    def _reset(self) -> None:
        self.snapshots.clear()
        self.where.clear()
        self.pairs.clear()
        self._read_log.clear()
        self._pair_log.clear()
        self.bare.clear()
        self.read_loop.clear()
        self.loops_of.clear()
        self.made_in.clear()
        self.recompiling.clear()
        self.recompile_why.clear()
        self.fill_sites.clear()
        self.decorations.clear()
        self.next_of.clear()
        self.prev_of.clear()
        self.scope_of.clear()
        self.context_of.clear()
        self.bare_ticks.clear()
        self.recorded = 0  # pass 1's snapshots are gone: only the real run's count
        self._journal.clear()
        self._bound_at.clear()
        self.transfer_where.clear()
        self.transfer_loops.clear()
        self.read_loops.clear()
        self.site_loops.clear()
        self.why.clear()
        self._regions = None
        self._region_heads = None
        self.harnesses.clear()
        self.made_at.clear()
        self._shared_jits.clear()
        self._shared_origins.clear()
        self._memo_origins.clear()
        self.compile_events.clear()
        self.jax_backed.clear()
        self.stamp_reads.clear()
        self.cleared_compiles.clear()
        self.shape_compiles.clear()
        self.grown_compiles.clear()
        self._growth.clear()  # (pass 1 read it without the module's imports)
        self.signatures_seen.clear()
        self.no_op_syncs.clear()
        self.none_calls.clear()
        self.left_running.clear()
        self.read_ticks.clear()
        self.warm_timed.clear()
        self.shared_sites.clear()
        self.read_lines.clear()
        self._memo.clear()
        self._active.clear()
        self._funcs.clear()

    def _run_module(self) -> State:
        self._module_frame = Frame(func=None)
        self._frames = [self._module_frame]
        st = self._exec_block(self.module.body, State())
        self._frames.pop()
        return st

    @property
    def frame(self) -> Frame:
        return self._frames[-1]

    # ------------------------------------------------------------------ expressions
    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise TooComplex(f"more than {self.max_steps:,} analysis steps")

    # ------------------------------------------------------------------ names
    def _classify(self, q: str) -> CallKind:
        return names.classify(self.as_jax(q), self.extras)

    def _external(self, q: str) -> Value:
        """An imported name, by qualified name. The project index is consulted only at calls
        made where timing is going on (see ``_from_index``): reading the modules every name
        of a file comes from would cost far more than the file itself."""
        return Ref(q)

    def absolute(self, q: str) -> str:
        """``q`` with a relative import resolved against this module's name."""
        if q.startswith(".") and self.module_name:
            dots = len(q) - len(q.lstrip("."))
            package = self.module_name.split(".")[:-dots]
            return ".".join([*package, q.lstrip(".")])
        return q

    def _from_index(self, q: str) -> Value:
        """What the project index knows of ``q`` (None if nothing). A jitted function of
        another module of the project is, to this file, one made when it was imported: its
        first call here compiles (``Frame.judges_module``), unless it was called before."""
        if self.index:
            key = self.absolute(q)
            if key in self.index:
                found = self.index[key]
                if isinstance(found, JaxCallable) and found.jitted and found.origin is None:
                    origin = self.imported_origin(key)
                    self._module_frame.created.add(origin)
                    found = replace(found, origin=origin)
                return found
        return None

    def imported_origin(self, key: str) -> cst.CSTNode:
        """This file's node for the function ``key`` of another module of the project."""
        origin = self._imported_jits.get(key)
        if origin is None:
            origin = self._imported_jits[key] = cst.Name(key.rsplit(".", 1)[-1])
        return origin

    def _may_time(self, q: str) -> bool:
        """Whether ``q`` may be a timer of another module (``ProjectIndex.may_time``): a
        ``with`` item is looked up in the index only then."""
        may_time = getattr(self.index, "may_time", None)
        return True if may_time is None else bool(may_time(self.absolute(q)))

    def _project_computes(self, q: str) -> bool:
        """Whether ``q`` is of a project module that uses JAX (``ProjectIndex.computes``)."""
        computes = getattr(self.index, "computes", None)
        if computes is None:
            return False
        if q.startswith(".") and self.module_name:
            dots = len(q) - len(q.lstrip("."))
            q = ".".join([*self.module_name.split(".")[:-dots], q.lstrip(".")])
        return bool(computes(q))

    def is_external(self, name: str) -> bool:
        """Whether ``name`` at module level is an import or a builtin."""
        value = self.globals.get(name)
        if name in self.globals:
            return isinstance(value, Ref)
        return name in BUILTINS

    def _lookup(self, name: str, st: State) -> tuple[bool, Value]:
        """A name (or ``a.b`` path) in the innermost scope that binds its first part."""
        if "." not in name:  # (most lookups: no list of scopes made)
            if name in st.env:
                return True, st.env[name]
            outer = self._class_outer
            if outer is not None and outer[0] is self.frame and name in outer[1]:
                return True, outer[1][name]
            for scope in self.frame.closure:
                if name in scope:
                    return True, scope[name]
            if self.frame.func is not None and name in self.globals:
                return True, self.globals[name]
            return False, None
        base = name.split(".", 1)[0]
        levels: list[Mapping[str, Value]] = [st.env, *self.frame.closure]
        if self._class_outer is not None and self._class_outer[0] is self.frame:
            levels.insert(1, self._class_outer[1])
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
        if base in BUILTINS:
            return f"builtins.{name}"
        origin = self._star_name(base) if self.star_sources else None
        if origin is None and base == "time" and not self.star_sources:
            # ``time.time()`` where nothing binds ``time`` (its import left behind in the
            # notebook the script came from): the module the author means, as the prefilter
            # takes it. Not where the module binds it (an import, an assignment) and it is
            # unbound only in an analysis made before the module ran.
            if self._time_unbound is None:
                self._time_unbound = _BINDS_TIME.search(self._code) is None
            if self._time_unbound:
                origin = "time"
        return origin + name[len(base):] if origin is not None else None

    def _star_name(self, name: str) -> str | None:
        """What a ``from M import *`` bound ``name`` to, as a dotted name: of the last of
        them, as Python binds them in order, that is a module of the project binding it
        (``ProjectIndex.star_origin``; ``from utils import *`` then ``train_step(state,
        b)``: ``utils.train_step``; a name ``utils`` imports is what it imports). None
        when none is known to (a library's module is known by its name's prefix only,
        ``numpy.*`` the host's, not by what it defines: an unknown name stays unknown, as
        before). A builtin's name is the builtin's (star imports that shadow one, numpy's
        ``sum``, are not followed)."""
        if name in self._star_names:
            return self._star_names[name]
        found = None
        origin = getattr(self.index, "star_origin", None)
        if origin is not None and not name.startswith("_"):
            for source in reversed(self.star_sources):
                found = origin(self.absolute(source), name)
                if found is not None:
                    break
        self._star_names[name] = found
        return found

    def _is_timer(self, value: Value) -> bool:
        """A class whose ``__enter__`` reads the clock and whose ``__exit__`` subtracts that
        reading, or a ``@contextmanager`` function that reads it around its ``yield``."""
        self._frames = [Frame(func=None)]
        if isinstance(value, Func) and isinstance(value.node, cst.FunctionDef) and (
                self._is_generator(value.node)):
            params: dict[str, Value] = {p: None for p in self._positional_params(value.node)}
            return isinstance(self._call_function(value, params).result, TimedBlock)
        if not isinstance(value, Klass):
            return False
        enter, exit_ = value.members.get("__enter__"), value.members.get("__exit__")
        if not isinstance(enter, Func) or not isinstance(exit_, Func):
            return False
        instance = Instance(value)
        entered = self._call_function(enter, self._bind_params(enter, [], instance))
        left = self._call_function(exit_, self._bind_params(exit_, [(None, "", None)] * 3,
                                                            instance))
        return bool(entered.reads) and any(start in entered.reads for _, start in left.pairs)

    def _start_stop(self, klass: Klass) -> StartStopTimer | None:
        """A class whose methods start and stop a clock: one keeps a reading on the object
        (``self.t0[label] = timer()``), another subtracts it (``t - self.t0[label]``). Its
        methods that spell a clock are run on one instance, twice (the second time each
        sees what the others stored), as ``_is_timer`` runs ``__enter__`` and
        ``__exit__``."""
        methods = {
            name: fn for name, fn in klass.members.items()
            if isinstance(fn, Func) and isinstance(fn.node, cst.FunctionDef)
            and not name.startswith("__") and not (
                {dotted(d.decorator) for d in fn.node.decorators}
                & {"staticmethod", "classmethod", "property"})
            and self._reads_clock(fn.node)}
        if len(methods) < 2:
            return None
        instance = Instance(klass)
        summaries: dict[str, Summary] = {}
        for _ in range(2):
            for name, fn in methods.items():
                self._frames = [Frame(func=None)]
                self._memo = {k: v for k, v in self._memo.items() if k[0] is not fn.node}
                summaries[name] = self._call_function(fn, self._bind_params(fn, [], instance))
        # (by name too: ``pause``/``resume`` of a throughput clock time the interval left
        # out of the figure, not a measurement)
        starts = {a for a in methods for b in methods if a != b and a in START_METHODS
                  and b in STOP_METHODS and any(
                      start in summaries[a].reads for _, start in summaries[b].pairs)}
        stops = {b for b in methods for a in starts if a != b and b in STOP_METHODS and any(
            start in summaries[a].reads for _, start in summaries[b].pairs)}
        if not starts or not stops:
            return None
        waiting, copying = set(), set()
        for name in stops:
            # what the stop does with a value it is given (``sw.stop(u)`` that calls
            # ``jax.block_until_ready(u)`` before it reads the clock; an argument's
            # ``is None`` test is not decided in a summary, so this is read off the body)
            fn = methods[name]
            given = {p.name.value for p in params_of(fn.node)}
            for n in walk(fn.node.body):
                if not isinstance(n, cst.Call):
                    continue
                args = {a.value.value for a in n.args if isinstance(a.value, cst.Name)}
                if isinstance(n.func, cst.Attribute) and n.func.attr.value == "block_until_ready":
                    receiver = n.func.value
                    if (isinstance(receiver, cst.Name) and receiver.value in given) or (
                            args & given):
                        waiting.add(name)
                elif args & given:
                    q = self._qualified(n.func)
                    if q is not None and self._classify(self.as_jax(q)) is CallKind.TRANSFER:
                        copying.add(name)
        return StartStopTimer(frozenset(starts), frozenset(stops), frozenset(waiting),
                              frozenset(copying))

    def is_jax_module(self) -> bool:
        """Whether the module is JAX code: it imports jax, a JAX library, or a library it
        switched to JAX (from the names bound at module level; asked only of another
        module's function that computes on what it is given)."""
        return self.imports_jax() or bool(self.jax_backed)

    def imports_jax(self) -> bool:
        """Whether the module imports jax or a JAX library (a name of it at module level)."""
        return any(isinstance(v, Ref) and (v.name == "jax" or v.name.startswith("jax.")
                                           or self.jax_library(v.name + "."))
                   for v in self.globals.values())

    def timing_helpers(self) -> dict[str, Func]:
        """The module's functions that time a call of one of their parameters
        (``def time_it(fn, *args)``: ``t0 = ...; fn(*args); t1 = ...``), or return a
        wrapper that times a call of it (a timing decorator: ``def timer(func)`` and its
        ``wrapper_timer(*args, **kwargs)``): whether the region holds JAX work depends on
        what the callers pass."""
        out: dict[str, Func] = {}
        timed_scopes = {self.scope_of.get(stop) for stop, _ in self.pairs}
        for name, value in self.globals.items():
            if not (isinstance(value, Func) and isinstance(value.node, cst.FunctionDef)):
                continue
            scopes = [value.node] if value.node in timed_scopes else []
            scopes += [d for d in _nested_defs(value.node) if d in timed_scopes]
            params = set(all_params(value.node))
            called: set[str] = set()
            for scope in scopes:
                finder = _CalledNames()
                scope.body.visit(finder)
                called |= finder.names & params
            if not called:
                continue
            out[name] = value
            self._helper_params[value.node] = called
        return out

    def follow_callers(self, helpers: dict[str, Func],
                       by_name: dict[str, list[list[tuple[str | None, str, Value]]]]
                       ) -> None:
        """Analyse each timing helper again as each caller calls it (``by_name``: the
        captured arguments per helper name): a region of the helper then holds the work
        the caller passed. Regions are worked out again afterwards."""
        for name, calls_of in by_name.items():
            fn = helpers.get(name)
            if fn is None:
                continue
            called = self._helper_params.get(fn.node, set())
            seen: set[object] = set()
            for args in calls_of:
                bound = self._bind_params(fn, args, None)
                # only calls that give a called parameter JAX work to run (a progress
                # callback that prints does not make the region's time the device's)
                work = tuple(sorted((p, self._key_of(v)) for p, v in bound.items()
                                    if p in called and self._does_work(v)))
                if not work or work in seen:
                    continue
                seen.add(work)
                self._frames = [Frame(func=None)]
                made = self._call_func(fn, fn.node, args, None, State())
                if isinstance(made, Func) and isinstance(made.node, cst.FunctionDef) and (
                        isinstance(fn.node, cst.FunctionDef)
                        and made.node in _nested_defs(fn.node)):
                    # a timing decorator: the wrapper it returns is what the decorated
                    # function's callers call (with arguments it passes on)
                    self._frames = [Frame(func=None)]
                    self._call_function(made, {p: INPUT for p in
                                               self._positional_params(made.node)})
        self._regions = None
        self._region_heads = None

    def _does_work(self, value: Value) -> bool:
        """Whether calling ``value`` dispatches JAX work it may leave running."""
        if isinstance(value, JaxCallable):
            return not value.synced
        if isinstance(value, LibObject):
            return True
        if isinstance(value, Ref):
            kind = self._classify(value.name)
            if kind is CallKind.WORK:
                return True
            known = self._from_index(value.name) if kind is CallKind.UNKNOWN else None
            if known is not None and not isinstance(known, Ref):
                return self._does_work(known)
            return kind is CallKind.UNKNOWN and (
                self.jax_library(value.name) or self._project_computes(value.name))
        if isinstance(value, Func):
            self._frames = [Frame(func=None)]
            summary = self._call_function(
                value, {p: INPUT for p in self._positional_params(value.node)})
            return summary.work and summary.leaves_work
        return False

    def path_evidence(self, region: Region) -> list[tuple[Site, cst.CSTNode, str]]:
        """Why the region's syncs do not wait on every path to its stop: for each sync
        inside a loop or branch that does not also hold the stop read, (the sync, that loop
        or ``if``, "loop" or "branch"). A loop that provably never runs (``range(0)``, an
        empty literal) holds a sync that never happens; an ``if`` may not be taken."""
        stop_loops, stop_ifs = self.context_of.get(region.stop, ((), ()))
        out: list[tuple[Site, cst.CSTNode, str]] = []
        for sync in region.syncs:
            loops, ifs = self.context_of.get(sync, ((), ()))
            loop = next((x for x in reversed(loops) if x not in stop_loops), None)
            branch = next((x for x in reversed(ifs) if x not in stop_ifs), None)
            if loop is not None:
                out.append((sync, loop, "loop"))
            elif branch is not None:
                out.append((sync, branch, "branch"))
        return out

    def _timer_methods(self, value: Instance) -> frozenset[str]:
        """The methods of an object that are ``@contextmanager`` timers."""
        found = set()
        for attr, member in value.klass.members.items():
            if not (isinstance(member, Func) and isinstance(member.node, cst.FunctionDef)
                    and self._is_generator(member.node)):
                continue
            self._frames = [Frame(func=None)]
            params = self._bind_params(member, [(None, "", None)] * len(
                self._positional_params(member.node)[1:]), value)
            if isinstance(self._call_function(member, params).result, TimedBlock):
                found.add(attr)
        return frozenset(found)

    def all_loops(self) -> tuple[cst.CSTNode, ...]:
        """The loops around the statement being analysed, in its frame and its callers'."""
        return tuple(loop for frame in self._frames for loop in frame.loop_stmts)

    def _works_alone(self, value: Func, top: bool = True, owner: Klass | None = None) -> bool:
        """Whether a function dispatches JAX work even when given no JAX values (it calls
        jnp, a jitted function): else its work is only operations on what it is given
        (``def normalize(x): return (x - x.mean()) / x.std()``), which are not JAX work when
        a PyTorch or NumPy caller gives it its own arrays. ``top``: asked outside any
        interpretation (``export``), not in the middle of one (``Calls._tree_map``).
        ``owner``: the function is a method of that class, called on an instance of it
        (``self._logits(self.params, tokens)`` calls what the constructor stored)."""
        if top:
            self._frames = [Frame(func=None)]
        return self._summarise(value, self._unknown_args(value, owner)).work

    def _unknown_args(self, fn: Func, owner: Klass | None = None) -> dict[str, Value]:
        """``fn``'s positional parameters, none of them known; the first an instance of
        ``owner`` when it is that class's method."""
        positional = self._positional_params(fn.node)
        params: dict[str, Value] = {p: None for p in positional}
        if owner is not None and positional:
            params[positional[0]] = Instance(owner)
        return params

    def _summarise(self, fn: Func, params: dict[str, Value]) -> Summary:
        """``fn`` called with ``params`` as a call made with a clock running would be (what
        another module, or a timing helper's caller, is told of it)."""
        self._under_timer += 1
        try:
            return self._call_function(fn, params)
        finally:
            self._under_timer -= 1

    def _construct(self, klass: Klass) -> None:
        """Run the class's own ``__init__`` once, on an instance, with its arguments not
        known (as another module constructs it: ``engine = Engine(model, params)``), so
        that what it stores on ``self`` is known to the methods summarised for other
        modules (``self._logits = jax.jit(model.apply)``, then ``submit`` calls it). What
        the arguments were is not known: a field set from one is unknown, as it would be in
        the method's summary anyway."""
        if klass.node in self._constructed:
            return
        self._constructed.add(klass.node)
        init = klass.members.get("__init__")
        if isinstance(init, Func) and isinstance(init.node, cst.FunctionDef) and (
                self._positional_params(init.node)):
            self._frames = [Frame(func=None)]
            self._summarise(init, self._unknown_args(init, klass))

    def _clock_helper(self, value: Func) -> Value:
        """A clock helper, as another module's file sees it: a function that returns a
        reading (``def now(): return time.perf_counter()``) is a clock; one that reads the
        clock and subtracts the reading it is given (``def elapsed(t0)``) is a stop read
        (``ElapsedFn``). None for any other function."""
        if isinstance(value.node, cst.Lambda) or not self._reads_clock(value.node):
            return None
        params = self._positional_params(value.node)
        self._frames = [Frame(func=None)]
        given: dict[str, Value] = {p: None for p in params}
        if params:
            given[params[0]] = TimerRead(frozenset({value.node.params}))
        summary = self._call_function(value, given)
        if summary.work:
            return None
        if isinstance(summary.result, TimerRead) and not params:
            return Ref("time.perf_counter")
        if any(start is value.node.params for _, start in summary.pairs):
            return ElapsedFn()
        return None

    def names_clock(self, func: cst.BaseExpression, st: State) -> bool:
        """Whether ``func``, the callee of a call, names a clock (``time.perf_counter``,
        an imported ``perf_counter``), told without evaluating anything."""
        key = dotted(func)
        if key is None:
            return False
        found, value = self._lookup(key, st)
        if not found:
            head, _, rest = key.partition(".")
            found, value = self._lookup(head, st)
            if found and isinstance(value, Ref) and rest:
                value = Ref(f"{value.name}.{rest}")
            elif not found:
                q = self._qualified(func)
                value = Ref(q) if q else None
        return isinstance(value, Ref) and self._classify(value.name) is CallKind.TIMER

    def _reads_clock(self, node: cst.FunctionDef) -> bool:
        """Whether a function's text spells a clock call (``perf_counter(``, or a module
        alias of one: ``_clock = time.perf_counter``): the gate before analysing it."""
        return self._spells_clock(node.body)

    def _spells_clock(self, node: cst.CSTNode | None) -> bool:
        """Whether the text of ``node`` (a block, an ``else``) spells a clock call."""
        if node is None:
            return False
        text = self.module.code_for_node(node)
        aliases = [k for k, v in self.globals.items()
                   if isinstance(v, Ref) and self._classify(v.name) is CallKind.TIMER]
        return any(t.rsplit(".", 1)[-1] + "(" in text for t in names.TIMERS) or any(
            a + "(" in text for a in aliases)

    def export(self, name: str) -> Value:
        """What another module of the project needs to know of the module-level ``name``:
        a timer (class, ``@contextmanager``, object with timer methods), a jitted function,
        or a function's summary: it computes, waits for its arguments, copies them, or
        (``INERT``) none of these. None: nothing to tell (not a function or timer).

        Computed when asked: a module imported for one function is not analysed whole.
        What the function calls of other modules is looked up in the index, as for a call
        made with a clock running. (A timer the module imports from another module, as a
        package's ``__init__`` re-exporting ``Timer``, is followed by the index itself:
        ``ProjectIndex._lookup``.)"""
        owner: Klass | None = None
        if "." in name:
            # ``Logger.print_stats``: a method of a class of this module, asked for by a
            # module that holds an instance (``logger = Logger(...)``, then
            # ``logger.print_stats(state, step)``): summarised as a function whose first
            # parameter is an instance of the class, whose fields are not known
            cls, _, attr = name.partition(".")
            klass = self.globals.get(cls)
            if not isinstance(klass, Klass) or "." in attr:
                return None
            owner, value = klass, klass.members.get(attr)
            if not (isinstance(value, Func) and isinstance(value.node, cst.FunctionDef)) or (
                    {dotted(d.decorator) for d in value.node.decorators}
                    & {"staticmethod", "classmethod", "property"}):
                return None
        else:
            value = self.globals.get(name)
        if self._is_timer(value):
            return TimerFactory()
        if isinstance(value, Klass) and owner is None:
            paired = self._start_stop(value)
            if paired is not None:
                return paired
        if isinstance(value, Instance):
            methods = self._timer_methods(value)
            return TimerObject(methods) if methods else None
        if isinstance(value, JaxCallable):
            # (its origin is a node of this module: the importer gives it one of its own)
            return JaxCallable(value.synced, value.jitted, static=value.static)
        if not (isinstance(value, Func) and isinstance(value.node, cst.FunctionDef)):
            return None
        clock = self._clock_helper(value)
        if clock is not None:
            return clock
        if owner is not None:
            self._construct(owner)
        self._frames = [Frame(func=None)]
        # Summarised as most calls make it: parameters with a default are left at it
        # (``def get(tree, as_numpy=True)`` copies to the host).
        defaulted = {p.name.value for p in params_of(value.node) if p.default}
        positional = self._positional_params(value.node)
        params: dict[str, Value] = {p: INPUT for p in positional if p not in defaulted}
        if owner is not None and positional:
            params[positional[0]] = Instance(owner)
        summary = self._summarise(value, params)
        made = summary.result
        if isinstance(made, JaxCallable) and made.jitted and made.origin in summary.made:
            return JitFactory(made.static)  # ``step = make_step()``: a fresh jitted function
        if summary.work and summary.leaves_work:
            # (a function that waits, then calls JAX again and leaves that running, is no
            # sync; one that waits and then only operates on values, maybe host ones, is)
            synced = (summary.waits or summary.waits_by_transfer) and not summary.leaves_calls
            if owner is not None and not synced and summary.unknown:
                # A method that leaves work running, as far as can be seen, but hands JAX
                # values to something not known here (a field set from a constructor
                # argument, ``self.engine.step(...)``; an object it was given): that may
                # well wait (read tokens to the host each step), so nothing is told.
                return None
            return JaxCallable(synced=synced,
                               needs_jax_args=not self._works_alone(value, owner=owner),
                               host_result=synced and (owner is not None or _host_result(made)),
                               method=owner is not None, host_module=not self.is_jax_module(),
                               by_transfer=synced and not summary.waits
                               and not summary.copies_per_round)
        if summary.work:
            # its own work is finished when it returns
            return JaxCallable(synced=True,
                               needs_jax_args=not self._works_alone(value, owner=owner),
                               host_result=owner is not None or _host_result(made),
                               method=owner is not None, host_module=not self.is_jax_module(),
                               by_transfer=summary.own_by_transfer
                               and not summary.copies_per_round)
        if summary.waits_for_args:
            return Ref("jax.block_until_ready")
        if summary.transfers_args:
            return Ref("jax.device_get")
        return Ref(names.INERT)


def _host_result(made: Value) -> bool:
    """Whether what a function returned is no JAX value: nothing, or what the host made
    (a summary's result: a JAX value, or a function or object that may hold one, is not)."""
    return made is None or isinstance(made, HostValue)
