import time

import jax
import jax.numpy as jnp


def bench_normal(shape=(8192, 8192), reps=10):
    key = jax.random.PRNGKey(0)
    key, sub = jax.random.split(key)
    jax.random.normal(sub, shape).block_until_ready()

    t0 = time.perf_counter()
    for _ in range(reps):
        key, sub = jax.random.split(key)
        x = jax.random.normal(sub, shape)
    key.block_until_ready()
    t_stale = (time.perf_counter() - t0) / reps

    t0 = time.perf_counter()
    for _ in range(reps):
        key, sub = jax.random.split(key)
        x = jax.random.normal(sub, shape)
    x.block_until_ready()
    t_ok = (time.perf_counter() - t0) / reps
    return t_stale, t_ok


def bench_dropout_masks(n=64, p=0.1):
    keys = jax.random.split(jax.random.PRNGKey(1), n)
    masks = jax.vmap(lambda k: jax.random.bernoulli(k, 1 - p, (1024, 1024)))(keys)
    masks.block_until_ready()
    t0 = time.perf_counter()
    masks = jax.vmap(lambda k: jax.random.bernoulli(k, 1 - p, (1024, 1024)))(keys)
    kept = jnp.mean(masks)
    elapsed = time.perf_counter() - t0
    return elapsed, kept


if __name__ == "__main__":
    print(bench_normal())
    print(bench_dropout_masks())
