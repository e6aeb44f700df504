"""A test that a container holds a key, guarding a read of that entry, holds: the code
expects the entry (README, "Which paths count")."""

from __future__ import annotations

from jaxlint import lint_source

HELPER = """\
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def forward(params, x):
    out = {{}}
    h = x
    for name, w in params.items():
        h = jnp.tanh(h @ w)
        out[name] = h
    return out


def extract(params, batches, layers):
    store = {{}}
    for batch in batches:
        activations = forward(params, batch)
        for layer in layers:
            key = f"layer_{{layer}}"
            if {test}:
                store.setdefault(key, []).append(np.array(activations[key]))
    return store


def main(params, batches):
    extract(params, batches[:1], [1, 2])
    start = time.time()
    store = extract(params, batches, [1, 2])
    print(f"extracted {{len(store)}} layers in {{time.time() - start:.2f}} s")
"""


def codes(source: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_source(source, "extract.py")]


def test_a_copy_of_the_entry_a_membership_test_guards_waits() -> None:
    # the helper's copy of each entry it finds waits for the forward pass: the region is
    # synced through a host copy (JAX104), not left running (JAX101)
    assert codes(HELPER.format(test="key in activations")) == [("JAX104", 33)]


def test_any_other_test_may_skip_the_copy() -> None:
    # a test of something else (here whether the key is a string) may fail on every
    # round: the last forward pass may be left running
    assert codes(HELPER.format(test="key.startswith('layer')")) == [("JAX101", 33)]
