"""Compare a row-wise softmax in NumPy, JAX and PyTorch (CPU).

python compare_softmax_backends.py --rows 4096 --cols 1024 --repeat 50
"""
import argparse
import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
import torch


def softmax_np(x):
    e = np.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


@jax.jit
def softmax_jax(x):
    e = jnp.exp(x - x.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def softmax_torch(x):
    return torch.softmax(x, dim=-1)


def to_backend(name, x):
    if name == "numpy":
        return x
    if name == "jax":
        return jnp.asarray(x)
    return torch.from_numpy(x)


def wait(out):
    # JAX arrays are async; numpy and CPU torch are already done
    if hasattr(out, "block_until_ready"):
        out.block_until_ready()
    return out


def run_quick(x_np, repeat):
    """Quick table, one number per backend (used in the CI log)."""
    for name, fn in [("numpy", softmax_np), ("jax", softmax_jax), ("torch", softmax_torch)]:
        x = to_backend(name, x_np)
        fn(x)
        t0 = time.perf_counter()
        for _ in range(repeat):
            fn(x)
        per_call = (time.perf_counter() - t0) / repeat
        print(f"  {name:6s} {per_call * 1e6:9.1f} us/call")


def run_careful(x_np, repeat):
    results = {}
    for name, fn in [("numpy", softmax_np), ("jax", softmax_jax), ("torch", softmax_torch)]:
        x = to_backend(name, x_np)
        wait(fn(x))  # warm-up (jit compile for jax)
        samples = []
        for _ in range(repeat):
            t0 = time.perf_counter()
            wait(fn(x))
            samples.append(time.perf_counter() - t0)
        results[name] = samples
    return results


def check_agree(x_np):
    ref = softmax_np(x_np)
    np.testing.assert_allclose(np.asarray(softmax_jax(jnp.asarray(x_np))), ref, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(softmax_torch(torch.from_numpy(x_np)).numpy(), ref, rtol=1e-5, atol=1e-6)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--rows", type=int, default=4096)
    ap.add_argument("--cols", type=int, default=1024)
    ap.add_argument("--repeat", type=int, default=50)
    args = ap.parse_args()

    x_np = np.random.default_rng(0).standard_normal((args.rows, args.cols)).astype(np.float32)
    check_agree(x_np)
    print("quick:")
    run_quick(x_np, args.repeat)
    print("careful (median / stdev):")
    for name, samples in run_careful(x_np, args.repeat).items():
        med = statistics.median(samples)
        sd = statistics.pstdev(samples)
        print(f"  {name:6s} {med * 1e6:9.1f} us  +- {sd * 1e6:.1f}")


if __name__ == "__main__":
    main()
