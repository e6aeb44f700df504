"""Run on every host: python multihost_bench.py  (jax.distributed via env)"""
import time

import jax
import jax.numpy as jnp
from jax.experimental import multihost_utils


def barrier_cost(n=10):
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        multihost_utils.sync_global_devices(f"barrier_{i}")
        times.append(time.perf_counter() - t0)
    return min(times)


@jax.jit
def local_step(w, x):
    g = jax.grad(lambda w: jnp.mean((x @ w) ** 2))(w)
    return w - 1e-3 * g


def timed_steps(w, x, n=100):
    local_step(w, x).block_until_ready()
    multihost_utils.sync_global_devices("pre")
    t0 = time.perf_counter()
    for _ in range(n):
        w = local_step(w, x)
    jax.block_until_ready(w)
    multihost_utils.sync_global_devices("post")
    dt = time.perf_counter() - t0
    if jax.process_index() == 0:
        print(f"{n / dt:.1f} steps/s across {jax.process_count()} hosts")
    return w


def timed_steps_quick(w, x, n=100):
    local_step(w, x).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(n):
        w = local_step(w, x)
    if jax.process_index() == 0:
        dt = time.perf_counter() - t0
        print(f"{n / dt:.1f} steps/s (host 0)")
    return w


if __name__ == "__main__":
    jax.distributed.initialize()
    w = jnp.zeros((1024, 1024))
    x = jnp.ones((512, 1024))
    print("barrier", barrier_cost())
    w = timed_steps(w, x)
    timed_steps_quick(w, x)
