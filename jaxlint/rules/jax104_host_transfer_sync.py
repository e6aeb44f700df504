from __future__ import annotations

from collections.abc import Iterator, Sequence

import libcst as cst

from jaxlint.analysis import FixPlan, MoveAfter, Region, ReplaceExpr
from jaxlint.analysis.plans import sync_then_transfer
from jaxlint.rules.base import (
    FileContext,
    InsertBind,
    Report,
    Rule,
    explain_sites,
    region_heading,
    sync_call_text,
)


class HostTransferSync(Rule):
    """## What it does
    Finds a timed region whose only wait for its JAX work is a device-to-host copy:
    `np.asarray(y)`, `np.array(y)`, `float(y)`, `int(y)`, `y.item()`, `y.tolist()`,
    `print(y)`, `jax.device_get(y)`, or formatting `y` in a string.

    ## Why is this bad?
    The copy does wait for the work, but the time now includes the transfer to the host,
    which can dwarf the work: on an H200 a 0.5 ms matmul read 57 ms through `np.asarray`.

    ## Example
    ```python
    start = time.perf_counter()
    y = f(x)
    y_host = np.asarray(y)
    elapsed = time.perf_counter() - start
    ```

    ## Use instead
    ```python
    start = time.perf_counter()
    y = f(x)
    jax.block_until_ready(y)
    elapsed = time.perf_counter() - start
    y_host = np.asarray(y)
    ```

    When the copy takes the work itself (`host = np.asarray(f(x))`, `float(loss_fn(p))`),
    bind the work to a name first:

    ```python
    start = time.perf_counter()
    host_device = f(x)
    jax.block_until_ready(host_device)
    elapsed = time.perf_counter() - start
    host = np.asarray(host_device)
    ```

    ## Fix safety
    Unsafe (applied only with `--unsafe-fixes`): the fix inserts the sync where the transfer
    was and moves the transfer's line after the statement that stops the clock, which changes
    the order of the program's statements (and of anything the transfer prints). It is
    offered only when the transfer is a whole line in the same block as the stop and nothing
    between them uses what it binds. When the transfer's argument is the work, the fix binds
    it to a fresh name (`<target>_device`) before the sync and copies from that name.
    """

    CODE = "JAX104"
    MESSAGE = ("timer stops after a host transfer: `{transfer}` (line {line}) waits for the work "
               "but adds a device-to-host copy to the time; {remedy}")

    def check(self, ctx: FileContext) -> Iterator[Report]:
        flow = ctx.flow
        for region in flow.regions():
            if region.unsynced or not region.host_synced:
                continue
            where = min((flow.transfer_where[s] for s in region.host_synced
                         if s in flow.transfer_where),
                        key=lambda loc: ctx.line_of.get(loc.node, (0, 0)), default=None)
            node = where.node if where is not None else region.stop
            plan = sync_then_transfer(flow, region, ctx.line_of) or bind_then_transfer(
                ctx, region)
            if plan is not None and not any(isinstance(e, InsertBind) for e in plan.edits):
                remedy = (f"call {sync_call_text(plan.synced_exprs)} instead and copy after "
                          "reading the clock")
            else:
                remedy = "call jax.block_until_ready(...) instead and copy after reading the clock"
            message = self.MESSAGE.format(transfer=ctx.code(node, 40), line=ctx.line(node),
                                          remedy=remedy)
            lines = [region_heading(ctx, region), *explain_sites(
                ctx, region.host_synced, "JAX work in the region, waited for only by a copy "
                "to the host:")]
            lines.append(f"The copy at line {ctx.line(node)} (`{ctx.code(node, 40)}`) is inside "
                         "the region, so the time includes the transfer.")
            yield Report(region.stop, message, plan, (*region.starts, region.stop),
                         "\n".join(lines))


# Copies whose work is their first argument, and methods whose work is their receiver.
_METHODS = frozenset({"item", "tolist"})


