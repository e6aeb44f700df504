"""Expressions: what each evaluates to, and what evaluating it dispatches or waits for.

Operations on JAX values dispatch work (``y @ y``, ``-y``, ``y[0]``); formatting a JAX value
copies it to the host (a transfer); ``and``/``or``/``x if c else y`` split the path.
Calls are in ``calls``.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.state import Lineage, State, join_states, written_since
from jaxlint.analysis.syntax import (
    base_name,
    children,
    dotted,
    entry_key,
    is_const_string,
)
from jaxlint.analysis.values import (
    CALLABLES,
    Func,
    HostValue,
    JaxVal,
    TimerRead,
    Value,
    join_values,
    union_elements,
)

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis


# a list or tuple written out: ``+`` or ``*`` with one on either side makes a longer
# sequence, not device work (``_eval_BinaryOperation``)
_SEQUENCE_LITERALS = (cst.List, cst.Tuple, cst.ListComp)


class Expressions:
    """The expressions part of ``FlowAnalysis`` (see the module docstring)."""

    _last_elements: list[Value] | None  # see Statements
    _partner: tuple[cst.CSTNode, frozenset[cst.CSTNode]] | None  # see Timers._snapshot

    def _eval(self: FlowAnalysis, node: cst.BaseExpression, st: State) -> Value:
        self._step()
        method = getattr(self, "_eval_" + type(node).__name__, None)
        if method is None:
            for child in children(node):
                if isinstance(child, cst.BaseExpression):
                    self._eval(child, st)
            return None
        result: Value = method(node, st)
        return result

    def _eval_Name(self: FlowAnalysis, node: cst.Name, st: State) -> Value:
        found, value = self._lookup(node.value, st)
        if found:
            return value
        q = self._qualified(node)
        return self._external(q) if q else None

    def _eval_Attribute(self: FlowAnalysis, node: cst.Attribute, st: State) -> Value:
        key = dotted(node)
        if key is not None:
            found, value = self._lookup(key, st)
            if found:
                return value
            root = base_name(node)
            if root is not None and not self._lookup(root, st)[0]:
                q = self._qualified(node)
                if q:
                    return self._external(q)
        base = self._eval(node.value, st)
        return self._attribute_of(base, node.attr.value, node, st)

    # remaining expression kinds
    def _eval_Lambda(self: FlowAnalysis, node: cst.Lambda, st: State) -> Value:
        closure = (dict(st.env), *self.frame.closure) if self.frame.func is not None else None
        fn = Func(node, closure, None)
        self.top_of.setdefault(node, self.current_top())
        return fn

    def _eval_BinaryOperation(self: FlowAnalysis, node: cst.BinaryOperation, st: State) -> Value:
        if isinstance(node.operator, (cst.Add, cst.Subtract)) and (
                _chained(node.left) or _chained(node.right)):
            terms = _signed_terms(node)
            if 2 < len(terms) <= _MAX_TERMS:
                readings = self._readings_of(terms, st)
                if readings is not None:
                    return self._sum_of_durations(terms, readings, st)
        partner = self._partner
        subtract = isinstance(node.operator, cst.Subtract)
        # ``t0 - time.perf_counter()``: the same region read the wrong way round (a negative
        # elapsed), the fresh reading on the right
        reversed_ = subtract and isinstance(node.right, cst.Call) and not isinstance(
            node.left, cst.Call)
        fresh, kept = (node.right, node.left) if reversed_ else (node.left, node.right)
        paired = None
        if st.timers and subtract and isinstance(fresh, cst.Call):
            # ``time.perf_counter() - t0``: the read's value is this difference, so it can
            # end only the regions ``t0`` starts (looking a name up has no effect)
            key = dotted(kept)
            held = self._lookup(key, st)[1] if key is not None else None
            if isinstance(held, TimerRead):
                paired = (fresh, held.sites)
        try:
            if paired is not None and not reversed_:
                self._partner = paired
            left = self._eval(node.left, st)
            self._partner = paired if paired is not None and reversed_ else partner
            right = self._eval(node.right, st)
        finally:
            self._partner = partner
        if isinstance(node.operator, cst.Subtract) and isinstance(left, TimerRead) and isinstance(
            right, TimerRead
        ):
            if reversed_ and left.shifted:
                return None  # ``deadline - time.time()``: the time left, not a region
            stops, starts = (right, left) if reversed_ else (left, right)
            for stop in stops.sites:
                for start in starts.sites:
                    self._pair(stop, start)
            return None
        if isinstance(left, TimerRead) != isinstance(right, TimerRead):
            # ``time.time() * 1000``, ``time.perf_counter_ns() // 10**6``: the same reading
            # in other units (a reading plus or minus a constant offset too).
            other = node.right if isinstance(left, TimerRead) else node.left
            scale = isinstance(node.operator, (cst.Multiply, cst.Divide, cst.FloorDivide))
            offset = isinstance(node.operator, (cst.Add, cst.Subtract)) and isinstance(
                other, (cst.Integer, cst.Float))
            if (scale and not isinstance(left, JaxVal) and not isinstance(right, JaxVal)) or offset:
                read = left if isinstance(left, TimerRead) else right
                assert isinstance(read, TimerRead)
                return replace(read, shifted=True) if offset else read
        if isinstance(node.operator, cst.Modulo) and is_const_string(node.left):
            self._sync(right, st, transfer=True)
            return None
        if isinstance(node.operator, (cst.Add, cst.Multiply)) and any(
                isinstance(n, _SEQUENCE_LITERALS) for n in (node.left, node.right)):
            # ``[prompt] + generated``, ``[x] * n``: a list or tuple made longer, no device
            # work (JAX refuses arithmetic between an array and a list or tuple)
            return union_elements([v for v in (left, right) if isinstance(v, JaxVal)])
        if isinstance(left, JaxVal) or isinstance(right, JaxVal):
            return self._operate(node, [left, right], st)
        if isinstance(left, HostValue) or isinstance(right, HostValue):
            return HostValue()  # ``a @ b.T`` of NumPy arrays: NumPy's too
        return None

    def _readings_of(self: FlowAnalysis, terms: list[tuple[int, cst.BaseExpression]],
                     st: State) -> list[TimerRead | None] | None:
        """For a sum of three or more terms (``elapsed + time.time() - start``,
        ``t2 - t1 - t4 + t3``): the clock reading each term is, a name holding one or a
        clock call (None for any other term), told without evaluating anything; None
        unless readings are both added and subtracted (a sum of durations), none of them
        a point in time to wait for (``shifted``)."""
        out: list[TimerRead | None] = []
        for _, term in terms:
            key = dotted(term)
            if key is not None:
                held = self._lookup(key, st)[1]
                if isinstance(held, TimerRead) and held.shifted:
                    return None
                out.append(held if isinstance(held, TimerRead) else None)
            elif isinstance(term, cst.Call) and self.names_clock(term.func, st):
                out.append(TimerRead(frozenset({term})))
            else:
                out.append(None)
        signs = {sign for (sign, _), read in zip(terms, out) if read is not None}
        return out if signs == {1, -1} else None

    def _sum_of_durations(self: FlowAnalysis, terms: list[tuple[int, cst.BaseExpression]],
                          readings: list[TimerRead | None], st: State) -> Value:
        """A sum of durations written as one chain of readings: each reading added is the
        stop of the reading subtracted next to it in time (``t2 - t1 - t4 + t3``: t1 to t2
        and t3 to t4; ``elapsed + time.time() - start``: start to now). A clock call in the
        chain ends only the regions the chain's subtracted readings start."""
        held = frozenset().union(*(r.sites for (sign, _), r in zip(terms, readings)
                                   if r is not None and sign < 0))
        partner = self._partner
        found: list[tuple[int, int, frozenset[cst.CSTNode]]] = []  # (tick, sign, sites)
        known = True
        try:
            for (sign, term), read in zip(terms, readings):
                fresh = read is not None and dotted(term) is None
                self._partner = (term, held) if fresh and sign > 0 else partner
                self._eval(term, st)
                if read is not None:
                    ticks = [st.reads.get(s, -1) for s in read.sites]
                    known = known and -1 not in ticks
                    found.append((max(ticks), sign, read.sites))
        finally:
            self._partner = partner
        if not known:
            # a reading made elsewhere (a helper's parameter): its order is not known, so
            # only one reading added and one subtracted are paired, the added one the stop
            if len(found) != 2:
                return None
        found.sort(key=(lambda f: f[0]) if known else (lambda f: f[1]))
        i = 0
        while i + 1 < len(found):
            (_, first_sign, starts), (_, second_sign, stops) = found[i], found[i + 1]
            if first_sign == second_sign:
                i += 1
                continue
            for stop in stops:
                for start in starts:
                    self._pair(stop, start)
            i += 2
        return None

    def _eval_UnaryOperation(self: FlowAnalysis, node: cst.UnaryOperation, st: State) -> Value:
        value = self._eval(node.expression, st)
        if isinstance(node.operator, cst.Not):
            self._truth(value, st)
            return None
        if isinstance(value, JaxVal):
            return self._operate(node, [value], st)
        return HostValue() if isinstance(value, HostValue) else None  # ``-similarities``

    @staticmethod
    def _become(st: State, merged: State) -> None:
        """Make ``st`` the join of paths that split inside one expression."""
        st.env, st.bound, st.pending = merged.env, merged.bound, merged.pending
        st.transferred, st.reads, st.live = merged.transferred, merged.reads, merged.live
        st.timers, st.called = merged.timers, merged.called
        st.lineage = merged.lineage

    def _eval_BooleanOperation(self: FlowAnalysis, node: cst.BooleanOperation, st: State) -> Value:
        left = self._eval(node.left, st)
        self._truth(left, st)
        # ``a and b`` evaluates ``b`` only on some paths: a sync inside it may not happen.
        other = st.copy()
        right = self._eval(node.right, other)
        self._become(st, join_states([st, other]))
        return join_values(left, right)

    def _eval_Comparison(self: FlowAnalysis, node: cst.Comparison, st: State) -> Value:
        # An elapsed time compared right away (``time.time() - start > timeout``, a polling
        # loop's test) is a deadline, not a measurement: it makes no region.
        self._comparing += 1
        try:
            values = [self._eval(node.left, st)]
        finally:
            self._comparing -= 1
        array_op = False
        for target in node.comparisons:
            self._comparing += 1
            try:
                values.append(self._eval(target.comparator, st))
            finally:
                self._comparing -= 1
            if not isinstance(target.operator, (cst.Is, cst.IsNot, cst.In, cst.NotIn)):
                array_op = True
        if array_op and any(isinstance(v, JaxVal) for v in values):
            return self._operate(node, values, st)
        return None

    def _eval_Subscript(self: FlowAnalysis, node: cst.Subscript, st: State) -> Value:
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
        if isinstance(base, CALLABLES):
            return base  # an element of a container of functions (``steps["adam"]``)
        if isinstance(base, HostValue):
            return base  # ``out[i]``, ``h5file["field"]``: a host value
        if isinstance(base, TimerRead):
            # ``starts[name]``: a reading kept by label (``Statements._bind``)
            key = dotted(node.value)
            if key is not None and len(keys) == 1 and isinstance(keys[0], cst.SimpleString):
                found, entry = self._lookup(entry_key(key, keys[0].value), st)
                if found and isinstance(entry, TimerRead):
                    return entry
            return base
        if not isinstance(base, JaxVal):
            return None
        if len(keys) == 1 and isinstance(keys[0], cst.SimpleString):
            # ``outs["loss"]``: the entry, when its value is known (``entry_key``)
            key = dotted(node.value)
            if key is not None:
                found, entry = self._lookup(entry_key(key, keys[0].value), st)
                if found and isinstance(entry, JaxVal):
                    return entry
        if len(keys) == 1 and is_const_string(keys[0]):
            return base  # a leaf of a dict pytree
        if base.container:
            # An element of a Python container. Waiting for the last one (``outs[-1]``) waits
            # for all; waiting for a fixed earlier one (``outs[0]``) not for those after it.
            # An element is a value, not the container: ``outs[-1][0]`` is a part of the
            # last one, not the first of the container's.
            index = len(keys) == 1 and len(node.slice) == 1 and isinstance(
                node.slice[0].slice, cst.Index)
            if index and base.leaves:
                return replace(base, container=False, leaves=False)  # a leaf: ready with all
            if index and isinstance(keys[0], cst.Integer):
                return replace(base, uncovered=base.uncovered | base.origin, container=False)
            return replace(base, container=False) if index else base
        if base.uncovered and len(keys) == 1 and isinstance(keys[0], cst.Integer):
            # a part of an earlier element (``outs[0][1]``): waits for what the element does
            return base
        if base.shard in ("per_device", "shards") and len(keys) == 1 and (
                isinstance(keys[0], cst.Integer) or (
                    isinstance(keys[0], cst.UnaryOperation)
                    and isinstance(keys[0].expression, cst.Integer))):
            # ``out[0]`` of a pmapped result, ``y.addressable_shards[0]``: one device's part
            # (a name as index is not: ``for i in range(n): out[i]...`` may visit them all)
            if base.shard == "shards":
                return replace(base, shard="listed")
            piece = self._operate(node, [base], st)
            return replace(piece, shard="one") if piece is not None else None
        return self._operate(node, [base], st)

    def _elements(self: FlowAnalysis, node: cst.Tuple | cst.List | cst.Set, st: State) -> Value:
        values = [self._eval(e.value, st) for e in node.elements]
        self._last_elements = values
        if len(values) == 1 and isinstance(values[0], TimerRead) and isinstance(node, cst.List):
            return values[0]  # ``stamps = [time.perf_counter()]`` (see ``Timers._stamp``)
        if values and isinstance(node, cst.Tuple) and all(isinstance(v, HostValue) for v in values):
            return HostValue()  # ``(np.sum(p), np.asarray(c[-1]))``: its parts are the host's
        out = union_elements(values)
        if isinstance(out, JaxVal) and isinstance(node, cst.Tuple) and any(
                isinstance(v, JaxVal) and v.aval for v in values):
            out = replace(out, parts=tuple(v.aval if isinstance(v, JaxVal) else ()
                                           for v in values))
        return out

    _eval_Tuple = _elements

    _eval_List = _elements

    _eval_Set = _elements

    def _eval_Dict(self: FlowAnalysis, node: cst.Dict, st: State) -> Value:
        values = []
        entries: dict[str, Value] = {}
        for el in node.elements:
            if isinstance(el, cst.DictElement):
                self._eval(el.key, st)
            value = self._eval(el.value, st)
            values.append(value)
            if isinstance(el, cst.DictElement) and isinstance(el.key, cst.SimpleString):
                entries[el.key.value] = value
        self._last_entries = entries if len(entries) == len(node.elements) else None
        return union_elements(values)

    def _eval_IfExp(self: FlowAnalysis, node: cst.IfExp, st: State) -> Value:
        self._truth(self._eval(node.test, st), st)
        known = self._known_test(node.test, st)
        if known is not None:
            return self._eval(node.body if known else node.orelse, st)
        then, other = st.copy(), st.copy()
        value = join_values(self._eval(node.body, then), self._eval(node.orelse, other))
        self._become(st, join_states([then, other]))
        return value

    def _eval_FormattedString(self: FlowAnalysis, node: cst.FormattedString, st: State) -> Value:
        for part in node.parts:
            if isinstance(part, cst.FormattedStringExpression):
                # Formatting a JAX value copies it to the host, which waits for it.
                self._sync(self._eval(part.expression, st), st, transfer=True)
                if part.format_spec:
                    for spec in part.format_spec:
                        if isinstance(spec, cst.FormattedStringExpression):
                            self._eval(spec.expression, st)
        return None

    def _eval_NamedExpr(self: FlowAnalysis, node: cst.NamedExpr, st: State) -> Value:
        value = self._eval(node.value, st)
        self._bind(node.target, value, st)
        return value

    def _comprehension(self: FlowAnalysis, node: cst.BaseComp, st: State) -> Value:
        saved, bound = st.env.copy(), st.bound.copy()
        # what the comprehension writes is undone after it: only those names are visited
        mark = st.lineage = Lineage(st.lineage)
        comp: cst.CompFor | None = node.for_in
        while comp is not None:
            it = self._eval(comp.iter, st)
            self._bind(comp.target, it if isinstance(it, (JaxVal, *CALLABLES)) else None, st)
            for cond in comp.ifs:
                self._truth(self._eval(cond.test, st), st)
            comp = comp.inner_for_in
        if isinstance(node, cst.DictComp):
            self._eval(node.key, st)
            value = self._eval(node.value, st)
        else:
            assert isinstance(node, (cst.ListComp, cst.SetComp, cst.GeneratorExp))
            value = self._eval(node.elt, st)
        written = written_since(st.lineage, mark)
        env = st.env
        for k in list(env.keys()) if written is None else written:
            if k not in saved:
                if k in env:
                    st.drop(k)
                    st.timers.pop(k, None)
            elif k in env and not isinstance(env[k], JaxVal):
                v = saved[k]
                if env[k] is not v:
                    st.write(k, v)
        st.bound = bound
        if isinstance(value, JaxVal):
            return replace(value, container=True)
        return value if isinstance(value, CALLABLES) else None

    _eval_ListComp = _comprehension

    _eval_SetComp = _comprehension

    _eval_GeneratorExp = _comprehension

    _eval_DictComp = _comprehension

    def _eval_Await(self: FlowAnalysis, node: cst.Await, st: State) -> Value:
        return self._eval(node.expression, st)


