"""Microbenchmarks for layers whose behaviour is switched by static args."""
import time
from functools import partial

import jax
import jax.numpy as jnp


class Dropout:
    def __init__(self, rate):
        self.rate = rate
        self.apply = jax.jit(self._apply, static_argnames=("deterministic",))

    def _apply(self, x, key, deterministic=False):
        if deterministic:
            return x
        keep = jax.random.bernoulli(key, 1.0 - self.rate, x.shape)
        return jnp.where(keep, x / (1.0 - self.rate), 0.0)


@partial(jax.jit, static_argnums=(1,))
def topk_mean(x, k):
    return jax.lax.top_k(x, k)[0].mean(-1)


def bench_dropout(x, key):
    layer = Dropout(0.1)
    layer.apply(x, key, deterministic=False).block_until_ready()

    t0 = time.perf_counter()
    y = layer.apply(x, key, deterministic=False)
    y.block_until_ready()
    train_ms = (time.perf_counter() - t0) * 1e3

    t0 = time.perf_counter()
    y = layer.apply(x, key, deterministic=True)
    y.block_until_ready()
    eval_ms = (time.perf_counter() - t0) * 1e3
    return train_ms, eval_ms


def bench_topk(x, ks=(1, 8, 32)):
    for k in ks:
        topk_mean(x, k).block_until_ready()
    out = {}
    for k in ks:
        t0 = time.perf_counter()
        topk_mean(x, k).block_until_ready()
        out[k] = time.perf_counter() - t0
    return out


def bench_topk_sweep(x):
    topk_mean(x, 8).block_until_ready()
    res = []
    for k in (8, 16):
        t0 = time.perf_counter()
        v = topk_mean(x, k).block_until_ready()
        res.append((k, time.perf_counter() - t0))
    return res


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (4096, 4096))
    print(bench_dropout(x, key), bench_topk(x), bench_topk_sweep(x))
