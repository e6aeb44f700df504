from __future__ import annotations

from collections.abc import Iterator

from jaxlint.analysis.plans import sync_in_harness
from jaxlint.rules.base import FileContext, Report, Rule


class UnsyncedHarness(Rule):
    """## What it does
    Finds a benchmark harness that times JAX work without waiting for it:
    `timeit.timeit` / `timeit.repeat` / `timeit.Timer(...)` (`.timeit`, `.repeat`,
    `.autorange`) given a callable or a statement string, and pytest-benchmark's
    `benchmark(fn, *args)` and `benchmark.pedantic(fn, ...)`, notebooks' `%timeit` and `%time`
    magics, also as a notebook exported to a script calls them
    (`get_ipython().run_line_magic("timeit", "f(x)")`), and asv's benchmark methods
    (`time_*` of a class with a `setup`, which asv times run by run), where each run
    dispatches JAX work and returns before it is done; not a `%time` of the first call of a
    jitted function that a comment above it or a message printed just before names as the
    compilation (`print("jit compilation:")`): the call returns once compiled, so the figure
    is the compilation it claims. Also a harness that runs a statement
    which is only a lambda expression (`%timeit lambda: f(x)`,
    `timeit.timeit("lambda: f(x)")`): each run makes the function and never calls it, so no
    JAX work is timed at all.

    ## Why is this bad?
    The harness reads the clock after each run returns, so it measures dispatch: on an H200
    `timeit(lambda: f(x))` read 0.08 ms per call for a matmul that takes 0.57 ms synced. Runs
    also pile up on the device queue, so the numbers depend on the queue, not on `f`.

    ## Example
    ```python
    timeit.timeit(lambda: f(x), number=100)
    timeit.timeit("f(x)", globals=globals(), number=100)
    ```

    ## Use instead
    ```python
    timeit.timeit(lambda: jax.block_until_ready(f(x)), number=100)
    timeit.timeit("jax.block_until_ready(f(x))", globals=globals(), number=100)
    ```

    A statement that only makes a lambda times nothing; run the call itself:
    ```python
    %timeit lambda: f(x).block_until_ready()   # makes a function, 1,000,000 loops
    %timeit f(x).block_until_ready()
    ```

    ## Fix safety
    Safe: the fix makes each run wait for its own result. A lambda's body is wrapped in
    `jax.block_until_ready(...)`; a function passed by name becomes
    `lambda: jax.block_until_ready(step())` (for pytest-benchmark, a lambda that passes the
    arguments on); a one-line statement string gets `jax.block_until_ready(...)` around its
    expression, with `; import jax` added to a string `setup` when there is no `globals=`.
    A statement that only makes a lambda has no fix: whether to drop `lambda:` or pass the
    lambda as the callable is the author's choice.
    """

    CODE = "JAX102"
    MESSAGE = ("benchmark harness times JAX work without waiting for it: each run of `{stmt}` "
               "returns before the device finishes; {remedy}")

    LAMBDA_MESSAGE = ("benchmark harness times no JAX work: each run of `{stmt}` only makes "
                      "a function and never calls it; time the call itself (without "
                      "`lambda:`)")

    def check(self, ctx: FileContext) -> Iterator[Report]:
        for use in ctx.flow.harnesses.values():
            if use.only_lambda:
                stmt = ctx.code(use.stmt, 40)
                yield Report(use.call, self.LAMBDA_MESSAGE.format(stmt=stmt), None,
                             (use.call,),
                             f"`{ctx.code(use.call, 50)}` (line {ctx.line(use.call)}) runs "
                             f"`{stmt}` as a statement: evaluating a lambda expression makes "
                             "a function object and calls nothing, so each run times the "
                             "making of a function, not the JAX work in its body.")
                continue
            if not use.unsynced or use.names_compile_only:
                # (a %time of a first call named for the compile: it measures the compile)
                continue
            plan = sync_in_harness(ctx.flow, use)
            if plan is not None:
                remedy = "wrap what it runs in jax.block_until_ready(...)"
            else:
                remedy = "make it return jax.block_until_ready(<its result>)"
            if use.asv:
                explanation = (f"asv times the benchmark method `{ctx.code(use.stmt, 40)}` "
                               f"(line {ctx.line(use.call)}) run by run, after its `setup`; "
                               "it dispatches JAX work and returns without waiting for it, "
                               "so each run times the dispatch only.")
            else:
                explanation = (f"`{ctx.code(use.call, 50)}` (line {ctx.line(use.call)}) "
                               f"times `{ctx.code(use.stmt, 40)}`, reading the clock as each "
                               "run returns; what it runs dispatches JAX work and returns "
                               "without waiting for it, so each run times the dispatch only.")
            yield Report(use.call, self.MESSAGE.format(stmt=ctx.code(use.stmt, 40),
                                                       remedy=remedy), plan, (use.call,),
                         explanation)
