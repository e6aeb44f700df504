import time

import jax
import jax.numpy as jnp


@jax.jit
def nbody_step(pos, vel, dt=1e-3):
    diff = pos[None, :, :] - pos[:, None, :]
    dist3 = (jnp.sum(diff ** 2, -1) + 1e-3) ** 1.5
    acc = jnp.sum(diff / dist3[..., None], axis=1)
    vel = vel + dt * acc
    return pos + dt * vel, vel


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    pos = jax.random.normal(key, (2048, 3))
    vel = jnp.zeros_like(pos)
    pos, vel = nbody_step(pos, vel)
    pos.block_until_ready()
    vel.block_until_ready()

    start = time.perf_counter()
    for _ in range(100):
        pos, vel = nbody_step(pos, vel)
    stop = time.perf_counter()  # mark:A
    print(f"{100 / (stop - start):.1f} steps/s")
    print(pos.mean(0))
