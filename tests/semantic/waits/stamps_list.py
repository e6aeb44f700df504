"""Per-call stamps appended, the last difference unsynced."""
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: jnp.sin(a) @ jnp.cos(a).T)
x = jnp.ones((1600, 1600))
jax.block_until_ready(f(x))

t0 = time.perf_counter()
stamps = [time.perf_counter()]
y = f(x)
stamps.append(time.perf_counter())  # semantic: stop
dt = stamps[-1] - stamps[0]

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
jax.block_until_ready(f(x))
ref = time.perf_counter() - r0
