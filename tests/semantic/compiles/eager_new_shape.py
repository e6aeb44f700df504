"""An eager operation on a shape not used before."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def f(x, s):
    return jnp.tanh(x @ x * s).sum()


x = jnp.ones((256, 256))
jax.block_until_ready(f(x, 1.0))

t0 = time.perf_counter()
r = f(jnp.ones((64, 64)), 1.0)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
