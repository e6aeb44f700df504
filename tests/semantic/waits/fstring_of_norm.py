"""An f-string of the norm of the final weights."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def step(w, x):
    y = jnp.tanh(x @ w)
    loss = jnp.mean(y ** 2)
    return w - 0.01 * (x.T @ y) / x.shape[0], loss


w0 = jnp.ones((1600, 1600)) * 0.001
x = jnp.ones((1600, 1600))
jax.block_until_ready(step(w0, x))

w = w0
t0 = time.perf_counter()
for _ in range(5):
    w, loss = step(w, x)
msg = f"norm {jnp.linalg.norm(w)}"
dt = time.perf_counter() - t0  # semantic: stop

# semantic: reference: the same work, waited for
r0 = time.perf_counter()
w = w0
for _ in range(5):
    w, loss = step(w, x)
    jax.block_until_ready(w)
ref = time.perf_counter() - r0
