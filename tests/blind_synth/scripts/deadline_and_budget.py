"""Run a jitted simulated-annealing search for a fixed wall-clock budget.

python deadline_and_budget.py --budget 2.0 --chains 256
"""
import argparse
import os
import tempfile
import time

import jax
import jax.numpy as jnp


def energy(x):
    # Rastrigin in 16-D
    return 10 * x.shape[-1] + jnp.sum(x ** 2 - 10 * jnp.cos(2 * jnp.pi * x), axis=-1)


@jax.jit
def anneal_block(key, x, temp):
    def body(carry, k):
        x, e = carry
        prop = x + 0.1 * jax.random.normal(k, x.shape)
        e_new = energy(prop)
        accept = jax.random.uniform(k, e.shape) < jnp.exp((e - e_new) / temp)
        x = jnp.where(accept[:, None], prop, x)
        return (x, jnp.where(accept, e_new, e)), None

    (x, e), _ = jax.lax.scan(body, (x, energy(x)), jax.random.split(key, 100))
    return x, e


def wait_for_file(path, timeout):
    t0 = time.monotonic()
    while not os.path.exists(path):
        if time.monotonic() - t0 > timeout:
            raise TimeoutError(path)
        time.sleep(0.01)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--budget", type=float, default=2.0, help="seconds")
    ap.add_argument("--chains", type=int, default=256)
    ap.add_argument("--dim", type=int, default=16)
    args = ap.parse_args()

    key = jax.random.PRNGKey(0)
    x = jax.random.uniform(key, (args.chains, args.dim), minval=-5, maxval=5)
    jax.block_until_ready(anneal_block(key, x, 1.0))

    # budget-limited search; every block reports its best energy to the host
    best, blocks, temp = float("inf"), 0, 1.0
    t0 = time.time()
    while time.time() - t0 < args.budget:
        key, sub = jax.random.split(key)
        x, e = anneal_block(sub, x, temp)
        best = min(best, float(e.min()))
        temp = max(0.05, temp * 0.97)
        blocks += 1
    print(f"synced search: {blocks} blocks in {args.budget}s, best energy {best:.3f}")

    # "fast" variant: no host read per block, report blocks/s at the end
    blocks = 0
    t0 = time.time()
    while time.time() - t0 < args.budget:
        key, sub = jax.random.split(key)
        x, e = anneal_block(sub, x, temp)
        blocks += 1
    rate = blocks / (time.time() - t0)
    print(f"unsynced search: {rate:.1f} blocks/s, best energy {float(e.min()):.3f}")

    with tempfile.TemporaryDirectory() as d:
        marker = os.path.join(d, "done")
        open(marker, "w").close()
        wait_for_file(marker, timeout=5.0)
    print("marker seen")


if __name__ == "__main__":
    main()
