"""A Timer context manager around the call and its wait."""
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))

class Timer:
    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, *exc):
        self.seconds = time.perf_counter() - self.start  # semantic: stop


t0 = time.perf_counter()
with Timer() as timer:
    y = f(x)
    y.block_until_ready()
dt = timer.seconds

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
ref = time.perf_counter() - r0
