#!/usr/bin/env python
"""ResNet-ish toy training with img/s logging (mirrors what train.py prints)."""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


def conv_block(p, x):
    y = jax.lax.conv_general_dilated(x, p["k"], (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC"))
    return jax.nn.relu(y + p["b"])


def model(params, x):
    for p in params["blocks"]:
        x = x + conv_block(p, x)
    return x.mean((1, 2)) @ params["head"]


@jax.jit
def train_step(params, images, labels):
    def loss_fn(params):
        logits = model(params, images)
        return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * jax.nn.one_hot(labels, 10), -1))

    loss, grads = jax.value_and_grad(loss_fn)(params)
    params = jax.tree_util.tree_map(lambda p, g: p - 0.1 * g, params, grads)
    return params, loss


def fake_loader(bs, steps, rng):
    for _ in range(steps):
        yield rng.standard_normal((bs, 32, 32, 64), dtype=np.float32), rng.integers(0, 10, bs)


def main(argv=None):
    ap = argparse.ArgumentParser()
    ap.add_argument("--bs", type=int, default=128)
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--log-every", type=int, default=20)
    args = ap.parse_args(argv)

    key = jax.random.PRNGKey(0)
    params = {
        "blocks": [{"k": jax.random.normal(key, (3, 3, 64, 64)) * 0.05, "b": jnp.zeros(64)} for _ in range(4)],
        "head": jax.random.normal(key, (64, 10)) * 0.05,
    }
    rng = np.random.default_rng(0)
    images, labels = next(fake_loader(args.bs, 1, rng))
    params, _ = train_step(params, images, labels)  # compile

    seen = 0
    tick = time.time()
    for i, (images, labels) in enumerate(fake_loader(args.bs, args.steps, rng), 1):
        params, loss = train_step(params, images, labels)
        seen += images.shape[0]
        if i % args.log_every == 0:
            tock = time.time()
            print(f"[{i:5d}] {seen / (tock - tick):8.1f} img/s")
            seen, tick = 0, time.time()

    losses = []
    tick = time.time()
    for i, (images, labels) in enumerate(fake_loader(args.bs, args.steps, rng), 1):
        params, loss = train_step(params, images, labels)
        losses.append(loss)
        if i % args.log_every == 0:
            mean_loss = np.mean(jax.device_get(losses))
            tock = time.time()
            print(f"[{i:5d}] loss {mean_loss:.3f} {args.log_every * args.bs / (tock - tick):8.1f} img/s")
            losses, tick = [], time.time()


if __name__ == "__main__":
    main()
