import time

import jax
import jax.numpy as jnp


@jax.jit
def diffuse(u, alpha=0.1):
    lap = jnp.roll(u, 1, 0) + jnp.roll(u, -1, 0) + jnp.roll(u, 1, 1) + jnp.roll(u, -1, 1) - 4 * u
    return u + alpha * lap


def main(n=4096, steps=100):
    u = jnp.zeros((n, n)).at[n // 2, n // 2].set(1.0)
    u_prev = diffuse(u)
    u_prev.block_until_ready()

    t0 = time.perf_counter()
    u_next = diffuse(u_prev)
    u_prev.block_until_ready()
    t_one = time.perf_counter() - t0

    u = u_next
    t0 = time.perf_counter()
    for _ in range(steps):
        u = diffuse(u)
    u.block_until_ready()
    t_many = (time.perf_counter() - t0) / steps

    hist = [u]
    t0 = time.perf_counter()
    for _ in range(steps):
        hist.append(diffuse(hist[-1]))
    hist[0].block_until_ready()
    t_hist = (time.perf_counter() - t0) / steps
    print(t_one, t_many, t_hist)


if __name__ == "__main__":
    main()
