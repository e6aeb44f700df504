from __future__ import annotations

from collections.abc import Iterator

import libcst as cst

from jaxlint.analysis.plans import FixPlan, InsertSync, ReplaceExpr, sync_before_stop
from jaxlint.analysis.syntax import walk
from jaxlint.rules.base import FileContext, Report, Rule, sync_call_text
from jaxlint.rules.jax101_unsynced_timer import explain

# Kinds of ``FlowAnalysis.no_op_syncs`` that raise: reported in any timed region, synced or
# not (the program stops there); the others only where the region's work is left running.
RAISES = frozenset({"no_argument", "container"})


class IneffectiveSync(Rule):
    """## What it does
    Finds a call written as a sync inside a timed region that cannot wait for the region's
    work: `jax.block_until_ready()` with no argument (raises `TypeError`: it waits for the
    values it is given, not for everything), `y.block_until_ready` without the call (does
    nothing), `(a, b).block_until_ready()` on a tuple, list, dict or set (raises
    `AttributeError`: only `jax.block_until_ready` takes a pytree), `jax.block_until_ready`
    given a generator expression, a dict view (`outs.values()`), an iterator (`iter(...)`,
    `zip(...)`) or an object of a class that is no registered pytree (one leaf that is no
    array: waits for nothing), or the call of a function that returns
    nothing (`jax.block_until_ready(trainer.step(g))` of a `step` that stores its result on
    the trainer: it is given None), `jax.effects_barrier()` (waits only for
    computations with effects, such as callbacks, not for results), and a sync inside a
    jitted function whose call the region times (it runs while the function is traced, not
    when it runs), and a sync of one device's part of a value spread over devices
    (`out[0].block_until_ready()` on the result of a pmapped function that returns one
    array, `y.addressable_shards[0].data.block_until_ready()`, `y.addressable_data(0)`):
    it waits for that device only. Where the region's work
    is then left running, this is the one finding about it (not also JAX101): it says why the
    sync did not count.

    ## Why is this bad?
    Each reads as "I synced" to its author. The ones that raise stop the benchmark after its
    clock started; the others leave the figure measuring only the dispatch, as an unsynced
    timer does.

    ## Example
    ```python
    start = time.perf_counter()
    logits, hidden = forward(params, x)
    (logits, hidden).block_until_ready()
    elapsed = time.perf_counter() - start
    ```

    ## Use instead
    ```python
    start = time.perf_counter()
    logits, hidden = forward(params, x)
    jax.block_until_ready((logits, hidden))
    elapsed = time.perf_counter() - start
    ```

    ## Fix safety
    Safe. The call is rewritten to one that waits for what it was given: the missing `()`
    added, `jax.block_until_ready((a, b))` for a container, `jax.block_until_ready(out)` (the
    whole value) for one shard, `jax.block_until_ready(y)` for the
    no-argument form when it is the statement right before the clock is read (with the
    region's results, as JAX101 names them). For a generator, an object that is no pytree
    and `jax.effects_barrier()`, JAX101's sync is added before the clock is read (the call
    itself waits for nothing and is left as written). No fix where none of these applies.
    """

    CODE = "JAX107"
    MESSAGE = "sync cannot wait: {detail}"

    def check(self, ctx: FileContext) -> Iterator[Report]:
        done: set[cst.CSTNode] = set()
        traced: dict[cst.FunctionDef, cst.Call | None] = {}
        for region in ctx.flow.regions():
            if not region.ineffective and not region.uses:
                yield from self._traced(ctx, region, traced, done)
            if not region.ineffective or region.uses:
                continue
            unsynced = bool(region.unsynced) and not region.idle_syncs and (
                not region.names_compile_only)
            kinds = ctx.flow.no_op_syncs
            sites = sorted((s for s in region.ineffective if s not in done and (
                unsynced or kinds[s] in RAISES)), key=ctx.source_order)
            if not sites:
                continue
            plan = sync_before_stop(ctx.flow, region, ctx.line_of) if unsynced else None
            for i, site in enumerate(sites):
                done.add(site)
                kind = kinds[site]
                fix = _fix(ctx, site, kind, plan) if i == 0 else None
                evidence = [f"Line {ctx.line(site)}: `{ctx.code(site, 60)}` {_why(kind)}."]
                if unsynced:
                    evidence.append(explain(ctx, region, plan))
                yield Report(site, self.MESSAGE.format(detail=_detail(ctx, site, kind, plan)),
                             fix, (*region.starts, region.stop), "\n".join(evidence))


    def _traced(self, ctx: FileContext, region: object,
                traced: dict[cst.FunctionDef, cst.Call | None], done: set[cst.CSTNode]
                ) -> Iterator[Report]:
        """A region left unsynced whose work is a call of a jitted function that syncs
        inside itself: that sync runs while the function is traced, not when it runs, so
        the caller's region waits for nothing (the one finding of the region)."""
        from jaxlint.analysis import Region

        assert isinstance(region, Region)
        if not region.unsynced or region.idle_syncs or region.names_compile_only:
            return
        for work in sorted(region.unsynced, key=ctx.source_order):
            why = ctx.flow.why.get(work)
            if why is None or why[0] != "jitted" or not isinstance(why[1], cst.FunctionDef):
                continue
            fn = why[1]
            if fn not in traced:
                traced[fn] = _sync_in(fn)
            sync = traced[fn]
            if sync is None or sync in done:
                continue
            done.add(sync)
            plan = sync_before_stop(ctx.flow, region, ctx.line_of)
            wait = (f"call {sync_call_text(plan.synced_exprs)} before reading the clock"
                    if plan is not None and plan.synced_exprs else "wait for the result in "
                    "the caller before reading the clock")
            detail = (f"`{ctx.code(sync, 40)}` inside the jitted `{fn.name.value}` waits for "
                      f"nothing when it runs (it runs once, while `{fn.name.value}` is traced); "
                      f"{wait}")
            evidence = "\n".join([
                f"Line {ctx.line(sync)}: `{ctx.code(sync, 60)}` is inside `{fn.name.value}` "
                f"(line {ctx.line(fn)}), which is jitted: its body runs while it is traced, "
                "and the compiled function it becomes returns before its work is done.",
                explain(ctx, region, plan)])
            yield Report(sync, self.MESSAGE.format(detail=detail), plan,
                         (*region.starts, region.stop), evidence)
            return


