import time

import jax
import jax.numpy as jnp


@jax.jit
def gram(x):
    return x.T @ x


@jax.jit
def whiten(x):
    c = x.T @ x / x.shape[0]
    evals, evecs = jnp.linalg.eigh(c + 1e-3 * jnp.eye(c.shape[0]))
    return x @ evecs / jnp.sqrt(evals)


def bench_gram(x, iters=20):
    for _ in range(3):
        gram(x).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(iters):
        g = gram(x)
    g.block_until_ready()
    return (time.perf_counter() - t0) / iters


def bench_whiten(x_a, x_b):
    for xx in [x_a, x_b]:
        whiten(xx).block_until_ready()
    t0 = time.perf_counter()
    w = whiten(x_b)
    jax.block_until_ready(w)
    return time.perf_counter() - t0


def bench_whiten_async(x, iters=10):
    for _ in range(2):
        whiten(x).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(iters):
        w = whiten(x)
    return (time.perf_counter() - t0) / iters


def bench_gram_big():
    small = jnp.ones((8, 128))
    big = jnp.ones((65536, 128))
    gram(small).block_until_ready()  # warm-up
    t0 = time.perf_counter()
    g = gram(big).block_until_ready()
    return time.perf_counter() - t0


if __name__ == "__main__":
    xa = jax.random.normal(jax.random.PRNGKey(0), (16384, 256))
    xb = jax.random.normal(jax.random.PRNGKey(1), (16384, 256))
    print(bench_gram(xa), bench_whiten(xa, xb), bench_whiten_async(xa), bench_gram_big())
