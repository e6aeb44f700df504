"""Evaluate a jitted classifier over an eval set and report images/s.

python eval_loader_timing.py --eval-batches 40 --batch 256
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


class EvalLoader:
    """Yields (images, labels) numpy batches, like a tf.data / grain loader would."""

    def __init__(self, n_batches, batch, hw=32, seed=0):
        self.n_batches, self.batch, self.hw = n_batches, batch, hw
        self.rng = np.random.default_rng(seed)

    def __iter__(self):
        for _ in range(self.n_batches):
            imgs = self.rng.random((self.batch, self.hw, self.hw, 3), dtype=np.float32)
            labels = self.rng.integers(0, 10, self.batch)
            yield imgs, labels

    def __len__(self):
        return self.n_batches


def init_params(key, hw=32, hidden=256):
    k1, k2 = jax.random.split(key)
    return {
        "w1": jax.random.normal(k1, (hw * hw * 3, hidden)) * 0.02,
        "w2": jax.random.normal(k2, (hidden, 10)) * 0.02,
    }


@jax.jit
def eval_step(params, imgs, labels):
    x = imgs.reshape(imgs.shape[0], -1)
    logits = jax.nn.gelu(x @ params["w1"]) @ params["w2"]
    correct = jnp.sum(jnp.argmax(logits, -1) == labels)
    return correct


def evaluate(params, loader):
    n_correct, n_seen = 0, 0
    t0 = time.perf_counter()
    for imgs, labels in loader:
        n_correct += int(eval_step(params, imgs, labels))
        n_seen += len(labels)
    elapsed = time.perf_counter() - t0
    return n_correct / n_seen, n_seen / elapsed


def evaluate_fast(params, loader):
    """Keeps the running count on device to avoid a host round trip per batch."""
    total = jnp.zeros((), jnp.int32)
    n_seen = 0
    t0 = time.perf_counter()
    for imgs, labels in loader:
        total = total + eval_step(params, imgs, labels)
        n_seen += len(labels)
    elapsed = time.perf_counter() - t0
    return int(total) / n_seen, n_seen / elapsed


def evaluate_prefetch(params, loader):
    """Moves each batch to the device first; waits on the transfer to time the step."""
    per_batch = []
    results = []
    for imgs, labels in loader:
        t0 = time.perf_counter()
        imgs_d, labels_d = jax.device_put((imgs, labels))
        results.append(eval_step(params, imgs_d, labels_d))
        imgs_d.block_until_ready()
        per_batch.append(time.perf_counter() - t0)
    acc = float(jnp.sum(jnp.stack(results))) / (len(per_batch) * loader.batch)
    return acc, sum(per_batch) / len(per_batch)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--eval-batches", type=int, default=40)
    ap.add_argument("--batch", type=int, default=256)
    args = ap.parse_args()

    params = init_params(jax.random.PRNGKey(0))
    warm = EvalLoader(1, args.batch, seed=99)
    for imgs, labels in warm:
        eval_step(params, imgs, labels).block_until_ready()
    jnp.zeros((), jnp.int32) + eval_step(params, imgs, labels)

    acc, ips = evaluate(params, EvalLoader(args.eval_batches, args.batch))
    print(f"[sync per batch]  acc={acc:.3f}  {ips:,.0f} img/s")
    acc, ips = evaluate_fast(params, EvalLoader(args.eval_batches, args.batch))
    print(f"[device counter]  acc={acc:.3f}  {ips:,.0f} img/s")
    acc, per = evaluate_prefetch(params, EvalLoader(args.eval_batches, args.batch))
    print(f"[device_put]      acc={acc:.3f}  {per * 1e3:.3f} ms/batch")


if __name__ == "__main__":
    main()
