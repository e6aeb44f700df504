"""Generator-based loader with early stopping out of the timed loop."""
import time
from typing import Iterator, Tuple

import jax
import jax.numpy as jnp
import numpy as np

Batch = Tuple[jnp.ndarray, jnp.ndarray]


def loader(n_batches: int, bs: int = 256, dim: int = 64, seed: int = 0) -> Iterator[Batch]:
    rng = np.random.default_rng(seed)
    w_true = rng.standard_normal((dim, 1)).astype(np.float32)
    for _ in range(n_batches):
        x = rng.standard_normal((bs, dim)).astype(np.float32)
        yield jnp.asarray(x), jnp.asarray(x @ w_true)


@jax.jit
def sgd(w, x, y):
    loss, g = jax.value_and_grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 0.05 * g, loss


def warm(w):
    for x, y in loader(1, seed=99):
        jax.block_until_ready(sgd(w, x, y))


def train_max_steps(w, max_steps=300):
    warm(w)
    t0 = time.perf_counter()
    for i, (x, y) in enumerate(loader(10_000)):
        w, loss = sgd(w, x, y)
        if i + 1 >= max_steps:
            break
    jax.block_until_ready(w)
    t1 = time.perf_counter()  # mark
    return w, t1 - t0


def train_until(w, budget_steps=300):
    warm(w)
    t0 = time.perf_counter()
    elapsed = None
    for i, (x, y) in enumerate(loader(10_000, seed=1)):
        w, loss = sgd(w, x, y)
        if i + 1 >= budget_steps:
            elapsed = time.perf_counter() - t0  # mark
            break
    return w, elapsed


def train_early_stop(w, tol=1e-3):
    warm(w)
    t0 = time.perf_counter()
    steps = 0
    for x, y in loader(10_000, seed=2):
        w, loss = sgd(w, x, y)
        steps += 1
        if loss < tol:
            break
    t1 = time.perf_counter()  # mark
    return w, steps, t1 - t0


def train_early_stop_synced(w, tol=1e-3, check_every=50):
    warm(w)
    t0 = time.perf_counter()
    steps = 0
    for x, y in loader(10_000, seed=3):
        w, loss = sgd(w, x, y)
        steps += 1
        if steps % check_every == 0 and loss.block_until_ready() < tol:
            break
    w.block_until_ready()
    t1 = time.perf_counter()  # mark
    return w, steps, t1 - t0


if __name__ == "__main__":
    w0 = jnp.zeros((64, 1))
    print(train_max_steps(w0)[1])
    print(train_until(w0)[1])
    print(train_early_stop(w0)[1:])
    print(train_early_stop_synced(w0)[1:])
