"""pytest-benchmark suite. Run with: pytest bench_pytest_suite.py --benchmark-only
(collected via python_files/python_functions = bench_* in benchmarks/pytest.ini)."""
import jax
import jax.numpy as jnp
import pytest


@jax.jit
def matmul(a, b):
    return a @ b


@jax.jit
def step(p, batch):
    return p - 0.01 * jax.grad(lambda p: jnp.mean((batch @ p) ** 2))(p)


@pytest.fixture(scope="module")
def mats():
    k = jax.random.PRNGKey(0)
    a = jax.random.normal(k, (2048, 2048))
    b = jax.random.normal(k, (2048, 2048))
    matmul(a, b).block_until_ready()
    return a, b


@pytest.fixture(scope="module")
def problem():
    k = jax.random.PRNGKey(1)
    p = jax.random.normal(k, (1024,))
    batch = jax.random.normal(k, (4096, 1024))
    step(p, batch).block_until_ready()
    return p, batch


def bench_matmul(benchmark, mats):
    a, b = mats
    benchmark(matmul, a, b)


def bench_matmul_sync(benchmark, mats):
    a, b = mats
    benchmark(lambda: matmul(a, b).block_until_ready())


def bench_step_pedantic(benchmark, problem):
    p, batch = problem
    benchmark.pedantic(step, args=(p, batch), rounds=20, iterations=5)


def bench_step_wait(benchmark, problem):
    p, batch = problem

    def run_and_wait():
        return jax.block_until_ready(step(p, batch))

    result = benchmark(run_and_wait)
    assert result.shape == p.shape
