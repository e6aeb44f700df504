# NB: in this module `np` is jax.numpy, `onp` is classic numpy.
import time

import jax
import jax.numpy as np
import numpy as onp


def build(n):
    return np.linspace(0.0, 1.0, n * n).reshape(n, n)


def bench():
    grid = build(384)
    grid.block_until_ready()

    t_begin = time.time()
    out = np.cos(grid) @ np.sin(grid).T
    host = np.asarray(out)
    t_end = time.time()
    print("jnp.asarray path", t_end - t_begin, host.shape)

    t_begin = time.time()
    out = np.cos(grid) @ np.sin(grid).T
    host = onp.asarray(out)
    t_end = time.time()
    print("onp.asarray path", t_end - t_begin, host.dtype)

    t_begin = time.time()
    g2 = build(256)
    t_end = time.time()
    print("build", t_end - t_begin, g2.shape)

    ref = onp.random.rand(300, 300)
    t_begin = time.time()
    inv = onp.linalg.inv(ref)
    t_end = time.time()
    print("numpy inv", t_end - t_begin, inv.shape)


if __name__ == "__main__":
    bench()
