import time

import jax.numpy as jnp


def basel_partial_sum(n):
    k = jnp.arange(1, n + 1, dtype=jnp.float32)
    return jnp.sum(1.0 / (k * k))


if __name__ == "__main__":
    n = 10_000_000
    basel_partial_sum(n).block_until_ready()

    t0 = time.perf_counter()
    approx = float(basel_partial_sum(n))
    t1 = time.perf_counter()  # mark:A
    print(f"sum = {approx:.8f} (pi^2/6 = {jnp.pi ** 2 / 6:.8f}) in {t1 - t0:.4f}s")
