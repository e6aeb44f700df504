"""A warm-up helper runs the function on the timed shape: no compile in the region."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return jnp.tanh(x @ x.T).sum()


def warm_up():
    jax.block_until_ready(f(jnp.ones((256, 64))))


warm_up()
x = jnp.ones((256, 64))
jax.block_until_ready(x)

t0 = time.perf_counter()
r = f(x)
jax.block_until_ready(r)
dt = time.perf_counter() - t0  # semantic: stop