def _sync_in(fn: cst.FunctionDef) -> cst.Call | None:
    """The first ``block_until_ready`` call in ``fn``'s own body (not a nested function's)."""
    for node in walk(fn, skip=(cst.FunctionDef, cst.Lambda)):
        if isinstance(node, cst.Call):
            name = node.func.attr.value if isinstance(node.func, cst.Attribute) else (
                node.func.value if isinstance(node.func, cst.Name) else "")
            if name == "block_until_ready":
                return node
    return None


def _why(kind: str) -> str:
    return {
        "no_argument": "raises TypeError: jax.block_until_ready waits for the values it is "
                       "given, and was given none (it does not wait for everything pending)",
        "uncalled": "looks the method up and drops it: without the call nothing waits",
        "container": "raises AttributeError: a Python container has no block_until_ready "
                     "method (only jax.block_until_ready takes a pytree)",
        "generator": "gives jax.block_until_ready a generator expression: one leaf that is no "
                     "array, skipped, so nothing is waited for (nor is the generator run)",
        "iterator": "gives jax.block_until_ready a dict view (`.values()`, `.items()`) or an "
                    "iterator (`iter`, `zip`, `map`): one leaf that is no array, skipped, so "
                    "nothing is waited for",
        "record": "gives jax.block_until_ready an object of a class that is no registered "
                  "pytree (a plain class or dataclass): one leaf that is no array, skipped, "
                  "so nothing is waited for",
        "effects_barrier": "waits only for computations with effects (callbacks, ordered "
                           "effects), not for the results of others",
        "returns_none": "gives jax.block_until_ready what a function that returns nothing "
                        "returned, None: the work it left running (stored on an object, "
                        "appended to a list) is not waited for",
        "one_shard": "waits for one device's part of a value spread over devices (a pmapped "
                     "result's `[0]`, one addressable shard): the other devices may still be "
                     "computing theirs when the clock is read",
    }[kind]


