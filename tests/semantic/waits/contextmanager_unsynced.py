"""A @contextmanager timer around the call, nothing waited for."""
import time
from contextlib import contextmanager

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))

times = {}


@contextmanager
def timed(name):
    start = time.perf_counter()
    yield
    times[name] = time.perf_counter() - start  # semantic: stop


t0 = time.perf_counter()
with timed("f"):
    y = f(x)
dt = times["f"]

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
ref = time.perf_counter() - r0
