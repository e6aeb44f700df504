"""jax.jit of the same function again."""
import time

import jax
import jax.numpy as jnp


def p(x):
    return jnp.sum(jnp.sin(x) ** 2)


x = jnp.ones((256, 256))
jp = jax.jit(p)
jax.block_until_ready(jp(x))

t0 = time.perf_counter()
r = jax.jit(p)(x)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
