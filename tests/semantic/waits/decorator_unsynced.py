"""A timing decorator on a function that returns the array."""
import functools
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))

def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        start = time.perf_counter()
        out = fn(*args)
        wrapper.seconds = time.perf_counter() - start  # semantic: stop
        return out

    return wrapper


@timed
def run(a):
    return f(a)


t0 = time.perf_counter()
y = run(x)
dt = run.seconds

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
ref = time.perf_counter() - r0
