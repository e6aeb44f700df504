"""Evaluation loop that accumulates metrics on device."""
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def eval_batch(params, x, y):
    logits = jnp.tanh(x @ params["w1"]) @ params["w2"]
    loss = jnp.mean(jax.nn.logsumexp(logits, -1) - jnp.take_along_axis(logits, y[:, None], 1)[:, 0])
    acc = jnp.mean(jnp.argmax(logits, -1) == y)
    return {"loss": loss, "acc": acc}


def accumulate(total, m):
    return jax.tree_util.tree_map(lambda a, b: a + b, total, m)


def dataset(n_batches, bs=1024, dim=784, seed=0):
    rng = np.random.default_rng(seed)
    xs = jnp.asarray(rng.standard_normal((n_batches, bs, dim), dtype=np.float32))
    ys = jnp.asarray(rng.integers(0, 10, size=(n_batches, bs)))
    return list(zip(xs, ys))


def evaluate_fetch(params, data):
    eval_batch(params, *data[0])["loss"].block_until_ready()
    t0 = time.perf_counter()
    total = {"loss": jnp.zeros(()), "acc": jnp.zeros(())}
    for x, y in data:
        total = accumulate(total, eval_batch(params, x, y))
    metrics = jax.device_get(total)
    t1 = time.perf_counter()  # mark
    return {k: float(v) / len(data) for k, v in metrics.items()}, t1 - t0


def evaluate_then_fetch(params, data):
    eval_batch(params, *data[0])["loss"].block_until_ready()
    t0 = time.perf_counter()
    total = {"loss": jnp.zeros(()), "acc": jnp.zeros(())}
    for x, y in data:
        total = accumulate(total, eval_batch(params, x, y))
    t1 = time.perf_counter()  # mark
    metrics = jax.device_get(total)
    return {k: float(v) / len(data) for k, v in metrics.items()}, t1 - t0


def evaluate_blocked(params, data):
    eval_batch(params, *data[0])["loss"].block_until_ready()
    t0 = time.perf_counter()
    total = {"loss": jnp.zeros(()), "acc": jnp.zeros(())}
    for x, y in data:
        total = accumulate(total, eval_batch(params, x, y))
    total = jax.block_until_ready(total)
    t1 = time.perf_counter()  # mark
    metrics = jax.device_get(total)
    return {k: float(v) / len(data) for k, v in metrics.items()}, t1 - t0


def evaluate_stacked(params, data):
    eval_batch(params, *data[0])["loss"].block_until_ready()
    t0 = time.perf_counter()
    per_batch = [eval_batch(params, x, y) for x, y in data]
    stacked = jax.tree_util.tree_map(lambda *xs: jnp.stack(xs), *per_batch)
    means = jax.tree_util.tree_map(jnp.mean, stacked)
    jax.block_until_ready(per_batch)
    t1 = time.perf_counter()  # mark
    return means, t1 - t0


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    params = {"w1": jax.random.normal(key, (784, 512)) * 0.05, "w2": jax.random.normal(key, (512, 10)) * 0.05}
    data = dataset(32)
    print(evaluate_fetch(params, data))
    print(evaluate_then_fetch(params, data))
    print(evaluate_blocked(params, data))
    print(evaluate_stacked(params, data)[1])
