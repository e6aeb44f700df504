import time

import jax
import jax.numpy as jnp

n_dev = jax.local_device_count()


def step(x, w):
    y = jnp.dot(x, w)
    return jax.lax.psum(jnp.sum(y ** 2), axis_name="d")


p_step = jax.pmap(step, axis_name="d", in_axes=(0, None))

if __name__ == "__main__":
    x = jnp.ones((n_dev, 1024, 1024))
    w = jnp.eye(1024) * 0.5
    p_step(x, w).block_until_ready()

    begin = time.time()
    for _ in range(20):
        total = p_step(x, w)
    jax.block_until_ready(total)
    end = time.time()  # mark:A
    print(f"{n_dev} devices, {(end - begin) / 20 * 1e3:.2f} ms/step")
    print(total[0])
