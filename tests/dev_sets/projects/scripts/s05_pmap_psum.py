"""Data-parallel SGD with pmap and an all-reduce of gradients."""
import functools
import time

import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@functools.partial(jax.pmap, axis_name="devices")
def parallel_step(w, x, y):
    loss, g = jax.value_and_grad(loss_fn)(w, x, y)
    g = jax.lax.psum(g, axis_name="devices") / jax.lax.psum(1, axis_name="devices")
    loss = jax.lax.pmean(loss, axis_name="devices")
    return w - 0.05 * g, loss


def replicate(tree):
    n = jax.local_device_count()
    return jax.tree_util.tree_map(lambda a: jnp.stack([a] * n), tree)


def shard(batch):
    n = jax.local_device_count()
    return jax.tree_util.tree_map(lambda a: a.reshape((n, a.shape[0] // n) + a.shape[1:]), batch)


def make_batch(rng, global_bs=2048, dim=256):
    x = rng.standard_normal((global_bs, dim), dtype=np.float32)
    y = x[:, :1] * 2.0
    return shard((x, y))


def timed_epoch(w, rng, steps=100):
    x, y = make_batch(rng)
    w, loss = parallel_step(w, x, y)
    jax.block_until_ready(w)
    t0 = time.perf_counter()
    for _ in range(steps):
        w, loss = parallel_step(w, x, y)
    jax.block_until_ready((w, loss))
    t1 = time.perf_counter()  # mark
    return w, (t1 - t0) / steps


def timed_epoch_report(w, rng, steps=100):
    x, y = make_batch(rng)
    jax.block_until_ready(parallel_step(w, x, y))
    t0 = time.perf_counter()
    for _ in range(steps):
        w, loss = parallel_step(w, x, y)
    print("loss on device 0:", loss[0].item())
    t1 = time.perf_counter()  # mark
    return w, (t1 - t0) / steps


def timed_bigger_batch(w, rng):
    x, y = make_batch(rng, global_bs=4096)
    t0 = time.perf_counter()
    w, loss = parallel_step(w, x, y)  # mark
    jax.block_until_ready(w)
    t1 = time.perf_counter()
    return w, t1 - t0


@functools.partial(jax.pmap, axis_name="i")
def global_norm(w):
    return jnp.sqrt(jax.lax.psum(jnp.sum(w ** 2), axis_name="i"))


def timed_norm(w):
    t0 = time.perf_counter()
    norms = global_norm(w)  # mark
    norms.block_until_ready()
    return time.perf_counter() - t0, norms


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    w = replicate(jnp.zeros((256, 1)))
    w, per = timed_epoch(w, rng)
    print("per step", per)
    w, per = timed_epoch_report(w, rng)
    print("per step (report)", per)
    w, dt = timed_bigger_batch(w, rng)
    print("bigger batch", dt)
    print("norm", timed_norm(w)[0])
