"""Turning what the flow analysis found into edits a fixer can apply.

Each function answers "what is the smallest honest edit that makes this region measure the
work?" for one kind of mistake, or None when no edit is safe to make mechanically.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

import libcst as cst

from jaxlint.analysis.flow import FlowAnalysis, HarnessUse, Region, Snapshot, StmtLoc
from jaxlint.analysis.syntax import children, entry_code, names_in
from jaxlint.analysis.values import JaxVal, Site


@dataclass(frozen=True)
class InsertSync:
    """Insert ``jax.block_until_ready(<exprs>)`` before ``before`` (a statement).

    Plans inserting at the same place are merged into one call unless ``alone``.
    """

    before: cst.CSTNode
    exprs: tuple[str, ...]
    alone: bool = False
    at_end: bool = False  # ``before`` is an indented block: append the sync to it


@dataclass(frozen=True)
class InsertBind(InsertSync):
    """Before ``before``, bind ``code`` to the fresh name ``name``, then sync ``exprs`` (the
    name) as ``InsertSync`` does: how a fix gets hold of work that was only ever an
    argument (``float(loss_fn(p))``)."""

    name: str = ""
    code: str = ""


@dataclass(frozen=True)
class WrapSync:
    """Wrap an expression statement: ``f(x)`` -> ``jax.block_until_ready(f(x))``."""

    stmt: cst.Expr


@dataclass(frozen=True)
class WrapExpr:
    """Wrap any expression: ``f(x)`` -> ``jax.block_until_ready(f(x))`` (a lambda's body)."""

    expr: cst.BaseExpression


@dataclass(frozen=True)
class ReplaceExpr:
    """Replace an expression with new code (a statement string, a callable)."""

    expr: cst.BaseExpression
    code: str
    # code that reads names the replaced expression did not: the statement before which
    # they must be bound on every path (the engine asks, as for an inserted sync)
    reads_at: cst.CSTNode | None = None


@dataclass(frozen=True)
class MoveAfter:
    """Move the line ``line`` to right after the statement ``after`` (same block)."""

    line: cst.SimpleStatementLine
    after: cst.CSTNode


Edit = InsertSync | InsertBind | WrapSync | WrapExpr | ReplaceExpr | MoveAfter


@dataclass(frozen=True)
class FixPlan:
    edits: tuple[Edit, ...]
    unsafe: bool = False
    # plans that do the same with fewer names (one result that alone covers the work): the
    # engine takes the first whose names are bound on every path when this one's are not
    # (``w`` bound before a loop rather than ``loss``, bound only in it)
    fallbacks: tuple[FixPlan, ...] = ()

    @property
    def synced_exprs(self) -> tuple[str, ...]:
        return tuple(e for edit in self.edits if isinstance(edit, InsertSync)
                     for e in edit.exprs)

    @property
    def wraps(self) -> tuple[cst.Expr, ...]:
        return tuple(edit.stmt for edit in self.edits if isinstance(edit, WrapSync))


Order = Mapping[cst.CSTNode, tuple[int, int]]


def results_to_sync(flow: FlowAnalysis, region: Region, todo: frozenset[Site], order: Order
                    ) -> tuple[list[str], list[cst.Expr], set[Site]]:
    """The region's results: names bound to values no other pending value was computed
    from, plus dropped results to wrap in place; and the work they leave uncovered.

    Near-linear in the region's values (a dict literal of 8,000 JAX values is 8,000 of
    them): what a value covers is a prefix of the work by tick, and the values another one
    was computed from are found through the sites it depends on, not by trying every pair."""
    snap = region.snapshot
    ticks = snap.ticks
    by_tick = sorted(((ticks[s], s) for s in todo if s in ticks), key=lambda p: p[0])
    tick_list = [t for t, _ in by_tick]

    def covered_by(v: JaxVal, sites: Iterable[Site]) -> set[Site]:
        return {s for s in sites if s in ticks and v.covers(s, ticks[s])}

    def covered_in_todo(v: JaxVal) -> set[Site]:
        """``covered_by(v, todo)``: the work dispatched no later than ``v``, less what it
        leaves uncovered."""
        end = bisect_right(tick_list, v.tick)
        return {s for _, s in by_tick[:end] if s not in v.uncovered}

    # A name holds a result of the region when the run it holds is the latest of its site
    # (in a loop, ``prev = u`` holds the previous round's run of the same call).
    cands = {name: v for name, v in snap.holders.items()
             if name not in snap.unbound and covered_by(v, v.origin & todo)}
    plain = frozenset().union(*(v.origin for v in cands.values() if not v.container))
    # Who was computed from whom: for each candidate, one site of its origin; the values
    # whose deps hold that site are the only ones its origin can be a subset of.
    first_site = {name: min(v.origin, key=lambda s: (ticks.get(s, -1), id(s)))
                  for name, v in cands.items()}
    wanted = set(first_site.values())
    users: dict[Site, list[str]] = {}
    for o, w in cands.items():
        for s in w.deps & wanted:
            users.setdefault(s, []).append(o)
    chosen = []
    for name, v in cands.items():
        if v.container and v.origin & todo <= plain:
            continue
        # Drop a value a later pending value was computed from (``y`` when ``z = y * 2`` is
        # pending): syncing ``z`` waits for ``y``. "Later" is by dispatch order, which keeps a
        # loop-carried value (``params``) over what its next step consumed.
        # Outputs of one call (``w, loss = step(w)``) are siblings, not inputs of each other.
        if any(o != name and v.origin <= w.deps
               and all(w.covers(s, ticks.get(s, v.tick)) for s in v.origin)
               and not v.origin & w.origin
               for o in users.get(first_site[name], ()) for w in (cands[o],)):
            continue
        chosen.append(name)

    stop = order.get(region.stop, (0, 0))

    def first(name: str) -> tuple[tuple[int, int], tuple[int, int]]:
        made = min((order.get(s, (0, 0)) for s in cands[name].origin), default=(0, 0))
        bound_at = _bind_positions(flow, snap, name, order)
        i = bisect_left(bound_at, stop)
        return made, bound_at[i - 1] if i else (0, 0)

    chosen.sort(key=lambda n: (first(n), n))
    covered: set[Site] = set()
    # The values that leave nothing uncovered cover the work up to the latest of them; the
    # others are asked one by one.
    whole = [cands[n].tick for n in chosen if not cands[n].uncovered]
    if whole:
        covered |= covered_in_todo(JaxVal(max(whole)))
    for name in chosen:
        if cands[name].uncovered:
            covered |= covered_in_todo(cands[name])
    wraps: list[cst.Expr] = []
    for site in sorted(todo - covered, key=lambda s: order.get(s, (0, 0)), reverse=True):
        stmt = flow.bare.get(site)
        if site in covered or stmt is None:
            continue
        wraps.append(stmt)
        bare = JaxVal(flow.bare_ticks.get(site, -1))
        covered |= covered_in_todo(bare) | {site}
    wraps.reverse()
    # an object of a class that is no registered pytree: its fields, as a dict, are one
    # (``jax.block_until_ready(heads)`` would see one leaf that is no array)
    exprs = [f"vars({entry_code(n)})" if cands[n].record else entry_code(n) for n in chosen]
    return exprs, wraps, set(todo) - covered


def _bind_positions(flow: FlowAnalysis, snap: Snapshot, name: str, order: Order
                    ) -> list[tuple[int, int]]:
    """The sorted positions where ``name`` is bound in the frames of ``snap``, computed once
    per frame: a name bound in each of thousands of regions would otherwise cost each
    region the whole list."""
    key = (snap.frames_key, name)
    cache: dict[object, list[tuple[int, int]]] = flow.plan_cache
    found = cache.get(key)
    if found is None:
        found = cache[key] = sorted(order.get(t, (0, 0)) for t in snap.binds_of(name))
    return found


def sync_before_stop(flow: FlowAnalysis, region: Region, order: Order) -> FixPlan | None:
    """JAX101/JAX103: block on the region's results right before the clock is read."""
    if not region.unsynced:
        return None
    names, wraps, left = results_to_sync(flow, region, region.unsynced, order)
    if left or (names and not region.where.fixable):
        return None
    if any(region.where.node is w for w in wraps):
        return None
    edits: list[Edit] = [WrapSync(w) for w in wraps]
    if names:
        edits.append(InsertSync(region.where.node, tuple(names), at_end=region.where.at_end))
    fallbacks: list[FixPlan] = []
    if len(names) > 1 and not wraps:
        # any one held result that alone covers every piece of the region's work
        snap = region.snapshot
        for name, value in sorted(snap.holders.items()):
            if name in snap.unbound or value.container:
                continue
            if all(s in snap.ticks and value.covers(s, snap.ticks[s]) for s in region.unsynced):
                fallbacks.append(FixPlan((InsertSync(region.where.node, (entry_code(name),),
                                                     at_end=region.where.at_end),)))
    return FixPlan(tuple(edits), fallbacks=tuple(fallbacks[:4]))


class _Blocks:
    """Which statement list each statement line sits in, and at which index; and every word
    the module's text spells (a fresh name must be none of them). Made once per module
    (``_blocks``), from the statements alone: no expression is visited."""

    def __init__(self, module: cst.Module, text: str) -> None:
        self.where: dict[cst.CSTNode, tuple[int, int]] = {}
        self.blocks: list[tuple[cst.CSTNode, ...]] = []
        self.names: set[str] = set(_WORD.findall(text))
        self._add(tuple(module.body))

    def _add(self, body: tuple[cst.CSTNode, ...]) -> None:
        index = len(self.blocks)
        self.blocks.append(body)
        for i, stmt in enumerate(body):
            self.where[stmt] = (index, i)
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    self.where[small] = (index, i)
            else:
                self._inner(stmt)

    def _inner(self, node: cst.CSTNode) -> None:
        """The statement lists of a compound statement (its ``else``, ``except``, ``case``
        and ``elif`` parts too), in the order a visit would meet them."""
        for child in children(node):
            if isinstance(child, cst.IndentedBlock):
                self._add(tuple(child.body))
            elif isinstance(child, _PARTS):
                self._inner(child)


_WORD = re.compile(r"\w+")
_PARTS = (cst.BaseCompoundStatement, cst.Else, cst.ExceptHandler, cst.ExceptStarHandler,
          cst.Finally, cst.MatchCase)


def _free_names(node: cst.CSTNode) -> set[str]:
    """Names an expression reads from its scope (not attribute or keyword names)."""
    found: set[str] = set()

    class Names(cst.CSTVisitor):
        def visit_Name(self, n: cst.Name) -> None:
            found.add(n.value)

        def visit_Attribute(self, n: cst.Attribute) -> bool:
            n.value.visit(self)
            return False

        def visit_Arg(self, n: cst.Arg) -> bool:
            n.value.visit(self)
            return False

        def visit_Lambda(self, n: cst.Lambda) -> bool:
            return False

    node.visit(Names())
    return found


def _targets(line: cst.SimpleStatementLine) -> set[str]:
    out: set[str] = set()
    for small in line.body:
        if isinstance(small, cst.Assign):
            for t in small.targets:
                out |= names_in(t.target)
        elif isinstance(small, (cst.AnnAssign, cst.AugAssign)):
            out |= names_in(small.target)
    return out


@dataclass(frozen=True)
class _TransferLine:
    """A JAX104 region's one host copy, as a whole line in the stop's block before it."""

    loc: StmtLoc
    body: tuple[cst.CSTNode, ...]
    at: int  # the copy's line in ``body``
    stop_at: int  # the stop's line in ``body``

    @property
    def line(self) -> cst.SimpleStatementLine:
        line = self.body[self.at]
        assert isinstance(line, cst.SimpleStatementLine)
        return line


def _blocks(flow: FlowAnalysis) -> _Blocks:
    """The module's blocks, once per module, not per region."""
    blocks = flow.plan_blocks
    if not isinstance(blocks, _Blocks):
        blocks = flow.plan_blocks = _Blocks(flow.module, flow.text)
    return blocks


def _transfer_line(flow: FlowAnalysis, region: Region) -> _TransferLine | None:
    """Where the region's only host copy is, when a fix may move it after the stop: one
    whole line in the stop's block, before it, and nothing up to the stop uses what the
    line binds."""
    if region.unsynced or not region.host_synced or not region.where.fixable:
        return None
    locs = {flow.transfer_where.get(s) for s in region.host_synced}
    if len(locs) != 1 or None in locs:
        return None
    loc = next(iter(locs))
    assert isinstance(loc, StmtLoc)
    if not loc.fixable or not isinstance(loc.node, cst.BaseSmallStatement):
        return None
    blocks = _blocks(flow)
    t_at = blocks.where.get(loc.node)
    s_at = blocks.where.get(region.where.node)
    if t_at is None or s_at is None or t_at[0] != s_at[0] or t_at[1] >= s_at[1]:
        return None
    body = blocks.blocks[t_at[0]]
    line = body[t_at[1]]
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    bound = _targets(line)
    if bound:
        for later in body[t_at[1] + 1 : s_at[1] + 1]:
            if names_in(later) & bound:
                return None
    return _TransferLine(loc, body, t_at[1], s_at[1])


def sync_then_transfer(flow: FlowAnalysis, region: Region, order: Order) -> FixPlan | None:
    """JAX104: block on the results where the transfer was, and move the transfer (one
    whole line in the stop's block, whose results nothing before the stop uses) to after
    the stop. Unsafe: it moves code."""
    found = _transfer_line(flow, region)
    if found is None:
        return None
    names, wraps, left = results_to_sync(flow, region, region.host_synced, order)
    if left or wraps or not names:
        return None
    return FixPlan((InsertSync(found.loc.node, tuple(names)),
                    MoveAfter(found.line, found.body[found.stop_at])), unsafe=True)


# Copies whose work is their receiver (``y.item()``); the others take it as first argument.
_RECEIVER_COPIES = frozenset({"item", "tolist"})


def bind_then_transfer(flow: FlowAnalysis, region: Region) -> FixPlan | None:
    """JAX104 when the copy wraps the work (``host = np.asarray(f(a))``, nothing names the
    work to sync): bind it to a fresh name, sync that name, read the clock, then copy from
    the name. Unsafe, as ``sync_then_transfer``: it moves the copy. Offered only when the
    copy's argument (or receiver) is the region's work and holds all of it."""
    found = _transfer_line(flow, region)
    if found is None:
        return None
    stmt = found.loc.node
    if not isinstance(stmt, (cst.Assign, cst.AnnAssign, cst.Expr)) or not isinstance(
            stmt.value, cst.Call):
        return None
    call = stmt.value
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in _RECEIVER_COPIES \
            and not call.args:
        work: cst.BaseExpression = call.func.value
    elif call.args and call.args[0].keyword is None and not call.args[0].star:
        work = call.args[0].value
    else:
        return None
    if work not in region.host_synced:
        return None
    inside = _Nodes()
    work.visit(inside)
    if not region.host_synced <= inside.nodes:
        return None
    code = _one_line(flow, work)
    if code is None:
        return None
    base = "result"
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0].target, cst.Name):
        base = stmt.targets[0].target.value
    elif isinstance(stmt, cst.AnnAssign) and isinstance(stmt.target, cst.Name):
        base = stmt.target.value
    taken = _blocks(flow).names
    name = f"{base}_device"
    while name in taken:
        name = "_" + name
    return FixPlan((InsertBind(stmt, (name,), name=name, code=code), ReplaceExpr(work, name),
                    MoveAfter(found.line, found.body[found.stop_at])), unsafe=True)


