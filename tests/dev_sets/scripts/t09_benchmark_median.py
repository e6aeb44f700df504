import statistics
import time

import jax
import jax.numpy as jnp


def benchmark(fn, *args, warmup=3, iters=25):
    for _ in range(warmup):
        jax.block_until_ready(fn(*args))
    times = []
    for _ in range(iters):
        t0 = time.perf_counter()
        out = fn(*args)
        jax.block_until_ready(out)
        times.append(time.perf_counter() - t0)  # mark:A
    return statistics.median(times)


@jax.jit
def gram(x):
    return x @ x.T


@jax.jit
def svd_vals(x):
    return jnp.linalg.svd(x, compute_uv=False)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.PRNGKey(0), (1024, 1024))
    for name, fn in [("gram", gram), ("svd", svd_vals)]:
        med = benchmark(fn, x)
        print(f"{name:>6}: median {med * 1e3:.3f} ms")
