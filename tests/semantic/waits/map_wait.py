"""map() of block_until_ready, consumed by list()."""
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))

t0 = time.perf_counter()
ys = [f(x), f(x)]
list(map(jax.block_until_ready, ys))
dt = time.perf_counter() - t0  # semantic: stop

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready((f(x), f(x)))
ref = time.perf_counter() - r0
