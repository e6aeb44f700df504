"""JAX105 for a call that compiles again: its arrays have a shape or dtype that no earlier
call of the jitted function had (a warm-up on a one-row batch, float32 warm-up before a
bfloat16 loop). Only shapes and dtypes the code spells out count; unknown is never new."""

from __future__ import annotations

import textwrap

import pytest

from jaxlint import lint_source

TEMPLATE = """\
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a * 2)
key = jax.random.PRNGKey(0)
{setup}
t0 = time.perf_counter()
y = f({timed})
y.block_until_ready()
print(time.perf_counter() - t0)
"""


def _codes(setup: str, timed: str) -> list[tuple[str, int]]:
    source = TEMPLATE.format(setup=textwrap.dedent(setup).strip(), timed=timed)
    return [(f.code, f.line) for f in lint_source(source, "bench.py")]


def _line_of_call(setup: str) -> int:
    return TEMPLATE.format(setup=textwrap.dedent(setup).strip(), timed="x").splitlines(
    ).index("y = f(x)") + 1


@pytest.mark.parametrize("setup, timed", [
    ("f(jnp.ones((1, 512))).block_until_ready()\nx = jnp.ones((64, 512))", "x"),
    ("x = jnp.zeros((8, 8))\nf(x).block_until_ready()\nx = x.astype(jnp.bfloat16)", "x"),
    ("f(jax.random.normal(key, (4, 4))).block_until_ready()\nx = jnp.ones((4, 4), jnp.int32)",
     "x"),
    ("f(jnp.full((3,), 0.5)).block_until_ready()\nx = jnp.empty(3, dtype='int8')", "x"),
    # the dtype alone is known (the shape is not), and it is new
    ("f(jnp.ones(n)).block_until_ready()\nx = jnp.ones(n).astype(jnp.float16)", "x"),
    # a keyword where the call times it by position: another pytree of arguments
    # (tests/semantic/compiles/positional_then_keyword.py measures it)
    ("f(a=jnp.ones((8, 4))).block_until_ready()\nx = jnp.ones((8, 4))", "x"),
    # a shape spelt with a name only ever bound to one integer (``n = 7``)
    ("f(jnp.ones((1, 4))).block_until_ready()\nx = jnp.ones((n, 4))", "x"),
    # ... or made by a helper from the count it is given, alone or in a tuple it returns
    ("def h(k):\n    return jnp.ones((k, 4))\nf(h(1)).block_until_ready()\nx = h(n)", "x"),
    ("def h(k):\n    return jnp.ones((k, 4)), k\na, _ = h(1)\nf(a).block_until_ready()\n"
     "x, _ = h(8)", "x"),
    # a helper that warms it up on another shape: its call is known by the shapes it gave
    ("def warm():\n    f(jnp.ones((1, 4))).block_until_ready()\nwarm()\nx = jnp.ones((8, 4))",
     "x"),
    # ... also when the helper runs a loop over literal sizes, or a default tuple of them
    ("def warm():\n    for k in (1, 2):\n        f(jnp.ones((k, 4))).block_until_ready()\n"
     "warm()\nx = jnp.ones((8, 4))", "x"),
    ("def warm(sizes=(1, 2)):\n    for k in sizes:\n"
     "        f(jnp.ones((k, 4))).block_until_ready()\nwarm()\nx = jnp.ones((8, 4))", "x"),
])
def test_a_new_shape_or_dtype_compiles_again(setup: str, timed: str) -> None:
    assert _codes("n = 7\n" + setup, timed) == [("JAX105", _line_of_call("n = 7\n" + setup))]


@pytest.mark.parametrize("setup, timed", [
    # the same shape and dtype, spelt differently
    ("f(jnp.ones((3,))).block_until_ready()\nx = jnp.zeros(3, dtype=jnp.float32)", "x"),
    ("f(jnp.ones([2, 2], 'float32')).block_until_ready()\nx = jnp.ones((2, 2))", "x"),
    # float64 without x64 is float32
    ("f(jnp.ones(4, jnp.float64)).block_until_ready()\nx = jnp.ones(4)", "x"),
    # a shape not spelt out is not known to be new
    ("f(jnp.ones((1, 4))).block_until_ready()\nx = jnp.ones((len(g()), 4))", "x"),
    ("f(jnp.ones((1, 4))).block_until_ready()\nfor k in g():\n    x = jnp.ones((k, 4))", "x"),
    # a helper that warmed it up on the timed shape, in a loop over literal sizes
    ("def warm():\n    for k in (1, 8):\n        f(jnp.ones((k, 4))).block_until_ready()\n"
     "warm()\nx = jnp.ones((8, 4))", "x"),
    # a helper's parameter given an unknown count, or whose returns differ
    ("def h(k):\n    return jnp.ones((k, 4))\nf(h(1)).block_until_ready()\nx = h(len(g()))",
     "x"),
    ("def h(k):\n    if k:\n        return jnp.ones((1, 4))\n    return jnp.ones((8, 4))\n"
     "f(h(1)).block_until_ready()\nx = h(0)", "x"),
    ("f(jnp.ones((1, 4))).block_until_ready()\nx = jnp.ones((8, 4)) * 2", "x"),
    ("f(jnp.ones((1, 4))).block_until_ready()\nx = g((8, 4))", "x"),
    # an earlier call of unknown shape may have compiled it
    ("f(jnp.ones((1, 4))).block_until_ready()\nf(g()).block_until_ready()\n"
     "x = jnp.ones((8, 4))", "x"),
    # a harness ran it on the timed shape (its runs are analysed apart from the path; the
    # best repeat leaves its first run's compile out)
    ("import timeit\nx = jnp.ones((8, 4))\n"
     "min(timeit.repeat(lambda: f(x).block_until_ready(), number=3))\n"
     "f(jnp.ones((1, 4))).block_until_ready()", "x"),
    # warmed up on the timed shape
    ("f(jnp.ones((1, 4))).block_until_ready()\nx = jnp.ones((8, 4))\n"
     "f(x).block_until_ready()", "x"),
])
def test_no_new_shape_is_claimed_without_knowing(setup: str, timed: str) -> None:
    assert _codes("n = 7\ndef g(*s): return jnp.ones(s)\n" + setup, timed) == []


