"""The same helper and row count for the warm-up and the timed batch: no new shape."""
import time

import jax
import jax.numpy as jnp

FEATURES = 64


@jax.jit
def f(x):
    return jnp.tanh(x @ x.T).sum()


def batch(key, n):
    kx, ky = jax.random.split(key)
    return jax.random.normal(kx, (n, FEATURES)), jax.random.randint(ky, (n,), 0, 10)


key = jax.random.PRNGKey(0)
x_small, _ = batch(key, 128)
jax.block_until_ready(f(x_small))
x_big, _ = batch(key, 128)
jax.block_until_ready(x_big)

t0 = time.perf_counter()
r = f(x_big)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
