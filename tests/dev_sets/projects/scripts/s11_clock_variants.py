"""Image-filter benchmark using several different clocks."""
import time
from datetime import datetime

import jax
import jax.numpy as jnp


@jax.jit
def blur(img):
    k = jnp.outer(jnp.hanning(9), jnp.hanning(9))
    k = (k / k.sum())[:, :, None, None]
    x = img[None, :, :, None]
    out = jax.lax.conv_general_dilated(x, k, (1, 1), "SAME",
                                       dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return out[0, :, :, 0]


@jax.jit
def edges(img):
    gx = img[1:, :-1] - img[:-1, :-1]
    gy = img[:-1, 1:] - img[:-1, :-1]
    return jnp.sqrt(gx ** 2 + gy ** 2)


def bench_datetime(img):
    blurred = blur(img)
    blurred.block_until_ready()
    start = datetime.now()
    sharp = edges(blurred)
    blurred.block_until_ready()
    end = datetime.now()  # mark
    return (end - start).total_seconds(), sharp


def bench_monotonic_ns(img, n=50):
    jax.block_until_ready(edges(blur(img)))
    t0 = time.monotonic_ns()
    for _ in range(n):
        out = edges(blur(img))
    out.block_until_ready()
    t1 = time.monotonic_ns()  # mark
    return (t1 - t0) / n / 1e6


def bench_time_ns(img):
    edges(img).block_until_ready()
    t0 = time.time_ns()
    e = edges(img)
    rows = e[:4, :4].tolist()
    t1 = time.time_ns()  # mark
    return (t1 - t0) / 1e6, rows


def bench_pipeline_print(img):
    jax.block_until_ready(edges(blur(img)))
    t0 = time.perf_counter()
    e = edges(blur(img))
    print("edge energy:", e.sum())
    t1 = time.perf_counter()  # mark
    return t1 - t0


def bench_chain_sync_last(img, n=20):
    jax.block_until_ready(blur(img))
    t0 = time.perf_counter()
    outs = []
    y = img
    for _ in range(n):
        y = blur(y)
        outs.append(y)
    jax.block_until_ready(outs[0])
    t1 = time.perf_counter()  # mark
    return (t1 - t0) / n, outs


if __name__ == "__main__":
    image = jax.random.uniform(jax.random.PRNGKey(0), (2048, 2048))
    print(bench_datetime(image)[0])
    print(bench_monotonic_ns(image))
    print(bench_time_ns(image)[0])
    print(bench_pipeline_print(image))
    print(bench_chain_sync_last(image)[0])
