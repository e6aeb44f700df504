"""A module-level function that waits for a global, called before the stop."""
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))


def finish():
    y.block_until_ready()


t0 = time.perf_counter()
y = f(x)
finish()
dt = time.perf_counter() - t0  # semantic: stop

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
ref = time.perf_counter() - r0
