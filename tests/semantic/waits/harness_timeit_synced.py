"""timeit of the call, waited for."""
import time
import timeit

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))

dt = timeit.timeit(lambda: f(x).block_until_ready(), number=3) / 3  # semantic: stop

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
ref = time.perf_counter() - r0
