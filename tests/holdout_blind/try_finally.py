import time

import jax
import jax.numpy as jnp

_LOG = []


def timed_call(fn, *args, **kwargs):
    t0 = time.perf_counter()
    try:
        return fn(*args, **kwargs)
    finally:
        elapsed = time.perf_counter() - t0
        _LOG.append((getattr(fn, "__name__", repr(fn)), elapsed))


def timed_call_blocking(fn, *args):
    t0 = time.perf_counter()
    try:
        out = fn(*args)
        return jax.block_until_ready(out)
    finally:
        _LOG.append(("blocking:" + getattr(fn, "__name__", "?"), time.perf_counter() - t0))


solve = jax.jit(jnp.linalg.solve)
inv = jax.jit(jnp.linalg.inv)


def profile_inverse(a):
    inv(a).block_until_ready()
    start = time.perf_counter()
    try:
        res = inv(a)
        res = res @ a
    finally:
        dur = time.perf_counter() - start
    return res, dur


if __name__ == "__main__":
    k = jax.random.PRNGKey(3)
    a = jax.random.normal(k, (2048, 2048)) + 2048 * jnp.eye(2048)
    b = jax.random.normal(k, (2048, 16))
    solve(a, b).block_until_ready()
    for _ in range(5):
        timed_call(solve, a, b)
        timed_call_blocking(solve, a, b)
    print(profile_inverse(a)[1])
    print(_LOG)
