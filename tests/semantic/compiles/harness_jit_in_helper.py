"""A helper that jits a module-level function."""
import time
import timeit

import jax
import jax.numpy as jnp


def p(x):
    return jnp.sum(jnp.sin(x) ** 2)


def helper(x):
    return jax.jit(p)(x)


x = jnp.ones(100)
jax.block_until_ready(helper(x))

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(helper(x)), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
