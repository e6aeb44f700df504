"""Benchmark harnesses: ``timeit`` (callables and statement strings), ``timeit.Timer``,
pytest-benchmark's ``benchmark`` fixture, asv (airspeed velocity) suites. Each timed run
must leave no JAX work pending;
the timed callable is interpreted as a call, a statement string is parsed and run in the
namespace timeit would give it.
"""

from __future__ import annotations

import re
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis import avals
from jaxlint.analysis.calls import Frame
from jaxlint.analysis.compiles import (
    COMPILE_WORDS,
    EXCLUDES_COMPILE,
    FIGURE_WORDS,
    comments_of,
    drops_first_rounds,
    only_compile,
)
from jaxlint.analysis.magics import NOTEBOOK_TIMEIT, ONCE, timeit_options, timeit_options_end
from jaxlint.analysis.names import CallKind
from jaxlint.analysis.state import State
from jaxlint.analysis.syntax import counter_start, dotted, walk
from jaxlint.analysis.table import Table
from jaxlint.analysis.timers import bound_names, fed_in, only_words, repeated_unfed
from jaxlint.analysis.values import (
    Func,
    Instance,
    JaxCallable,
    Ref,
    Value,
)

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis


@dataclass
class HarnessUse:
    """A benchmark harness call (``timeit.timeit``, ``Timer(...).repeat``, ``benchmark(fn)``)
    and whether what it times leaves JAX work unsynced when each run ends."""

    call: cst.CSTNode  # the call that runs the timing (an asv method: its name)
    stmt: cst.BaseExpression  # what is timed: a callable expression or a statement string
    setup: cst.BaseExpression | None = None
    has_globals: bool = False
    fixture: bool = False  # pytest-benchmark: the timed callable gets the call's other args
    unsynced: bool = False
    namespace: cst.Dict | None = None  # globals={...} given as a dict literal
    # each run compiles anew (it makes a jitted function of a function made anew and calls
    # it, or runs eager lax control flow over one): every timed run includes compilation
    recompiles: bool = False
    asv: bool = False  # an asv benchmark method (``time_*``): asv itself times its body
    # the statement string is a lambda expression (``%timeit lambda: f(x)``): each run makes
    # the function and never calls it, so nothing it would compute is timed
    only_lambda: bool = False
    # each timed run waits for the JAX work it dispatched only through a copy to the host
    # (``lambda: np.asarray(f(x))``, ``"jax.device_get(f(x))"``), no real sync and no loop
    # copying round by round: the transfer is timed too (JAX104)
    host_only: bool = False
    # a ``%time`` (one run) of the first call of a jitted function, named for the compile
    # alone by the comment above it or a message printed just before (``print("jit
    # compilation:")``): the call returns once compiled, so the figure is what it claims
    # (no JAX102 for the run it leaves going, as for a region named so)
    names_compile_only: bool = False
    # a jitted function (by origin) whose first call is in the first timed run, when the
    # harness's figure holds that run (``timeit.timeit``, ``%timeit -n 100``): JAX105
    first_compile: cst.CSTNode | None = None
    first_name: str | None = None  # the name the timed code calls it by
    # a call in the timed code whose arrays have shapes or dtypes (as the code spells them)
    # other than every earlier call of its jitted function before the harness: the first
    # timed run compiles it again (call, shapes before, shapes now), when the figure holds
    # that run, or it is ``%time``'s one run (judged as a region is)
    new_shape: tuple[cst.CSTNode, str, str, str] | None = None  # call, before, kind, now


