from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxlint.analysis.plans import sync_before_stop
from jaxlint.rules.base import (
    FileContext,
    Report,
    Rule,
    explain_sites,
    region_heading,
    still_computing,
    sync_call_text,
)


class UnsyncedTimer(Rule):
    """## What it does
    Finds a timed region (a timer read, JAX work, a later timer read subtracted from the first)
    whose JAX work is not waited for before the clock is read at its end. A timing
    decorator's region is reported at each decorated function whose work its wrapper leaves
    running (the fix waits in the wrapper). Not a region whose figure names what it does
    measure: the compile alone (`compile_time` around a first call), or the dispatch of a
    call whose wait is timed from the same reading (`dispatch_times.append(t1 - t0)`, then
    the sync and `wait_times.append(t2 - t1)`).

    ## Why is this bad?
    JAX dispatches work asynchronously: `y = f(x)` returns as soon as the computation is
    queued on the device. Reading the clock right after it measures only the dispatch. On an
    H200 a 4096x4096 matmul reads 0.08 ms this way, against 0.5 ms when synced.

    ## Example
    ```python
    start = time.perf_counter()
    y = f(x)
    elapsed = time.perf_counter() - start
    ```

    ## Use instead
    ```python
    start = time.perf_counter()
    y = f(x)
    jax.block_until_ready(y)
    elapsed = time.perf_counter() - start
    ```

    ## Fix safety
    Safe: the fix only adds `jax.block_until_ready(<results>)` right before the statement
    that stops the clock (or wraps a call whose result is dropped), and `import jax` when
    needed. Blocking on a ready value costs microseconds and changes no result.
    """

    CODE = "JAX101"
    MESSAGE = "timer stops before JAX work finishes: {detail}"

    def check(self, ctx: FileContext) -> Iterator[Report]:
        for region in ctx.flow.regions():
            if not region.unsynced or region.idle_syncs:
                continue
            if region.names_compile_only:
                # It times compilation on purpose: compiling is synchronous, so the clock
                # read after the first call measures the compilation the region is named
                # for ("first step took" claims the step's run too, and is reported).
                continue  # synced, or synced on the wrong value (JAX103)
            if region.names_dispatch:
                # Its figure is named for the dispatch (``dispatch_times``) and a region
                # from the same reading times the wait: it measures what it claims.
                continue
            plan = sync_before_stop(ctx.flow, region, ctx.line_of)
            if region.uses:
                yield from self._decorated(ctx, region, plan)
                continue
            yield Report(region.stop, self.MESSAGE.format(detail=describe(ctx, region, plan)),
                         plan, (*region.starts, region.stop), explain(ctx, region, plan))

    def _decorated(self, ctx: FileContext, region: object, plan: object) -> Iterator[Report]:
        """A timing decorator's wrapper: reported at each decorated function whose calls
        leave work running (where the mistake shows), with the wrapper's sync as the fix
        (carried by the first, since one edit of the wrapper fixes them all)."""
        from jaxlint.analysis import FixPlan, Region

        assert isinstance(region, Region)
        wrapper = ctx.flow.scope_of.get(region.stop)
        name = wrapper.name.value if isinstance(wrapper, cst.FunctionDef) else "wrapper"
        for i, use in enumerate(sorted(region.uses, key=ctx.line)):
            detail = (f"`{use.name.value}` is timed by the wrapper `{name}` (line "
                      f"{ctx.line(region.stop)}), which reads the clock while its result is "
                      "still being computed; wait for the result in the wrapper (call "
                      "jax.block_until_ready(...) on it) before reading the clock")
            evidence = "\n".join([
                f"`{use.name.value}` (line {ctx.line(use)}) is decorated with a timing "
                f"wrapper: `{name}` reads the clock around each call of it.",
                explain(ctx, region, plan),
                f"`{use.name.value}` returns with its JAX work still running, and the wrapper "
                "does not wait for it."])
            yield Report(use.name, self.MESSAGE.format(detail=detail),
                         plan if i == 0 and isinstance(plan, FixPlan) else None,
                         (*region.starts, region.stop), evidence)


# what a sync that sees one leaf that is no array was given (``FlowAnalysis.no_op_syncs``)
_ONE_LEAF = {
    "generator": "a generator expression",
    "iterator": "a dict view or an iterator",
    "record": "an object of a class that is no registered pytree (a plain class or dataclass)",
}


