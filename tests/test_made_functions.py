"""A function that JAX code made from JAX values, called on JAX values, computes on them
(``train_step_fn, metrics = get_train_step_fn(state, batch=batch)`` of a library or of a
module the index cannot read). A function the code was handed (a parameter, a callback)
stays unknown: it may do anything, and is assumed to do no JAX work."""

from __future__ import annotations

from jaxlint import lint_source

MADE = """\
import time

import jax
from trainer_lib import get_train_step_fn, init_state

state = init_state(jax.random.PRNGKey(0))
train_step_fn, metrics = get_train_step_fn(state, batch_size=64)
for step in range(10):
    t0 = time.time()
    state, metrics = train_step_fn(state, metrics)
    {sync}print(f"step {{step}}: {{time.time() - t0:.3f}} s")
"""


def codes(source: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_source(source, "train.py")]


def test_a_step_made_by_a_library_from_jax_values_is_jax_work() -> None:
    assert codes(MADE.format(sync="")) == [(11, "JAX101")]


def test_waiting_for_its_results_finishes_the_region() -> None:
    assert codes(MADE.format(sync="jax.block_until_ready(state)\n    ")) == []


def test_a_function_handed_in_stays_unknown() -> None:
    source = """\
import time

import jax.numpy as jnp


def run(fn, x):
    t0 = time.time()
    y = fn(x)
    return time.time() - t0


run(print, jnp.ones(3))
"""
    assert codes(source) == []
