import functools
import time

import jax
import jax.numpy as jnp


def timeit_ms(fn):
    """Decorator: report wall time of each call, waiting for device results."""
    @functools.wraps(fn)
    def inner(*args):
        t0 = time.perf_counter()
        result = fn(*args)
        jax.block_until_ready(result)
        dt = (time.perf_counter() - t0) * 1000  # mark:A
        inner.history.append(dt)
        return result
    inner.history = []
    return inner


@jax.jit
def attention(q, k, v):
    scores = q @ k.T / jnp.sqrt(q.shape[-1])
    return jax.nn.softmax(scores, axis=-1) @ v


def main():
    key = jax.random.PRNGKey(1)
    kq, kk, kv = jax.random.split(key, 3)
    q = jax.random.normal(kq, (1024, 64))
    k = jax.random.normal(kk, (1024, 64))
    v = jax.random.normal(kv, (1024, 64))
    attention(q, k, v).block_until_ready()
    timed_attn = timeit_ms(attention)
    for _ in range(10):
        timed_attn(q, k, v)
    print("mean ms:", sum(timed_attn.history) / len(timed_attn.history))


if __name__ == "__main__":
    main()
