"""Timing that must be recorded even if the step raises."""
import logging
import time

import jax
import jax.numpy as jnp

logger = logging.getLogger(__name__)


@jax.jit
def cholesky_solve(a, b):
    spd = a @ a.T + a.shape[0] * jnp.eye(a.shape[0])
    c = jnp.linalg.cholesky(spd)
    return jax.scipy.linalg.cho_solve((c, True), b)


def timed_solve(a, b):
    cholesky_solve(a, b).block_until_ready()
    t0 = time.perf_counter()
    try:
        x = cholesky_solve(a, b)
        x.block_until_ready()
    finally:
        dt = time.perf_counter() - t0  # mark
        logger.info("solve took %.3f ms", dt * 1e3)
    return x, dt


def timed_solve_late_sync(a, b):
    cholesky_solve(a, b).block_until_ready()
    t0 = time.perf_counter()
    try:
        x = cholesky_solve(a, b)
    finally:
        dt = time.perf_counter() - t0  # mark
    x.block_until_ready()
    return x, dt


all_finite = jax.jit(lambda x: jnp.all(jnp.isfinite(x)))


def timed_solve_checked(a, b):
    all_finite(cholesky_solve(a, b)).block_until_ready()
    t0 = time.perf_counter()
    try:
        x = cholesky_solve(a, b)
        if not bool(all_finite(x)):
            raise FloatingPointError("non-finite solution")
    finally:
        dt = time.perf_counter() - t0  # mark
    return x, dt


def timed_solve_many(a, bs):
    cholesky_solve(a, bs[0]).block_until_ready()
    results = []
    t0 = time.perf_counter()
    try:
        for b in bs:
            results.append(cholesky_solve(a, b))
    except Exception:
        logger.exception("solve failed")
        raise
    else:
        jax.block_until_ready(results)
    finally:
        total = time.perf_counter() - t0  # mark
    return results, total


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    a = jax.random.normal(key, (1024, 1024))
    b = jax.random.normal(key, (1024, 8))
    print(timed_solve(a, b)[1])
    print(timed_solve_late_sync(a, b)[1])
    print(timed_solve_checked(a, b)[1])
    print(timed_solve_many(a, [b] * 8)[1])
