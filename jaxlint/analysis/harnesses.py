"""Benchmark harnesses: ``timeit`` (callables and statement strings), ``timeit.Timer``,
pytest-benchmark's ``benchmark`` fixture, asv (airspeed velocity) suites. Each timed run
must leave no JAX work pending;
the timed callable is interpreted as a call, a statement string is parsed and run in the
namespace timeit would give it.
"""

from __future__ import annotations

import textwrap
from dataclasses import dataclass
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.calls import Frame
from jaxlint.analysis.magics import timeit_options_end
from jaxlint.analysis.names import CallKind
from jaxlint.analysis.state import State
from jaxlint.analysis.table import Table
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
        self.harness_recompiled = self.harness_only_lambda = False
        # ``get_ipython().run_line_magic("timeit", "-n 1 -r 3 f(x)")``: its options first
        name = report.args[0].value if report.args else None
        magic = (isinstance(report.func, cst.Attribute)
                 and report.func.attr.value == "run_line_magic"
                 and isinstance(name, cst.SimpleString) and name.evaluated_value == "timeit")
        unsynced = self._leaves_work(stmt[0], stmt[1], setup[0] if setup else None, fn_args,
                                     st, namespace, magic)
        recompiled, self.harness_recompiled = self.harness_recompiled, False
        only_lambda, self.harness_only_lambda = self.harness_only_lambda, False
        use = self.harnesses.get(report)
        if use is None:
            use = HarnessUse(report, stmt[0], setup[0] if setup else None,
                             "globals" in keyword or len(positional) > 4, fixture,
                             namespace=namespace)
            self.harnesses[report] = use
        use.unsynced = use.unsynced or unsynced
        use.recompiles = use.recompiles or recompiled
        use.only_lambda = use.only_lambda or only_lambda

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
            self.harness_recompiled = self.harness_recompiled or summary.recompiles
            return summary.work and summary.leaves_work and not (
                summary.waits or summary.waits_by_transfer)
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
            if code is node and _only_lambda(parsed):
                # ``%timeit lambda: f(x)``: each run makes the function and calls nothing
                self.harness_only_lambda = True
                return False
            saved = self._loc
            self._timing_harness += 1
            try:
                scratch = self._exec_block(parsed.body, scratch)
            finally:
                self._timing_harness -= 1
            self._loc = saved
        return bool(scratch.pending)

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
                unsynced = summary.work and summary.leaves_work and not (
                    summary.waits or summary.waits_by_transfer)
                self.tops.add(self.top_of.get(fn.node) or klass.node)
                self.harnesses[fn.node.name] = HarnessUse(
                    fn.node.name, fn.node.name, unsynced=unsynced,
                    recompiles=summary.recompiles, asv=True)


def _only_lambda(parsed: cst.Module) -> bool:
    """Whether a timed statement string is one lambda expression (``"lambda: f(x)"``): a
    harness that runs a statement (``timeit.timeit(stmt)``, ``%timeit``) evaluates it, which
    makes the function and calls nothing. (A lambda given as the callable is called.)"""
    body = parsed.body
    return (len(body) == 1 and isinstance(body[0], cst.SimpleStatementLine)
            and len(body[0].body) == 1 and isinstance(body[0].body[0], cst.Expr)
            and isinstance(body[0].body[0].value, cst.Lambda))
