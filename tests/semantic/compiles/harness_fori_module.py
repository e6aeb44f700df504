"""fori_loop with a module-level body, outside jit."""
import time
import timeit

import jax
import jax.numpy as jnp


def body(i, c):
    return c * 1.0001


x = jnp.ones(100)
jax.block_until_ready(jax.lax.fori_loop(0, 10, body, x))

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(jax.lax.fori_loop(0, 10, body, x)), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
