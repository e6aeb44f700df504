from __future__ import annotations

from collections.abc import Iterator

from jaxlint.analysis.plans import sync_before_stop
from jaxlint.rules.base import FileContext, Report, Rule
from jaxlint.rules.jax101_unsynced_timer import describe, explain


class WrongValueSynced(Rule):
    """## What it does
    Finds a timed region that waits for a value its JAX work did not produce (its input, a
    result from before the region) while the work it timed is still running.

    ## Why is this bad?
    Blocking on an input returns at once: the input was ready before the region began. The
    sync looks like the fix for asynchronous dispatch, but the region still measures only the
    dispatch (on an H200, 0.06 ms for a 4096x4096 matmul that takes 0.5 ms).

    ## Example
    ```python
    start = time.perf_counter()
    y = f(x)
    x.block_until_ready()
    elapsed = time.perf_counter() - start
    ```

    ## Use instead
    ```python
    start = time.perf_counter()
    y = f(x)
    y.block_until_ready()
    elapsed = time.perf_counter() - start
    ```

    ## Fix safety
    Safe: the fix adds `jax.block_until_ready(<results>)` before the statement that stops
    the clock, as for JAX101; the misplaced sync is left in place (it costs nothing).
    """

    CODE = "JAX103"
    MESSAGE = ("sync waits for `{synced}` (line {line}), which the timed work did not produce: "
               "{detail}")

    def check(self, ctx: FileContext) -> Iterator[Report]:
        for region in ctx.flow.regions():
            if not region.unsynced or not region.idle_syncs:
                continue
            wrong = min(region.idle_syncs, key=lambda n: ctx.line_of.get(n, (0, 0)))
            plan = sync_before_stop(ctx.flow, region, ctx.line_of)
            message = self.MESSAGE.format(synced=ctx.code(wrong, 40), line=ctx.line(wrong),
                                          detail=describe(ctx, region, plan))
            yield Report(region.stop, message, plan, (*region.starts, region.stop),
                         explain(ctx, region, plan, wrong))
