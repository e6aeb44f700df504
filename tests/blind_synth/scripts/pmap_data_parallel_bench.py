"""Data-parallel step time with pmap across the local devices.

Run on CPU with several fake devices:
  XLA_FLAGS=--xla_force_host_platform_device_count=4 python pmap_data_parallel_bench.py
"""
import argparse
import functools
import time
import timeit

import jax
import jax.numpy as jnp
import numpy as np


def loss_fn(w, x, y):
    return jnp.mean((x @ w - y) ** 2)


@functools.partial(jax.pmap, axis_name="d")
def dp_step(w, x, y):
    loss, g = jax.value_and_grad(loss_fn)(w, x, y)
    g = jax.lax.pmean(g, "d")
    return w - 0.01 * g, jax.lax.pmean(loss, "d")


def shard(a, n):
    return a.reshape(n, a.shape[0] // n, *a.shape[1:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--dim", type=int, default=512)
    ap.add_argument("--steps", type=int, default=20)
    args = ap.parse_args()

    n = jax.local_device_count()
    rng = np.random.default_rng(0)
    x = shard(rng.standard_normal((args.batch, args.dim)).astype(np.float32), n)
    y = shard(rng.standard_normal((args.batch, 1)).astype(np.float32), n)
    w = jnp.zeros((n, args.dim, 1))  # one replica per device
    print(f"{n} device(s): {jax.local_devices()}")

    times = []
    for i in range(args.steps):
        t0 = time.perf_counter()
        w, loss = dp_step(w, x, y)
        loss.block_until_ready()
        times.append(time.perf_counter() - t0)
    print(f"pmap step: mean {1e3 * np.mean(times):.3f} ms over {args.steps} steps, loss {float(loss[0]):.4f}")

    xd, yd = jax.pmap(lambda a, b: (a, b))(x, y)  # place the shards on their devices once
    dp_step(w, xd, yd)[1].block_until_ready()
    t = timeit.repeat(lambda: dp_step(w, xd, yd), number=args.steps, repeat=3)
    print(f"pmap step (pre-sharded inputs): {1e3 * min(t) / args.steps:.3f} ms")

    t = timeit.repeat(lambda: jax.block_until_ready(dp_step(w, xd, yd)), number=args.steps, repeat=3)
    print(f"pmap step (pre-sharded, blocked): {1e3 * min(t) / args.steps:.3f} ms")


if __name__ == "__main__":
    main()