class Harnesses:
    """The harnesses part of ``FlowAnalysis`` (see the module docstring)."""

    # ------------------------------------------------------------------ harnesses
    def _harness(self: FlowAnalysis, report: cst.Call, source: cst.Call,
                 args: list[tuple[str | None, str, Value]], st: State,
                 fixture: bool = False) -> None:
        """Record a harness call and whether each timed run leaves JAX work unsynced."""
        top = self.current_top()
        if top is not None:
            self.tops.add(top)
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
        self.harness_recompiled = self.harness_only_lambda = self.harness_host_only = False
        # ``get_ipython().run_line_magic("timeit", "-n 1 -r 3 f(x)")``: its options first
        name = report.args[0].value if report.args else None
        magic = (isinstance(report.func, cst.Attribute)
                 and report.func.attr.value == "run_line_magic"
                 and isinstance(name, cst.SimpleString) and name.evaluated_value == "timeit")
        # (running what it times moves them)
        here, line, before = self._loc.node, self._stmt_line, self._prev_stmt
        called, self.harness_called = self.harness_called, set()
        signatures, self.harness_signatures = self.harness_signatures, []
        self.harness_parsed = None
        try:
            unsynced = self._leaves_work(stmt[0], stmt[1], setup[0] if setup else None,
                                         fn_args, st, namespace, magic)
            # (the statement string as parsed to run it, for ``_sweeps``)
            timed_code = self.harness_parsed if isinstance(
                stmt[0], (cst.SimpleString, cst.ConcatenatedString)) else None
            first = sorted((o for o in self.harness_called
                            if o not in st.called and self._made_here(o, st)),
                           key=lambda o: self.made_at.get(o, -1))
            reshaped = self._new_shape_in_harness(st)
            # (the harness ran them, on these shapes: a later call of the same function on
            # them compiles nothing)
            st.called = st.called | self.harness_called | {
                (origin, "aval", signature) for origin, signature, _ in self.harness_signatures
                if origin in self.harness_called}
        finally:
            self.harness_called = called
            self.harness_signatures = signatures
        recompiled, self.harness_recompiled = self.harness_recompiled, False
        only_lambda, self.harness_only_lambda = self.harness_only_lambda, False
        # (not an exported script's ``%%time``, ``run_cell_magic("time", ...)``, whose
        # printed result is what the cell shows: the fixtures hold it so. A notebook's
        # ``%time`` keeps JAX104: measured, see the README)
        once = (isinstance(report.func, cst.Attribute)
                and report.func.attr.value in ("run_line_magic", "run_cell_magic")
                and isinstance(name, cst.SimpleString) and name.evaluated_value == "time")
        host_only, self.harness_host_only = (
            self.harness_host_only and not unsynced and not once), False
        use = self.harnesses.get(report)
        fresh = use is None
        if use is None:
            use = HarnessUse(report, stmt[0], setup[0] if setup else None,
                             "globals" in keyword or len(positional) > 4, fixture,
                             namespace=namespace)
            self.harnesses[report] = use
        use.unsynced = use.unsynced or unsynced
        use.recompiles = use.recompiles or recompiled
        use.only_lambda = use.only_lambda or only_lambda
        # (every interpretation of the call must find its runs waiting by a copy alone)
        use.host_only = host_only and (use.host_only or fresh)
        if (once or ONCE in keyword) and first:
            notes = comments_of(line, above=True)
            if isinstance(before, cst.SimpleStatementLine) and only_words(before):
                notes += " " + self.module.code_for_node(before)
            if COMPILE_WORDS.search(notes) and not EXCLUDES_COMPILE.search(notes) and (
                    only_compile(notes)):
                use.names_compile_only = True
        if reshaped is not None and use.new_shape is None and not recompiled and (
                ((once or ONCE in keyword) and not self._names_compile(here, line,
                                                                         before=before))
                or self._figure_holds_first_run(report, source, keyword, fixture, here, line,
                                                single_counts=True, before=before)):
            use.new_shape = reshaped
        if first and use.first_compile is None and not recompiled and (
                self._figure_holds_first_run(report, source, keyword, fixture, here, line,
                                             before=before)
                or ((once or ONCE in keyword)
                    and not self._names_compile(here, line, before=before)
                    and timed_code is not None and self._sweeps(timed_code, first, st))):
            use.first_compile = first[0]
            # the name the timed code calls it by (``selu_jit``), for the message
            code = stmt[0].evaluated_value if isinstance(stmt[0], cst.SimpleString) else (
                self.module.code_for_node(stmt[0]))
            for word in re.findall(r"[A-Za-z_]\w*", code if isinstance(code, str) else ""):
                held = st.env.get(word)
                if isinstance(held, JaxCallable) and held.origin is first[0]:
                    use.first_name = word
                    break

    def _names_compile(self: FlowAnalysis, stmt: cst.CSTNode, line: cst.CSTNode,
                       text: str | None = None, before: cst.CSTNode | None = None) -> bool:
        """Whether the harness's statement (``text``, its code), a comment on its line or
        just above it, or a message printed just before it (``before``, a line that only
        prints text) names the compile (``compile_time = timeit.timeit(...)``, ``# the
        first call compiles the function: rerun the cell``, ``print("JIT (with
        compile-time):")``): a compile measured knowingly, as a region's heading says."""
        if text is None:
            text = self.module.code_for_node(stmt)
        notes = text + " " + comments_of(line, above=True)
        if isinstance(before, cst.SimpleStatementLine) and only_words(before):
            notes += " " + self.module.code_for_node(before)
        return bool(COMPILE_WORDS.search(notes)) and not EXCLUDES_COMPILE.search(notes)

    def _sweeps(self: FlowAnalysis, code: cst.Module, first: list[cst.CSTNode],
                st: State) -> bool:
        """Whether a ``%%time`` cell's code (``code``, the string the magic runs, as parsed
        to run it) calls a function whose first call it makes (``first``, by origin) on
        every round of a loop over a counter, given no earlier round's results
        (``z[i, j] = f(x[i], y[j])``, ``timers.repeated_unfed``): its one run is a total
        over many calls, which measures their speed as a region's loop does
        (``Timers._measures_speed``), and the compile in its first round is in it."""
        origins = set(first)
        for loop in walk(code):
            if not (isinstance(loop, cst.For) and counter_start(loop.iter) is not None):
                continue
            fed = None
            for call in walk(loop.body):
                if not isinstance(call, cst.Call):
                    continue
                held = self._lookup(dotted(call.func) or "", st)[1]
                if isinstance(held, JaxCallable) and held.origin in origins:
                    fed = fed if fed is not None else fed_in(loop)
                    if repeated_unfed(loop, call, fed):
                        return True
        return False

    def _new_shape_in_harness(self: FlowAnalysis, st: State
                              ) -> tuple[cst.CSTNode, str, str, str] | None:
        """The first call the harness just interpreted (``harness_signatures``) of a jitted
        function this frame judges, whose array arguments have known shapes or dtypes that
        differ from those of every call of it before the harness (``st.called``): its
        first timed run compiles it again (``avals``)."""
        for origin, signature, node in self.harness_signatures:
            if isinstance(signature, str) or not self._made_here(origin, st):
                continue
            before = avals.recompiled_from(avals.called_with(origin, st.called), signature)
            if before is not None:
                return (node, *before)
        return None

    def _figure_holds_first_run(self: FlowAnalysis, report: cst.Call, source: cst.Call,
                                keyword: dict[str, tuple[cst.BaseExpression, Value]],
                                fixture: bool, stmt: cst.CSTNode, line: cst.CSTNode,
                                single_counts: bool = False,
                                before: cst.CSTNode | None = None) -> bool:
        """Whether the figure a harness reports holds its first timed run (where a jitted
        function called for the first time compiles): ``timeit.timeit`` sums every run;
        ``timeit.repeat`` too, unless only the best repeat is used (``min(times)``);
        ``%timeit -n 100`` makes no calibration runs (without ``-n`` IPython picks the
        loop count from runs it does not report, and those absorb the compile);
        pytest-benchmark's ``pedantic`` without ``warmup_rounds``. Not ``autorange``, nor
        pytest-benchmark's calibrated ``benchmark(fn)``, nor asv (they calibrate or warm up
        first), nor ``%time`` (one run, judged as a region is), nor a figure named for
        the compile (``compile_time = timeit.timeit(..., number=1)``). A figure of the first
        run alone (``number=1``, ``%timeit -n 1 -r 1``) times one cold call, as ``%time``
        does: it speaks only where the code says it measures speed, as for a region
        (``compiles.measures_speed``); with ``single_counts``, everywhere (a run that
        compiles again for a new shape is reported wherever it is, as in a region)."""
        func = report.func
        attr = func.attr.value if isinstance(func, cst.Attribute) else (
            func.value if isinstance(func, cst.Name) else "")
        text = self.module.code_for_node(stmt)
        if self._names_compile(stmt, line, text, before):
            return False
        counts: list[cst.BaseExpression | str | None] = []  # what the figure averages over
        if attr in ("run_line_magic", "run_cell_magic"):
            name = report.args[0].value if report.args else None
            if not (isinstance(name, cst.SimpleString) and name.evaluated_value == "timeit"):
                return False
            options = report.args[1].value if len(report.args) > 1 else None
            if not isinstance(options, cst.SimpleString):
                return False
            given = options.evaluated_value
            found = timeit_options(given, 0) if isinstance(given, str) else None
            if not isinstance(given, str) or found is None or "n" not in found[1]:
                return False
            counts = [_option(given, "n"), _option(given, "r") or "7"]
        elif fixture:
            if attr != "pedantic" or "warmup_rounds" in keyword:
                return False
            # (one round of one iteration unless told: a single cold run)
            counts = [_arg(report, "rounds", None) or "1",
                      _arg(report, "iterations", None) or "1"]
        elif attr == NOTEBOOK_TIMEIT:
            if "number" not in keyword:
                return False  # a notebook's ``%timeit`` without ``-n``
            counts = [_arg(report, "number", None), _arg(report, "repeat", None) or "7"]
        elif attr == "timeit":  # ``timeit.timeit(stmt, setup, timer, number)``
            counts = [_arg(report, "number", 0 if report is not source else 3)]
        elif attr == "repeat":  # ``timeit.repeat(stmt, setup, timer, repeat, number)``
            counts = [_arg(report, "number", 1 if report is not source else 4),
                      _arg(report, "repeat", 0 if report is not source else 3) or "5"]
        else:
            return False
        running = self.frame.func  # (the function the harness is called in)
        if not single_counts and all(_literal_int(c) == 1 for c in counts) and not (
                self._named_for_speed(running.node if running is not None else None)
                or FIGURE_WORDS.search(text)):
            # The figure is the first run alone (``timeit.timeit(..., number=1)``,
            # ``%timeit -n 1 -r 1``): a cold call timed as ``%time`` times one, which is a
            # measurement of speed only where the region's policy says so (its file or
            # function is named for it, or the statement prints a latency or a rate).
            return False
        if attr != "repeat":
            return True
        # ``min(timeit.repeat(...))``, or ``times = timeit.repeat(...)`` used as ``min(times)``
        if drops_first_rounds(text.replace(self.module.code_for_node(report), "_runs_"),
                              {"_runs_"}):
            return False
        targets = bound_names(stmt)
        if targets:
            text = (self.module.code_for_node(self.frame.func.node)
                    if self.frame.func is not None else self._code)
            return not drops_first_rounds(text, targets)
        return True

    def _leaves_work(self: FlowAnalysis, node: cst.BaseExpression, value: Value,
                     setup: cst.BaseExpression | None,
                     fn_args: list[tuple[str | None, str, Value]], st: State,
                     namespace: cst.Dict | None = None, magic: bool = False) -> bool:
        """Whether running the timed callable or statement leaves JAX work pending.
        ``magic``: the statement is a ``%timeit`` line's, options included."""
        if isinstance(node, (cst.SimpleString, cst.ConcatenatedString)):
            return self._statement_leaves_work(node, setup, st, namespace, magic)
        if isinstance(value, Func):
            params = self._bind_params(value, fn_args, None)
            self._timing_harness += 1
            try:
                summary = self._call_function(value, params)
            finally:
                self._timing_harness -= 1
            # (a callable that jits a function made anew and calls it, given to the harness
            # itself, as when a statement or a helper the harness runs calls it)
            self.harness_recompiled = (self.harness_recompiled or summary.recompiles
                                       or summary.fresh_jit)
            self.harness_called |= summary.jit_calls
            self.harness_host_only = (summary.work and summary.own_by_transfer
                                      and not summary.leaves_running
                                      and self._copies_once(value.node, st.env))
            return summary.leaves_running
        if isinstance(value, JaxCallable):
            return not value.synced
        if isinstance(value, Ref):
            known = self._from_index(value.name)
            if known is not None:
                return self._leaves_work(node, known, setup, fn_args, st, namespace)
            return self._classify(value.name) is CallKind.WORK
        return False

    def _statement_leaves_work(self: FlowAnalysis, node: cst.SimpleString | cst.ConcatenatedString,
                               setup: cst.BaseExpression | None, st: State,
                               namespace: cst.Dict | None = None, magic: bool = False) -> bool:
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
        scratch = State(env=Table(env), bound=Table((name, True) for name in env))
        warmed: set[cst.CSTNode] = set()
        for code in (setup, node):
            text = code.evaluated_value if isinstance(
                code, (cst.SimpleString, cst.ConcatenatedString)) else None
            if not isinstance(text, str):
                continue
            if magic and code is node:
                end = timeit_options_end(text, 0)  # ``-n 1 -r 3 f(x)`` -> ``f(x)``
                if end is None:
                    return False  # IPython refuses the options: nothing runs
                text = text[end:]
            try:
                parsed = cst.parse_module(textwrap.dedent(text))
            except Exception:  # not Python: timeit would fail too; nothing to judge
                return False
            if code is node and self.call_log is not None:
                self.harness_code[node] = parsed
            if code is node and _only_lambda(parsed):
                # ``%timeit lambda: f(x)``: each run makes the function and calls nothing
                self.harness_only_lambda = True
                return False
            saved, calls = self._loc, self.frame.jit_calls
            self.frame.jit_calls = set()
            self._timing_harness += 1
            copied_before = set(scratch.transferred)
            outer = set(self.all_loops())
            try:
                scratch = self._exec_block(parsed.body, scratch)
                if code is node:
                    copied = [site for site in scratch.transferred if site not in copied_before]
                    # (a copy made on every round of a loop of the timed code is part of
                    # the work it times; one after its loop, ``print(f"loss={loss}")``
                    # closing a ``%%time`` cell of training steps, is its way of waiting)
                    self.harness_host_only = not scratch.pending and bool(copied) and all(
                        loop in outer for site in copied
                        for loop in self.transfer_loops.get(site, ())) and (
                        self._copies_once(parsed, scratch.env, loops=False))
            finally:
                self._timing_harness -= 1
                if code is node:
                    self.harness_called |= self.frame.jit_calls - warmed
                else:
                    warmed = set(self.frame.jit_calls)  # the setup's calls: not timed
                calls |= self.frame.jit_calls
                self.frame.jit_calls = calls
            self._loc = saved
            if code is node:
                self.harness_parsed = parsed  # (after its run: a harness it ran set its own)
        return bool(scratch.pending)

    def _copies_once(self: FlowAnalysis, code: cst.CSTNode, env: Mapping[str, Value],
                     loops: bool = True) -> bool:
        """Whether timed code whose work is waited for by a host copy makes that copy as
        its way of waiting, not as part of the work it times: neither it nor a function of
        the module it calls by name has a loop (a copy of each batch's result, or a NumPy
        array filled element by element, is work, as in a timed region's loop) or a real
        sync (a copy after one copies finished results). ``loops=False``: the code's own
        loops are not asked about (the caller knows where its copies were made)."""
        own = self.module.code_for_node(code)
        called = [f for name in re.findall(r"([A-Za-z_]\w*)\s*\(", own)
                  if isinstance(f := env.get(name, self.globals.get(name)), Func)]
        loop_or_sync = r"\b(?:for|while)\b|block_until_ready"
        return not re.search(loop_or_sync if loops else "block_until_ready", own) and not any(
            re.search(loop_or_sync, self.module.code_for_node(f.node)) for f in called)

    def asv_suites(self: FlowAnalysis) -> None:
        """asv's benchmark classes: a class with a ``setup`` method (or asv's ``params``)
        and methods named ``time_*``, whose bodies asv times itself, run by run, after
        ``setup``. Each such method is a harness-timed callable: one that returns with JAX
        work still running times the dispatch (JAX102)."""
        for klass in list(self._klasses.values()):
            members = klass.members
            timed = [(name, fn) for name, fn in members.items()
                     if name.startswith("time_") and isinstance(fn, Func)
                     and isinstance(fn.node, cst.FunctionDef)]
            if not timed or not ("setup" in members or "params" in members):
                continue
            instance = Instance(klass)
            setup = members.get("setup")
            self._frames = [Frame(func=None)]
            if isinstance(setup, Func):
                self._call_function(setup, self._bind_params(
                    setup, [(None, "", None)] * (len(self._positional_params(setup.node)) - 1),
                    instance))
            for _, fn in timed:
                assert isinstance(fn.node, cst.FunctionDef)
                self._frames = [Frame(func=None)]
                params = self._bind_params(
                    fn, [(None, "", None)] * (len(self._positional_params(fn.node)) - 1),
                    instance)
                self._timing_harness += 1
                try:
                    summary = self._call_function(fn, params)
                finally:
                    self._timing_harness -= 1
                unsynced = summary.leaves_running
                self.tops.add(self.top_of.get(fn.node) or klass.node)
                self.harnesses[fn.node.name] = HarnessUse(
                    fn.node.name, fn.node.name, unsynced=unsynced,
                    recompiles=summary.recompiles or summary.fresh_jit, asv=True)


