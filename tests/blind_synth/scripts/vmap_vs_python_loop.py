"""Per-example gradients: Python loop vs vmap vs jit(vmap).

python vmap_vs_python_loop.py --examples 64 --dim 256
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x, y):
    return (jnp.dot(x, w) - y) ** 2


grad_one = jax.jit(jax.grad(loss))
grad_batch = jax.jit(jax.vmap(jax.grad(loss), in_axes=(None, 0, 0)))


def per_example_loop(w, xs, ys):
    return jnp.stack([grad_one(w, xs[i], ys[i]) for i in range(xs.shape[0])])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--examples", type=int, default=64)
    ap.add_argument("--dim", type=int, default=256)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    w = jax.random.normal(k1, (args.dim,))
    xs = jax.random.normal(k2, (args.examples, args.dim))
    ys = jax.random.normal(k3, (args.examples,))

    loop_t, vmap_t = [], []
    for r in range(args.repeat):
        t0 = time.perf_counter()
        g_loop = per_example_loop(w, xs, ys)
        g_loop.block_until_ready()
        loop_t.append(time.perf_counter() - t0)

        t0 = time.perf_counter()
        g_vmap = grad_batch(w, xs, ys)
        g_vmap.block_until_ready()
        vmap_t.append(time.perf_counter() - t0)

    np.testing.assert_allclose(np.asarray(g_loop), np.asarray(g_vmap), rtol=1e-4, atol=1e-4)
    loop_ms, vmap_ms = 1e3 * np.mean(loop_t), 1e3 * np.mean(vmap_t)
    print(f"python loop : {loop_ms:9.3f} ms (mean of {args.repeat})")
    print(f"jit(vmap)   : {vmap_ms:9.3f} ms (mean of {args.repeat})")
    print(f"speed-up    : {loop_ms / vmap_ms:9.1f}x")

    t0 = time.perf_counter()
    xs_np, w_np, ys_np = np.asarray(xs), np.asarray(w), np.asarray(ys)
    g_np = 2 * (xs_np @ w_np - ys_np)[:, None] * xs_np
    t_np = time.perf_counter() - t0
    print(f"numpy closed form: {t_np * 1e3:.3f} ms, max diff {np.abs(g_np - np.asarray(g_vmap)).max():.2e}")


if __name__ == "__main__":
    main()
