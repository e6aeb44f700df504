"""A Python float warms up, a float32 scalar is timed."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def f(x, s):
    return jnp.tanh(x @ x * s).sum()


x = jnp.ones((256, 256))
s = jnp.float32(1.0)
jax.block_until_ready(f(x, 1.0))

t0 = time.perf_counter()
r = f(x, s)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
