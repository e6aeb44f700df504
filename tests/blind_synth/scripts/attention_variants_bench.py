"""Benchmark three attention implementations; optionally measure cold compile.

python attention_variants_bench.py --seq 1024 --heads 8 --head-dim 64 --iters 20
"""
import argparse
import functools
import time

import jax
import jax.numpy as jnp


def attn_reference(q, k, v):
    s = jnp.einsum("bhqd,bhkd->bhqk", q, k) / jnp.sqrt(q.shape[-1])
    return jnp.einsum("bhqk,bhkd->bhqd", jax.nn.softmax(s, axis=-1), v)


def attn_chunked(q, k, v, chunk=256):
    outs = []
    for i in range(0, q.shape[2], chunk):
        outs.append(attn_reference(q[:, :, i:i + chunk], k, v))
    return jnp.concatenate(outs, axis=2)


def attn_builtin(q, k, v):
    # jax.nn.dot_product_attention wants (batch, seq, heads, dim)
    t = lambda a: jnp.swapaxes(a, 1, 2)
    return t(jax.nn.dot_product_attention(t(q), t(k), t(v)))


VARIANTS = {
    "reference": jax.jit(attn_reference),
    "chunked": jax.jit(functools.partial(attn_chunked, chunk=256)),
    "builtin": jax.jit(attn_builtin),
}


def make_qkv(b, h, s, d):
    ks = jax.random.split(jax.random.PRNGKey(0), 3)
    return [jax.random.normal(k, (b, h, s, d), jnp.float32) for k in ks]


def bench_fresh(name, fn, qkv, iters):
    """Time each variant from a clean cache so no variant benefits from another's compile."""
    t0 = time.perf_counter()
    jax.clear_caches()
    for _ in range(iters):
        out = fn(*qkv)
    jax.block_until_ready(out)
    return (time.perf_counter() - t0) / iters


def measure_cold_compile(fn, qkv):
    jax.clear_caches()
    t0 = time.perf_counter()
    jax.block_until_ready(fn(*qkv))
    cold = time.perf_counter() - t0
    t0 = time.perf_counter()
    jax.block_until_ready(fn(*qkv))
    warm = time.perf_counter() - t0
    return cold, warm


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=2)
    ap.add_argument("--heads", type=int, default=8)
    ap.add_argument("--seq", type=int, default=1024)
    ap.add_argument("--head-dim", type=int, default=64)
    ap.add_argument("--iters", type=int, default=20)
    ap.add_argument("--compile-report", action="store_true")
    args = ap.parse_args()

    qkv = make_qkv(args.batch, args.heads, args.seq, args.head_dim)
    ref = VARIANTS["reference"](*qkv)
    for name, fn in VARIANTS.items():
        err = float(jnp.max(jnp.abs(fn(*qkv) - ref)))
        dt = bench_fresh(name, fn, qkv, args.iters)
        print(f"{name:10s} {dt * 1e3:8.3f} ms/iter   max|err| {err:.2e}")
    if args.compile_report:
        for name, fn in VARIANTS.items():
            cold, warm = measure_cold_compile(fn, qkv)
            print(f"{name:10s} cold (trace+compile+run) {cold * 1e3:8.1f} ms   warm {warm * 1e3:8.3f} ms")


if __name__ == "__main__":
    main()
