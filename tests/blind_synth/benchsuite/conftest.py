"""Shared fixtures for the pytest-benchmark suite (run: pytest benchsuite --benchmark-only)."""
import jax
import jax.numpy as jnp
import numpy as np
import pytest


def pytest_addoption(parser):
    parser.addoption("--size", type=int, default=1024, help="matrix size for the kernels")


@pytest.fixture(scope="session")
def size(request):
    return request.config.getoption("--size")


@pytest.fixture(scope="session")
def mats(size):
    k1, k2 = jax.random.split(jax.random.PRNGKey(0))
    a = jax.random.normal(k1, (size, size), jnp.float32)
    b = jax.random.normal(k2, (size, size), jnp.float32)
    return jax.block_until_ready((a, b))


@pytest.fixture(scope="session")
def mats_np(mats):
    return tuple(np.asarray(m) for m in mats)
