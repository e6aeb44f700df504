"""jax.jit of one partial object each run."""
import time
import timeit
from functools import partial

import jax
import jax.numpy as jnp


def p(x):
    return jnp.sum(jnp.sin(x) ** 2)


pp = partial(p)


x = jnp.ones(100)
jax.block_until_ready(jax.jit(pp)(x))

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(jax.jit(pp)(x)), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
