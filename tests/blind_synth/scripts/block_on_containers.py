"""Timing a multi-head model whose forward returns several outputs.

python block_on_containers.py --batch 512 --iters 20
"""
import argparse
import dataclasses
import time

import jax
import jax.numpy as jnp
import numpy as np


@dataclasses.dataclass
class Heads:
    """Plain dataclass (not registered as a pytree)."""
    logits: jax.Array
    boxes: jax.Array
    score: jax.Array


@jax.tree_util.register_dataclass
@dataclasses.dataclass
class HeadsTree:
    logits: jax.Array
    boxes: jax.Array
    score: jax.Array


def init(key, d=256, n_cls=80):
    k1, k2, k3 = jax.random.split(key, 3)
    return {"trunk": jax.random.normal(k1, (d, d)) * 0.05,
            "cls": jax.random.normal(k2, (d, n_cls)) * 0.05,
            "box": jax.random.normal(k3, (d, 4)) * 0.05}


@jax.jit
def forward(p, x):
    h = jax.nn.relu(x @ p["trunk"])
    h = jax.nn.relu(h @ p["trunk"])
    logits = h @ p["cls"]
    boxes = jax.nn.sigmoid(h @ p["box"])
    return logits, boxes, jax.nn.softmax(logits).max(-1)


def run_plain(p, x):
    return Heads(*forward(p, x))


def run_tree(p, x):
    return HeadsTree(*forward(p, x))


def bench(label, fn, iters):
    ts = []
    for _ in range(iters):
        t0 = time.perf_counter()
        fn()
        ts.append(time.perf_counter() - t0)
    print(f"{label:34s} {np.median(ts) * 1e3:8.3f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--d", type=int, default=256)
    ap.add_argument("--iters", type=int, default=20)
    args = ap.parse_args()

    p = init(jax.random.PRNGKey(0), args.d)
    x = jax.random.normal(jax.random.PRNGKey(1), (args.batch, args.d))
    jax.block_until_ready(forward(p, x))

    outs = forward(p, x)
    t0 = time.perf_counter()
    outs = forward(p, x)
    jax.block_until_ready(o for o in outs)
    t_gen = time.perf_counter() - t0

    t0 = time.perf_counter()
    heads = run_plain(p, x)
    jax.block_until_ready(heads)
    t_plain = time.perf_counter() - t0

    t0 = time.perf_counter()
    heads_t = run_tree(p, x)
    jax.block_until_ready(heads_t)
    t_tree = time.perf_counter() - t0

    t0 = time.perf_counter()
    logits, boxes, score = forward(p, x)
    score.block_until_ready()
    t_leaf = time.perf_counter() - t0

    print(f"generator  {t_gen * 1e3:8.3f} ms")
    print(f"dataclass  {t_plain * 1e3:8.3f} ms")
    print(f"pytree dc  {t_tree * 1e3:8.3f} ms")
    print(f"one leaf   {t_leaf * 1e3:8.3f} ms")
    bench("forward + block on tuple", lambda: jax.block_until_ready(forward(p, x)), args.iters)
    print("mean score", float(heads.score.mean()), float(heads_t.score.mean()))


if __name__ == "__main__":
    main()
