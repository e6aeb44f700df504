"""Micro-benchmarks for the MLP in models.py."""
import time

import jax

from .models import forward, init_mlp, train_step


def batch(key, n):
    kx, ky = jax.random.split(key)
    x = jax.random.normal(kx, (n, 784))
    labels = jax.random.randint(ky, (n,), 0, 10)
    return x, labels


def bench_forward(params, x, iters=100):
    forward(params, x).block_until_ready()  # warm-up
    start = time.perf_counter()
    for _ in range(iters):
        logits = forward(params, x)
    logits.block_until_ready()
    end = time.perf_counter()  # mark
    return (end - start) / iters


def bench_forward_wait_params(params, x, iters=100):
    forward(params, x).block_until_ready()
    start = time.perf_counter()
    for _ in range(iters):
        logits = forward(params, x)
    jax.block_until_ready(params)
    end = time.perf_counter()  # mark
    return (end - start) / iters, logits


def bench_train_cold(params, x, labels):
    start = time.perf_counter()
    params, loss = train_step(params, x, labels, 0)  # mark
    jax.block_until_ready((params, loss))
    return time.perf_counter() - start


def bench_train_warm(params, x, labels, steps=50):
    params, loss = train_step(params, x, labels, 0)
    jax.block_until_ready(params)
    start = time.perf_counter()
    for i in range(steps):
        params, loss = train_step(params, x, labels, i)
    jax.block_until_ready((params, loss))
    stop = time.perf_counter()  # mark
    return (stop - start) / steps


def bench_schedules(params, x, labels):
    params, loss = train_step(params, x, labels, 0, schedule="constant")
    jax.block_until_ready(params)
    results = {}
    start = time.perf_counter()
    params, loss = train_step(params, x, labels, 1, schedule="cosine")  # mark
    jax.block_until_ready(params)
    results["cosine"] = time.perf_counter() - start
    return results


def bench_batch_sizes(params, key, sizes=(32, 64, 128, 256)):
    timings = {}
    for n in sizes:
        x, _ = batch(key, n)
        forward(params, x).block_until_ready()
        t0 = time.perf_counter()
        out = forward(params, x)
        out.block_until_ready()
        timings[n] = time.perf_counter() - t0  # mark
    return timings


def bench_eval_big(params, key):
    x_small, _ = batch(key, 128)
    forward(params, x_small).block_until_ready()
    x_big, _ = batch(key, 4096)
    t0 = time.perf_counter()
    logits = forward(params, x_big)  # mark
    logits.block_until_ready()
    return time.perf_counter() - t0


def main():
    key = jax.random.PRNGKey(42)
    params = init_mlp(key)
    x, labels = batch(key, 256)
    print("forward", bench_forward(params, x))
    print("forward/params", bench_forward_wait_params(params, x)[0])
    print("train cold", bench_train_cold(params, x, labels))
    print("train warm", bench_train_warm(params, x, labels))
    print("schedules", bench_schedules(params, x, labels))
    print("sizes", bench_batch_sizes(params, key))
    print("eval big", bench_eval_big(params, key))


if __name__ == "__main__":
    main()
