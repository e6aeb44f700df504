"""time.time() before and after, nothing waited for."""
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))

t0 = time.perf_counter()
start = time.time()
y = f(x)
dt = time.time() - start  # semantic: stop

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
ref = time.perf_counter() - r0
