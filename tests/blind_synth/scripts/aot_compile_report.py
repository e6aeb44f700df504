"""Report trace/lower/compile/run times of a jitted GRU-style recurrence (AOT API).

python aot_compile_report.py --hidden 512 --seq 256 --batch 32
"""
import argparse
import time

import jax
import jax.numpy as jnp


def gru_like(params, xs):
    def cell(h, x):
        z = jax.nn.sigmoid(x @ params["wz"] + h @ params["uz"])
        r = jax.nn.sigmoid(x @ params["wr"] + h @ params["ur"])
        n = jnp.tanh(x @ params["wn"] + (r * h) @ params["un"])
        h = (1 - z) * n + z * h
        return h, h
    h0 = jnp.zeros((xs.shape[1], params["uz"].shape[0]))
    h, hs = jax.lax.scan(cell, h0, xs)
    return hs.mean()


def init(key, din, dh):
    names = ["wz", "wr", "wn", "uz", "ur", "un"]
    ks = jax.random.split(key, len(names))
    return {n: jax.random.normal(k, (din if n[0] == "w" else dh, dh)) * 0.05 for n, k in zip(names, ks)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--din", type=int, default=128)
    ap.add_argument("--seq", type=int, default=256)
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--iters", type=int, default=10)
    args = ap.parse_args()

    params = init(jax.random.PRNGKey(0), args.din, args.hidden)
    xs = jax.random.normal(jax.random.PRNGKey(1), (args.seq, args.batch, args.din))
    fn = jax.jit(gru_like)

    t0 = time.perf_counter()
    lowered = fn.lower(params, xs)
    t_lower = time.perf_counter() - t0
    t0 = time.perf_counter()
    compiled = lowered.compile()
    t_compile = time.perf_counter() - t0

    t0 = time.perf_counter()
    for _ in range(args.iters):
        out = compiled(params, xs)
    out.block_until_ready()
    t_run = (time.perf_counter() - t0) / args.iters

    # jit dispatch path after AOT: same cache, no second compile
    t0 = time.perf_counter()
    for _ in range(args.iters):
        out = fn(params, xs)
    out.block_until_ready()
    t_jit = (time.perf_counter() - t0) / args.iters

    # a different function object: first call = trace + compile + dispatch
    fn2 = jax.jit(lambda p, x: gru_like(p, x) * 2.0)
    t0 = time.perf_counter()
    out2 = fn2(params, xs)
    t_first = time.perf_counter() - t0
    out2.block_until_ready()

    print(f"lower   {t_lower * 1e3:9.1f} ms")
    print(f"compile {t_compile * 1e3:9.1f} ms")
    print(f"run     {t_run * 1e3:9.3f} ms/iter (compiled executable)")
    print(f"run     {t_jit * 1e3:9.3f} ms/iter (jit dispatch)")
    print(f"first call of a new jit (compile time): {t_first * 1e3:9.1f} ms")
    print(f"flops estimate: {compiled.cost_analysis().get('flops', float('nan')):.3e}")


if __name__ == "__main__":
    main()