# a sum of durations is short: a longer chain (``x0 + x1 + ... + x999``, generated code) is
# not flattened, so that each of its nodes costs a bounded walk and the whole stays linear
_MAX_TERMS = 8


def _chained(node: cst.BaseExpression) -> bool:
    """Whether ``node`` continues a chain of ``+`` and ``-`` (so that the operation it is an
    operand of has three terms or more): the one check most operations stop at."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        node = node.expression
    return isinstance(node, cst.BinaryOperation) and isinstance(node.operator,
                                                                (cst.Add, cst.Subtract))


def _signed_terms(node: cst.BaseExpression) -> list[tuple[int, cst.BaseExpression]]:
    """The terms of a chain of ``+`` and ``-`` (through parentheses and unary minus), each
    with the sign it is summed with, in the order they are written; more than
    ``_MAX_TERMS`` (a walk of a bounded number of nodes finds out) when longer."""
    out: list[tuple[int, cst.BaseExpression]] = []
    budget = 4 * _MAX_TERMS  # nodes visited, whatever the chain's shape
    todo: list[tuple[int, cst.BaseExpression]] = [(1, node)]
    while todo and budget > 0 and len(out) <= _MAX_TERMS:
        sign, node = todo.pop()
        budget -= 1
        if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
            todo.append((-sign, node.expression))
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator,
                                                                  (cst.Add, cst.Subtract)):
            right = -sign if isinstance(node.operator, cst.Subtract) else sign
            todo += [(right, node.right), (sign, node.left)]  # (the left one first)
        else:
            out.append((sign, node))
    if todo:
        out += [(1, node)] * (_MAX_TERMS + 1 - len(out))  # (too long: not a sum of durations)
    return out
