"""Sweep batch size for a conv-free ResMLP block and write a CSV of ms/step.

python sweep_batch_sizes.py --batches 8 16 32 64 128 --iters 30 --out sweep.csv
"""
import argparse
import csv
import time

import jax
import jax.numpy as jnp
import numpy as np


def init_block(key, d, expansion=4):
    k1, k2 = jax.random.split(key)
    return {
        "w_in": jax.random.normal(k1, (d, d * expansion)) / np.sqrt(d),
        "w_out": jax.random.normal(k2, (d * expansion, d)) / np.sqrt(d * expansion),
        "scale": jnp.ones(d),
    }


def block(p, x):
    h = x * p["scale"]
    h = jax.nn.gelu(h @ p["w_in"]) @ p["w_out"]
    return x + h


@jax.jit
def forward(params, x):
    for p in params:
        x = block(p, x)
    return x.mean()


def sweep_dropping_first(params, d, batches, iters):
    rows = []
    for bs in batches:
        x = jnp.ones((bs, 196, d))
        times = []
        for _ in range(iters + 1):
            t0 = time.perf_counter()
            forward(params, x).block_until_ready()
            times.append(time.perf_counter() - t0)
        rows.append((bs, 1e3 * float(np.mean(times[1:])), 1e3 * times[0]))
    return rows


def sweep_naive(params, d, batches, iters):
    rows = []
    for bs in batches:
        x = jnp.ones((bs, 196, d))
        t0 = time.perf_counter()
        for _ in range(iters):
            out = forward(params, x)
        out.block_until_ready()
        rows.append((bs, 1e3 * (time.perf_counter() - t0) / iters, float("nan")))
    return rows


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, nargs="+", default=[8, 16, 32, 64, 128])
    ap.add_argument("--d", type=int, default=384)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--iters", type=int, default=30)
    ap.add_argument("--out", default=None)
    ap.add_argument("--naive", action="store_true")
    args = ap.parse_args()

    keys = jax.random.split(jax.random.PRNGKey(0), args.depth)
    params = [init_block(k, args.d) for k in keys]
    if args.naive:
        jax.clear_caches()
        rows = sweep_naive(params, args.d, args.batches, args.iters)
    else:
        rows = sweep_dropping_first(params, args.d, args.batches, args.iters)
    print(f"{'batch':>6} {'ms/step':>9} {'first ms':>9}")
    for bs, ms, first in rows:
        print(f"{bs:>6} {ms:>9.3f} {first:>9.1f}")
    if args.out:
        with open(args.out, "w", newline="") as f:
            w = csv.writer(f)
            w.writerow(["batch", "ms_per_step", "first_call_ms"])
            w.writerows(rows)


if __name__ == "__main__":
    main()
