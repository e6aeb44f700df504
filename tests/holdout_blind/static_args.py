import time
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=1)
def avg_pool(x, window):
    return jax.lax.reduce_window(x, 0.0, jax.lax.add, (1, window, window, 1), (1, window, window, 1), "VALID") / (
        window * window
    )


@partial(jax.jit, static_argnames=("mode",))
def norm(x, scale, mode="train"):
    if mode == "train":
        mu, var = x.mean(0), x.var(0)
    else:
        mu, var = jnp.zeros(x.shape[1:]), jnp.ones(x.shape[1:])
    return scale * (x - mu) / jnp.sqrt(var + 1e-5)


MODES = ("train", "eval")


def pool_timings(x):
    avg_pool(x, 2).block_until_ready()

    t0 = time.perf_counter()
    y = avg_pool(x, 4).block_until_ready()
    t_pool4 = time.perf_counter() - t0

    avg_pool(x, 8).block_until_ready()
    t0 = time.perf_counter()
    y = avg_pool(x, 8).block_until_ready()
    t_pool8 = time.perf_counter() - t0
    return t_pool4, t_pool8


def norm_timings(x, scale):
    norm(x, scale, mode="train").block_until_ready()
    t0 = time.perf_counter()
    y = norm(x, scale, mode="eval")
    jax.block_until_ready(y)
    t_eval = time.perf_counter() - t0

    for m in MODES:
        norm(x, scale, mode=m).block_until_ready()
    res = {}
    for m in MODES:
        t0 = time.perf_counter()
        jax.block_until_ready(norm(x, scale, mode=m))
        res[m] = time.perf_counter() - t0
    return t_eval, res


if __name__ == "__main__":
    x = jnp.ones((32, 224, 224, 3))
    print(pool_timings(x))
    print(norm_timings(jnp.ones((4096, 512)), 1.0))
