import time

import jax
import jax.numpy as jnp


def fused_adam_like(m, v, g, b1=0.9, b2=0.999):
    m = b1 * m + (1 - b1) * g
    v = b2 * v + (1 - b2) * g * g
    return m, v, m / (jnp.sqrt(v) + 1e-8)


if __name__ == "__main__":
    shape = (4096, 4096)
    m = jnp.zeros(shape)
    v = jnp.zeros(shape)
    g = jax.random.normal(jax.random.PRNGKey(0), shape)

    t_c = time.perf_counter()
    compiled = jax.jit(fused_adam_like).lower(m, v, g).compile()
    print(f"compile: {time.perf_counter() - t_c:.3f}s")  # mark:A

    t0 = time.perf_counter()
    for _ in range(10):
        m, v, upd = compiled(m, v, g)
    jax.block_until_ready((m, v, upd))
    per_iter = (time.perf_counter() - t0) / 10  # mark:B
    print(f"update: {per_iter * 1e3:.3f} ms/iter")