class _Nodes(cst.CSTVisitor):
    """Every node of a subtree."""

    def __init__(self) -> None:
        self.nodes: set[cst.CSTNode] = set()

    def on_visit(self, node: cst.CSTNode) -> bool:
        self.nodes.add(node)
        return True


def warm_up_before_start(flow: FlowAnalysis, region: Region, call: cst.Call, order: Order
                         ) -> FixPlan | None:
    """JAX105: call the jitted function once, synced, before the clock starts. Unsafe: it
    runs user code once more. Only when the call's names mean the same thing there."""
    if len(region.starts) != 1:
        return None
    start = next(iter(region.starts))
    loc = flow.where.get(start)
    snap = flow.snapshots.get(start)
    if loc is None or not loc.fixable or snap is None:
        return None
    start_pos = order.get(start, (0, 0))
    code = flow.module.code_for_node(call).strip()
    if "\n" in code or "\r" in code:
        return None
    call_pos = order.get(call, (0, 0))
    stop_snap = flow.snapshots.get(region.stop)
    for name in _free_names(call):
        binds = stop_snap.binds_of(name) if stop_snap is not None else ()
        if any(start_pos < order.get(t, (0, 0)) < call_pos for t in binds):
            return None  # (re)bound inside the region: the warm-up would see another value
        # Bound before the start in its frame (a parameter, an earlier assignment), a
        # module global or an import: the warm-up before the start can name it.
        known = (any(order.get(t, (0, 0)) < start_pos for t in snap.binds_of(name))
                 or name in flow.globals or flow.is_external(name))
        if not known:
            return None
    return FixPlan((InsertSync(loc.node, (code,), alone=True),), unsafe=True)


