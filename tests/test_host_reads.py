"""Reads to the host that jaxlint knows by what is called, not by what the file defines."""

from __future__ import annotations

import pytest

from jaxlint import lint_source

GENERATE = """\
import time

import jax
import jax.numpy as jnp
from transformers import AutoTokenizer

{holder} = AutoTokenizer.from_pretrained("gpt2")
generate = jax.jit(lambda ids: jnp.cumsum(ids, axis=-1))
ids = jnp.ones((4, 32), dtype=jnp.int32)
generate(ids).block_until_ready()

tic = time.time()
tokens = generate(ids)
text = {holder}.{method}(tokens[0])
toc = time.time()
print(text, toc - tic)
"""


@pytest.mark.parametrize("holder", ["tokenizer", "tok", "processor", "sp_model"])
@pytest.mark.parametrize("method", ["decode", "batch_decode"])
def test_a_tokenizer_decoding_token_ids_reads_them_on_the_host(holder: str,
                                                               method: str) -> None:
    # the generated ids are waited for by the decoding (a copy to the host: JAX104 says the
    # copy is in the time), not left running (JAX101)
    found = lint_source(GENERATE.format(holder=holder, method=method), "bench.py")
    assert [(f.code, f.line) for f in found] == [("JAX104", 15)], found


@pytest.mark.parametrize("holder", ["vae", "model", "decoder"])
def test_a_decode_of_anything_else_is_not_taken_for_a_host_read(holder: str) -> None:
    found = lint_source(GENERATE.format(holder=holder, method="decode"), "bench.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 15)], found


TREE_MAP = """\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda a: a * 2)


def run(results, x):
    tick = time.time()
    y = step(x).block_until_ready()
    tree = {tree}
    out = jax.tree.map(lambda v: v[::-1], tree)
    print(time.time() - tick)
    return out
"""


@pytest.mark.parametrize(("tree", "expected"), [("results", []), ("{'y': y}", [("JAX101", 14)])])
def test_a_tree_map_of_operations_computes_only_on_trees_that_hold_jax_arrays(
        tree: str, expected: list[tuple[str, int]]) -> None:
    # ``results`` (a parameter nothing calls with JAX arrays) may be any tree: reversing its
    # leaves is no JAX work; reversing the leaves of ``{'y': y}`` is, and is left running
    found = lint_source(TREE_MAP.format(tree=tree), "bench.py")
    assert [(f.code, f.line) for f in found] == expected, found


WRITER = """\
import time

import jax
import jax.numpy as jnp
from flax.metrics import tensorboard

step = jax.jit(lambda w: (w * 0.9, jnp.sum(w)))
writer = tensorboard.SummaryWriter("/tmp/logs")
w = jnp.ones((1024,))
jax.block_until_ready(step(w))

t0 = time.time()
for i in range(100):
    w, loss = step(w)
    {write}
print("steps/s", 100 / (time.time() - t0))
"""


@pytest.mark.parametrize(("write", "expected"), [
    ('writer.scalar("train_loss", loss, i)', []),
    ('writer.text("note", "step", i)', [("JAX101", 16)]),
])
def test_flax_summary_writer_copies_what_it_writes(write: str,
                                                   expected: list[tuple[str, int]]) -> None:
    # flax.metrics.tensorboard converts each value to a host number as it writes it: every
    # round's loss is copied, which waits for the round (a copy made on every round of the
    # timed loop is part of the work timed), where writing only text leaves the steps running
    found = lint_source(WRITER.format(write=write), "train.py")
    assert [(f.code, f.line) for f in found] == expected, found


ZIP_ON_HOST = """\
import time

import jax
import jax.numpy as jnp
import numpy as onp

step = jax.jit(lambda a: (a * 2, jnp.sum(a)))


def tree_zip_onp(xs):
    xs = {listed}
    _, tree_def = jax.tree_util.tree_flatten(xs[0])
    ys = map(onp.asarray, zip(*map(lambda x: jax.tree_util.tree_flatten(x)[0], xs)))
    return jax.tree_util.tree_unflatten(tree_def, ys)


def curves(x, n):
    losses = []
    for _ in range(n):
        x, loss = step(x)
        losses.append({{"loss": loss}})
    return tree_zip_onp(losses)


x = jnp.ones(8)
curves(x, 2)
tick = time.time()
out = curves(x, 10)
print(time.time() - tick)
"""


@pytest.mark.parametrize("listed", ["list(xs)", "tuple(xs)", "sorted(xs, key=len)"])
def test_an_element_of_a_list_made_of_a_parameter_is_no_device_work(listed: str) -> None:
    # ``xs = list(xs)`` makes a Python sequence of what it was given (a list of step
    # results here): taking ``xs[0]`` out of it is no JAX work left running. The helper
    # copies every loss to the host, so the region is synced through a copy (JAX104)
    found = lint_source(ZIP_ON_HOST.format(listed=listed), "curves.py")
    assert [(f.code, f.line) for f in found] == [("JAX104", 29)], found


VALUE_SHAPED = """\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda x: x * 2)
x = jnp.ones(1000)
step(x).block_until_ready()

t0 = time.perf_counter()
y = step(x)
out = {call}
print(time.perf_counter() - t0)
"""


@pytest.mark.parametrize("call, code", [
    # the output's shape is the input's values: the input is read on the host first
    ("jnp.nonzero(y > 1)", "JAX104"),
    ("jnp.unique(y)", "JAX104"),
    ("jnp.argwhere(y)", "JAX104"),
    ("jnp.where(y > 1)", "JAX104"),
    # a fixed shape: one more computation dispatched, nothing read
    ("jnp.nonzero(y > 1, size=8)", "JAX101"),
    ("jnp.unique(y, size=8, fill_value=0)", "JAX101"),
    ("jnp.where(y > 1, y, 0.0)", "JAX101"),
    ("jnp.where(*(y > 1, y, 0.0))", "JAX101"),
])
def test_a_value_shaped_call_without_size_reads_its_input(call: str, code: str) -> None:
    found = lint_source(VALUE_SHAPED.format(call=call), "bench.py")
    assert [(f.code, f.line) for f in found] == [(code, 13)], found
