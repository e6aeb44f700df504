from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxlint.analysis.plans import FixPlan, WrapSync
from jaxlint.rules.base import FileContext, Report, Rule, region_heading


class WorkPendingAtStart(Rule):
    """## What it does
    Finds a timed region whose start read finds a call of one of the user's jitted
    functions still running: dispatched since the last clock read and not waited for, such
    as a warm-up of the function the region times left unsynced, or a timed loop's own call
    running into the next round's region. The region waits for its own results before the
    clock is read, and the device runs work in order, so that wait also waits for the
    earlier work: its run time is counted in the region.

    Not reported when the earlier work was waited for, when the region's own work is left
    unsynced (JAX101 speaks), when the earlier work is another region's unsynced work
    (JAX101 there), for set-up before the clock (inputs, parameters), for a warm-up before a
    loop whose rounds are each timed or before a region that runs the function many times
    (a small part of the figure), or when the region says it includes a first run ("first
    call", "cold", "warm-up" in its reads' lines or what they print).

    ## Why is this bad?
    `f(x); t0 = time.perf_counter(); y = f(x); y.block_until_ready()` measures two runs of
    `f`: the warm-up meant to keep compilation out of the figure puts a whole run into it
    instead (and into every first round of a timed loop).

    ## Example
    ```python
    f(x)  # warm up
    start = time.perf_counter()
    y = f(x)
    y.block_until_ready()
    elapsed = time.perf_counter() - start
    ```

    ## Use instead
    ```python
    jax.block_until_ready(f(x))  # warm up
    start = time.perf_counter()
    y = f(x)
    y.block_until_ready()
    elapsed = time.perf_counter() - start
    ```

    ## Fix safety
    Safe where the earlier work is a call whose result is dropped (`step(x)` alone on a
    line, the usual warm-up): it is wrapped in `jax.block_until_ready(...)`, which waits
    for it before the clock starts and changes no result. Otherwise no fix is offered (the
    message names the work).
    """

    CODE = "JAX106"
    MESSAGE = "work left running into the timed region: {detail}"

    def check(self, ctx: FileContext) -> Iterator[Report]:
        regions = ctx.flow.regions()
        # another region's unsynced work: JAX101 reports it there, once
        others = frozenset().union(*(r.unsynced for r in regions))
        done: set[cst.CSTNode] = set()
        for region in regions:
            left = ctx.flow.left_into(region) - others
            if not left or region.unsynced or region.uses or region.names_compile:
                continue
            if not (region.syncs or region.host_synced):
                continue  # nothing in the region waits for it
            start = min(region.starts, key=ctx.source_order)
            if start in done or not ctx.line(start):
                continue
            done.add(start)
            sites = sorted(left, key=ctx.source_order)
            first = sites[0]
            stmts = [ctx.flow.bare.get(s) for s in sites]
            plan = (FixPlan(tuple(WrapSync(e) for e in stmts if e is not None))
                    if all(e is not None for e in stmts) else None)
            named = ", ".join(f"`{ctx.code(s, 40)}` (line {ctx.line(s)})" for s in sites[:3])
            more = f" and {len(sites) - 3} more" if len(sites) > 3 else ""
            detail = (f"{named}{more} is still running when the clock starts (line "
                      f"{ctx.line(start)}) and the region's sync waits for it too, so its run "
                      "time is counted; call jax.block_until_ready(...) on it before the start")
            evidence = "\n".join([
                region_heading(ctx, region),
                *(f"  line {ctx.line(s)}: `{ctx.code(s, 60)}` was dispatched before the start "
                  "and nothing waited for it" for s in sites),
                "The region's sync waits for its own results; the device runs work in "
                "order, so that wait also waits for the earlier work, and its run time is "
                f"counted in the region (first: line {ctx.line(first)})."])
            yield Report(start, self.MESSAGE.format(detail=detail), plan,
                         (*region.starts, region.stop), evidence)