def _one_line(flow: FlowAnalysis, node: cst.CSTNode) -> str | None:
    code = flow.module.code_for_node(node).strip()
    return None if "\n" in code or "\r" in code else code


def _string_with(literal: cst.BaseExpression, wrap: bool, suffix: str = "") -> str | None:
    """The literal rewritten as ``jax.block_until_ready(<code>)`` or with ``suffix`` added,
    in the same quotes. Only plain one-line literals are rewritten."""
    if not isinstance(literal, cst.SimpleString) or literal.quote in ('"""', "'''"):
        return None
    prefix, quote = literal.prefix, literal.quote
    inner = literal.value[len(prefix) + len(quote): -len(quote)]
    if "\n" in inner:
        return None
    if wrap:
        inner = f"jax.block_until_ready({inner.strip()})"
    return f"{prefix}{quote}{inner}{suffix}{quote}"


def _parses(literal: str) -> bool:
    """Whether the statement a string literal holds parses."""
    try:
        value = cst.ensure_type(cst.parse_expression(literal), cst.SimpleString).evaluated_value
        cst.parse_module(value if isinstance(value, str) else "")
    except Exception:  # noqa: BLE001 - any failure means: it does not parse
        return False
    return True


def sync_in_harness(flow: FlowAnalysis, use: HarnessUse) -> FixPlan | None:
    """JAX102: make each timed run wait for its own work."""
    if use.asv:
        return None  # its body would need the sync: what to wait for is the author's call
    stmt = use.stmt
    if isinstance(stmt, cst.Lambda):
        return FixPlan((WrapExpr(stmt.body),))
    if isinstance(stmt, (cst.SimpleString, cst.ConcatenatedString)):
        try:
            parsed = cst.parse_module(stmt.evaluated_value or "")
        except Exception:
            return None
        body = parsed.body
        if len(body) != 1 or not isinstance(body[0], cst.SimpleStatementLine) or len(
            body[0].body
        ) != 1 or not isinstance(body[0].body[0], cst.Expr):
            return None
        new = _string_with(stmt, wrap=True)
        if new is None or not _parses(new):  # "f(x)  # note" would wrap its ")" in the comment
            return None
        edits: list[Edit] = [ReplaceExpr(stmt, new)]
        if use.namespace is not None:
            # globals={...}: the statement sees only that dict, so give it ``jax`` too.
            keys = {e.key.evaluated_value for e in use.namespace.elements
                    if isinstance(e, cst.DictElement) and isinstance(e.key, cst.SimpleString)}
            if "jax" not in keys:
                quote = stmt.quote if isinstance(stmt, cst.SimpleString) else '"'
                grown = use.namespace.with_changes(elements=[
                    *use.namespace.elements,
                    cst.DictElement(cst.SimpleString(f"{quote}jax{quote}"), cst.Name("jax")),
                ])
                code = _one_line(flow, grown)
                if code is None:
                    return None
                edits.append(ReplaceExpr(use.namespace, code))
        elif not use.has_globals:
            # The statement runs in the setup's namespace: it needs ``jax`` there too.
            if use.setup is None:
                return None
            setup = _string_with(use.setup, wrap=False, suffix="; import jax")
            if setup is None:
                return None
            edits.append(ReplaceExpr(use.setup, setup))
        return FixPlan(tuple(edits))
    code = _one_line(flow, stmt)
    if code is None:
        return None
    if not isinstance(stmt, (cst.Name, cst.Attribute, cst.Call, cst.Subscript)):
        code = f"({code})"
    if use.fixture:
        new = f"lambda *args, **kwargs: jax.block_until_ready({code}(*args, **kwargs))"
    else:
        new = f"lambda: jax.block_until_ready({code}())"
    return FixPlan((ReplaceExpr(stmt, new),))
