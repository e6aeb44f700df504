"""Readings kept by label in a dict (``starts[name] = time.time()``, a timer class's
``self.t0[label] = timer()``) and subtracted later start regions as a name holding one
does."""

from __future__ import annotations

from helpers import LABELLED_TIMER_CLASS

from jaxlint import lint_source

STARTS = """\
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda x: x @ x)
x = jnp.ones((256, 256))
f(x).block_until_ready()
starts = {}
times = {}
for name in ["a", "b"]:
    starts[name] = time.perf_counter()
    y = f(x)
    WAIT
    times[name] = time.perf_counter() - starts[name]
"""


def test_a_reading_kept_under_a_label_starts_a_region() -> None:
    found = lint_source(STARTS.replace("WAIT", "pass"), "bench.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 15)], found
    assert lint_source(STARTS.replace("WAIT", "y.block_until_ready()"), "bench.py") == []


LITERAL = """\
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda x: x @ x)
x = jnp.ones((256, 256))
f(x).block_until_ready()
t = {}
t["fwd"] = time.perf_counter()
y = f(x)
y.block_until_ready()
t["bwd"] = time.perf_counter()
z = f(y)
print("bwd", time.perf_counter() - t["bwd"])
print("total", time.perf_counter() - t["fwd"])
"""


def test_a_literal_label_pairs_with_its_own_reading() -> None:
    # both figures end with ``z`` running; each is reported at its own stop read
    found = lint_source(LITERAL, "bench.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 15), ("JAX101", 16)], found


TIMER_CLASS = """\
from timeit import default_timer as timer

import jax
import jax.numpy as jnp


CLASS

f = jax.jit(lambda x: x @ x)
x = jnp.ones((256, 256))
f(x).block_until_ready()
timer_ = Timer()
timer_.start("f")
y = f(x)
WAIT
timer_.stop("f")
print(timer_.td)
"""
TIMER_CLASS = TIMER_CLASS.replace("CLASS\n", LABELLED_TIMER_CLASS + "\n", 1)


def test_a_timer_class_keeping_readings_by_label() -> None:
    # scico's ``Timer``: ``start(label)`` keeps the reading in ``self.t0[label]``,
    # ``stop(label)`` adds ``t - self.t0[label]`` to ``self.td[label]``
    found = lint_source(TIMER_CLASS.replace("WAIT", ""), "bench.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 40)], found
    assert lint_source(TIMER_CLASS.replace("WAIT", "jax.block_until_ready(y)"), "bench.py") == []
