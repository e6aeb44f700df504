"""Separable Gaussian blur on a large image: host->device, compute, device->host.

python image_filter_transfer.py --size 4096 --sigma 3.0 --reps 5
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


def gaussian_kernel(sigma):
    r = int(3 * sigma)
    k = np.exp(-0.5 * (np.arange(-r, r + 1) / sigma) ** 2)
    return (k / k.sum()).astype(np.float32)


@jax.jit
def blur(img, k):
    conv_rows = jax.vmap(lambda row: jnp.convolve(row, k, mode="same"))
    tmp = conv_rows(img)
    return conv_rows(tmp.T).T


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", type=int, default=4096)
    ap.add_argument("--sigma", type=float, default=3.0)
    ap.add_argument("--reps", type=int, default=5)
    args = ap.parse_args()

    host_img = np.random.default_rng(0).random((args.size, args.size), dtype=np.float32)
    k = jnp.asarray(gaussian_kernel(args.sigma))
    print(f"image {args.size}x{args.size} ({host_img.nbytes / 2**20:.0f} MiB)")

    t0 = time.perf_counter()
    img = jax.device_put(host_img)
    t_h2d = time.perf_counter() - t0
    print(f"host->device: {t_h2d * 1e3:.2f} ms")

    blur(img, k).block_until_ready()

    t0 = time.perf_counter()
    out = blur(img, k)
    print("output", out.shape, out.dtype)
    t_shape = time.perf_counter() - t0

    t0 = time.perf_counter()
    out_host = jax.device_get(blur(img, k))
    t_get = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = blur(img, k)
    out.block_until_ready()
    t_compute = time.perf_counter() - t0
    t0 = time.perf_counter()
    out_host = np.asarray(out)
    t_d2h = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = blur(img, k)
    out.copy_to_host_async()
    t_async = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = jnp.asarray(blur(img, k))
    t_jnp = time.perf_counter() - t0

    print(f"print(shape) after blur:  {t_shape * 1e3:8.2f} ms")
    print(f"blur + device_get:        {t_get * 1e3:8.2f} ms")
    print(f"blur (blocked):           {t_compute * 1e3:8.2f} ms")
    print(f"device->host of result:   {t_d2h * 1e3:8.2f} ms")
    print(f"blur + copy_to_host_async:{t_async * 1e3:8.2f} ms")
    print(f"jnp.asarray(blur(...)):   {t_jnp * 1e3:8.2f} ms")
    print("checksum", float(out_host.mean()), float(out.mean()))


if __name__ == "__main__":
    main()