def _detail(ctx: FileContext, site: cst.CSTNode, kind: str, plan: FixPlan | None) -> str:
    code = ctx.code(site, 40)
    wait = (f"call {sync_call_text(plan.synced_exprs)} before reading the clock"
            if plan is not None and plan.synced_exprs else
            "wait for the region's results with jax.block_until_ready(...) before reading "
            "the clock")
    if kind == "no_argument":
        given = (f"give it the results: {sync_call_text(plan.synced_exprs)}"
                 if plan is not None and plan.synced_exprs else
                 "give it the values to wait for")
        return f"`{code}` with no argument raises TypeError; {given}"
    if kind == "uncalled":
        return f"`{code}` without the call does nothing; call it: `{code}()`"
    if kind == "container":
        receiver = site.func.value if isinstance(site, cst.Call) and isinstance(
            site.func, cst.Attribute) else site
        return (f"`{code}` raises AttributeError (a Python container has no such method); "
                f"call jax.block_until_ready({ctx.code(receiver, 40)})")
    if kind == "one_shard":
        whole = _whole(site)
        call = (f"call jax.block_until_ready({ctx.code(whole, 40)})" if whole is not None
                else wait.split("; ")[0])
        return f"`{code}` waits for one device's shard only, not the others; {call}"
    if kind == "generator":
        return f"`{code}` is given a generator expression and waits for nothing; {wait}"
    if kind == "iterator":
        made_of = _unview(ctx, site.args[0].value) if isinstance(site, cst.Call) else None
        then = f"give it `{made_of}` itself" if made_of is not None else wait
        return f"`{code}` is given a dict view or an iterator and waits for nothing; {then}"
    if kind == "record":
        return (f"`{code}` is given an object that is no registered pytree and waits for "
                f"nothing; {wait}")
    if kind == "returns_none":
        assert isinstance(site, cst.Call)
        called = ctx.code(site.args[0].value, 40)
        then = (wait if plan is not None and plan.synced_exprs else
                "call jax.block_until_ready(...) on the arrays it stores before reading the "
                "clock")
        return (f"`{code}` is given what `{called}` returns, None (it returns nothing), and "
                f"waits for nothing; {then}")
    return f"`{code}` waits only for computations with effects, not for results; {wait}"


def _fix(ctx: FileContext, site: cst.CSTNode, kind: str, plan: FixPlan | None
         ) -> FixPlan | None:
    if kind == "uncalled":
        assert isinstance(site, cst.BaseExpression)
        return FixPlan((ReplaceExpr(site, ctx.module.code_for_node(site).strip() + "()"),))
    if kind == "container" and isinstance(site, cst.Call) and isinstance(site.func,
                                                                         cst.Attribute):
        receiver = ctx.module.code_for_node(site.func.value).strip()
        if not receiver.startswith("("):
            receiver = f"({receiver})" if isinstance(site.func.value, cst.Tuple) else receiver
        return FixPlan((ReplaceExpr(site, f"jax.block_until_ready({receiver})"),))
    if kind == "iterator" and isinstance(site, cst.Call):
        arg = site.args[0].value
        made_of = _unview(ctx, arg)
        if made_of is not None:
            # (what the view or iterator was made of is read by the call already: bound)
            return FixPlan((ReplaceExpr(arg, made_of),))
    if kind == "one_shard":
        whole = _whole(site)
        if whole is not None and isinstance(site, cst.Call):
            # (the whole value's name is read by the call already: it is bound there)
            return FixPlan((ReplaceExpr(site, "jax.block_until_ready("
                                        f"{ctx.module.code_for_node(whole).strip()})"),))
    if plan is None:
        return None
    if kind == "no_argument":
        inserts = [e for e in plan.edits if isinstance(e, InsertSync)]
        if (len(plan.edits) == 1 and len(inserts) == 1 and not inserts[0].at_end
                and _just_before(ctx.module, site, inserts[0].before)):
            # (the names are those JAX101's sync would read right after this statement)
            assert isinstance(site, cst.BaseExpression)
            return FixPlan((ReplaceExpr(site, sync_call_text(inserts[0].exprs),
                                        reads_at=inserts[0].before),))
    return plan


