import argparse
import time

import jax
import jax.numpy as jnp


@jax.jit
def heat_step(u, alpha=0.1):
    lap = (jnp.roll(u, 1, 0) + jnp.roll(u, -1, 0) +
           jnp.roll(u, 1, 1) + jnp.roll(u, -1, 1) - 4 * u)
    return u + alpha * lap


def simulate(u, steps, verbose=False):
    heat_step(u).block_until_ready()
    t0 = time.perf_counter()
    for i in range(steps):
        u = heat_step(u)
        if verbose and i == steps - 1:
            u.block_until_ready()
    elapsed = time.perf_counter() - t0  # mark:A
    return u, elapsed


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    u0 = jnp.zeros((1024, 1024)).at[512, 512].set(100.0)
    u, secs = simulate(u0, 200, verbose=args.verbose)
    print(f"200 steps: {secs:.3f}s")
