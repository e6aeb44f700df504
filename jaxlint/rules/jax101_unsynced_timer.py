from __future__ import annotations

from collections.abc import Iterator

from jaxlint.rules.base import FileContext, Report, Rule


def _names(names: tuple[str, ...]) -> tuple[str, str]:
    """(`a` and `b` are, (a, b)) for the message and the call."""
    quoted = [f"`{n}`" for n in names]
    if len(quoted) == 1:
        return f"{quoted[0]} is", names[0]
    listed = ", ".join(quoted[:-1]) + " and " + quoted[-1]
    return f"{listed} are", "(" + ", ".join(names) + ")"


class UnsyncedTimer(Rule):
    """## What it does
    Finds a timed region (a timer read, JAX work, a later timer read subtracted from the first)
    whose JAX work is not waited for before the clock is read at its end.

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
        flow = ctx.flow
        for region in flow.regions():
            if not region.unsynced:
                continue
            plan = flow.sync_plan(region, ctx.line_of)
            if plan is not None and plan.names:
                what, call = _names(plan.names)
                detail = (f"{what} still being computed; call jax.block_until_ready({call}) "
                          "before reading the clock")
            elif plan is not None:
                shown = ctx.code(plan.wraps[-1].value)
                detail = (f"the result of `{shown}` is still being computed; wrap it in "
                          "jax.block_until_ready(...) before reading the clock")
            else:
                first = min(ctx.line_of.get(s, (0, 0)) for s in region.unsynced)
                detail = (f"JAX work from line {first[0]} is still being computed; call "
                          "jax.block_until_ready(...) on its result before reading the clock")
            yield Report(region.stop, self.MESSAGE.format(detail=detail), plan,
                         (*region.starts, region.stop))
