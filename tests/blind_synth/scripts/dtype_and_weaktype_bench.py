"""Does a bf16 RMSNorm help on this machine?  Also checks the eps argument path.

python dtype_and_weaktype_bench.py --tokens 8192 --dim 1024 --iters 50
"""
import argparse
import time

import jax
import jax.numpy as jnp


@jax.jit
def rmsnorm(x, gain, eps):
    var = jnp.mean(jnp.square(x.astype(jnp.float32)), axis=-1, keepdims=True)
    y = x.astype(jnp.float32) * jax.lax.rsqrt(var + eps)
    return (y * gain).astype(x.dtype)


def avg_ms(fn, *args, iters):
    t0 = time.perf_counter()
    for _ in range(iters):
        out = fn(*args)
    out.block_until_ready()
    return (time.perf_counter() - t0) / iters * 1e3


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tokens", type=int, default=8192)
    ap.add_argument("--dim", type=int, default=1024)
    ap.add_argument("--iters", type=int, default=50)
    args = ap.parse_args()

    key = jax.random.PRNGKey(0)
    x32 = jax.random.normal(key, (args.tokens, args.dim), jnp.float32)
    g32 = jnp.ones(args.dim, jnp.float32)
    x16 = x32.astype(jnp.bfloat16)
    g16 = g32.astype(jnp.bfloat16)

    # warm-up with the float32 inputs and a Python-float eps
    rmsnorm(x32, g32, 1e-6).block_until_ready()

    ms32 = avg_ms(rmsnorm, x32, g32, 1e-6, iters=args.iters)
    print(f"float32             {ms32:.3f} ms")

    # bf16 was never called before: new dtype -> new trace + compile inside avg_ms
    ms16 = avg_ms(rmsnorm, x16, g16, 1e-6, iters=args.iters)
    print(f"bfloat16            {ms16:.3f} ms  ({ms32 / ms16:.2f}x)")

    # same dtype as warm-up, but eps is now a strongly typed float32 scalar
    eps = jnp.float32(1e-6)
    t0 = time.perf_counter()
    for _ in range(args.iters):
        y = rmsnorm(x32, g32, eps)
    y.block_until_ready()
    ms_strong = (time.perf_counter() - t0) / args.iters * 1e3
    print(f"float32, f32 eps    {ms_strong:.3f} ms")

    # again with the strongly typed eps, now warm
    t0 = time.perf_counter()
    for _ in range(args.iters):
        y = rmsnorm(x32, g32, eps)
    y.block_until_ready()
    ms_strong2 = (time.perf_counter() - t0) / args.iters * 1e3
    print(f"float32, f32 eps #2 {ms_strong2:.3f} ms")


if __name__ == "__main__":
    main()
