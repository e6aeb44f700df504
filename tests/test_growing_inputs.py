"""An array that grows on every round of a loop (``tokens = jnp.concatenate([tokens, new],
axis=1)``, decoding without a fixed-size buffer) gives a jitted function a new shape on
every call: each call traces and compiles it again, and a timing of those calls (per token
or in total) holds a compile each round, whatever warm-up came before. A buffer of fixed
size, written with ``.at[...].set``, compiles once."""

from __future__ import annotations

import pytest

from jaxlint import lint_source

DECODE = """\
import time

import jax
import jax.numpy as jnp


@jax.jit
def next_token(params, tokens):
    return (tokens.sum(axis=-1, keepdims=True) * params).astype(jnp.int32) % 50257


params = jnp.float32(3.0)
tokens = jnp.ones((1, 8), dtype=jnp.int32)
next_token(params, tokens).block_until_ready()  # warm-up
for i in range(32):
    t0 = time.perf_counter()
    new = next_token(params, tokens)
    new.block_until_ready()
    print(f"token {{i}}: {{(time.perf_counter() - t0) * 1e3:.2f}} ms")
    {grow}
"""

GROWS = [
    "tokens = jnp.concatenate([tokens, new], axis=1)",
    "tokens = jnp.append(tokens, new, axis=1)",
    "tokens = jnp.hstack((tokens, new))",
]


@pytest.mark.parametrize("grow", GROWS)
def test_a_growing_argument_compiles_on_every_round(grow: str) -> None:
    found = lint_source(DECODE.format(grow=grow), "decode.py")
    assert [(f.line, f.code) for f in found] == [(17, "JAX105")]
    assert found[0].message == (
        "`next_token` compiles again on every round: `tokens` grows each round, so each call "
        "gives it a new shape and the time includes compilation; keep its shape fixed (a "
        "buffer of the final length, written with `.at[...].set`)")
    assert found[0].explanation.splitlines()[-1] == (
        f"line 17: `next_token(params, tokens)`: `tokens` is given a new shape on every round "
        f"of the loop at line 15 (line 20: `{grow}`), and jit compiles one program per set of "
        "argument shapes, so every call after the first traces and compiles it again.")


def test_a_fixed_size_buffer_compiles_once() -> None:
    fixed = DECODE.replace("tokens = jnp.ones((1, 8), dtype=jnp.int32)",
                           "tokens = jnp.ones((1, 40), dtype=jnp.int32)")
    assert lint_source(fixed.format(grow="tokens = tokens.at[:, 8 + i].set(new[:, 0])"),
                       "decode.py") == []


def test_a_list_that_grows_is_not_an_array_argument() -> None:
    """A Python list of results grows too; it is not what the jitted function is given."""
    source = DECODE.format(grow="outs = outs + [new]").replace(
        "for i in range(32):", "outs = []\nfor i in range(32):")
    assert lint_source(source, "decode.py") == []


def test_a_growing_argument_compiles_on_every_round_of_a_progress_log() -> None:
    """No warm-up: the first round compiles as any first call, and a per-round figure (a
    progress log) would hold it in its first figure only; a growing argument puts a compile
    in every figure."""
    source = DECODE.format(grow=GROWS[0]).replace(
        "next_token(params, tokens).block_until_ready()  # warm-up\n", "")
    found = lint_source(source, "decode.py")
    assert [(f.line, f.code) for f in found] == [(16, "JAX105")]
    assert "grows each round" in found[0].message
