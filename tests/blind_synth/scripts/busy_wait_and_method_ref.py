"""Polling-based latency probe for a jitted FFT filter.

Some of our runtime code polls is_ready() instead of blocking (to keep a UI thread
responsive); this script checks that polling gives the same numbers as blocking.

python busy_wait_and_method_ref.py --n 1048576 --iters 20
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def lowpass(x, cutoff):
    X = jnp.fft.rfft(x)
    freqs = jnp.arange(X.shape[0])
    X = jnp.where(freqs < cutoff, X, 0)
    return jnp.fft.irfft(X, n=x.shape[0])


def poll_until_ready(arr, sleep_s=0.0):
    n_polls = 0
    while not arr.is_ready():
        n_polls += 1
        if sleep_s:
            time.sleep(sleep_s)
    return n_polls


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=1 << 20)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--cutoff", type=int, default=2000)
    args = ap.parse_args()

    x = jax.random.normal(jax.random.PRNGKey(0), (args.n,))
    lowpass(x, args.cutoff).block_until_ready()

    polled, polls = [], []
    for _ in range(args.iters):
        t0 = time.perf_counter()
        y = lowpass(x, args.cutoff)
        polls.append(poll_until_ready(y))
        polled.append(time.perf_counter() - t0)

    blocked = []
    for _ in range(args.iters):
        t0 = time.perf_counter()
        y = lowpass(x, args.cutoff)
        y.block_until_ready
        blocked.append(time.perf_counter() - t0)

    blocked2 = []
    for _ in range(args.iters):
        t0 = time.perf_counter()
        y = jax.block_until_ready(lowpass(x, args.cutoff))
        blocked2.append(time.perf_counter() - t0)

    wrong = []
    for _ in range(args.iters):
        t0 = time.perf_counter()
        y = lowpass(x, args.cutoff)
        x.block_until_ready()
        wrong.append(time.perf_counter() - t0)

    print(f"polling : {np.median(polled) * 1e3:8.3f} ms  (median {np.median(polls):.0f} polls)")
    print(f"blocking: {np.median(blocked) * 1e3:8.3f} ms")
    print(f"blocking (jax.block_until_ready): {np.median(blocked2) * 1e3:8.3f} ms")
    print(f"blocking on the input: {np.median(wrong) * 1e3:8.3f} ms")


if __name__ == "__main__":
    main()
