from collections import defaultdict
import time

import jax
import jax.numpy as jnp

TIMINGS = defaultdict(list)


def timer(label, sync=None):
    def deco(fn):
        def inner(*a, **kw):
            start = time.monotonic()
            out = fn(*a, **kw)
            if sync is not None:
                sync(out)
            TIMINGS[label].append(time.monotonic() - start)
            return out

        return inner

    return deco


@jax.jit
def _attn(q, k, v):
    s = jnp.einsum("bqd,bkd->bqk", q, k) / jnp.sqrt(q.shape[-1])
    return jnp.einsum("bqk,bkd->bqd", jax.nn.softmax(s, axis=-1), v)


@timer("attention", sync=jax.block_until_ready)
def attention(q, k, v):
    return _attn(q, k, v)


@timer("attention_nosync")
def attention_async(q, k, v):
    return _attn(q, k, v)


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    q = k = v = jax.random.normal(key, (16, 1024, 64))
    _attn(q, k, v).block_until_ready()
    for _ in range(10):
        attention(q, k, v)
        attention_async(q, k, v)
    for name, ts in TIMINGS.items():
        print(name, min(ts))
