"""lax.while_loop with module-level functions, outside jit."""
import time
import timeit

import jax
import jax.numpy as jnp


def cnd(c):
    return c[0] < 2.0


def wb(c):
    return c + 0.5


x = jnp.ones(100)
jax.block_until_ready(jax.lax.while_loop(cnd, wb, x))

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(jax.lax.while_loop(cnd, wb, x)), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