def _unview(ctx: FileContext, expr: cst.BaseExpression) -> str | None:
    """The pytree a dict view or an iterator is made of, as code, when nothing but views
    and iterators that call no function of the user's stand between: ``outs`` for
    ``outs.values()`` and ``iter(outs.items())``, ``(a, b)`` for ``zip(a.values(), b)``.
    None for ``map``/``filter`` (they call a function) and anything else."""
    if not isinstance(expr, cst.Call) or any(a.star or a.keyword for a in expr.args):
        return None
    func = expr.func
    if isinstance(func, cst.Attribute) and not expr.args:
        if func.attr.value in ("values", "items"):
            return ctx.module.code_for_node(func.value).strip()
        return None
    if not isinstance(func, cst.Name) or not expr.args:
        return None
    parts = [_unview(ctx, a.value) or ctx.module.code_for_node(a.value).strip()
             for a in expr.args]
    if func.value in ("iter", "reversed", "enumerate") and len(parts) == 1:
        return parts[0]
    if func.value == "zip":
        return "(" + ", ".join(parts) + ("," if len(parts) == 1 else "") + ")"
    return None


def _whole(site: cst.CSTNode) -> cst.BaseExpression | None:
    """The value a one-shard sync took its shard of, when it is a name or a dotted name:
    ``out`` for ``out[0].block_until_ready()``, ``y`` for
    ``jax.block_until_ready(y.addressable_shards[0].data)`` or ``y.addressable_data(0)``."""
    if not isinstance(site, cst.Call):
        return None
    if len(site.args) == 1:  # ``jax.block_until_ready(out[0])``
        expr: cst.BaseExpression = site.args[0].value
    elif not site.args and isinstance(site.func, cst.Attribute):  # ``out[0].block_until_ready()``
        expr = site.func.value
    else:
        return None
    steps = 0
    while steps < 4:
        steps += 1
        if isinstance(expr, cst.Attribute) and expr.attr.value == "data":
            expr = expr.value
        if isinstance(expr, cst.Subscript):
            expr = expr.value
            if isinstance(expr, cst.Attribute) and expr.attr.value in ("addressable_shards",
                                                                      "device_buffers"):
                expr = expr.value
            break
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and (
                expr.func.attr.value == "addressable_data"):
            expr = expr.func.value
            break
        return None
    else:
        return None
    node: cst.BaseExpression = expr
    while isinstance(node, cst.Attribute):
        node = node.value
    return expr if isinstance(node, cst.Name) else None


def _just_before(module: cst.Module, call: cst.CSTNode, stmt: cst.CSTNode) -> bool:
    """Whether ``call`` is the whole of the statement line that comes right before ``stmt``
    (a statement, or the first small statement of its line) in the same block."""
    found = False

    class _Find(cst.CSTVisitor):
        def on_visit(self, node: cst.CSTNode) -> bool:
            nonlocal found
            body = getattr(node, "body", None)
            if not isinstance(body, (list, tuple)):
                return not found
            # (``stmt`` is a statement, or the first small statement of a line)
            at = [k for k, s in enumerate(body) if s is stmt or (
                isinstance(s, cst.SimpleStatementLine) and s.body and s.body[0] is stmt)]
            if at:
                k = at[0]
                prev = body[k - 1] if k > 0 else None
                found = isinstance(prev, cst.SimpleStatementLine) and len(prev.body) == 1 and (
                    isinstance(prev.body[0], cst.Expr) and prev.body[0].value is call)
                return False
            return not found

    module.visit(_Find())
    return found