def explain(ctx: FileContext, region: object, plan: object, idle: object = None) -> str:
    """The evidence of a JAX101/JAX103 finding: the region, each piece of work still
    running at the stop and why it is JAX work, what holds it, and the idle sync."""
    from jaxlint.analysis import FixPlan, Region

    assert isinstance(region, Region)
    lines = [region_heading(ctx, region)]
    lines += explain_sites(ctx, region.unsynced,
                           "JAX work dispatched after the start and still running at the stop:")
    if isinstance(plan, FixPlan) and plan.synced_exprs:
        lines.append("Its results are held by " + ", ".join(
            f"`{e[5:-1] if e.startswith('vars(') else e}`" for e in plan.synced_exprs)
                     + "; waiting for them waits for all of it (the device runs work in order).")
    for sync, where, kind in ctx.flow.path_evidence(region):
        if kind == "loop":
            lines.append(f"The sync at line {ctx.line(sync)} (`{ctx.code(sync, 40)}`) is in the "
                         f"loop at line {ctx.line(where)}, which never runs (its count is zero "
                         "or what it goes over is empty), so nothing waits for the work.")
        else:
            lines.append(f"The sync at line {ctx.line(sync)} (`{ctx.code(sync, 40)}`) runs "
                         f"only when the `if` at line {ctx.line(where)} is taken: on the other "
                         "path nothing waits for the work.")
    for sync, kind in ctx.flow.no_op_syncs.items():
        if ctx.line(sync) and region_lines(ctx, region)[0] <= ctx.line(sync) <= (
                region_lines(ctx, region)[1]):
            said = f"The sync at line {ctx.line(sync)} (`{ctx.code(sync, 40)}`)"
            if kind in _ONE_LEAF:
                lines.append(f"{said} is given {_ONE_LEAF[kind]}, one leaf that is no array: "
                             "`jax.block_until_ready` skips it and waits for nothing.")
            elif kind == "one_shard":
                lines.append(f"{said} waits for one device's shard only: the other devices "
                             "may still be computing theirs.")
            elif kind == "effects_barrier":
                lines.append(f"{said} waits only for computations with effects, not for "
                             "results.")
            elif kind == "uncalled":
                lines.append(f"{said} is not called, so it does nothing.")
            else:  # "no_argument", "container": the line raises
                lines.append(f"{said} raises before it can wait for anything.")
    if isinstance(idle, cst.CSTNode):
        lines.append(f"The sync at line {ctx.line(idle)} (`{ctx.code(idle, 40)}`) waits for "
                     "values made before the start, so none of this work is waited for.")
    return "\n".join(lines)


def region_lines(ctx: FileContext, region: object) -> tuple[int, int]:
    """The first and last line of a region's reads."""
    from jaxlint.analysis import Region

    assert isinstance(region, Region)
    lines = [ctx.line(n) for n in (*region.starts, region.stop) if ctx.line(n)]
    return (min(lines), max(lines)) if lines else (0, 0)


def describe(ctx: FileContext, region: object, plan: object) -> str:
    """What is unfinished and how to finish it, for JAX101 and JAX103."""
    from jaxlint.analysis import FixPlan, Region

    assert isinstance(region, Region)
    if isinstance(plan, FixPlan) and plan.synced_exprs:
        exprs = plan.synced_exprs
        return (f"{still_computing(exprs)}; call {sync_call_text(exprs)} "
                "before reading the clock")
    if isinstance(plan, FixPlan) and plan.wraps:
        return (f"the result of `{ctx.code(plan.wraps[-1].value)}` is still being computed; "
                "wrap it in jax.block_until_ready(...) before reading the clock")
    site = min(region.unsynced, key=ctx.line)
    first = ctx.line(site)
    kind, fn = ctx.flow.why.get(site, ("op", None))
    if kind == "helper" and isinstance(fn, cst.CSTNode) and ctx.flow.procedure(fn):
        # a procedure's call: its value is None, so "its result" would wait for nothing
        return (f"`{ctx.code(site)}` (line {first}) leaves JAX work running and returns "
                "nothing to wait on; call jax.block_until_ready(...) on the arrays it "
                "stores before reading the clock")
    return (f"JAX work from line {first} is still being computed; call "
            "jax.block_until_ready(...) on its result before reading the clock")
