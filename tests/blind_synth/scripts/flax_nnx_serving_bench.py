"""Throughput of a flax.nnx CNN classifier under nnx.jit, batch sizes 1..64.

python flax_nnx_serving_bench.py --batches 1 8 64 --iters 20
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np
from flax import nnx


class SmallCNN(nnx.Module):
    def __init__(self, n_classes, *, rngs):
        self.conv1 = nnx.Conv(3, 32, kernel_size=(3, 3), rngs=rngs)
        self.conv2 = nnx.Conv(32, 64, kernel_size=(3, 3), strides=(2, 2), rngs=rngs)
        self.head = nnx.Linear(64, n_classes, rngs=rngs)

    def __call__(self, x):
        x = nnx.relu(self.conv1(x))
        x = nnx.relu(self.conv2(x))
        x = x.mean(axis=(1, 2))
        return self.head(x)


@nnx.jit
def predict(model, images):
    return jnp.argmax(model(images), axis=-1)


def throughput(model, images, iters):
    predict(model, images).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(iters):
        labels = predict(model, images)
    labels.block_until_ready()
    return images.shape[0] * iters / (time.perf_counter() - t0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batches", type=int, nargs="+", default=[1, 8, 64])
    ap.add_argument("--hw", type=int, default=64)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()

    model = SmallCNN(100, rngs=nnx.Rngs(0))
    model.eval()
    rng = np.random.default_rng(0)
    for bs in args.batches:
        imgs = jnp.asarray(rng.random((bs, args.hw, args.hw, 3), dtype=np.float32))
        ips = throughput(model, imgs, args.iters)
        print(f"batch {bs:3d}: {ips:10.1f} img/s")

    # one-off: how long does a single cold request take on a new resolution?
    imgs = jnp.asarray(rng.random((1, args.hw * 2, args.hw * 2, 3), dtype=np.float32))
    t0 = time.perf_counter()
    first = predict(model, imgs)
    first.block_until_ready()
    print(f"cold request at {args.hw * 2}px (includes compile): {1e3 * (time.perf_counter() - t0):.1f} ms")
    t0 = time.perf_counter()
    second = predict(model, imgs)
    print(f"second request at {args.hw * 2}px: {1e3 * (time.perf_counter() - t0):.1f} ms -> class {int(second[0])}")


if __name__ == "__main__":
    main()
