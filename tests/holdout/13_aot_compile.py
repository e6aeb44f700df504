import time

import jax
import jax.numpy as jnp
import numpy as np


def attention(q, k, v):
    s = q @ k.T / jnp.sqrt(q.shape[-1])
    return jax.nn.softmax(s, axis=-1) @ v


@jax.jit
def mlp(x, w1, w2):
    return jax.nn.gelu(x @ w1) @ w2


def main():
    rng = np.random.default_rng(0)
    q, k, v = (jnp.asarray(rng.standard_normal((512, 64), dtype=np.float32)) for _ in range(3))

    t0 = time.perf_counter()
    compiled = jax.jit(attention).lower(q, k, v).compile()
    t_compile = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = compiled(q, k, v)
    t_run = time.perf_counter() - t0

    t0 = time.perf_counter()
    out = compiled(q, k, v)
    out.block_until_ready()
    t_run2 = time.perf_counter() - t0
    print(f"compile {t_compile:.3f}s run(unsynced) {t_run:.5f}s run {t_run2:.5f}s")

    x = jnp.asarray(rng.standard_normal((256, 256), dtype=np.float32))
    w1 = jnp.asarray(rng.standard_normal((256, 512), dtype=np.float32) * 0.02)
    w2 = jnp.asarray(rng.standard_normal((512, 256), dtype=np.float32) * 0.02)
    t0 = time.perf_counter()
    mlp_c = mlp.lower(x, w1, w2).compile()
    print("mlp compile", time.perf_counter() - t0)


if __name__ == "__main__":
    main()
