"""pytest-benchmark suite for a jitted RNN cell (run with `pytest --benchmark-only`)."""
import jax
import jax.numpy as jnp
import pytest


@jax.jit
def rnn_scan(params, xs):
    def cell(h, x):
        h = jnp.tanh(x @ params["wx"] + h @ params["wh"] + params["b"])
        return h, h

    h0 = jnp.zeros((xs.shape[1], params["wh"].shape[0]))
    _, hs = jax.lax.scan(cell, h0, xs)
    return hs


@pytest.fixture(scope="module")
def setup():
    key = jax.random.PRNGKey(0)
    k1, k2, k3 = jax.random.split(key, 3)
    params = {
        "wx": jax.random.normal(k1, (128, 256)) * 0.05,
        "wh": jax.random.normal(k2, (256, 256)) * 0.05,
        "b": jnp.zeros((256,)),
    }
    xs = jax.random.normal(k3, (100, 32, 128))
    rnn_scan(params, xs).block_until_ready()
    return params, xs


def test_rnn_dispatch(benchmark, setup):
    params, xs = setup
    benchmark(rnn_scan, params, xs)  # mark


def test_rnn_blocking(benchmark, setup):
    params, xs = setup
    benchmark(lambda: rnn_scan(params, xs).block_until_ready())  # mark


def test_rnn_named_fn(benchmark, setup):
    params, xs = setup

    def run():
        return jax.block_until_ready(rnn_scan(params, xs))

    result = benchmark(run)  # mark
    assert result.shape == (100, 32, 256)


def test_rnn_host_copy(benchmark, setup):
    params, xs = setup
    benchmark(lambda: jax.device_get(rnn_scan(params, xs)))  # mark


def test_rnn_pedantic(benchmark, setup):
    params, xs = setup
    benchmark.pedantic(rnn_scan, args=(params, xs), rounds=20, iterations=5)  # mark


def test_rnn_long_sequence(benchmark, setup):
    params, _ = setup
    xs_long = jax.random.normal(jax.random.PRNGKey(5), (400, 32, 128))
    benchmark(lambda: jax.block_until_ready(rnn_scan(params, xs_long)))  # mark
