"""In a loop of known count, the last round's tests of the counter are decided by its last
value (the README's "Periodic syncs"): whether the round the clock reads after waits. Each
test here is the same timed loop with a different condition around its wait."""

from __future__ import annotations

import pytest

from jaxlint import lint_source

LOOP = """\
import time

import jax
import jax.numpy as jnp

n = 100
step = jax.jit(lambda w: w * 0.99)
w = jnp.ones((256, 256))
step(w).block_until_ready()
t0 = time.perf_counter()
for i in range(n):
    w = step(w)
    if {test}:
        w.block_until_ready()
print(time.perf_counter() - t0)
"""


def _codes(test: str) -> list[str]:
    return [f.code for f in lint_source(LOOP.format(test=test), "train.py")]


@pytest.mark.parametrize("test", [
    "i % 10 == 9", "(i + 1) % 10 == 0", "i % 10 != 0",  # periodic, the last round included
    "i == n - 1", "i == 99", "i + 1 == n", "i >= n - 1", "n - 1 <= i",  # the last round
    "not i < n - 1", "i % 11 == 0 or i == n - 1", "i > 0 and i % 3 == 0",
])
def test_a_wait_the_last_round_takes_syncs_the_loop(test: str) -> None:
    assert _codes(test) == []


@pytest.mark.parametrize("test", [
    "i % 10 == 0",  # rounds 0, 10, ..., 90: not the last
    "i == n",  # never: range(n) stops at n - 1
    "i == 98", "i < n - 1", "i % 10 == 0 and i == n - 1",
])
def test_a_wait_the_last_round_skips_leaves_it_running(test: str) -> None:
    assert _codes(test) == ["JAX101"]


def test_a_test_of_something_unknown_is_not_decided() -> None:
    # (``k`` is not a known integer: both branches are followed, and one leaves work)
    source = LOOP.replace("n = 100\n", "n = 100\nk = int(input())\n")
    assert [f.code for f in lint_source(source.format(test="i == k"), "train.py")] == [
        "JAX101"]
