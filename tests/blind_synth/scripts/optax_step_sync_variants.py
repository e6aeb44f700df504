"""Which output should I block on?  Times an optax AdamW step a few ways.

python optax_step_sync_variants.py --width 1024 --iters 30
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax


def mlp(params, x):
    h = jax.nn.silu(x @ params["w1"] + params["b1"])
    return h @ params["w2"]


def loss_fn(params, x, y):
    return jnp.mean(optax.softmax_cross_entropy_with_integer_labels(mlp(params, x), y))


def build(width, n_cls, lr):
    opt = optax.chain(optax.clip_by_global_norm(1.0), optax.adamw(lr, weight_decay=1e-4))

    @jax.jit
    def train_step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    @jax.jit
    def grads_only(params, x, y):
        return jax.grad(loss_fn)(params, x, y)

    @jax.jit
    def apply_grads(params, opt_state, grads):
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state

    return opt, train_step, grads_only, apply_grads


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--classes", type=int, default=100)
    ap.add_argument("--iters", type=int, default=30)
    args = ap.parse_args()

    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {"w1": jax.random.normal(k1, (args.width, args.width)) * 0.02,
              "b1": jnp.zeros(args.width),
              "w2": jax.random.normal(k2, (args.width, args.classes)) * 0.02}
    x = jax.random.normal(k3, (args.batch, args.width))
    y = jnp.arange(args.batch) % args.classes
    opt, train_step, grads_only, apply_grads = build(args.width, args.classes, 1e-3)
    opt_state = opt.init(params)

    params, opt_state, loss = train_step(params, opt_state, x, y)
    g = grads_only(params, x, y)
    jax.block_until_ready(apply_grads(params, opt_state, g))

    fused = []
    for _ in range(args.iters):
        t0 = time.perf_counter()
        params, opt_state, loss = train_step(params, opt_state, x, y)
        loss.block_until_ready()
        fused.append(time.perf_counter() - t0)

    split = []
    for _ in range(args.iters):
        t0 = time.perf_counter()
        g = grads_only(params, x, y)
        params, opt_state = apply_grads(params, opt_state, g)
        jax.block_until_ready(g)
        split.append(time.perf_counter() - t0)

    split_ok = []
    for _ in range(args.iters):
        t0 = time.perf_counter()
        g = grads_only(params, x, y)
        params, opt_state = apply_grads(params, opt_state, g)
        jax.block_until_ready(params)
        split_ok.append(time.perf_counter() - t0)

    print(f"fused step, block on loss   {np.median(fused) * 1e3:8.3f} ms")
    print(f"split, block on grads       {np.median(split) * 1e3:8.3f} ms")
    print(f"split, block on params      {np.median(split_ok) * 1e3:8.3f} ms")
    print(f"final loss {float(loss_fn(params, x, y)):.4f}")


if __name__ == "__main__":
    main()
