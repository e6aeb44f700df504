"""jax.jit of a bound method each run."""
import time
import timeit

import jax
import jax.numpy as jnp


class M:
    def f(self, x):
        return jnp.sum(x * 2.0)


m = M()


x = jnp.ones(100)
jax.block_until_ready(jax.jit(m.f)(x))

t0 = time.perf_counter()
per_run = timeit.timeit(lambda: jax.block_until_ready(jax.jit(m.f)(x)), number=20) / 20
dt = time.perf_counter() - t0  # semantic: stop
