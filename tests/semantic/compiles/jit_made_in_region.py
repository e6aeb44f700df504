"""jax.jit applied inside the region."""
# semantic: by policy: the region contains the jax.jit that makes the function, a total that includes its compilation on purpose (README, "When JAX105 speaks")
import time

import jax
import jax.numpy as jnp


def p(x):
    return jnp.sum(jnp.sin(x) ** 2)


x = jnp.ones((256, 256))

t0 = time.perf_counter()
r = jax.jit(p)(x)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
