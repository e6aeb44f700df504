"""Statements: blocks, assignments, branches, loops, try, with, match, definitions.

Every path is followed: branches are interpreted on copies of the state and joined; loops
run until a round leaves the state as it found it (``State.same_shape``) or
``MAX_LOOP_ROUNDS``; ``break``/``continue``/``return`` hand their states to the loop or the
call; ``try`` joins the body's start and end for its handlers.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, TypeVar

import libcst as cst

from jaxlint.analysis import avals, names
from jaxlint.analysis.state import State, changed_names, join_states
from jaxlint.analysis.syntax import (
    StmtLoc,
    children,
    correlated_ifs,
    counter_start,
    dotted,
    empty_literal,
    entry_key,
    int_literal,
    is_const_string,
    literal_text,
    literal_truth,
    main_test,
    rebinds,
    timing_flag,
    walk,
)
from jaxlint.analysis.values import (
    CALLABLES,
    Func,
    HostValue,
    Instance,
    JaxCallable,
    JaxVal,
    Klass,
    LibObject,
    Ref,
    Site,
    TimedBlock,
    TimerRead,
    Value,
    join_values,
    union_elements,
)

MAX_LOOP_ROUNDS = 6

_T = TypeVar("_T")

# What each round of a loop gives, and what it gives at each position (zip, enumerate)
Elements = tuple[Value, "list[Elements] | None"]

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis


_VIEWS = frozenset({"values", "items", "keys"})

MAX_ROWS = 6  # a literal sequence of at most this many entries is run entry by entry


def _literal_rows(stmt: cst.For, it: cst.BaseExpression | None = None
                  ) -> tuple[list[cst.Name], list[list[cst.BaseExpression]]] | None:
    """``for name, fn in [("numpy", np_f), ("jax", jit_f)]:``: a loop over a list or tuple
    literal of 2 to ``MAX_ROWS`` entries (or a dict literal's ``.items()``, ``.keys()``,
    ``.values()``) into a plain name, or a tuple of plain names each entry spells out: the
    target's names, and each entry's expression for each; None for any other loop."""
    target = stmt.target
    if isinstance(target, cst.Name):
        names_ = [target]
    elif (isinstance(target, (cst.Tuple, cst.List)) and target.elements
          and all(isinstance(e, cst.Element) and isinstance(e.value, cst.Name)
                  for e in target.elements)):
        names_ = [e.value for e in target.elements if isinstance(e.value, cst.Name)]
    else:
        return None
    it = stmt.iter if it is None else it
    single = isinstance(target, cst.Name)
    rows: list[list[cst.BaseExpression]] = []
    if isinstance(it, (cst.List, cst.Tuple)):
        for e in it.elements:
            if not isinstance(e, cst.Element):
                return None
            if single:
                rows.append([e.value])
            elif (isinstance(e.value, (cst.Tuple, cst.List))
                  and len(e.value.elements) == len(names_)
                  and all(isinstance(x, cst.Element) for x in e.value.elements)):
                rows.append([x.value for x in e.value.elements])
            else:
                return None
    elif (isinstance(it, cst.Call) and not it.args and isinstance(it.func, cst.Attribute)
          and isinstance(it.func.value, cst.Dict) and it.func.attr.value in _VIEWS):
        view = it.func.attr.value
        if single == (view == "items") or (view == "items" and len(names_) != 2):
            return None
        for item in it.func.value.elements:
            if not isinstance(item, cst.DictElement):
                return None
            rows.append([item.key, item.value] if view == "items" else
                        [item.key if view == "keys" else item.value])
    else:
        return None
    if not 2 <= len(rows) <= MAX_ROWS:
        return None
    return names_, rows


def _calls(node: cst.CSTNode) -> bool:
    """Whether evaluating ``node`` would call something."""
    todo = [node]
    while todo:
        n = todo.pop()
        if isinstance(n, cst.Call):
            return True
        todo.extend(children(n))
    return False


def _collection(node: cst.BaseExpression) -> str | None:
    """The name of the collection a ``for`` loop goes over: ``fns`` of ``fns``,
    ``fns.values()``, ``fns.items()``, ``enumerate(fns)``; None for anything else."""
    if (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
            and node.func.value == "enumerate" and len(node.args) == 1):
        node = node.args[0].value
    if (isinstance(node, cst.Call) and not node.args and isinstance(node.func, cst.Attribute)
            and node.func.attr.value in _VIEWS):
        node = node.func.value
    return dotted(node)


class Statements:
    """The statements part of ``FlowAnalysis`` (see the module docstring)."""

    # the element values of the last tuple/list literal evaluated (``a, b = f(x), g(x)``)
    _last_elements: list[Value] | None
    _top: cst.CSTNode | None  # see FlowAnalysis
    _final_rounds: dict[str, int]  # see FlowAnalysis
    _hidden_ticks: list[tuple[int, int]]  # see FlowAnalysis
    _periodic_names: dict[str, cst.FunctionDef] | None  # see _calls_periodic_helper
    _periodic_fns: dict[cst.FunctionDef, bool]
    _tested_names: set[str] | None  # the words after an ``if`` on a line (_periodic_in)

    # ------------------------------------------------------------------ binding
    def _bind(self: FlowAnalysis, target: cst.BaseExpression, value: Value, st: State,
              source: cst.BaseExpression | None = None) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            elems = [e.value for e in target.elements]
            if isinstance(source, (cst.Tuple, cst.List)) and len(source.elements) == len(elems):
                # a, b = f(x), g(x): each target gets its own element, already evaluated
                values = self._last_elements or [value] * len(elems)
                for t, v in zip(elems, values):
                    self._bind(t, v, st)
                return
            if isinstance(value, JaxVal) and len(value.parts) == len(elems) and not any(
                    isinstance(t, cst.StarredElement) for t in elems):
                # a tuple whose elements' avals are known: each target gets its own
                for t, aval in zip(elems, value.parts):
                    self._bind(t, replace(value, aval=aval, parts=()), st)
                return
            # unpacking a pytree gives its leaves; unpacking a container of functions
            # (``for name, fn in pairs``) gives one of them
            part = value if isinstance(value, (JaxVal, *CALLABLES)) else None
            for t in elems:
                self._bind(t.value if isinstance(t, cst.StarredElement) else t, part, st)
            return
        if isinstance(target, cst.StarredElement):
            self._bind(target.value, value, st)
            return
        if isinstance(target, cst.Subscript):
            key = dotted(target.value)
            if isinstance(value, LibObject) and value.holds is not None:
                value = value.holds  # a container of records of JAX values: a pytree
            if key is not None:
                into = self._lookup(key, st)[1]
            else:  # ``h5file[field][:] = y`` (evaluated again only when it calls nothing)
                into = self._eval(target.value, st) if not _calls(target.value) else None
            if isinstance(into, HostValue):
                # ``out[i] = f(x)``, ``results[:, j] = y``: NumPy copies the JAX value in
                if isinstance(value, JaxVal):
                    self._sync(value, st, transfer=True)
                return
            if key is not None and isinstance(value, JaxVal):
                old = st.env.get(key)
                new = replace(value, container=True)
                self._set(st, key, join_values(old, new) if isinstance(old, JaxVal) else new)
                index = target.slice[0].slice if len(target.slice) == 1 else None
                if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
                    sub = entry_key(key, index.value.value)  # ``outs["loss"] = f(x)``
                    self._set(st, sub, value)
                    self.frame.binds.setdefault(sub, set()).add(target)
            elif key is not None and isinstance(value, TimerRead):
                # ``starts[name] = time.time()``, ``self.t0[label] = timer()``: readings
                # kept by label, subtracted later (``time.time() - starts[name]``); the
                # container holds any of them, a literal label its own
                old = st.env.get(key)
                self._set(st, key, TimerRead(old.sites | value.sites)
                          if isinstance(old, TimerRead) else value)
                index = target.slice[0].slice if len(target.slice) == 1 else None
                if isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString):
                    sub = entry_key(key, index.value.value)
                    self._set(st, sub, value)
                    self.frame.binds.setdefault(sub, set()).add(target)
            elif key is not None and isinstance(value, CALLABLES):
                # ``steps["adam"] = jax.jit(adam)``: the container now holds a function
                old = st.env.get(key)
                self._set(st, key, join_values(old, value) if isinstance(old, CALLABLES)
                          else value)
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
        if isinstance(source, cst.Dict) and self._last_entries and isinstance(value, JaxVal):
            # ``outs = {"loss": f(x), "grad": g(x)}``: each entry is known on its own
            for literal, entry in self._last_entries.items():
                if isinstance(entry, JaxVal):
                    sub = entry_key(key, literal)
                    self._set(st, sub, entry)
                    self.frame.binds.setdefault(sub, set()).add(target)

    def _set(self: FlowAnalysis, st: State, key: str, value: Value) -> None:
        """Bind ``key`` (a name or ``a.b`` path) on this path, and note when."""
        st.write(key, value)
        st.bound.add(key)
        if isinstance(value, TimerRead):
            st.timers[key] = value.sites
        elif st.timers:
            st.timers.pop(key, None)
        self._note_key(key)
        self._bound_at.append((self._tick(), key))

    def _note_key(self: FlowAnalysis, key: str) -> None:
        while "." in key:
            key = key.rsplit(".", 1)[0]
            self._parents.add(key)

    def _unbind(self: FlowAnalysis, key: str, st: State) -> None:
        st.drop(key)
        st.bound.discard(key)
        st.timers.pop(key, None)

    # ------------------------------------------------------------------ statements
    def _exec_block(self: FlowAnalysis, body: Sequence[cst.CSTNode], st: State,
                    start: int = 0, stop: int | None = None) -> State:
        top = body is self.module.body
        correlated = (self._correlated_of(body) if stop is None and self.frame.forced is None
                      else {})
        end = len(body) if stop is None else stop
        i = start
        while i < end:
            if not st.live:
                break
            split = correlated.get(i)
            if split is not None:
                st = self._exec_correlated(body, i, split, st)
                i = split[0] + 1
                continue
            stmt = body[i]
            if top:
                self._top = stmt
            # what follows: a timer read's statement and the next one may name the region
            # (``t = time.time() - t0`` then ``log("compilation took %s", t)``)
            self._next_stmt = body[i + 1] if i + 1 < len(body) else None
            self._prev_stmt = body[i - 1] if i else None
            st = self._exec_stmt(stmt, st)
            i += 1
        return st

    def _correlated_of(self: FlowAnalysis, body: Sequence[cst.CSTNode]
                       ) -> dict[int, tuple[int, frozenset[cst.If]]]:
        """``correlated_ifs`` of a block, read off its syntax once."""
        if not body:
            return {}
        found = self._correlated.get(body[0])
        if found is None:
            found = self._correlated[body[0]] = correlated_ifs(body)
        return found

    def _exec_correlated(self: FlowAnalysis, body: Sequence[cst.CSTNode], first: int,
                         split: tuple[int, frozenset[cst.If]], st: State) -> State:
        """``body[first]`` to ``body[last]``, which begin and end with an ``if`` of the same
        test that nothing between may change (``if use_jax: y = f(x)`` ... ``if use_jax:
        y.block_until_ready()``): run once with the test true and once false, and join.
        A path on which the two take different branches cannot happen, so it is not
        followed. Only the block's own ``if``s of the test are decided (one nested in the
        last may follow a change of the test in its body). (Not nested: the statements are
        run twice at most, so cost stays linear.)"""
        last, tests = split
        ends = []
        frame = self.frame
        began = self._now
        for truth in (True, False):
            frame.forced = (truth, tests)
            if not truth:
                # the first run's events (a first call, a sync) are on the other path: a
                # clock read of this run does not see them
                self._hidden_ticks.append((began, self._now))
            try:
                ends.append(self._exec_block(body, st.copy(), first, last + 1))
            finally:
                frame.forced = None
                if not truth:
                    self._hidden_ticks.pop()
        return join_states(ends)

    def _exec_suite(self: FlowAnalysis, suite: cst.BaseSuite, st: State) -> State:
        if isinstance(suite, cst.IndentedBlock):
            return self._exec_block(suite.body, st)
        return self._exec_stmt(suite, st)

    def _exec_stmt(self: FlowAnalysis, stmt: cst.CSTNode, st: State) -> State:
        self._step()
        self._stmt_line = stmt
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

    def _exec_small(self: FlowAnalysis, small: cst.BaseSmallStatement, st: State) -> State:
        if isinstance(small, cst.Expr):
            self._note_argument(small.value)
            value = self._eval(small.value, st)
            expr = small.value
            if isinstance(expr, cst.Attribute) and expr.attr.value == "block_until_ready" and (
                    isinstance(self._eval(expr.value, st), JaxVal)):
                # ``y.block_until_ready`` without the call: the method is looked up, not run
                self.ineffective_sync(expr, "uncalled")
            if isinstance(value, JaxVal) and small.value in value.origin:
                self.bare[small.value] = small
                self.bare_ticks[small.value] = max(value.tick,
                                                   self.bare_ticks.get(small.value, -1))
        elif isinstance(small, cst.Assign):
            self._last_elements = None
            value = self._eval(small.value, st)
            for t in small.targets:
                self.env_switch(t.target, small.value)  # ``os.environ["KERAS_BACKEND"]``
                self._bind(t.target, value, st, small.value)
                number = int_literal(small.value)
                if isinstance(t.target, cst.Name) and number is not None:
                    self.int_bound[t.target] = number
                text = literal_text(small.value)
                if isinstance(t.target, cst.Name) and text is not None:
                    self.literal_bound[t.target] = text  # ``BACKEND = "jax"``
                first = counter_start(small.value)
                if isinstance(t.target, cst.Name) and first is not None:
                    self.counter_bound[t.target] = first  # ``pbar = trange(n)``
                if isinstance(t.target, cst.Name) and isinstance(small.value, cst.Call) and (
                        isinstance(small.value.func, cst.Attribute)
                        and small.value.func.attr.value in ("parse_args",
                                                            "parse_known_args")):
                    self.parsed_args.add(t.target.value)  # ``args = parser.parse_args()``
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
                result: Value = self._operate(small, [left, right], st)
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

    def _bind_import(self: FlowAnalysis, small: cst.Import | cst.ImportFrom, st: State) -> None:
        """Bind what an import binds to the ``Ref`` of its qualified name, as libcst names
        them: ``import a.b`` binds ``a`` to ``a``; ``from .m import f as g`` binds ``g`` to
        ``.m.f`` (the project index resolves the dots)."""
        if isinstance(small.names, cst.ImportStar):
            # ``from mylib.core import *`` (module level only, as Python allows): a name no
            # scope binds may be of it (``FlowAnalysis._star_name``)
            module = dotted(small.module) if isinstance(small, cst.ImportFrom) and (
                small.module is not None) else ""
            source = "." * len(small.relative) + (module or "") if isinstance(
                small, cst.ImportFrom) else ""
            if source and source not in self.star_sources:
                self.star_sources.append(source)
                self._star_names.clear()
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

    def _del(self: FlowAnalysis, target: cst.BaseExpression, st: State) -> None:
        if isinstance(target, (cst.Tuple, cst.List)):
            for e in target.elements:
                self._del(e.value, st)
            return
        key = dotted(target)
        if key is not None:
            self._unbind(key, st)

    def _exec_If(self: FlowAnalysis, stmt: cst.If, st: State, is_elif: bool = False) -> State:
        self._loc = StmtLoc(stmt, not is_elif)
        self._truth(self._eval(stmt.test, st), st)
        first = self._known_test(stmt.test, st)
        flag = timing_flag(stmt.test)
        if flag is not None and (first is None or self._left_at_default(stmt.test)) and (
                _guards_a_wait(stmt)):
            # a flag that asks for the timing or a wait, deciding whether the code waits,
            # is taken as set, also where the caller leaves it at its default
            # (``timeit=False``): README, "Which paths count"
            first = flag
        if first is not None and self._tests_a_default(stmt.test):
            # a test the caller's default decides (``if trace is not None:`` of
            # ``trace=None``, ``if verbose:``) whose other branch reads the clock: that
            # branch is where the code times, and is taken (README, "Which paths count")
            taken, skipped = (stmt.body, stmt.orelse) if first else (stmt.orelse, stmt.body)
            if self._spells_clock(skipped) and not self._spells_clock(taken):
                first = not first
        forced = self.frame.forced
        if first is None and forced is not None and stmt in forced[1]:
            first = forced[0]  # (``_exec_correlated``)
        if first is None and self.imported and self.frame is self._module_frame:
            first = main_test(stmt.test)
        if first is None:
            first = self._first_iteration_test(stmt.test)
        if first is None and _guards_its_lookup(stmt):
            first = True
        if first is None:
            first = self._periodic_test(stmt.test)
        if first is not None:
            # ``if step == 0:`` runs on the first iteration only: paths that cannot happen
            # (later iterations' work reaching a read made on the first) are not followed.
            if first:
                return self._exec_suite(stmt.body, st.copy())
            if stmt.orelse is None:
                return st
            if isinstance(stmt.orelse, cst.If):
                return self._exec_If(stmt.orelse, st.copy(), is_elif=True)
            return self._exec_suite(stmt.orelse.body, st.copy())
        self.frame.branches.append(stmt)
        try:
            then = self._exec_suite(stmt.body, st.copy())
            if stmt.orelse is None:
                other = st
            elif isinstance(stmt.orelse, cst.If):
                other = self._exec_If(stmt.orelse, st.copy(), is_elif=True)
            else:
                other = self._exec_suite(stmt.orelse.body, st.copy())
        finally:
            self.frame.branches.pop()
        return join_states([then, other])

    def _loop(self: FlowAnalysis, head: State, run_body: object, stmt: cst.For | cst.While,
              test: cst.BaseExpression | None, once: bool = False, min_rounds: int = 1) -> State:
        """``once``: the loop is known to run at least once, so it is not left before a
        round ends (a warm-up or sync in it always happens). ``min_rounds``: rounds
        interpreted before the loop's state may be taken as settled (a literal sequence's
        entries, each run in a round of its own)."""
        since = self._now
        self.frame.loop_stmts.append(stmt)
        try:
            return self._loop_rounds(head, run_body, stmt, test, once, since, min_rounds)
        finally:
            self.frame.loop_stmts.pop()

    def _loop_rounds(self: FlowAnalysis, head: State, run_body: object,
                     stmt: cst.For | cst.While, test: cst.BaseExpression | None, once: bool,
                     since: int, min_rounds: int = 1) -> State:
        breaks: list[State] = []
        last_ends: list[State] = []
        exit_state = entry = head
        entry_called = head.called
        for rounds in range(max(MAX_LOOP_ROUNDS, min_rounds + 1)):
            if self._counters and self._counters[-1][2] is stmt:
                # the first round runs from the loop's entry: the first iteration only
                self._counters[-1] = (*self._counters[-1][:3], rounds == 0)
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
            after_round = [end, *cont]
            new_head = join_states([head, end, *cont])
            # What was called on every path is asked of the later rounds' start, which every
            # path reaches through an earlier round: not through the loop's entry (a first
            # call in the first round compiles there, and not again in the next).
            ran = [x.called for x in after_round if x.live]
            if ran and new_head.live:
                called = frozenset.intersection(*ran)
                new_head.called = called if rounds == 0 else called & head.called
            if rounds + 1 >= min_rounds and new_head.same_shape(head, since, entry):
                break
            head = new_head
        final = self._last_rounds.get(stmt) if isinstance(stmt, cst.For) else None
        if final is not None and once and final[0] not in self._final_rounds:
            # A loop of known count with a periodic test (``if step % 100 == 0:``): its
            # last round, run with the counter's last value, is what the code after it
            # sees (whether the last step syncs).
            self._final_rounds[final[0]] = final[1]
            try:
                brk, cont = [], []
                self.frame.loops.append((brk, cont))
                end = run_body(head.copy())  # type: ignore[operator]
                self.frame.loops.pop()
            finally:
                del self._final_rounds[final[0]]
            breaks.extend(brk)
            after_round = [end, *cont]
        infinite = isinstance(test, cst.Name) and test.value == "True"
        if not once:
            # left without a round on one path: what it called is not called on every path
            exit_state.called = exit_state.called & entry_called
        normal = [] if infinite else [exit_state]
        if once and not infinite:
            # It ran: it is left after a round, where a ``while`` tests its condition once
            # more (a truth test of a JAX value waits for it).
            left = join_states(after_round)
            if test is not None and left.live:
                self._loc = StmtLoc(stmt, False)
                self._truth(self._eval(test, left), left)
                self._polled(test, left)
            normal = [left]
        if stmt.orelse is not None and normal:
            normal = [self._exec_suite(stmt.orelse.body, normal[0].copy())]
        out = join_states(normal + breaks)
        if last_ends and out.live:
            # Names bound in the body count as bound after it: code that syncs "the last
            # result of the loop" assumes the loop ran, and so does our inserted sync.
            # Only names some path wrote since they split can be bound at the end of
            # every round but not after the loop.
            names = changed_names([out, *last_ends])
            bound = out.bound
            for name in list(out.env.keys()) if names is None else names:
                if (name not in bound and name in out.env
                        and all(name in s.bound for s in last_ends)):
                    bound.add(name)
                    out.lineage.wrote(name)
        return out

    def _note_argument(self: FlowAnalysis, node: cst.BaseExpression) -> None:
        """``parser.add_argument("--steps", type=int, default=1000)``: the script's default
        of ``args.steps`` (a loop's count is judged as the script runs by default)."""
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute)
                and node.func.attr.value == "add_argument" and node.args):
            return
        flag = node.args[0].value
        keywords = {a.keyword.value: a.value for a in node.args if a.keyword is not None}
        if not isinstance(flag, cst.SimpleString) or "default" not in keywords:
            return
        dest = keywords.get("dest")
        name = (dest.evaluated_value if isinstance(dest, cst.SimpleString)
                else str(flag.evaluated_value).lstrip("-").replace("-", "_"))
        value = int_literal(keywords["default"])
        if isinstance(name, str) and value is not None:
            self.argparse_defaults[name] = value

    def _counter_last(self: FlowAnalysis, stmt: cst.For) -> int | None:
        """The counter's last value, when the count is known: ``range(n)`` -> n - 1,
        ``range(a, b)`` -> b - 1, of literals, constants, defaults or ``args.n``."""
        node = stmt.iter
        if isinstance(node, cst.Call) and dotted(node.func) in ("tqdm", "tqdm.tqdm") and (
                node.args):
            node = node.args[0].value
        if not (isinstance(node, cst.Call) and dotted(node.func) in ("range", "trange")
                and 1 <= len(node.args) <= 2 and not any(a.star or a.keyword
                                                          for a in node.args)):
            return None
        end = self._int_value(node.args[-1].value)
        return None if end is None else end - 1

    def _exec_For(self: FlowAnalysis, stmt: cst.For, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        counter = self._counter_of(stmt)
        if counter is not None:
            last = self._counter_last(stmt)
            if last is not None and self._periodic_in(stmt, counter[0]):
                self._last_rounds[stmt] = (counter[0], last)
            self._counters.append((*counter, stmt, True))
            try:
                return self._exec_For_body(stmt, st)
            finally:
                self._counters.pop()
        return self._exec_For_body(stmt, st)

    def _counter_of(self: FlowAnalysis, stmt: cst.For) -> tuple[str, str] | None:
        """The loop's counter and its first value's code: ``for step in range(n)`` (0),
        ``range(start, n)`` (``start``), ``for i, x in enumerate(xs)`` (0), through a
        progress bar (``trange(n)``, ``tqdm(range(n))``) or a name bound to one
        (``pbar = trange(n); for it in pbar``)."""
        it, target = stmt.iter, stmt.target
        if isinstance(it, cst.Name):
            binds = self.frame.binds.get(it.value) or (
                self._module_frame.binds.get(it.value) if self.frame.func is not None else None)
            firsts = {self.counter_bound.get(b) for b in binds or ()}
            first = next(iter(firsts)) if len(firsts) == 1 else None
            if first is not None and isinstance(target, cst.Name):
                return target.value, first
            return None
        if (isinstance(it, cst.Call) and dotted(it.func) == "enumerate" and isinstance(
                target, cst.Tuple) and len(it.args) == 1 and target.elements
                and isinstance(target.elements[0].value, cst.Name)):
            return target.elements[0].value.value, "0"
        first = counter_start(it)
        if first is not None and isinstance(target, cst.Name):
            return target.value, first
        return None

    def _periodic_in(self: FlowAnalysis, stmt: cst.For, counter: str) -> bool:
        """Whether a loop's body may test its round periodically (``if step % k == 0:``):
        its text holds a ``%``, or it passes its counter to a call (``evaluate(epoch)``,
        whose own test may be periodic). Once per loop (the body's text, generated for every
        round of every loop around it and in both passes, was a seventh of a training
        script's run)."""
        found = self._periodic.get(stmt)
        if found is None:
            found = False
            name = re.escape(counter)
            if self._tested_names is None:
                # the words after an ``if`` on each line of the file, read once (once per
                # counter name made a file of many loops cost its loops times its length)
                self._tested_names = {
                    word for m in re.finditer(r"\bif\b([^\n]*)", self._code)
                    for word in re.findall(r"\w+", m.group(1))}
            tested = counter in self._tested_names
            if "%" in self._code or tested:
                text = self.module.code_for_node(stmt.body)
                found = "%" in text or (
                    re.search(rf"[(,]\s*(?:\w+\s*=\s*)?{name}\s*[,)]",
                              text) is not None and self._calls_periodic_helper(text)) or (
                    # a test of the counter itself: ``if step == num_steps - 1:``
                    re.search(rf"\bif\b[^\n]*\b{name}\b[^\n]*(==|!=|<|>)|"
                              rf"\bif\b[^\n]*(==|!=|<|>)[^\n]*\b{name}\b", text) is not None)
            self._periodic[stmt] = found
        return found

    def _calls_periodic_helper(self: FlowAnalysis, text: str) -> bool:
        """Whether a loop body's text names a function (or method) of the module whose
        text holds a ``%``: one it may hand its counter to for a periodic test. Only the
        functions it names are generated back into text, each once per file."""
        if self._periodic_names is None:
            self._periodic_names = {fn.name.value: fn for fn in _functions(self.module)}
        for name, fn in self._periodic_names.items():
            if name not in text:
                continue
            if fn not in self._periodic_fns:
                self._periodic_fns[fn] = "%" in self.module.code_for_node(fn.body)
            if self._periodic_fns[fn]:
                return True
        return False

    def _periodic_test(self: FlowAnalysis, test: cst.BaseExpression) -> bool | None:
        """In the last round of a loop of known count (``Statements._loop_rounds``): the
        outcome of a test of the counter against known integers, ``counter % k == 0``
        (``!=``, ``(counter + 1) % k``), ``step == n - 1``, ``i + 1 == n``, ``i >= n - 1``,
        and ``and``/``or``/``not`` of such tests; None for a test that is not decided by the
        counters' last values alone."""
        if not self._final_rounds:
            return None
        counted: list[bool] = []
        outcome = self._final_truth(test, counted)
        return outcome if outcome is not None and counted else None

    def _final_truth(self: FlowAnalysis, test: cst.BaseExpression,
                     counted: list[bool]) -> bool | None:
        """``test``'s truth with each loop counter at its last value (``_int_value`` with
        ``counted``)."""
        if isinstance(test, cst.BooleanOperation):
            first = self._final_truth(test.left, counted)
            second = self._final_truth(test.right, counted)
            if first is None or second is None:
                return None
            return (first and second) if isinstance(test.operator, cst.And) else (
                first or second)
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            inner = self._final_truth(test.expression, counted)
            return None if inner is None else not inner
        if not isinstance(test, cst.Comparison):
            return None
        left = self._int_value(test.left, counted)
        for comp in test.comparisons:
            right = self._int_value(comp.comparator, counted)
            if left is None or right is None:
                return None
            op = comp.operator
            if isinstance(op, cst.Equal):
                holds = left == right
            elif isinstance(op, cst.NotEqual):
                holds = left != right
            elif isinstance(op, cst.LessThan):
                holds = left < right
            elif isinstance(op, cst.LessThanEqual):
                holds = left <= right
            elif isinstance(op, cst.GreaterThan):
                holds = left > right
            elif isinstance(op, cst.GreaterThanEqual):
                holds = left >= right
            else:
                return None
            if not holds:
                return False
            left = right
        return True

    def _first_iteration_test(self: FlowAnalysis, test: cst.BaseExpression) -> bool | None:
        """For ``if step == 0:`` (the innermost loop's counter against its first value):
        whether the current round of the loop is its first iteration; None for other tests."""
        if not self._counters or not isinstance(test, cst.Comparison) or len(
                test.comparisons) != 1 or not isinstance(test.comparisons[0].operator, cst.Equal):
            return None
        name, first, _, is_first = self._counters[-1]
        sides = {dotted(test.left), dotted(test.comparisons[0].comparator)}
        if isinstance(test.comparisons[0].comparator, cst.Integer):
            sides.add(test.comparisons[0].comparator.value)
        return is_first if sides >= {name, first} else None

    def _exec_For_body(self: FlowAnalysis, stmt: cst.For, st: State) -> State:
        default = self._default_of(stmt.iter.value) if isinstance(stmt.iter, cst.Name) else None
        # (``for n in sizes:`` of ``sizes=(32, 64)`` left at its default is the literal's)
        rows = _literal_rows(stmt, default if isinstance(default, (cst.Tuple, cst.List))
                             else None)
        elem: Value = None
        parts: list[Elements] | None = None
        if rows is None:
            elem, parts = self._loop_elements(stmt.iter, st)
        else:
            round_of = self._literal_rounds(stmt, st, *rows)
        # A loop over the collection an earlier loop went over (a warm-up loop, then the
        # timed one): its rounds run only if the earlier one's did, after what every round
        # of that one called.
        key = _collection(stmt.iter)
        held = self._lookup(key, st)[1] if key is not None else None
        earlier = self.frame.loop_called.get(key) if key is not None else None
        warmed = earlier[1] if earlier is not None and earlier[0] is held else frozenset()
        ends: list[frozenset[Site]] = []

        def body(state: State) -> State:
            if warmed:
                state.called = state.called | warmed
            if rows is None:
                self._bind_elements(stmt.target, elem, parts, state)
            else:
                round_of(state)
            end = self._exec_suite(stmt.body, state)
            if end.live:
                ends.append(end.called)
            return end

        once = not self._never_runs(stmt.iter)
        values = self._literal_items(stmt.iter)
        if values is not None and isinstance(stmt.target, cst.Name):
            # ``for k in (8, 16):``: a static argument ``k`` takes each of these values
            self._loop_literals.append((stmt.target.value, values, stmt))
        target = stmt.target.value if isinstance(stmt.target, cst.Name) else None
        shapes = self._shape_items(stmt.iter) if values is None and target else None
        if shapes is not None and target is not None:
            # ``for shape in [(256, 4096), (512, 4096)]:``: the shapes of arrays made of it
            self._loop_shapes.append((target, shapes, stmt))
        if rows is not None:
            self._round_literals.append((self.frame, {}))
        try:
            out = self._loop(st, body, stmt, None, once=once,
                             min_rounds=1 if rows is None else len(rows[1]))
        finally:
            if values is not None and isinstance(stmt.target, cst.Name):
                self._loop_literals.pop()
            if shapes is not None:
                self._loop_shapes.pop()
            if rows is not None:
                self._round_literals.pop()
        if key is not None and held is not None and ends:
            self.frame.loop_called[key] = (held, frozenset.intersection(*ends))
        return out

    def _literal_rounds(self: FlowAnalysis, stmt: cst.For, st: State, targets: list[cst.Name],
                        rows: list[list[cst.BaseExpression]]) -> Callable[[State], None]:
        """A loop over a short literal sequence (``_literal_rows``) is run entry by entry: in
        ``for name, fn in [("numpy", np_f), ("jax", jit_f)]:`` the first round's ``fn`` is
        the NumPy function and its ``name`` the text ``"numpy"`` (a test of it, ``if name
        == "jax":``, is decided: ``_literal_test``), the second round's the jitted one. Joined,
        every round would call a function that may be either, and a JAX value among the
        entries would make every name a JAX value. The entries are evaluated once, in order,
        as the literal is; the rounds go on past the last entry (from the first again) until
        the loop's state settles. Gives what binds a round's names."""
        kept = [[v if isinstance(v, (JaxVal, *CALLABLES)) else None
                 for v in (self._eval(e, st) for e in row)] for row in rows]
        stable = {t.value for t in targets if not rebinds(stmt.body, t.value)}
        texts = [{t.value: text for t, e in zip(targets, row)
                  if t.value in stable and (text := literal_text(e)) is not None}
                 for row in rows]
        next_round = [0]

        def round_of(state: State) -> None:
            i = next_round[0] % len(rows)
            next_round[0] += 1
            for target, v in zip(targets, kept[i]):
                self._bind(target, v, state)
            self._round_literals[-1] = (self.frame, texts[i])

        return round_of

    def _bound_alike(self: FlowAnalysis, name: str, table: Mapping[cst.CSTNode, _T]
                     ) -> _T | None:
        """What ``table`` says of every binding of ``name`` made so far (in this frame, else
        at module level), when it says the same of each (``int_bound``, ``literal_bound``);
        else None."""
        binds = self.frame.binds.get(name)
        if not binds and self.frame.func is not None:
            binds = self._module_frame.binds.get(name)
        values = {table.get(b) for b in binds or ()}
        return next(iter(values)) if len(values) == 1 else None

    def _bound_literal(self: FlowAnalysis, name: str) -> str | None:
        """The literal a name holds when every binding of it gives it the same one
        (``_bound_alike``: ``SYNC = True``, ``backend = "jax"``), and no function of the
        module declares it ``global`` or ``nonlocal``; else None."""
        text = self._bound_alike(name, self.literal_bound)
        declared = self._declared_global
        if declared is None:
            declared = self._declared_global = {
                n for m in re.finditer(r"\b(?:global|nonlocal)\b([^\n;]*)", self._code)
                for n in re.findall(r"\w+", m.group(1))}
        return None if text is None or name in declared else text

    def _literal_test(self: FlowAnalysis, test: cst.BaseExpression) -> bool | None:
        """The outcome of a test of names that hold known literals against literals: a
        literal-sequence loop's names in the round being interpreted (``if name ==
        "jax":``, ``if on_device:``, ``if backend in ("jax", "jit"):``), and names every
        binding of which gives the same literal (``_bound_literal``: ``SYNC = True`` ...
        ``if SYNC:``); None for any other test."""
        known: dict[str, str] = {}
        for frame, texts in self._round_literals:
            if frame is self.frame:
                known.update(texts)
        sides = [test.left, test.comparisons[0].comparator] if isinstance(
            test, cst.Comparison) and len(test.comparisons) == 1 else [test]
        for node in sides:
            if isinstance(node, cst.Name) and node.value not in known and node.value not in (
                    "True", "False", "None"):
                text = self._bound_literal(node.value)
                if text is not None:
                    known[node.value] = text
        if not known:
            return None

        def value(node: cst.BaseExpression) -> object:
            if isinstance(node, cst.Name) and node.value in known:
                return ast.literal_eval(known[node.value])
            if isinstance(node, (cst.Tuple, cst.List, cst.Set)):
                return [value(e.value) for e in node.elements]
            text = literal_text(node)
            if text is None:
                raise ValueError(node)
            return ast.literal_eval(text)

        try:
            if isinstance(test, cst.Name) and test.value in known:
                return bool(value(test))
            if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
                return None
            comp = test.comparisons[0]
            if not any(isinstance(side, cst.Name) and side.value in known
                       for side in (test.left, comp.comparator)):
                return None
            left, right, op = value(test.left), value(comp.comparator), comp.operator
            if isinstance(op, cst.Equal):
                return bool(left == right)
            if isinstance(op, cst.NotEqual):
                return bool(left != right)
            if isinstance(op, (cst.In, cst.NotIn)) and isinstance(right, (list, str)):
                return (left in right) == isinstance(op, cst.In)
            if isinstance(op, (cst.Is, cst.IsNot)) and right in (None, True, False):
                return (left is right) == isinstance(op, cst.Is)
        except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
            return None
        return None

    def _shape_items(self: FlowAnalysis, node: cst.BaseExpression) -> list[str] | None:
        """The shapes a ``for`` loop over a literal list of tuples of integers takes, as
        code (``avals.py``); None if it is no such loop."""
        if not isinstance(node, (cst.Tuple, cst.List)) or not node.elements or len(
                node.elements) > 64:
            return None
        out = []
        for el in node.elements:
            if not (isinstance(el, cst.Element) and isinstance(el.value, cst.Tuple)):
                return None
            text = self.module.code_for_node(el.value)
            if avals.shape_text(text) is None:
                return None
            out.append(text)
        return out

    def _literal_items(self: FlowAnalysis, node: cst.BaseExpression) -> list[str] | None:
        """The literal values a ``for`` loop over ``node`` takes (a tuple or list literal,
        or a parameter left at such a default), as code; None if not all are known."""
        if isinstance(node, cst.Name):
            default = self._default_of(node.value)
            if default is None:
                return None
            node = default
        if not isinstance(node, (cst.Tuple, cst.List)) or not node.elements:
            return None
        out = []
        for el in node.elements:
            text = literal_text(el.value) if isinstance(el, cst.Element) else None
            if text is None:
                return None
            out.append(text)
        return out

    def _loop_elements(self: FlowAnalysis, node: cst.BaseExpression, st: State) -> Elements:
        """What each round of a loop over ``node`` gives, and for ``zip(a, b)`` and
        ``enumerate(a)`` what it gives at each position of the tuple: in
        ``for step, batch in zip(range(n), batches)`` only ``batch`` may be a JAX value."""
        if (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
                and node.func.value in ("zip", "enumerate") and self.is_external(node.func.value)
                and node.args and not any(a.star or a.keyword for a in node.args)
                and (node.func.value == "zip" or len(node.args) == 1)):
            parts: list[Elements] = [
                self._loop_elements(a.value, st) for a in node.args]
            if node.func.value == "enumerate":
                parts.insert(0, (None, None))
            joined = union_elements(p[0] for p in parts)
            if isinstance(joined, JaxVal):
                joined = replace(joined, container=False)
            return joined, parts
        it = self._eval(node, st)
        if (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
                and node.func.value == "range" and self.is_external("range")):
            # ``range(first_step, n)``: Python ints, even from a JAX value (``__index__``
            # copied it to the host)
            return None, None
        return (it if isinstance(it, (JaxVal, *CALLABLES)) else None), None

    def _bind_elements(self: FlowAnalysis, target: cst.BaseExpression, elem: Value,
                       parts: list[Elements] | None, st: State) -> None:
        if (parts is not None and isinstance(target, (cst.Tuple, cst.List))
                and len(target.elements) == len(parts)
                and not any(isinstance(e, cst.StarredElement) for e in target.elements)):
            for element, (value, inner) in zip(target.elements, parts):
                self._bind_elements(element.value, value, inner, st)
            return
        self._bind(target, elem, st)

    def _known_test(self: FlowAnalysis, test: cst.BaseExpression,
                    st: State | None = None) -> bool | None:
        """The outcome of a test of a parameter the caller left at its literal default
        (``if as_numpy:``, ``if timeout is None:``, ``not wait``), or of ``x is None`` where
        ``x`` holds a known function or object (``sync=jax.block_until_ready`` given to a
        decorator factory); None when not known. Only the branch it takes is followed: the
        other cannot happen on this call."""
        found = literal_truth(test)  # ``if True:``, ``if 0:``: Python decides it
        if found is not None:
            return found
        found = self._literal_test(test)
        if found is not None:
            return found
        if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            inner = self._known_test(test.expression, st)
            return None if inner is None else not inner
        if isinstance(test, cst.Call) and st is not None:
            return self._type_guard(test, st)
        if isinstance(test, cst.Name):
            return literal_truth(self._default_of(test.value))
        if (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                and isinstance(test.left, cst.Name)):
            comp = test.comparisons[0]
            if (isinstance(comp.operator, (cst.Is, cst.IsNot))
                    and isinstance(comp.comparator, cst.Name)
                    and comp.comparator.value == "None"):
                default = self._default_of(test.left.value)
                if default is None and st is not None:
                    found, held = self._lookup(test.left.value, st)
                    if found and isinstance(held, (Ref, Func, JaxCallable, Instance, Klass,
                                                   LibObject, TimedBlock, TimerRead)):
                        return isinstance(comp.operator, cst.IsNot)
                if default is None:
                    return None
                is_none = isinstance(default, cst.Name) and default.value == "None"
                return is_none if isinstance(comp.operator, cst.Is) else not is_none
        return None

    def _type_guard(self: FlowAnalysis, test: cst.Call, st: State) -> bool | None:
        """The outcome of a type guard on a value whose kind is known, as a type checker
        narrows: ``isinstance(y, jax.Array)`` and ``hasattr(y, "block_until_ready")`` are
        true of a JAX value the analysis made (not of what an unknown function returned,
        which may be anything), and ``isinstance`` false of a host value (a NumPy array).
        None when not known: both branches are followed."""
        name = dotted(test.func)
        if name not in ("isinstance", "hasattr") or not self.is_external(name) or len(
                test.args) != 2 or any(a.star or a.keyword for a in test.args):
            return None
        target = test.args[0].value
        # (an entry of a dict pytree, ``state["theta_hat"]``: looking it up runs nothing)
        guarded = target
        if isinstance(target, cst.Subscript) and len(target.slice) == 1 and isinstance(
                target.slice[0].slice, cst.Index) and is_const_string(
                    target.slice[0].slice.value):
            guarded = target.value
        found, value = self._lookup(dotted(guarded) or "", st)
        if not found:
            return None
        if guarded is not target:
            value = self._eval(target, st)
        kind = test.args[1].value
        if name == "hasattr":
            if not (isinstance(kind, cst.SimpleString) and isinstance(value, JaxVal)
                    and not value.opaque and not value.container):
                return None
            return True if kind.evaluated_value in names.ARRAY_ATTRIBUTES else None
        types = [e.value for e in kind.elements] if isinstance(kind, cst.Tuple) else [kind]
        held = [self._eval(t, st) for t in types]
        jax_type = any(isinstance(t, Ref) and t.name in names.ARRAY_TYPES for t in held)
        if not jax_type:
            return None
        if isinstance(value, JaxVal) and not value.opaque and not value.container:
            return True
        if isinstance(value, HostValue):
            return False if len(held) == 1 else None
        return None

    def _tests_a_default(self: FlowAnalysis, test: cst.BaseExpression) -> bool:
        """Whether ``test`` (``flag``, ``not flag``, ``x is None``, ``x is not None``)
        reads a parameter the caller left at its literal default."""
        if (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
                and isinstance(test.comparisons[0].operator, (cst.Is, cst.IsNot))):
            test = test.left
        return self._left_at_default(test)

    def _left_at_default(self: FlowAnalysis, test: cst.BaseExpression) -> bool:
        """Whether ``test`` (``flag``, ``not flag``) reads a parameter the caller left at
        its literal default."""
        while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
            test = test.expression
        return isinstance(test, cst.Name) and self._default_of(test.value) is not None

    def _default_of(self: FlowAnalysis, name: str) -> cst.BaseExpression | None:
        """The literal default ``name`` holds, if the caller left it and the body has not
        bound it since."""
        default = self.frame.defaults.get(name)
        if default is None or len(self.frame.binds.get(name, ())) > 1:
            return None
        return default

    def _never_runs(self: FlowAnalysis, node: cst.BaseExpression) -> bool:
        """Whether a ``for`` loop over ``node`` provably never runs: an empty literal, or
        ``range`` of a count that is a literal (or a name only ever bound to one) no
        greater than its start. The policy (README, "Which paths count"): every other loop
        runs at least once. A loop over a validation set, a loader or the caller's sizes
        runs in every real use, so a sync or a warm-up in it counts, and a path on which it
        runs zero times is not judged."""
        if empty_literal(node):
            return True
        if not (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
                and node.func.value == "range" and self.is_external("range")
                and 1 <= len(node.args) <= 2 and not any(a.star or a.keyword for a in node.args)):
            return False
        bounds = [self._int_value(a.value) for a in node.args]
        if len(bounds) == 1:
            return bounds[0] is not None and bounds[0] <= 0
        return bounds[0] is not None and bounds[1] is not None and bounds[1] <= bounds[0]

    def _int_value(self: FlowAnalysis, node: cst.BaseExpression,
                   counted: list[bool] | None = None) -> int | None:
        """An integer literal, a parameter the caller left at an integer default, or a name
        whose every binding (in this frame, else at module level) is the same integer
        literal (``n_warmup = 0``), and ``+ - * // %`` of them. With ``counted``, in a loop's
        last round (``_periodic_test``), a loop counter is its last value (and ``counted``
        notes that one took part)."""
        if counted is not None and isinstance(node, cst.Name) and (
                node.value in self._final_rounds):
            counted.append(True)
            return self._final_rounds[node.value]
        value = int_literal(node)
        if value is not None:
            return value
        if isinstance(node, cst.BinaryOperation) and isinstance(
                node.operator, (cst.Add, cst.Subtract, cst.Multiply, cst.FloorDivide,
                                cst.Modulo)):
            left = self._int_value(node.left, counted)
            right = self._int_value(node.right, counted)
            if left is None or right is None:
                return None
            if isinstance(node.operator, cst.Add):
                return left + right
            if isinstance(node.operator, cst.Subtract):
                return left - right
            if isinstance(node.operator, cst.Multiply):
                return left * right
            if not right:
                return None
            return left // right if isinstance(node.operator, cst.FloorDivide) else left % right
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            inner = self._int_value(node.expression, counted)
            return None if inner is None else -inner
        if isinstance(node, cst.Attribute) and isinstance(node.value, cst.Name) and (
                node.value.value in self.parsed_args):
            # ``args.steps`` of ``args = parser.parse_args()``: the script's default
            return self.argparse_defaults.get(node.attr.value)
        if not isinstance(node, cst.Name):
            return None
        default = self._default_of(node.value)  # a parameter the caller left at it
        if default is not None:
            return int_literal(default)
        given = self.frame.given_ints.get(node.value)
        if given is not None and len(self.frame.binds.get(node.value, ())) <= 1:
            return given  # a parameter the call gave a known integer, not bound since
        for frame, texts in reversed(self._round_literals):
            if frame is self.frame and node.value in texts:
                # the name of a loop over literals, in the round being interpreted
                text = texts[node.value]  # (``literal_text``: ``-3`` as written)
                return int(text) if text.lstrip("-").isdigit() and len(text) < 20 else None
        return self._bound_alike(node.value, self.int_bound)

    def _polled(self: FlowAnalysis, test: cst.BaseExpression, st: State) -> None:
        """A busy-wait ``while not y.is_ready():`` is left only once ``y`` is ready: a sync
        of ``y`` (and, in dispatch order, of what came before it)."""
        if not (isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not)):
            return
        call = test.expression
        if (isinstance(call, cst.Call) and not call.args and isinstance(call.func, cst.Attribute)
                and call.func.attr.value == "is_ready"):
            self._sync(self._eval(call.func.value, st), st, site=call)

    def _exec_While(self: FlowAnalysis, stmt: cst.While, st: State) -> State:
        # Runs at least once (see ``_never_runs``) unless its test is a false literal.
        once = literal_truth(stmt.test) is not False
        return self._loop(st, lambda state: self._exec_suite(stmt.body, state), stmt, stmt.test,
                          once=once)

    def _exec_Try(self: FlowAnalysis, stmt: cst.Try | cst.TryStar, st: State) -> State:
        first_return = len(self.frame.returns)
        # An exception can leave the body anywhere; its two ends bound what handlers see.
        # A sync that raises has waited (JAX reports a failed computation when it is waited
        # for), so the body's leading syncs are done on every path into a handler:
        # ``try: out.block_until_ready() except AttributeError: pass`` waits either way.
        waits = _leading_syncs(stmt.body)
        if waits:
            assert isinstance(stmt.body, cst.IndentedBlock)
            begun = self._exec_block(stmt.body.body, st.copy(), 0, waits)
            body_end = self._exec_block(stmt.body.body, begun.copy(), waits)
        else:
            begun = st
            body_end = self._exec_suite(stmt.body, st.copy())
        start = join_states([begun, body_end])
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
            # ``return fn(x)`` in the body runs ``finally`` before the function returns: a
            # clock read there sees the returned work still running.
            returned = self.frame.returns[first_return:]
            del self.frame.returns[first_return:]
            for ret_state, value in returned:
                done = self._exec_suite(stmt.finalbody.body, ret_state)
                if done.live:
                    self.frame.returns.append((done, value))
            if not out.live:
                if not returned:
                    self._exec_suite(stmt.finalbody.body, start.copy())
                return out
            out = self._exec_suite(stmt.finalbody.body, out)
        return out

    _exec_TryStar = _exec_Try

    def _exec_With(self: FlowAnalysis, stmt: cst.With, st: State) -> State:
        """A context manager of the file's own that reads the clock on entry and on exit
        (a ``Timer`` class, a ``@contextmanager`` timer) makes the body a timed region; the
        ``with`` item stands for both reads."""
        self._loc = StmtLoc(stmt, True)
        exits: list[tuple[Value, cst.BaseExpression]] = []
        for item in stmt.items:
            # ``with utils.Timer("step"):`` may use a timer of another module of the project:
            # the call looks it up in the project index (``_call_ref``)
            self._with_item += 1
            try:
                value = self._eval(item.item, st)
            finally:
                self._with_item -= 1
            entered: Value = None
            if isinstance(value, Instance):
                enter = value.klass.members.get("__enter__")
                if isinstance(enter, Func):
                    entered = self._call_func(enter, item.item, [], value, st)
                exits.append((value, item.item))
            elif isinstance(value, TimedBlock):
                self._lift(item.item, frozenset({item.item}), frozenset(), False, st)
                exits.append((value, item.item))
            if item.asname is not None:
                # ``with h5py.File(path, "w") as f:``: the file object is the host value
                held = entered if isinstance(entered, Instance) else (
                    value if isinstance(value, HostValue) else None)
                self._bind(item.asname.name, held, st)
        end = self._exec_suite(stmt.body, st)
        if not end.live:
            return end
        for value, node in reversed(exits):
            # The exit reads the clock after the body's last statement: the sync goes there.
            self._loc = StmtLoc(stmt.body, isinstance(stmt.body, cst.IndentedBlock), at_end=True)
            if isinstance(value, TimedBlock):
                self._lift(node, frozenset({node}), frozenset({(node, node)}), False, end)
                continue
            assert isinstance(value, Instance)
            exit_ = value.klass.members.get("__exit__")
            if isinstance(exit_, Func):
                self._call_func(exit_, node, [(None, "", None)] * 3, value, end)
        return end

    def _exec_Match(self: FlowAnalysis, stmt: cst.Match, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        self._eval(stmt.subject, st)
        ends = [st]
        for case in stmt.cases:
            c = st.copy()
            if case.guard is not None:
                self._truth(self._eval(case.guard, c), c)
            ends.append(self._exec_suite(case.body, c))
        return join_states(ends)

    def _exec_FunctionDef(self: FlowAnalysis, stmt: cst.FunctionDef, st: State) -> State:
        self._loc = StmtLoc(stmt, True)
        closure = None
        if self.frame.func is not None:
            closure = (dict(st.env), *self.frame.closure)
        fn = Func(stmt, closure, self._klass)
        self.top_of.setdefault(stmt, self.current_top())
        self._funcs.append(fn)
        value: Value = fn
        for deco in reversed(stmt.decorators):
            if isinstance(deco.decorator, cst.Call) and self.is_memoised(
                    [self._eval(deco.decorator.func, st)]):
                self.memoised.add(stmt)  # ``@lru_cache(maxsize=None)``
                continue
            d = self._eval(deco.decorator, st)
            if self.is_memoised([d]):
                self.memoised.add(stmt)  # ``@functools.cache``
                continue
            value = self._apply_decorator(d, value, stmt)
        self._bind(stmt.name, value, st)
        return st


def _functions(module: cst.Module) -> list[cst.FunctionDef]:
    """The module's functions and the methods of its classes (not nested ones)."""
    out: list[cst.FunctionDef] = []
    for stmt in module.body:
        if isinstance(stmt, cst.FunctionDef):
            out.append(stmt)
        elif isinstance(stmt, cst.ClassDef):
            out += [m for m in stmt.body.body if isinstance(m, cst.FunctionDef)]
    return out


def _leading_syncs(body: cst.BaseSuite) -> int:
    """How many statements at the start of ``body`` only wait: each a call spelt
    ``....block_until_ready(...)`` (``jax.block_until_ready(out)``, ``out.block_until_ready()``)."""
    if not isinstance(body, cst.IndentedBlock):
        return 0
    n = 0
    for stmt in body.body:
        if not (isinstance(stmt, cst.SimpleStatementLine) and all(
                isinstance(small, cst.Expr) and isinstance(small.value, cst.Call)
                and (dotted(small.value.func) or "").endswith("block_until_ready")
                for small in stmt.body)):
            break
        n += 1
    return n


def _guards_its_lookup(stmt: cst.If) -> bool:
    """Whether ``stmt`` tests that a container holds a key and its body reads that entry
    (``if layer_key in activations: np.array(activations[layer_key][i])``): the code
    expects the entry, and the path on which it is missing is not judged, as a loop over a
    loader runs at least once (README, "Which paths count")."""
    test = stmt.test
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1
            and isinstance(test.comparisons[0].operator, cst.In)):
        return False
    container = dotted(test.comparisons[0].comparator)
    key = dotted(test.left) if not isinstance(test.left, cst.SimpleString) else None
    literal = test.left.evaluated_value if isinstance(test.left, cst.SimpleString) else None
    if container is None or (key is None and literal is None):
        return False
    for node in walk(stmt.body, skip=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if (isinstance(node, cst.Subscript) and dotted(node.value) == container
                and len(node.slice) == 1 and isinstance(node.slice[0].slice, cst.Index)):
            index = node.slice[0].slice.value
            if (key is not None and dotted(index) == key) or (
                    literal is not None and isinstance(index, cst.SimpleString)
                    and index.evaluated_value == literal):
                return True
    return False


def _guards_a_wait(stmt: cst.If) -> bool:
    """Whether a branch of ``stmt`` waits by ``block_until_ready`` (a method or
    ``jax.block_until_ready``), not counting the functions and classes it defines."""
    for node in walk(stmt, skip=(cst.FunctionDef, cst.ClassDef, cst.Lambda)):
        if isinstance(node, cst.Call):
            func = node.func
            name = func.attr.value if isinstance(func, cst.Attribute) else (
                func.value if isinstance(func, cst.Name) else "")
            if name == "block_until_ready":
                return True
    return False
