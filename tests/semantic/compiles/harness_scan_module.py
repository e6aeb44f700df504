"""lax.scan with a module-level body, outside jit."""
import time
import timeit

import jax
import jax.numpy as jnp


def sbody(c, _):
    return c * 1.0001, None


x = jnp.ones(100)
jax.block_until_ready(jax.lax.scan(sbody, x, None, length=5)[0])

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(jax.lax.scan(sbody, x, None, length=5)[0]), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
