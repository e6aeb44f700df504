#!/usr/bin/env python
"""Matrix-multiply throughput: JAX (jit) against NumPy on the same sizes.

Usage: python bench_matmul.py --sizes 512 1024 2048 --iters 20
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


def gflops(n, seconds):
    return 2.0 * n ** 3 / seconds / 1e9


@jax.jit
def matmul(a, b):
    return a @ b


def make_inputs(n, seed=0):
    key = jax.random.PRNGKey(seed)
    ka, kb = jax.random.split(key)
    a = jax.random.normal(ka, (n, n), dtype=jnp.float32)
    b = jax.random.normal(kb, (n, n), dtype=jnp.float32)
    return a, b


def bench_jax(n, iters):
    a, b = make_inputs(n)
    matmul(a, b).block_until_ready()  # compile + warm-up
    t0 = time.perf_counter()
    for _ in range(iters):
        c = matmul(a, b)
    c.block_until_ready()
    dt = (time.perf_counter() - t0) / iters
    return dt


def bench_jax_naive(n, iters):
    """What the first version of this script did (kept for the README plot)."""
    a, b = make_inputs(n)
    matmul(a, b).block_until_ready()
    times = []
    for _ in range(iters):
        start = time.perf_counter()
        c = matmul(a, b)
        times.append(time.perf_counter() - start)
    return float(np.median(times))


def bench_numpy(n, iters):
    rng = np.random.default_rng(0)
    a = rng.standard_normal((n, n), dtype=np.float32)
    b = rng.standard_normal((n, n), dtype=np.float32)
    a @ b
    t0 = time.perf_counter()
    for _ in range(iters):
        c = a @ b
    dt = (time.perf_counter() - t0) / iters
    return dt


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--sizes", type=int, nargs="+", default=[512, 1024, 2048, 4096])
    p.add_argument("--iters", type=int, default=20)
    p.add_argument("--naive", action="store_true", help="also run the old per-call timing")
    args = p.parse_args()

    print(f"backend: {jax.default_backend()}  devices: {jax.devices()}")
    print(f"{'n':>6} {'jax ms':>10} {'jax GF/s':>10} {'numpy ms':>10} {'numpy GF/s':>11}")
    for n in args.sizes:
        tj = bench_jax(n, args.iters)
        tn = bench_numpy(n, args.iters)
        print(f"{n:>6} {tj * 1e3:>10.3f} {gflops(n, tj):>10.1f} {tn * 1e3:>10.3f} {gflops(n, tn):>11.1f}")
        if args.naive:
            tnaive = bench_jax_naive(n, args.iters)
            print(f"{'':>6} naive per-call median: {tnaive * 1e3:.3f} ms")


if __name__ == "__main__":
    main()
