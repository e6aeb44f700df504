"""jax.clear_caches() after the warm-up."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def f(x, s):
    return jnp.tanh(x @ x * s).sum()


x = jnp.ones((256, 256))
f(x, 1.0)
jax.block_until_ready(jax.clear_caches())

t0 = time.perf_counter()
r = f(x, 1.0)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
