"""jax.vmap outside jit."""
import time
import timeit

import jax
import jax.numpy as jnp


def p(x):
    return jnp.sum(jnp.sin(x) ** 2)


x = jnp.ones(100)
xs = jnp.ones((8, 100))
jax.block_until_ready(jax.vmap(p)(xs))

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(jax.vmap(p)(xs)), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
