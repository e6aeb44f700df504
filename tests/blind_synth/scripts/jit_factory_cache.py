"""Per-depth residual MLP benchmark using a cached factory of jitted apply functions.

python jit_factory_cache.py --depths 2 4 8 --width 512 --iters 20
"""
import argparse
import functools
import time

import jax
import jax.numpy as jnp


def residual_mlp(params, x):
    for w in params:
        x = x + jnp.tanh(x @ w)
    return x


@functools.lru_cache(maxsize=None)
def get_apply(depth):
    print(f"  [factory] building apply for depth={depth}")

    def apply(params, x):
        assert len(params) == depth
        return residual_mlp(params, x)

    return jax.jit(apply)


def make_params(depth, width, key=0):
    keys = jax.random.split(jax.random.PRNGKey(key), depth)
    return [jax.random.normal(k, (width, width)) / jnp.sqrt(width) for k in keys]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--depths", type=int, nargs="+", default=[2, 4, 8])
    ap.add_argument("--width", type=int, default=512)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()

    x = jnp.ones((args.batch, args.width))
    results = {}
    for depth in args.depths:
        params = make_params(depth, args.width)
        get_apply(depth)(params, x).block_until_ready()  # compile once per depth
        t0 = time.perf_counter()
        for _ in range(args.iters):
            y = get_apply(depth)(params, x)
        y.block_until_ready()
        results[depth] = (time.perf_counter() - t0) / args.iters

    # same module-level function, re-wrapped in jax.jit each time
    params = make_params(4, args.width)
    jax.jit(residual_mlp)(params, x).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(args.iters):
        y = jax.jit(residual_mlp)(params, x)
    y.block_until_ready()
    rewrap = (time.perf_counter() - t0) / args.iters

    # same thing through a lambda (what the notebook version did)
    t0 = time.perf_counter()
    for _ in range(args.iters):
        y = jax.jit(lambda p, v: residual_mlp(p, v))(params, x)
    y.block_until_ready()
    lam = (time.perf_counter() - t0) / args.iters

    # a depth nobody asked for yet
    new_depth = max(args.depths) * 2
    params = make_params(new_depth, args.width)
    t0 = time.perf_counter()
    for _ in range(args.iters):
        y = get_apply(new_depth)(params, x)
    y.block_until_ready()
    results[new_depth] = (time.perf_counter() - t0) / args.iters

    for depth, t in sorted(results.items()):
        print(f"depth {depth:3d}: {t * 1e3:8.3f} ms/iter")
    print(f"jax.jit(residual_mlp) each iter: {rewrap * 1e3:8.3f} ms/iter")
    print(f"jax.jit(lambda ...) each iter:   {lam * 1e3:8.3f} ms/iter")


if __name__ == "__main__":
    main()
