"""Compare per-step cost of a few hand-rolled optimizers on a toy quadratic.

    python optim_sweep.py --dim 2048 --iters 200
"""
import argparse
import time

import jax
import jax.numpy as jnp


def sgd_update(params, grads, lr=1e-2):
    return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)


def momentum_update(params, grads, lr=1e-2, beta=0.9):
    return jax.tree_util.tree_map(lambda p, g: p - lr * (beta * g + g), params, grads)


def adam_like_update(params, grads, lr=1e-3, eps=1e-8):
    def upd(p, g):
        m = 0.1 * g
        v = 0.001 * g * g
        return p - lr * m / (jnp.sqrt(v) + eps)

    return jax.tree_util.tree_map(upd, params, grads)


STEPS = {
    "sgd": jax.jit(sgd_update),
    "momentum": jax.jit(momentum_update),
    "adam": jax.jit(adam_like_update),
}


def make_problem(dim, seed=0):
    k1, k2 = jax.random.split(jax.random.PRNGKey(seed))
    params = {"w": jax.random.normal(k1, (dim, dim)), "b": jnp.zeros((dim,))}
    grads = {"w": jax.random.normal(k2, (dim, dim)), "b": jnp.ones((dim,))}
    return params, grads


def sweep(dim, iters):
    params, grads = make_problem(dim)
    # compile everything once so the loop below is steady-state
    for name in STEPS:
        jax.block_until_ready(STEPS[name](params, grads))

    results = {}
    for name in STEPS:
        p = params
        tic = time.perf_counter()
        for _ in range(iters):
            p = STEPS[name](p, grads)
        toc = time.perf_counter()
        results[name] = (toc - tic) / iters
    return results


def sweep_synced(dim, iters):
    params, grads = make_problem(dim)
    steps = dict(STEPS)
    for fn in steps.values():
        jax.block_until_ready(fn(params, grads))

    timings = {}
    for name in ("sgd", "momentum", "adam"):
        p = params
        start = time.perf_counter()
        for _ in range(iters):
            p = steps[name](p, grads)
        jax.block_until_ready(p)
        timings[name] = (time.perf_counter() - start) / iters * 1e3
    return timings


if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--dim", type=int, default=2048)
    ap.add_argument("--iters", type=int, default=200)
    args = ap.parse_args()
    for k, v in sweep(args.dim, args.iters).items():
        print(f"{k:10s} {v * 1e3:8.3f} ms/step (async)")
    for k, v in sweep_synced(args.dim, args.iters).items():
        print(f"{k:10s} {v:8.3f} ms/step")
