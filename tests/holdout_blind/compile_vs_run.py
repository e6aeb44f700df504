import time

import jax
import jax.numpy as jnp


def transformer_block(p, x):
    h = jax.nn.gelu(x @ p["w_in"])
    x = x + h @ p["w_out"]
    return x / jnp.linalg.norm(x, axis=-1, keepdims=True)


block = jax.jit(transformer_block)
block_remat = jax.jit(jax.checkpoint(transformer_block))
block_grad = jax.jit(jax.grad(lambda p, x: jnp.sum(transformer_block(p, x))))


def main():
    k = jax.random.PRNGKey(0)
    p = {"w_in": jax.random.normal(k, (1024, 4096)) * 0.02, "w_out": jax.random.normal(k, (4096, 1024)) * 0.02}
    x = jax.random.normal(k, (64, 512, 1024))

    t0 = time.perf_counter()
    out = block(p, x).block_until_ready()
    compile_time = time.perf_counter() - t0
    print(f"compile_time (first call): {compile_time:.2f}s")

    t0 = time.perf_counter()
    out = block_remat(p, x)
    out.block_until_ready()
    dt = time.perf_counter() - t0
    print(f"remat, first call (incl. compile): {dt:.3f}s")

    t0 = time.perf_counter()
    g = block_grad(p, x)
    jax.block_until_ready(g)
    latency_ms = (time.perf_counter() - t0) * 1e3
    print(f"grad latency: {latency_ms:.1f} ms")

    times = []
    for _ in range(10):
        t0 = time.perf_counter()
        out = block(p, x).block_until_ready()
        times.append(time.perf_counter() - t0)
    print(f"steady state: {min(times) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
