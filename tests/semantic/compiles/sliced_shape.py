"""A timed call on a slice of another shape."""
# semantic: differs: a slice's shape is not modelled (and the eager slice compiles on first use)
import time

import jax
import jax.numpy as jnp


@jax.jit
def f(x, s):
    return jnp.tanh(x @ x * s).sum()


x = jnp.ones((256, 256))
jax.block_until_ready(f(x, 1.0))

t0 = time.perf_counter()
r = f(x[:128, :128], 1.0)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
