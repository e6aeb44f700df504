"""Measure samples/s of a jitted augmentation + train step fed by a host pipeline.

python monotonic_pipeline_throughput.py --steps 300 --log-every 50
"""
import argparse
import collections
import time

import jax
import jax.numpy as jnp
import numpy as np


def host_pipeline(batch, hw, seed=0):
    rng = np.random.default_rng(seed)
    while True:
        yield rng.integers(0, 255, (batch, hw, hw, 3), dtype=np.uint8)


@jax.jit
def augment_and_step(w, imgs_u8, key):
    x = imgs_u8.astype(jnp.float32) / 255.0
    flip = jax.random.bernoulli(key, 0.5, (x.shape[0], 1, 1, 1))
    x = jnp.where(flip, x[:, :, ::-1], x)
    feats = x.reshape(x.shape[0], -1)
    pred = feats @ w
    loss = jnp.mean(pred ** 2)
    g = 2 * feats.T @ pred / feats.shape[0]
    return w - 1e-4 * g, {"loss": loss, "pred_std": pred.std()}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--hw", type=int, default=64)
    ap.add_argument("--log-every", type=int, default=50)
    args = ap.parse_args()

    w = 0.01 * jax.random.normal(jax.random.PRNGKey(1), (args.hw * args.hw * 3, 16))
    key = jax.random.PRNGKey(0)
    pipe = host_pipeline(args.batch, args.hw)
    history = collections.defaultdict(list)

    t_window = time.monotonic()
    for step, imgs in zip(range(args.steps), pipe):
        key, sub = jax.random.split(key)
        w, metrics = augment_and_step(w, imgs, sub)
        if (step + 1) % args.log_every == 0:
            metrics = jax.device_get(metrics)
            now = time.monotonic()
            sps = args.log_every * args.batch / (now - t_window)
            for k, v in metrics.items():
                history[k].append(float(v))
            print(f"step {step + 1:5d}  {sps:9.1f} samples/s  loss {metrics['loss']:.3e}")
            t_window = now

    # host-pipeline-only throughput, for reference
    t0 = time.monotonic()
    for _, imgs in zip(range(args.log_every), pipe):
        imgs.astype(np.float32).mean()
    host_sps = args.log_every * args.batch / (time.monotonic() - t0)
    print(f"host pipeline alone: {host_sps:.1f} samples/s; last pred std {history['pred_std'][-1]:.3e}")


if __name__ == "__main__":
    main()
