"""fori_loop with a nested body in a helper."""
import time
import timeit

import jax
import jax.numpy as jnp


def run_fori(x):
    def body(i, c):
        return c * 1.0001

    return jax.lax.fori_loop(0, 10, body, x)


x = jnp.ones(100)
jax.block_until_ready(run_fori(x))

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(run_fori(x)), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
