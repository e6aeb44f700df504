"""pytest-benchmark suite for the layer kernels (run with `pytest --benchmark-only`)."""
import jax
import jax.numpy as jnp


@jax.jit
def gelu_mlp(x, w1, w2):
    return jax.nn.gelu(x @ w1) @ w2


def _inputs():
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    x = jax.random.normal(k1, (1024, 768))
    w1 = jax.random.normal(k2, (768, 3072)) * 0.02
    w2 = jax.random.normal(k3, (3072, 768)) * 0.02
    gelu_mlp(x, w1, w2).block_until_ready()
    return x, w1, w2


def test_gelu_mlp_raw(benchmark):
    x, w1, w2 = _inputs()
    out = benchmark(gelu_mlp, x, w1, w2)  # mark:A
    assert out.shape == (1024, 768)


def test_gelu_mlp_synced(benchmark):
    x, w1, w2 = _inputs()

    def run():
        return gelu_mlp(x, w1, w2).block_until_ready()

    out = benchmark(run)  # mark:B
    assert out.shape == (1024, 768)