def _only_lambda(parsed: cst.Module) -> bool:
    """Whether a timed statement string is one lambda expression (``"lambda: f(x)"``): a
    harness that runs a statement (``timeit.timeit(stmt)``, ``%timeit``) evaluates it, which
    makes the function and calls nothing. (A lambda given as the callable is called.)"""
    body = parsed.body
    return (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine)
            and len(body[0].body) == 1 and isinstance(body[0].body[0], cst.Expr)
            and isinstance(body[0].body[0].value, cst.Lambda))


def _arg(call: cst.Call, name: str, position: int | None) -> cst.BaseExpression | str | None:
    """The argument ``name`` of ``call`` (by keyword, or at ``position``), "?" when it may
    be given by ``*args``/``**kwargs``, None when it is not given."""
    positional = 0
    for arg in call.args:
        if arg.star:
            return "?"
        if arg.keyword is not None:
            if arg.keyword.value == name:
                return arg.value
        elif position is not None and positional == position:
            return arg.value
        else:
            positional += 1
    return None


def _literal_int(value: cst.BaseExpression | str | None) -> int | None:
    """A count given as a literal (``number=1``, ``-n 1``); None for anything else (a
    default, a name)."""
    if isinstance(value, str):
        return int(value) if value.isdigit() else None
    if isinstance(value, cst.Integer):
        return int(value.value.replace("_", ""), 0)
    return None


_OPTION = re.compile(r"(?:^|\s)-[tcqo]*([nr])\s*(\d+)")


def _option(line: str, letter: str) -> str | None:
    """The value ``%timeit``'s option ``-n``/``-r`` is given in ``line``, or None."""
    for m in _OPTION.finditer(line):
        if m.group(1) == letter:
            return m.group(2)
    return None
