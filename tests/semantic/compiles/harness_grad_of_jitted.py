"""jax.grad of a jitted function."""
import time
import timeit

import jax
import jax.numpy as jnp


def p(x):
    return jnp.sum(jnp.sin(x) ** 2)


pj = jax.jit(p)


x = jnp.ones(100)
jax.block_until_ready(jax.grad(pj)(x))

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(jax.grad(pj)(x)), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
