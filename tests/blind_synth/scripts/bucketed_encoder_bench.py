"""Latency of a bucketed-sequence-length encoder, per bucket and per config.

python bucketed_encoder_bench.py --buckets 64 128 256 --dim 256 --reps 10
"""
import argparse
import functools
import time

import jax
import jax.numpy as jnp
import numpy as np


def encoder(params, tokens, n_layers):
    x = params["emb"][tokens]
    for i in range(n_layers):
        w = params["w"][i]
        x = x + jax.nn.gelu(x @ w) / n_layers
    return x.mean(axis=1)


@functools.partial(jax.jit, static_argnums=(2,))
def encode(params, tokens, n_layers):
    return encoder(params, tokens, n_layers)


@jax.jit
def encode_and_wait(params, tokens):
    out = encoder(params, tokens, 2)
    return jax.block_until_ready(out)


def init(key, vocab, dim, max_layers):
    k1, k2 = jax.random.split(key)
    return {"emb": jax.random.normal(k1, (vocab, dim)) * 0.02,
            "w": jax.random.normal(k2, (max_layers, dim, dim)) / np.sqrt(dim)}


def bench_config(params, tokens, n_layers, reps):
    fn = jax.jit(functools.partial(encoder, n_layers=n_layers))
    t0 = time.perf_counter()
    for _ in range(reps):
        out = fn(params, tokens)
    out.block_until_ready()
    return (time.perf_counter() - t0) / reps


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--buckets", type=int, nargs="+", default=[64, 128, 256])
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--dim", type=int, default=256)
    ap.add_argument("--vocab", type=int, default=5000)
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()

    params = init(jax.random.PRNGKey(0), args.vocab, args.dim, 8)
    rng = np.random.default_rng(0)
    batches = {L: jnp.asarray(rng.integers(0, args.vocab, (args.batch, L))) for L in args.buckets}

    # 1) per-bucket latency, buckets visited in order
    per_bucket = {}
    for L, toks in batches.items():
        ts = []
        for _ in range(args.reps):
            t0 = time.perf_counter()
            encode(params, toks, 4).block_until_ready()
            ts.append(time.perf_counter() - t0)
        per_bucket[L] = np.mean(ts)

    # 2) same, but every bucket compiled up front
    for toks in batches.values():
        encode(params, toks, 2).block_until_ready()
    per_bucket_warm = {}
    for L, toks in batches.items():
        t0 = time.perf_counter()
        for _ in range(args.reps):
            out = encode(params, toks, 2)
        out.block_until_ready()
        per_bucket_warm[L] = (time.perf_counter() - t0) / args.reps

    # 3) layers sweep through a fresh partial each time
    toks = batches[args.buckets[0]]
    per_depth = {n: bench_config(params, toks, n, args.reps) for n in (2, 4, 8)}

    # 4) "wait inside the jitted function"
    encode_and_wait(params, toks)
    t0 = time.perf_counter()
    for _ in range(args.reps):
        out = encode_and_wait(params, toks)
    t_inner = (time.perf_counter() - t0) / args.reps

    # 5) wait on the batch we just fed in
    t0 = time.perf_counter()
    out = encode(params, toks, 2)
    toks.block_until_ready()
    t_input = time.perf_counter() - t0

    for L in args.buckets:
        print(f"len {L:4d}: first-visit mean {per_bucket[L] * 1e3:8.3f} ms   pre-compiled {per_bucket_warm[L] * 1e3:8.3f} ms")
    for n, t in per_depth.items():
        print(f"{n} layers: {t * 1e3:8.3f} ms")
    print(f"encode_and_wait: {t_inner * 1e3:.3f} ms   block on input: {t_input * 1e3:.3f} ms")
    print("out norm", float(jnp.linalg.norm(out)))


if __name__ == "__main__":
    main()
