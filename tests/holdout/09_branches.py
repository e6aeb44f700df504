import sys
import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def smooth(x):
    k = jnp.array([0.25, 0.5, 0.25])
    return jax.vmap(lambda row: jnp.convolve(row, k, mode="same"))(x) @ x.T


def timed(x, verbose=False, mode="fast"):
    results = {}

    t0 = time.perf_counter()
    y = smooth(x)
    if verbose:
        y.block_until_ready()
    t1 = time.perf_counter()
    results["maybe"] = t1 - t0

    t0 = time.perf_counter()
    if mode == "fast":
        y = smooth(x).block_until_ready()
    else:
        y = jax.block_until_ready(smooth(smooth(x)))
    t1 = time.perf_counter()
    results["branchy"] = t1 - t0

    t0 = time.perf_counter()
    y = smooth(x)
    if mode == "check" and not bool(jnp.isfinite(y).all()):
        print("non-finite!", file=sys.stderr)
    t1 = time.perf_counter()
    results["check"] = t1 - t0

    return results


def maybe_time(x, enabled):
    t0 = time.perf_counter()
    y = smooth(x)
    if not enabled:
        return y, None
    y.block_until_ready()
    return y, time.perf_counter() - t0


if __name__ == "__main__":
    x = jnp.asarray(np.random.default_rng(1).standard_normal((256, 256), dtype=np.float32))
    smooth(x).block_until_ready()
    print(timed(x))
    print(timed(x, verbose=True, mode="slow"))
    print(maybe_time(x, True)[1], maybe_time(x, False)[1])
