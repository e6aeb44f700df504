"""Runs a handful of linear-algebra kernels under the shared stopwatch."""
import jax
import jax.numpy as jnp

from . import report, stopwatch


@jax.jit
def gram(a):
    return a.T @ a


@jax.jit
def solve(a, b):
    return jnp.linalg.solve(a @ a.T + jnp.eye(a.shape[0]), b)


@jax.jit
def residual_norm(a, x, b):
    return jnp.linalg.norm(a @ x - b)


def main(repeats=10):
    key = jax.random.PRNGKey(1)
    a = jax.random.normal(key, (2048, 2048))
    b = jax.random.normal(key, (2048, 16))

    gram(a).block_until_ready()
    residual_norm(a, solve(a, b), b).block_until_ready()

    for _ in range(repeats):
        with stopwatch("gram/dispatch"):  # mark
            g = gram(a)

    for _ in range(repeats):
        with stopwatch("gram"):  # mark
            g = gram(a)
            g.block_until_ready()

    for _ in range(repeats):
        with stopwatch("solve"):  # mark
            x = solve(a, b)
            b.block_until_ready()

    for _ in range(repeats):
        with stopwatch("solve+norm"):  # mark
            x = solve(a, b)
            residual = residual_norm(a, x, b).item()

    with stopwatch("gram-chain"):  # mark
        g = gram(a)
        h = gram(g)
        jax.block_until_ready(h)

    with stopwatch("gram-x10"):  # mark
        for _ in range(10):
            with stopwatch("gram-inner"):  # mark
                g = gram(a)
                g.block_until_ready()

    report()
    return g, x, residual


if __name__ == "__main__":
    main()