class _Blocks(cst.CSTVisitor):
    """Each statement (and each small statement of a line) -> (its block's body, index)."""

    def __init__(self) -> None:
        self.where: dict[cst.CSTNode, tuple[Sequence[cst.BaseStatement], int]] = {}

    def _body(self, body: Sequence[cst.BaseStatement]) -> None:
        for i, stmt in enumerate(body):
            self.where[stmt] = (body, i)
            if isinstance(stmt, cst.SimpleStatementLine):
                for small in stmt.body:
                    self.where[small] = (body, i)

    def visit_Module(self, node: cst.Module) -> None:
        self._body(node.body)

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> None:
        self._body(node.body)


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


def _names(node: cst.CSTNode) -> set[str]:
    found = _Names()
    node.visit(found)
    return found.names


def _work_of(call: cst.Call) -> cst.BaseExpression | None:
    """The expression a copy takes: ``np.asarray(<it>)``, ``float(<it>)``, ``<it>.item()``."""
    if isinstance(call.func, cst.Attribute) and call.func.attr.value in _METHODS \
            and not call.args:
        return call.func.value
    if call.args and call.args[0].keyword is None and not call.args[0].star:
        return call.args[0].value
    return None


def _within(node: cst.CSTNode, root: cst.CSTNode) -> bool:
    found = [False]

    class Find(cst.CSTVisitor):
        def on_visit(self, n: cst.CSTNode) -> bool:
            if n is node:
                found[0] = True
            return not found[0]

    root.visit(Find())
    return found[0]


def bind_then_transfer(ctx: FileContext, region: Region) -> FixPlan | None:
    """The fix when the copy wraps the work (``host = np.asarray(f(a))``): bind the work to a
    fresh name, sync that name, read the clock, then copy from the name. Unsafe, as the
    other JAX104 fix: it moves the copy. Offered only when the copy is a whole line in the
    stop's block before it, the work is the copy's argument and holds all the region's work,
    and nothing up to the stop uses what the line binds."""
    flow = ctx.flow
    if region.unsynced or not region.host_synced or not region.where.fixable:
        return None
    locs = {flow.transfer_where.get(s) for s in region.host_synced}
    if len(locs) != 1 or None in locs:
        return None
    loc = next(iter(locs))
    assert loc is not None
    stmt = loc.node
    if not loc.fixable or not isinstance(stmt, (cst.Assign, cst.AnnAssign, cst.Expr)) \
            or not isinstance(stmt.value, cst.Call):
        return None
    work = _work_of(stmt.value)
    if work is None or work not in region.host_synced:
        return None
    if not all(s is work or _within(s, work) for s in region.host_synced):
        return None
    code = ctx.module.code_for_node(work).strip()
    if "\n" in code or "\r" in code:
        return None
    blocks = _Blocks()
    ctx.module.visit(blocks)
    at, stop_at = blocks.where.get(stmt), blocks.where.get(region.where.node)
    if at is None or stop_at is None or at[0] is not stop_at[0] or at[1] >= stop_at[1]:
        return None
    body = at[0]
    line = body[at[1]]
    if not isinstance(line, cst.SimpleStatementLine) or len(line.body) != 1:
        return None
    bound: set[str] = set()
    if isinstance(stmt, cst.Assign):
        for target in stmt.targets:
            bound |= _names(target.target)
    elif isinstance(stmt, cst.AnnAssign):
        bound |= _names(stmt.target)
    for later in body[at[1] + 1: stop_at[1] + 1]:
        if _names(later) & bound:
            return None
    base = "result"
    if isinstance(stmt, cst.Assign) and len(stmt.targets) == 1 \
            and isinstance(stmt.targets[0].target, cst.Name):
        base = stmt.targets[0].target.value
    elif isinstance(stmt, cst.AnnAssign) and isinstance(stmt.target, cst.Name):
        base = stmt.target.value
    taken = _names(ctx.module)
    name = f"{base}_device"
    while name in taken:
        name = "_" + name
    return FixPlan((InsertBind(stmt, (name,), name=name, code=code),
                    ReplaceExpr(work, name), MoveAfter(line, body[stop_at[1]])), unsafe=True)
