"""A loop whose call only a counting loop's counters index is a benchmark's total (README,
"When JAX105 speaks"): ``range``, and the progress bars that count like it (``trange``,
``tqdm(range(n))``); a loop over anything else may feed each round the last one's state."""

from __future__ import annotations

import pytest

from jaxlint import lint_source

SWEEP = """\
import time

import jax
import jax.numpy as jnp
import numpy as np
from tqdm import tqdm, trange


@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2)


n = 80
x = jnp.linspace(-2, 2, n)
z = np.empty(n)
start = time.perf_counter()
for i in {loop}:
    z[i] = f(x[i], x[::-1][i])
print(f"loops: {{time.perf_counter() - start:.2f}} s")
"""


def codes(source: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_source(source, "sweep.py")]


@pytest.mark.parametrize("loop", ["range(n)", "trange(n)", "tqdm(range(n))"])
def test_a_sweep_over_counters_times_the_first_call(loop: str) -> None:
    assert codes(SWEEP.format(loop=loop)) == [("JAX105", 19)]


def test_a_loop_over_values_is_not_a_sweep() -> None:
    # ``i`` is a value of the loop's own list, which a training loop would feed from its
    # last round: its first window's compile is the conventional one
    assert codes(SWEEP.format(loop="list(range(n))")) == []
