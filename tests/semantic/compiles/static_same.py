"""The same static argument."""
import time
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def g(x, n):
    return jnp.tanh(x * n).sum()


x = jnp.ones((256, 256))
jax.block_until_ready(g(x, 3))

t0 = time.perf_counter()
r = g(x, 3)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
