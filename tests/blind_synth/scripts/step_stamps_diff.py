"""Record a timestamp after every optimizer step and plot the per-step durations.

python step_stamps_diff.py --steps 100 --dim 2048
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def power_iter_step(a, v):
    w = a @ v
    return w / jnp.linalg.norm(w)


def summarize(name, stamps, skip=0):
    d = np.diff(np.asarray(stamps))[skip:] * 1e3
    print(f"{name:22s} mean {d.mean():7.3f} ms  p50 {np.median(d):7.3f}  max {d.max():7.3f}  (n={d.size})")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--dim", type=int, default=2048)
    args = ap.parse_args()

    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (args.dim, args.dim))
    a = a @ a.T
    v0 = jnp.ones(args.dim) / np.sqrt(args.dim)

    # run 1: cold, first stamp-to-stamp interval contains the compile; dropped by skip=1
    v = v0
    stamps = [time.perf_counter()]
    for _ in range(args.steps):
        v = power_iter_step(a, v)
        v.block_until_ready()
        stamps.append(time.perf_counter())
    summarize("synced (skip first)", stamps, skip=1)

    # run 2: warm, no sync, just stamps
    v = v0
    stamps = [time.perf_counter()]
    for _ in range(args.steps):
        v = power_iter_step(a, v)
        stamps.append(time.perf_counter())
    v.block_until_ready()
    summarize("async stamps", stamps)

    # run 3: warm, sync through a Rayleigh-quotient scalar each step
    v = v0
    lam = [float(v0 @ (a @ v0))]
    stamps = [time.perf_counter()]
    for _ in range(args.steps):
        v = power_iter_step(a, v)
        lam.append(float(v @ (a @ v)))
        stamps.append(time.perf_counter())
    summarize("synced via float()", stamps)
    print(f"top eigenvalue estimate {lam[-1]:.2f}")


if __name__ == "__main__":
    main()
