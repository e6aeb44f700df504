"""Check the fused kernel against the reference while timing it."""
import time

import jax
import jax.numpy as jnp
import numpy as np


def reference_softmax(x):
    x = np.asarray(x, dtype=np.float64)
    e = np.exp(x - x.max(-1, keepdims=True))
    return e / e.sum(-1, keepdims=True)


@jax.jit
def fused_softmax(x):
    m = jnp.max(x, axis=-1, keepdims=True)
    e = jnp.exp(x - m)
    return e / jnp.sum(e, axis=-1, keepdims=True)


def main():
    x = jax.random.normal(jax.random.PRNGKey(1), (4096, 4096))
    ref = reference_softmax(x)
    ref32 = ref.astype(np.float32)
    fused_softmax(x).block_until_ready()

    t0 = time.perf_counter()
    out = fused_softmax(x)
    np.testing.assert_allclose(out, ref, rtol=1e-5, atol=1e-6)
    t_checked = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = fused_softmax(x)
    assert out.shape == ref.shape and out.dtype == jnp.float32
    t_shape = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = fused_softmax(x)
    np.testing.assert_allclose(ref32, ref, rtol=1e-6)
    t_ref = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = fused_softmax(x * 2.0)
    assert jnp.allclose(out.sum(-1), 1.0, atol=1e-4)
    t_sum = time.perf_counter() - t0

    print(t_checked, t_shape, t_ref, t_sum)


if __name__ == "__main__":
    main()