def test_with_x64_maybe_on_dtypes_are_not_judged() -> None:
    setup = ("jax.config.update('jax_enable_x64', True)\n"
             "f(jnp.ones(4, jnp.float64)).block_until_ready()\nx = jnp.ones(4, jnp.float32)")
    assert _codes(setup, "x") == []


def test_a_loop_over_literal_shapes_compiles_in_each_new_round() -> None:
    source = textwrap.dedent("""\
        import time

        import jax
        import jax.numpy as jnp

        f = jax.jit(lambda a: a.sum())
        f(jnp.ones((256, 64))).block_until_ready()
        for shape in [(256, 64), (512, 64)]:
            xs = jax.random.normal(jax.random.PRNGKey(1), shape)
            t0 = time.perf_counter()
            out = f(xs)
            out.block_until_ready()
            print(shape, time.perf_counter() - t0)
        """)
    (finding,) = lint_source(source, "sweep.py")
    assert (finding.code, finding.line) == ("JAX105", 11)
    assert "(512, 64) float32" in finding.message
    warmed = source.replace("    t0 = time.perf_counter()\n",
                            "    f(xs).block_until_ready()\n    t0 = time.perf_counter()\n")
    assert lint_source(warmed, "sweep.py") == []


def test_the_message_names_both_shapes() -> None:
    setup = "f(jnp.ones((1, 512))).block_until_ready()\nx = jnp.ones((64, 512))"
    source = TEMPLATE.format(setup=setup, timed="x")
    (finding,) = lint_source(source, "bench.py")
    assert finding.message == (
        "`f` compiles again inside the timed region: it was compiled for (1, 512) float32, "
        "and this call gives it (64, 512) float32 (a new shape or dtype), so the time "
        "includes compilation; warm it up on these shapes and dtypes before the clock starts")


def test_the_message_names_the_same_earlier_shapes_in_every_run() -> None:
    # Several earlier calls with other shapes: the message names one of them, and always
    # the same one (they are kept in a set; the analysis of each run makes new nodes).
    source = TEMPLATE.format(setup=textwrap.dedent("""\
        for shape in [(1024, 1024), (512, 512)]:
            f(jnp.ones(shape)).block_until_ready()
        f(jnp.ones((64, 64), dtype=jnp.bfloat16)).block_until_ready()
        """), timed="jnp.ones((256, 256))")
    messages = {tuple(f.message for f in lint_source(source, "bench.py")) for _ in range(8)}
    assert len(messages) == 1
    assert any("compiles again" in m for m in next(iter(messages)))


STRUCTURE = """\
import time
from functools import partial

import jax
import jax.numpy as jnp


@jax.jit
def h(xs, scale=1.0):
    return sum(jnp.sum(v) for v in jax.tree_util.tree_leaves(xs)) * scale


x = jnp.ones((8, 8))
pair = (x, x)
{warm}
t0 = time.perf_counter()
y = {timed}
y.block_until_ready()
print(time.perf_counter() - t0)
"""


def _structure_codes(warm: str, timed: str) -> list[str]:
    source = STRUCTURE.format(warm=f"jax.block_until_ready({warm})", timed=timed)
    return [f.message for f in lint_source(source, "bench.py") if f.code == "JAX105"]


@pytest.mark.parametrize("warm, timed, now", [
    # (each measured on CPU JAX: tests/semantic/compiles)
    ("h([x, x])", "h([x, x, x])", "a list of 3 of (8, 8) float32"),
    ("h([x, x])", "h((x, x))", "a tuple of 2 of (8, 8) float32"),
    ('h({"a": x})', 'h({"b": x})', "a dict with keys 'b'"),
    ("h(None)", "h(x)", "(8, 8) float32"),
    ("h(x, 2.0)", "h(x, scale=2.0)",
     "(8, 8) float32 and a Python number (weakly typed float32), `scale` by keyword"),
    ("h(x)", "h(x, 2.0)",
     "(8, 8) float32 and a Python number (weakly typed float32), all by position"),
])
def test_a_new_pytree_structure_compiles_again(warm: str, timed: str, now: str) -> None:
    messages = _structure_codes(warm, timed)
    assert len(messages) == 1, messages
    assert f"this call gives it {now} (a new pytree structure or way of passing its " \
           "arguments)" in messages[0]


@pytest.mark.parametrize("warm, timed", [
    ("h([x, x])", "h([x, x])"),
    ('h({"a": x, "b": x})', 'h({"b": x, "a": x})'),  # jit sorts a dict's keys
    ("h(x, scale=2.0)", "h(x, scale=3.0)"),
    ("h((x, x))", "h(pair)"),  # a name: its structure is not known
    # a partial with arguments bound: its calls pass more than they spell
    ("h(x, 2.0)", "partial(h, x)(2.0)"),
    ("h(x, 2.0)", "partial(h, scale=2.0)(x)"),
])
def test_the_same_or_an_unknown_structure_is_not_new(warm: str, timed: str) -> None:
    assert _structure_codes(warm, timed) == []
