"""Per-layer forward time of a ViT-ish encoder block, one jitted function per layer kind.

python layerwise_profile.py --tokens 197 --dim 768 --batch 16
"""
import argparse
import time
import timeit

import jax
import jax.numpy as jnp
import numpy as np


def layernorm(x, eps=1e-6):
    mu = x.mean(-1, keepdims=True)
    var = ((x - mu) ** 2).mean(-1, keepdims=True)
    return (x - mu) / jnp.sqrt(var + eps)


def attention(p, x, heads=12):
    b, t, d = x.shape
    qkv = (x @ p["qkv"]).reshape(b, t, 3, heads, d // heads)
    q, k, v = jnp.moveaxis(qkv, 2, 0)
    a = jax.nn.softmax(jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(d // heads), axis=-1)
    return jnp.einsum("bhqk,bkhd->bqhd", a, v).reshape(b, t, d) @ p["proj"]


def mlp(p, x):
    return jax.nn.gelu(x @ p["fc1"]) @ p["fc2"]


LAYERS = {
    "layernorm": jax.jit(lambda p, x: layernorm(x)),
    "attention": jax.jit(attention),
    "mlp": jax.jit(mlp),
}


def init(key, d):
    ks = jax.random.split(key, 4)
    s = 0.02
    return {"qkv": s * jax.random.normal(ks[0], (d, 3 * d)), "proj": s * jax.random.normal(ks[1], (d, d)),
            "fc1": s * jax.random.normal(ks[2], (d, 4 * d)), "fc2": s * jax.random.normal(ks[3], (4 * d, d))}


def profile(params, x, iters):
    report = {}
    for name, fn in LAYERS.items():
        fn(params, x).block_until_ready()
        ts = []
        for _ in range(iters):
            t0 = time.perf_counter()
            fn(params, x).block_until_ready()
            ts.append(time.perf_counter() - t0)
        report[name] = np.median(ts)
    return report


def profile_block_total(params, x, iters):
    t0 = time.perf_counter()
    for _ in range(iters):
        h = x + LAYERS["attention"](params, LAYERS["layernorm"](params, x))
        y = h + LAYERS["mlp"](params, LAYERS["layernorm"](params, h))
    return (time.perf_counter() - t0) / iters


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", type=int, default=197)
    ap.add_argument("--dim", type=int, default=768)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()

    params = init(jax.random.PRNGKey(0), args.dim)
    x = jax.random.normal(jax.random.PRNGKey(1), (args.batch, args.tokens, args.dim))
    rep = profile(params, x, args.iters)
    total = sum(rep.values())
    for name, t in rep.items():
        print(f"{name:10s} {t * 1e3:8.3f} ms  {100 * t / total:5.1f}%")
    print(f"block (sum of parts x2 for ln): {1e3 * (total + rep['layernorm']):.3f} ms")
    print(f"block measured end-to-end:     {1e3 * profile_block_total(params, x, args.iters):.3f} ms")
    t_mlp = timeit.Timer(lambda: LAYERS["mlp"](params, x)).timeit(number=args.iters)
    print(f"mlp via timeit.Timer:          {1e3 * t_mlp / args.iters:.3f} ms")


if __name__ == "__main__":
    main()
