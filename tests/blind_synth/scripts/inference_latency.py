"""Per-request latency of a small flax MLP classifier (batch 1 and batch 32).

Prints p50 / p90 / p99 in milliseconds.
python inference_latency.py --requests 200
"""
import argparse
import time

import flax.linen as nn
import jax
import jax.numpy as jnp
import numpy as np


class Classifier(nn.Module):
    hidden: int = 1024
    n_classes: int = 1000

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(self.hidden)(x)
        x = nn.gelu(x)
        x = nn.LayerNorm()(x)
        x = nn.Dense(self.hidden)(x)
        x = nn.gelu(x)
        return nn.Dense(self.n_classes)(x)


def percentiles(samples_s):
    ms = np.asarray(samples_s) * 1e3
    return {p: float(np.percentile(ms, p)) for p in (50, 90, 99)}


def serve_requests(predict, params, requests):
    lat = []
    for req in requests:
        t0 = time.perf_counter()
        probs = predict(params, req)
        probs.block_until_ready()
        lat.append(time.perf_counter() - t0)
    return lat


def serve_requests_warm(predict, params, requests, warmup=5):
    for req in requests[:warmup]:
        jnp.argmax(predict(params, req), axis=-1).block_until_ready()
    lat = []
    for req in requests[warmup:]:
        t0 = time.perf_counter()
        top = jnp.argmax(predict(params, req), axis=-1)
        top = np.asarray(top)
        lat.append(time.perf_counter() - t0)
    return lat


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--requests", type=int, default=200)
    ap.add_argument("--features", type=int, default=512)
    ap.add_argument("--hidden", type=int, default=1024)
    args = ap.parse_args()

    model = Classifier(hidden=args.hidden)
    params = model.init(jax.random.PRNGKey(0), jnp.ones((1, args.features)))

    @jax.jit
    def predict(params, x):
        return jax.nn.softmax(model.apply(params, x), axis=-1)

    rng = np.random.default_rng(0)
    for batch in (1, 32):
        reqs = [rng.standard_normal((batch, args.features)).astype(np.float32) for _ in range(args.requests)]
        # batch 1 and 32 are separate compiles of predict
        raw = percentiles(serve_requests(predict, params, reqs))
        warm = percentiles(serve_requests_warm(predict, params, reqs))
        print(f"batch {batch:3d}  first-pass p50 {raw[50]:.3f} p99 {raw[99]:.3f} ms | "
              f"steady p50 {warm[50]:.3f} p90 {warm[90]:.3f} p99 {warm[99]:.3f} ms")


if __name__ == "__main__":
    main()
