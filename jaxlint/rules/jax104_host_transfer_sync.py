from __future__ import annotations

from collections.abc import Iterator

from jaxlint.analysis.plans import InsertBind, bind_then_transfer, sync_then_transfer
from jaxlint.rules.base import (
    FileContext,
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
    `print(y)`, `jax.device_get(y)`, or formatting `y` in a string. A copy the timed loop
    makes on every round (fetching each step's actions or metrics, a progress print of the
    loss, storing each result into a NumPy array) is part of the work timed, not the
    region's way of waiting: such a region is synced and not reported. Also a benchmark
    harness (`timeit`, `%timeit`, pytest-benchmark) whose timed code waits only through
    such a copy (`timeit.timeit(lambda: np.asarray(f(x)), number=100)`), unless it copies
    round by round in a loop of its own.

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
    HARNESS_MESSAGE = ("harness times a host transfer: `{stmt}` waits for its JAX work only "
                       "by copying it to the host, so every run includes the copy; have it "
                       "return jax.block_until_ready(...) of the result and copy afterwards")
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
                flow, region)
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
        for use in flow.harnesses.values():
            if use.host_only and not use.unsynced and not use.only_lambda:
                stmt = ctx.code(use.stmt, 40)
                yield Report(use.call, self.HARNESS_MESSAGE.format(stmt=stmt), None,
                             (use.call,),
                             f"`{ctx.code(use.call, 50)}` (line {ctx.line(use.call)}) times "
                             f"`{stmt}` run by run; each run waits for the JAX work it "
                             "dispatched only through a copy to the host, so the figure "
                             "includes the device-to-host transfer.")
