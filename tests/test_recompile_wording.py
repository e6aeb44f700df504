"""A call that compiles whenever it runs says how: a function that jits (or pmaps) a
function made anew and calls it, itself or through a helper it calls, or eager ``lax``
control flow over a function made anew. The explanation used to fall back to the ``lax``
wording whenever the call was a helper's (skrl's ``self.update`` making a
``jax.pmap(lambda ...)``), and a fresh jit two calls down was not seen at all."""

from __future__ import annotations

import pytest

from jaxlint import lint_source

HELPERS = """\
import time

import jax
import jax.numpy as jnp


def inner(params, batch):
    step = jax.pmap(lambda p, b: p - 0.1 * b.mean())
    return step(params, batch)


def update(params, batch):
    {body}


def solve(x):
    return jax.lax.while_loop(lambda c: c[0] < 10, lambda c: (c[0] + 1, c[1] * 2), (0, x))


def bench_update():
    params, batch = jnp.ones((1, 8)), jnp.ones((1, 64, 8))
    for _ in range(10):
        t0 = time.perf_counter()
        params = {call}
        jax.block_until_ready(params)
        print(f"step: {{(time.perf_counter() - t0) * 1e3:.3f}} ms")
"""

FRESH = ("`update` compiles on every call (it makes a new jitted function each time), so the "
         "time includes compilation; make the function once, or jit the whole computation, "
         "outside the timed region")


@pytest.mark.parametrize("body", [
    # the fresh jit in the function the region calls
    "return jax.jit(lambda p, b: p - 0.1 * b.mean())(params, batch)",
    # ... and one call further down
    "return inner(params, batch)",
])
def test_a_function_jitted_anew_is_named_as_such(body: str) -> None:
    found = lint_source(HELPERS.format(body=body, call="update(params, batch)"), "bench.py")
    assert [(f.line, f.code, f.message) for f in found] == [(24, "JAX105", FRESH)]
    assert found[0].explanation.splitlines()[-1] == (
        "line 24: `update(params, batch)`: `update` (line 12) wraps a function made anew on "
        "each call (a lambda, a `partial`, a nested `def`) in `jax.jit` or `jax.pmap` and "
        "calls it, itself or in a function it calls, so every call traces and compiles it "
        "again (jit and pmap keep compiled programs per function object).")


def test_eager_lax_control_flow_in_a_helper_is_named_as_such() -> None:
    found = lint_source(HELPERS.format(body="return inner(params, batch)", call="solve(params)"),
                        "bench.py")
    assert [(f.line, f.code) for f in found] == [(24, "JAX105")]
    assert "(eager `lax` control flow over a function made anew each time)" in found[0].message
    assert found[0].explanation.splitlines()[-1] == (
        "line 24: `solve(params)`: `solve` (line 16) runs `jax.lax` control flow outside jit "
        "over a function it makes anew on each call, so JAX traces and compiles it each time.")
