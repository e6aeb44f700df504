"""pytest-benchmark suite for a few JAX kernels.

    pytest benchsuite --benchmark-only --benchmark-columns=min,mean,max
"""
import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def gram(a, b):
    return a.T @ b


@jax.jit
def row_softmax(a):
    return jax.nn.softmax(a, axis=-1)


@jax.jit
def frob_norm(a, b):
    return jnp.sqrt(jnp.sum((a - b) ** 2))


@jax.jit
def gelu_mm(a, b):
    return jax.nn.gelu(a @ b)


def test_gram_warm(benchmark, mats):
    a, b = mats
    gram(a, b).block_until_ready()
    out = benchmark(lambda: gram(a, b).block_until_ready())
    assert out.shape == a.shape


def test_gram_dispatch(benchmark, mats):
    a, b = mats
    out = benchmark(gram, a, b)
    assert out.shape == a.shape


def test_softmax_calibrated(benchmark, mats):
    a, _ = mats
    out = benchmark(lambda: row_softmax(a).block_until_ready())
    np.testing.assert_allclose(np.asarray(out.sum(-1)), 1.0, rtol=1e-5)


def test_frob_pedantic_cold(benchmark, mats):
    a, b = mats
    result = benchmark.pedantic(lambda: float(frob_norm(a, b)), rounds=10, iterations=1)
    assert result > 0


def test_gelu_mm_pedantic_warmup(benchmark, mats):
    a, b = mats
    run = lambda: jax.block_until_ready(gelu_mm(a, b))
    out = benchmark.pedantic(run, rounds=10, iterations=1, warmup_rounds=2)
    assert out.dtype == jnp.float32


def test_numpy_gram(benchmark, mats_np):
    a, b = mats_np
    out = benchmark(np.matmul, a.T, b)
    assert out.shape == a.shape
