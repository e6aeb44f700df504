"""2-D heat-equation stencil: time N explicit steps and read the field back.

python stencil_host_readback.py --grid 4096 --steps 100
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def heat_step(u, alpha):
    lap = (jnp.roll(u, 1, 0) + jnp.roll(u, -1, 0) + jnp.roll(u, 1, 1) + jnp.roll(u, -1, 1) - 4 * u)
    return u + alpha * lap


def run(u, steps, alpha):
    for _ in range(steps):
        u = heat_step(u, alpha)
    return u


def init_field(n):
    u = np.zeros((n, n), np.float32)
    u[n // 4: 3 * n // 4, n // 4: 3 * n // 4] = 1.0
    return jnp.asarray(u)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grid", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=100)
    ap.add_argument("--alpha", type=float, default=0.2)
    ap.add_argument("--probe-every", type=int, default=10)
    args = ap.parse_args()

    alpha = jnp.float32(args.alpha)
    u0 = init_field(args.grid)
    jax.block_until_ready(run(u0, 2, alpha))
    jnp.sum(u0).block_until_ready()
    int(jnp.sum(u0 > 0.5))

    # 1) copy the whole field back (this is what the plotting code needs anyway)
    t0 = time.perf_counter()
    u = run(u0, args.steps, alpha)
    field = np.asarray(u)
    t_copy = time.perf_counter() - t0
    print(f"{args.steps} steps + readback of {field.nbytes / 2**20:.0f} MiB: {t_copy * 1e3:.1f} ms")

    # 2) wait on a scalar only: total heat is conserved, a cheap sanity check
    t0 = time.perf_counter()
    u = run(u0, args.steps, alpha)
    total_heat = float(jnp.sum(u))
    t_scalar = time.perf_counter() - t0
    print(f"{args.steps} steps, scalar sync: {t_scalar * 1e3:.1f} ms (heat {total_heat:.1f})")

    # 3) probe the centre value every few steps into a NumPy trace
    n_probe = args.steps // args.probe_every
    trace = np.empty(n_probe, np.float32)
    c = args.grid // 2
    u = u0
    u[c, c].block_until_ready()
    t0 = time.perf_counter()
    for i in range(n_probe):
        u = run(u, args.probe_every, alpha)
        trace[i] = u[c, c]
    t_probe = time.perf_counter() - t0
    print(f"probed run: {t_probe * 1e3:.1f} ms, centre {trace[0]:.4f} -> {trace[-1]:.4f}")

    # 4) count cells above threshold
    t0 = time.perf_counter()
    u = run(u0, args.steps, alpha)
    hot = int(jnp.sum(u > 0.5))
    t_hot = time.perf_counter() - t0
    print(f"{hot} hot cells after {args.steps} steps ({t_hot * 1e3:.1f} ms)")


if __name__ == "__main__":
    main()
