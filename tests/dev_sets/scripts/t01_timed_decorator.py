"""Quick benchmark of a jitted MLP forward pass using a small timing decorator."""
import functools
import time

import jax
import jax.numpy as jnp


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        out = fn(*args, **kwargs)
        elapsed = time.perf_counter() - start  # mark:A
        print(f"{fn.__name__}: {elapsed * 1e3:.3f} ms")
        return out
    return wrapper


def mlp(params, x):
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def init(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [(jax.random.normal(k, (m, n)) * 0.02, jnp.zeros(n))
            for k, m, n in zip(keys, sizes[:-1], sizes[1:])]


if __name__ == "__main__":
    params = init(jax.random.PRNGKey(0), [512, 1024, 1024, 10])
    x = jnp.ones((256, 512))
    forward = jax.jit(mlp)
    forward(params, x).block_until_ready()  # compile once
    timed_forward = timed(forward)
    for _ in range(5):
        logits = timed_forward(params, x)
    print(logits.shape)
