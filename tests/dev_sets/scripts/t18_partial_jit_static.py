import functools
import time

import jax
import jax.numpy as jnp


@functools.partial(jax.jit, static_argnums=(1,))
def power_iteration(a, num_iters):
    v = jnp.ones(a.shape[0]) / jnp.sqrt(a.shape[0])
    for _ in range(num_iters):
        v = a @ v
        v = v / jnp.linalg.norm(v)
    return v @ a @ v


if __name__ == "__main__":
    m = jax.random.normal(jax.random.PRNGKey(0), (2048, 2048))
    a = m @ m.T
    # warm-up
    power_iteration(a, 10).block_until_ready()

    for iters in (10, 50):
        t0 = time.perf_counter()
        eig = power_iteration(a, iters)  # mark:C
        eig.block_until_ready()
        print(f"iters={iters}: {time.perf_counter() - t0:.4f}s  eig={float(eig):.2f}")
