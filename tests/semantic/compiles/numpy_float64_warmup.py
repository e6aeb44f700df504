"""A NumPy float64 array warms up (float32 without x64)."""
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(x, s):
    return jnp.tanh(x @ x * s).sum()


x = jnp.ones((256, 256))
jax.block_until_ready(f(np.ones((256, 256)), 1.0))

t0 = time.perf_counter()
r = f(x, 1.0)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
