import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def left(x):
    return jnp.cumsum(x, axis=0)


@jax.jit
def right(x):
    return jnp.sort(x, axis=1)


@jax.jit
def mid(x):
    return x @ x.T


def run(x):
    timings = []

    t = time.perf_counter()
    a, b, c = left(x), right(x), mid(x)
    jax.block_until_ready([a, b, c])
    timings.append(time.perf_counter() - t)

    t = time.perf_counter()
    a, b, c = left(x), right(x), mid(x)
    a.block_until_ready()
    b.block_until_ready()
    timings.append(time.perf_counter() - t)
    return timings


if __name__ == "__main__":
    x = jnp.asarray(np.random.default_rng(3).standard_normal((512, 512), dtype=np.float32))
    run(x)
    print(run(x))
