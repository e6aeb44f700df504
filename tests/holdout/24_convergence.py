import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def jacobi_step(x, A, b):
    d = jnp.diag(A)
    return (b - (A @ x - d * x)) / d


@jax.jit
def residual(x, A, b):
    return jnp.linalg.norm(A @ x - b)


def solve_checked(A, b, tol=1e-5, max_it=200):
    x = jnp.zeros_like(b)
    it = 0
    tic = time.perf_counter()
    while True:
        x = jacobi_step(x, A, b)
        it += 1
        res = float(residual(x, A, b))
        if res < tol or it >= max_it:
            break
    toc = time.perf_counter()
    return x, it, toc - tic


def solve_sparse_checks(A, b, tol=1e-30, max_it=25):
    x = jnp.zeros_like(b)
    it = 0
    tic = time.perf_counter()
    while it < max_it:
        x = jacobi_step(x, A, b)
        it += 1
        if it % 10 == 0 and float(residual(x, A, b)) < tol:
            break
    toc = time.perf_counter()
    return x, it, toc - tic


if __name__ == "__main__":
    n = 300
    A = jnp.asarray(np.eye(n) * 4.0 + np.random.default_rng(0).random((n, n)) / n, dtype=jnp.float32)
    b = jnp.ones(n)
    print(solve_checked(A, b)[1:])
    print(solve_sparse_checks(A, b)[1:])
