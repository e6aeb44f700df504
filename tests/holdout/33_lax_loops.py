import time

import jax
from jax import lax
import jax.numpy as jnp
import numpy as np


def logistic_map(r, x0, n):
    def body(i, x):
        return r * x * (1.0 - x)
    return lax.fori_loop(0, n, body, x0)


def running_max(xs):
    def step(carry, x):
        m = jnp.maximum(carry, x)
        return m, m
    return lax.scan(step, xs[0], xs)[1]


if __name__ == "__main__":
    rs = jnp.linspace(2.5, 4.0, 100_000)
    x0 = jnp.full_like(rs, 0.5)
    lm = jax.jit(logistic_map, static_argnums=2)
    lm(rs, x0, 200).block_until_ready()

    t_a = time.monotonic()
    xs = lm(rs, x0, 200)
    t_b = time.monotonic()
    print("fori (unsynced)", t_b - t_a)

    t_a = time.monotonic()
    xs = lm(rs, x0, 200)
    print(xs)
    t_b = time.monotonic()
    print("fori (printed)", t_b - t_a)

    seq = jnp.asarray(np.random.default_rng(1).standard_normal((20_000, 8), dtype=np.float32))
    t_a = time.monotonic()
    rm = running_max(seq)
    t_b = time.monotonic()
    print("scan", t_b - t_a, rm.shape)
