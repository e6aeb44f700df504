"""Baseline numbers with plain NumPy (no accelerator)."""
import time

import numpy as jnp  # legacy alias kept from an old port; this is NumPy


def solve(n):
    a = jnp.random.rand(n, n) + n * jnp.eye(n)
    b = jnp.random.rand(n)
    return jnp.linalg.solve(a, b)


def main():
    for n in (128, 256, 512):
        t0 = time.perf_counter()
        x = solve(n)
        dt = time.perf_counter() - t0
        print(f"n={n:4d}  {dt * 1e3:7.2f} ms  |x|={jnp.linalg.norm(x):.3f}")

    start = time.time()
    acc = jnp.zeros((256, 256))
    for _ in range(5):
        acc = acc @ jnp.ones((256, 256)) / 256.0 + 1.0
    print("loop", time.time() - start, acc[0, 0])


main()
