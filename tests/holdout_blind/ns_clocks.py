import timeit
import time

import jax
import jax.numpy as jnp
import numpy as np

layer_norm = jax.jit(
    lambda x, g, b: g * (x - x.mean(-1, keepdims=True)) / jnp.sqrt(x.var(-1, keepdims=True) + 1e-5) + b
)


def bench(x, g, b, iters=100):
    layer_norm(x, g, b).block_until_ready()
    out = {}

    s = time.perf_counter_ns()
    for _ in range(iters):
        y = layer_norm(x, g, b)
    e = time.perf_counter_ns()
    out["perf_counter_ns"] = (e - s) / iters / 1e3

    s = time.monotonic_ns()
    for _ in range(iters):
        y = layer_norm(x, g, b)
    y.block_until_ready()
    e = time.monotonic_ns()
    out["monotonic_ns"] = (e - s) / iters / 1e3

    s = time.process_time()
    ys = [layer_norm(x, g, b) for _ in range(iters)]
    e = time.process_time()
    out["process_time"] = (e - s) / iters * 1e6

    clock = timeit.default_timer
    s = clock()
    for _ in range(iters):
        y = np.asarray(layer_norm(x, g, b))
    e = clock()
    out["default_timer"] = (e - s) / iters * 1e6
    return out


if __name__ == "__main__":
    x = jnp.ones((8192, 1024))
    print(bench(x, jnp.ones(1024), jnp.zeros(1024)))
