import time

import jax
import jax.numpy as jnp

energy = jax.jit(lambda v: jnp.sum(jnp.sin(v) ** 2))


def report():
    v = jnp.arange(1_000_000, dtype=jnp.float32) / 1e6
    energy(v).block_until_ready()

    t_a = time.perf_counter()
    r = energy(v)
    print(f"E={r} after {time.perf_counter() - t_a:.5f}s")

    t_a = time.perf_counter()
    r = energy(v)
    print(f"after {time.perf_counter() - t_a:.5f}s E={r}")

    t_a = time.perf_counter()
    r = energy(v)
    print(f"E = {r:.4f}", "dt =", time.perf_counter() - t_a)

    t_a = time.perf_counter()
    r = energy(v)
    msg = "E=%.4f" % r
    print(msg, "dt=%.5f" % (time.perf_counter() - t_a))


report()
