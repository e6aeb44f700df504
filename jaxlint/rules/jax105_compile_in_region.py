from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxlint.analysis import names
from jaxlint.analysis.plans import warm_up_before_start
from jaxlint.rules.base import (
    FileContext,
    Report,
    Rule,
    region_heading,
    why_work,
)

# what made a call compile again (``avals.recompiled_from``), in the message and explanation
CHANGE = {"shape": "a new shape or dtype",
          "structure": "a new pytree structure or way of passing its arguments"}
THESE = {"shape": "these shapes and dtypes",
         "structure": "arguments of this structure (passed the same way)"}
PER = {"shape": "set of argument shapes and dtypes",
       "structure": "pytree structure of its arguments (list lengths, dict keys, None, "
                    "which are passed by keyword)"}


class CompileInRegion(Rule):
    """## What it does
    Finds the first call of a jitted function (`jax.jit`, `pmap`, `@partial(jax.jit, ...)`,
    `nnx.jit`, `eqx.filter_jit`) inside a timed region: no call of the same function object
    (with the same static arguments) happens earlier on the path, and it was not compiled
    ahead with `.lower(...).compile()`. Also a call of eager `jax.lax` control flow
    (`while_loop`, `scan`, `fori_loop`, ...) over a function made anew on each call, or of a
    function that wraps a function made anew (a lambda, a `partial`, a nested `def`) in
    `jax.jit` or `jax.pmap` and calls it, itself or through a helper, repeated by a loop or
    a harness: each call compiles again (no fix: a warm-up does not help). A progress log
    read on every round of a loop is not reported for its first round's compile.

    A first call is reported only where the region measures speed: its file, folder,
    function or class is named for it (`benchmarks/`, `bench_*.py`, `speed_test.py`,
    `def bench_attention()`, `class ConvBench`, tests), the words printed beside its figure
    say so (a latency, a rate, a time per call, `ms`), the file warms a function up
    elsewhere, or the figure is one of many per-call figures (an average, steps per
    second, a list of round times, a loop repeating the same call). Elsewhere (an example's
    generation time, a training script's run time) the compile is part of the run timed,
    as the user waits for it too. So is a call that compiles on every call (a function
    made anew on each call), unless the region is read on every round of a loop: then each
    figure carries a compile (a sweep over settings). Calls that compile again after a
    warm-up (a new shape) or a cleared cache are reported wherever they are.

    Also a benchmark harness whose first timed run is the first call of a jitted function,
    when the harness's figure holds that run: `timeit.timeit` (it sums every run),
    `timeit.repeat` unless only the best repeat is used (`min(...)`), `%timeit -n N` (a
    fixed loop count: IPython makes no calibration runs), pytest-benchmark's `pedantic`
    without `warmup_rounds`. Not `%timeit` without `-n`, whose calibration runs absorb the
    compile, nor a figure named for the compile (`compile_time = timeit.timeit(...,
    number=1)`). Likewise a harness whose timed code gives a jitted function arrays of a new
    shape or dtype (a warm-up on a 1024-row batch, then `timeit` or a notebook's `%time` of
    a 2048-row one): its first timed run compiles again, reported also for a single run
    (`number=1`, `%time`), as a region's new shape is.

    Also a call that compiles again because its arrays have a new shape or dtype: every
    earlier call of the function gave it arrays whose shapes or dtypes the code spells out
    (`jnp.ones((1, 512))`, `x.astype(jnp.bfloat16)`, a loop over literal shapes, a Python
    number, which jit takes as a weakly typed scalar, and `jnp.float32(0.01)`, a strongly
    typed one), and at some argument this call's differ (a warm-up on a one-row batch
    before a timed batch of 64; a warm-up given `0.01` before a timed call given
    `jnp.float32(0.01)`). A shape or dtype not spelt out is never taken as new. Likewise a
    call whose arguments have another pytree structure than every earlier call's, as the
    call spells it: a list of another length, a tuple where a list was, a dict with other
    keys, `None` where an array was, a keyword where the warm-up passed the argument by
    position, an argument the warm-up left at its default (jit keeps one program per tree
    of `(args, kwargs)`). And a call
    given an array that a loop around it makes longer on every round (`tokens =
    jnp.concatenate([tokens, new], axis=1)`, `jnp.append`, `jnp.hstack`, or NumPy's): each
    round's call has a new shape and compiles again, whatever warm-up came before, so it is
    reported wherever it is and in every figure of a per-round log (no fix: keep the shape
    fixed, a buffer of the final length written with `.at[...].set`).

    ## Why is this bad?
    A jitted function traces and compiles on its first call, synchronously. The region then
    measures compilation, not the work: on an H200 the first call of a 0.5 ms matmul took
    715 ms. Later calls reuse the compiled program.

    ## Example
    ```python
    f = jax.jit(g)
    start = time.perf_counter()
    y = f(x).block_until_ready()
    elapsed = time.perf_counter() - start
    print(f"f: {elapsed * 1e3:.2f} ms")
    ```

    ## Use instead
    ```python
    f = jax.jit(g)
    jax.block_until_ready(f(x))  # warm-up: compile outside the timed region
    start = time.perf_counter()
    y = f(x).block_until_ready()
    elapsed = time.perf_counter() - start
    print(f"f: {elapsed * 1e3:.2f} ms")
    ```

    ## Fix safety
    Unsafe (applied only with `--unsafe-fixes`): the fix inserts a synced warm-up call
    before the statement that starts the clock, which runs user code once more. It is offered
    only when every name in the call already holds the same value there. Only functions made
    in the function (or module) being analysed are judged, since one made elsewhere may have
    been warmed up before.
    """

    CODE = "JAX105"
    MESSAGE = ("first call of jitted `{func}` is inside the timed region, so the time includes "
               "compilation; call it once (synced) before the clock starts")

    def check(self, ctx: FileContext) -> Iterator[Report]:
        for use in ctx.flow.harnesses.values():
            if use.recompiles:
                yield self._harness_recompiles(ctx, use)
            elif use.new_shape is not None:
                yield self._harness_new_shape(ctx, use)
            elif use.first_compile is not None:
                yield self._harness_first_run(ctx, use)
        # A call in several regions (a benchmark's "time taken" inside a run's clock) is
        # reported once, for the region whose stop comes first: the innermost, whose figure
        # it is in (and the same one every run, whatever order a set held the regions in).
        # Only regions with a compiling call are placed (placing a stop makes the positions
        # of its statement: for every region of a file, seconds on a big one).
        timed = [r for r in ctx.flow.regions() if r.compiled and not r.names_compile]
        for region in sorted(timed, key=lambda r: ctx.source_order(r.stop)):
            for call in sorted(region.compiled, key=ctx.source_order):
                if not isinstance(call, cst.Call):
                    continue
                if call in ctx.flow.grown_compiles:
                    yield self._grown(ctx, region, call)
                    continue
                if call in ctx.flow.recompiling:
                    yield self._recompiles(ctx, region, call)
                    continue
                if call in ctx.flow.cleared_compiles:
                    yield self._cleared(ctx, region, call)
                    continue
                if call in ctx.flow.shape_compiles:
                    yield self._new_shape(ctx, region, call)
                    continue
                plan = warm_up_before_start(ctx.flow, region, call, ctx.line_of)
                why = why_work(ctx, call)
                explanation = "\n".join([
                    region_heading(ctx, region),
                    f"line {ctx.line(call)}: `{ctx.code(call, 50)}`: {why}.",
                    "No call of it with these static arguments comes before the start on "
                    "every path that reaches it, so this call traces and compiles it.",
                ])
                yield Report(call, self.MESSAGE.format(func=ctx.code(call.func, 40)), plan,
                             (*region.starts, region.stop), explanation)

    RECOMPILES = ("`{func}` compiles on every call ({why}), so the time includes "
                  "compilation; make the function once, or jit the whole computation, outside "
                  "the timed region")

    CLEARED = ("`{func}` compiles again inside the timed region: `jax.clear_caches()` dropped "
               "its compiled program, so the time includes compilation; clear the caches and "
               "warm up before the clock starts")

    def _cleared(self, ctx: FileContext, region: object, call: cst.Call) -> Report:
        """A first call after ``jax.clear_caches()``: a warm-up before the start would be
        dropped too when the clearing is inside the region, so no fix is offered."""
        explanation = "\n".join([
            region_heading(ctx, region),
            f"line {ctx.line(call)}: `{ctx.code(call, 50)}`: {why_work(ctx, call)}.",
            "`jax.clear_caches()` runs before it on every path, so this call traces and "
            "compiles it again."])
        return Report(call, self.CLEARED.format(func=ctx.code(call.func, 40)), None,
                      (*region.starts, region.stop), explanation)  # type: ignore[attr-defined]

    NEW_SHAPE = ("`{func}` compiles again inside the timed region: it was compiled for "
                 "{before}, and this call gives it {now} ({change}), so the time "
                 "includes compilation; warm it up on {these} before the clock starts")

    GROWN = ("`{func}` compiles again on every round: `{name}` grows each round, so each "
             "call gives it a new shape and the time includes compilation; keep its shape "
             "fixed (a buffer of the final length, written with `.at[...].set`)")

    def _grown(self, ctx: FileContext, region: object, call: cst.Call) -> Report:
        """A call given an array that grows on every round of a loop around it: a warm-up
        cannot help (the next round's shape is new again), so no fix is offered."""
        from jaxlint.analysis import Region

        assert isinstance(region, Region)
        name, loop, grows = ctx.flow.grown_compiles[call]
        explanation = "\n".join([
            region_heading(ctx, region),
            f"line {ctx.line(call)}: `{ctx.code(call, 50)}`: `{name}` is given a new shape on "
            f"every round of the loop at line {ctx.line(loop)} (line {ctx.line(grows)}: "
            f"`{ctx.code(grows, 60)}`), and jit compiles one program per set of argument "
            "shapes, so every call after the first traces and compiles it again."])
        return Report(call, self.GROWN.format(func=ctx.code(call.func, 40), name=name), None,
                      (*region.starts, region.stop), explanation)

    def _new_shape(self, ctx: FileContext, region: object, call: cst.Call) -> Report:
        """A call with arguments of a new shape or dtype: jit's cache has no program for
        them. The fix is the warm-up of a first call: the same call, before the start."""
        before, kind, now = ctx.flow.shape_compiles[call]
        plan = warm_up_before_start(ctx.flow, region, call, ctx.line_of)  # type: ignore[arg-type]
        explanation = "\n".join([
            region_heading(ctx, region),
            f"line {ctx.line(call)}: `{ctx.code(call, 50)}`: {why_work(ctx, call)}.",
            f"Its arguments here are {now}; every earlier call of it gave {before} "
            "(shapes and dtypes as the code that made the arrays spells them), and jit "
            f"compiles one program per {PER[kind]}, so this call traces "
            "and compiles it again."])
        return Report(call, self.NEW_SHAPE.format(func=ctx.code(call.func, 40), now=now,
                                                  before=before, change=CHANGE[kind],
                                                  these=THESE[kind]), plan,
                      (*region.starts, region.stop), explanation)  # type: ignore[attr-defined]

    HARNESS = ("each run of `{stmt}` compiles anew (it makes a new jitted function, or runs "
               "eager `lax` control flow over one, every time), so every figure the harness "
               "reports includes compilation; make the jitted function once, outside what is "
               "timed")

    def _harness_recompiles(self, ctx: FileContext, use: object) -> Report:
        """A harness whose timed statement compiles on every run: no warm-up helps."""
        from jaxlint.analysis import HarnessUse

        assert isinstance(use, HarnessUse)
        explanation = (f"`{ctx.code(use.call, 50)}` (line {ctx.line(use.call)}) runs "
                       f"`{ctx.code(use.stmt, 40)}` many times; each run makes a jitted "
                       "function of a function made anew (a lambda, a `partial`, a nested "
                       "`def`, a bound method, what `jax.grad` or `jax.vmap` returns) and "
                       "calls it, or runs `jax.lax` control flow outside jit over one "
                       "(`jax.lax.map` makes one itself on every call), so JAX traces and "
                       "compiles it on every run (it keeps compiled programs per function "
                       "object).")
        return Report(use.call, self.HARNESS.format(stmt=ctx.code(use.stmt, 40)), None,
                      (use.call,), explanation)

    HARNESS_FIRST = ("the first run of `{stmt}` is the first call of jitted `{func}`, and the "
                     "harness's figure includes that run, so it includes compilation; call it "
                     "once (synced) before timing")

    def _harness_first_run(self, ctx: FileContext, use: object) -> Report:
        """A harness whose figure holds its first run, which compiles a jitted function
        called for the first time (``timeit.timeit``, ``%timeit -n``). No fix: the warm-up
        a user would write depends on what the statement runs."""
        from jaxlint.analysis import HarnessUse

        assert isinstance(use, HarnessUse) and use.first_compile is not None
        func = use.first_name or _function_name(ctx, use.first_compile)
        explanation = (f"`{ctx.code(use.call, 50)}` (line {ctx.line(use.call)}) times "
                       f"`{ctx.code(use.stmt, 40)}`, which calls jitted `{func}` (made on line "
                       f"{ctx.line(use.first_compile)}); no call of it comes before, so the "
                       "first timed run traces and compiles it. The harness reports that run "
                       "too (`timeit.timeit` sums its runs, `timeit.repeat` keeps each "
                       "repeat, `%timeit -n N` makes no calibration runs), so the figure "
                       "holds the compile. Call it once (synced) before the harness, or take "
                       "the best repeat (`min(timeit.repeat(...))`).")
        return Report(use.call, self.HARNESS_FIRST.format(stmt=ctx.code(use.stmt, 40),
                                                          func=func), None,
                      (use.call,), explanation)

    HARNESS_SHAPE = ("the first run of `{stmt}` compiles `{func}` again: it was compiled for "
                     "{before}, and the timed call gives it {now} ({change}), and "
                     "the harness's figure includes that run; warm it up on {these} before "
                     "timing")

    def _harness_new_shape(self, ctx: FileContext, use: object) -> Report:
        """A harness whose timed code calls a jitted function with shapes or dtypes no call
        before it gave: its first run compiles again. No fix, as for a first run."""
        from jaxlint.analysis import HarnessUse

        assert isinstance(use, HarnessUse) and use.new_shape is not None
        call, before, kind, now = use.new_shape
        func = ctx.code(call.func, 40) if isinstance(call, cst.Call) else "it"
        explanation = (f"`{ctx.code(use.call, 50)}` (line {ctx.line(use.call)}) times "
                       f"`{ctx.code(use.stmt, 40)}`, which calls jitted `{func}` with arrays "
                       f"of {now}; every call of it before gave {before} (shapes and dtypes as "
                       "the code that made the arrays spells them), and jit compiles one "
                       f"program per {PER[kind]}, so the first timed run "
                       "traces and compiles it again. The harness reports that run too "
                       "(`timeit.timeit` sums its runs, `%time` is that one run, `%timeit -n "
                       "N` makes no calibration runs), so the figure holds the compile.")
        return Report(use.call, self.HARNESS_SHAPE.format(stmt=ctx.code(use.stmt, 40),
                                                          func=func, before=before, now=now,
                                                          change=CHANGE[kind],
                                                          these=THESE[kind]),
                      None, (use.call,), explanation)

    def _recompiles(self, ctx: FileContext, region: object, call: cst.Call) -> Report:
        """A call that traces and compiles whenever it runs: no warm-up helps (the next call
        makes a new function), so there is no fix to offer."""
        from jaxlint.analysis import Region

        assert isinstance(region, Region)
        kind, detail = ctx.flow.recompile_why.get(call) or ctx.flow.why.get(call, ("op", None))
        inner = ""
        if kind == "helper" and isinstance(detail, tuple) and len(detail) == 2 and (
                isinstance(detail[0], cst.FunctionDef)):
            # a function whose own calls compile whenever they run (``self.update`` calls a
            # helper that makes a ``jax.pmap(lambda ...)`` and calls it)
            fn, inner = detail
            if inner == "fresh_jit":
                kind, detail = "fresh_jit", fn
        if kind == "retrace" and detail in names.LAX_WRAPS_ANEW:
            how = (f"`{detail}` called outside jit wraps the function it maps in a new "
                   "closure on every call, so JAX traces and compiles a new loop each time, "
                   "whatever function it is given; call it inside a jitted function.")
        elif kind == "retrace":
            how = (f"`{detail}` is called outside jit with a function made by this call, so "
                   "JAX traces and compiles it each time (it keeps compiled loops per function "
                   "object).")
        elif kind == "fresh_jit" and isinstance(detail, (cst.FunctionDef, cst.Lambda)):
            name = detail.name.value if isinstance(detail, cst.FunctionDef) else "the lambda"
            how = (f"`{name}` (line {ctx.line(detail)}) wraps a function made anew on each "
                   "call (a lambda, a `partial`, a nested `def`) in `jax.jit` or `jax.pmap` "
                   "and calls it, itself or in a function it calls, so every call traces and "
                   "compiles it again (jit and pmap keep compiled programs per function "
                   "object).")
        elif kind == "helper" and isinstance(detail, tuple) and isinstance(
                detail[0], cst.FunctionDef):
            how = (f"`{detail[0].name.value}` (line {ctx.line(detail[0])}) runs `jax.lax` "
                   "control flow outside jit over a function it makes anew on each call, so "
                   "JAX traces and compiles it each time.")
        else:
            how = ("It runs `jax.lax` control flow outside jit over a function it makes anew "
                   "on each call, so JAX traces and compiles it each time.")
        explanation = "\n".join([
            region_heading(ctx, region),
            f"line {ctx.line(call)}: `{ctx.code(call, 50)}`: {how}"])
        why = ("it makes a new jitted function each time" if kind == "fresh_jit"
               else f"outside jit, `{detail}` wraps its function anew each time"
               if kind == "retrace" and detail in names.LAX_WRAPS_ANEW
               else "eager `lax` control flow over a function made anew each time")
        return Report(call, self.RECOMPILES.format(func=ctx.code(call.func, 40), why=why), None,
                      (*region.starts, region.stop), explanation)


def _function_name(ctx: FileContext, origin: cst.CSTNode) -> str:
    """How the code names a jitted function: a decorated ``def``'s name, else the
    expression that made it (``jax.jit(lambda a, b: a @ b)``)."""
    if isinstance(origin, cst.FunctionDef):
        return origin.name.value
    return ctx.code(origin, 40)
