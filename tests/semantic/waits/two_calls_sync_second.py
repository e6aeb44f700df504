"""Two independent calls, only the second waited for."""
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))
x1 = x + 1
jax.block_until_ready(x1)

t0 = time.perf_counter()
y = f(x)
z = f(x1)
jax.block_until_ready(z)
dt = time.perf_counter() - t0  # semantic: stop

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
jax.block_until_ready(f(x1))
ref = time.perf_counter() - r0
