"""CPU time vs wall time of a jitted Monte-Carlo option pricer (ns clocks).

python ns_clock_profile.py --paths 200000 --steps 252
"""
import argparse
import time

import jax
import jax.numpy as jnp


def price_paths(key, s0, mu, sigma, n_paths, n_steps, dt):
    z = jax.random.normal(key, (n_paths, n_steps))
    log_ret = (mu - 0.5 * sigma ** 2) * dt + sigma * jnp.sqrt(dt) * z
    return s0 * jnp.exp(jnp.cumsum(log_ret, axis=1))


def asian_call(key, s0, strike, mu, sigma, n_paths, n_steps):
    paths = price_paths(key, s0, mu, sigma, n_paths, n_steps, 1.0 / n_steps)
    payoff = jnp.maximum(paths.mean(axis=1) - strike, 0.0)
    return jnp.exp(-mu) * payoff.mean(), payoff.std() / jnp.sqrt(n_paths)


asian_call_jit = jax.jit(asian_call, static_argnames=("n_paths", "n_steps"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--paths", type=int, default=200_000)
    ap.add_argument("--steps", type=int, default=252)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    key = jax.random.PRNGKey(42)
    kw = dict(s0=100.0, strike=105.0, mu=0.03, sigma=0.2, n_paths=args.paths, n_steps=args.steps)
    jax.block_until_ready(asian_call_jit(key, **kw))

    for r in range(args.repeat):
        key, sub = jax.random.split(key)
        w0 = time.perf_counter_ns()
        c0 = time.process_time_ns()
        price, stderr = asian_call_jit(sub, **kw)
        price = float(price)
        cpu_ms = (time.process_time_ns() - c0) / 1e6
        wall_ms = (time.perf_counter_ns() - w0) / 1e6
        print(f"run {r}: price {price:.4f} +- {float(stderr):.4f}  wall {wall_ms:.1f} ms  cpu {cpu_ms:.1f} ms")

    # different path count = different static argument
    kw["n_paths"] = args.paths // 2
    w0 = time.perf_counter_ns()
    price, _ = asian_call_jit(key, **kw)
    price.block_until_ready()
    half_ms = (time.perf_counter_ns() - w0) / 1e6
    print(f"half the paths: {half_ms:.1f} ms per pricing (vs {wall_ms:.1f} ms) -> speed-up {wall_ms / half_ms:.2f}x")


if __name__ == "__main__":
    main()
