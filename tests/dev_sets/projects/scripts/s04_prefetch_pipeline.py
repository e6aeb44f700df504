"""Host -> device input pipeline with a two-deep prefetch queue."""
import collections
import itertools
import time

import jax
import jax.numpy as jnp
import numpy as np


def numpy_batches(batch_size=1024, dim=1024, seed=0):
    rng = np.random.default_rng(seed)
    while True:
        x = rng.standard_normal((batch_size, dim), dtype=np.float32)
        yield x, np.tanh(x[:, :8])


def prefetch_to_device(iterator, size=2):
    queue = collections.deque()

    def enqueue(n):
        for item in itertools.islice(iterator, n):
            queue.append(jax.device_put(item))

    enqueue(size)
    while queue:
        yield queue.popleft()
        enqueue(1)


@jax.jit
def step(w, batch):
    x, y = batch

    def loss(w):
        return jnp.mean((x @ w - y) ** 2)

    l, g = jax.value_and_grad(loss)(w)
    return w - 1e-3 * g, l


def time_transfer_only(n=100):
    it = numpy_batches()
    next(it)
    t0 = time.perf_counter()
    on_device = [jax.device_put(b) for b in itertools.islice(it, n)]
    t1 = time.perf_counter()  # mark
    return (t1 - t0) / n, on_device


def time_transfer_synced(n=100):
    it = numpy_batches()
    t0 = time.perf_counter()
    on_device = [jax.device_put(b) for b in itertools.islice(it, n)]
    jax.block_until_ready(on_device)
    t1 = time.perf_counter()  # mark
    return (t1 - t0) / n


def train(num_steps=200):
    w = jnp.zeros((1024, 8))
    batches = prefetch_to_device(numpy_batches(), size=2)
    first = next(batches)
    w, loss = step(w, first)
    jax.block_until_ready(w)
    t0 = time.perf_counter()
    for batch in itertools.islice(batches, num_steps):
        w, loss = step(w, batch)
    jax.block_until_ready(w)
    t1 = time.perf_counter()  # mark
    return w, (t1 - t0) / num_steps


def train_without_prefetch(num_steps=200):
    w = jnp.zeros((1024, 8))
    it = numpy_batches(seed=1)
    w, loss = step(w, jax.device_put(next(it)))
    jax.block_until_ready(w)
    t0 = time.perf_counter()
    for x, y in itertools.islice(it, num_steps):
        w, loss = step(w, (jnp.asarray(x), jnp.asarray(y)))
    loss.block_until_ready()
    t1 = time.perf_counter()  # mark
    return w, (t1 - t0) / num_steps


def train_numpy_batches(num_steps=200):
    w = jnp.zeros((1024, 8))
    it = numpy_batches(seed=2)
    w, loss = step(w, jax.device_put(next(it)))
    jax.block_until_ready(w)
    t0 = time.perf_counter()
    for x, y in itertools.islice(it, num_steps):
        w, loss = step(w, (x, y))
    jax.block_until_ready(w)
    t1 = time.perf_counter()  # mark
    return w, (t1 - t0) / num_steps


if __name__ == "__main__":
    print("transfer", time_transfer_only()[0])
    print("transfer synced", time_transfer_synced())
    print("train", train()[1])
    print("train no prefetch", train_without_prefetch()[1])
    print("train numpy", train_numpy_batches()[1])
