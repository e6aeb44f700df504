"""One leaf of a call with two outputs."""
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))
g = jax.jit(lambda a: (jnp.sin(a) @ a, jnp.cos(a) @ a))
jax.block_until_ready(g(x))

t0 = time.perf_counter()
a, b = g(x)
a.block_until_ready()
dt = time.perf_counter() - t0  # semantic: stop

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(g(x))
ref = time.perf_counter() - r0
