"""Step-budgeted training of a linear softmax classifier (while-loop driver).

python train_while_steps.py --steps 3000 --log-every 250
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


def make_data(n, d, k, seed=0):
    rng = np.random.default_rng(seed)
    centers = rng.standard_normal((k, d)) * 3
    labels = rng.integers(0, k, size=n)
    x = centers[labels] + rng.standard_normal((n, d))
    return x.astype(np.float32), labels.astype(np.int32)


def init(key, d, k):
    return {"w": jax.random.normal(key, (d, k)) * 0.01, "b": jnp.zeros(k)}


def loss_fn(params, x, y):
    logits = x @ params["w"] + params["b"]
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, y[:, None], axis=1))


@jax.jit
def train_step(params, x, y, lr):
    loss, g = jax.value_and_grad(loss_fn)(params, x, y)
    params = jax.tree_util.tree_map(lambda p, gp: p - lr * gp, params, g)
    return params, {"loss": loss, "gnorm": optax_free_norm(g)}


def optax_free_norm(tree):
    return jnp.sqrt(sum(jnp.sum(t ** 2) for t in jax.tree_util.tree_leaves(tree)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=50_000)
    ap.add_argument("--d", type=int, default=128)
    ap.add_argument("--classes", type=int, default=10)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--steps", type=int, default=3000)
    ap.add_argument("--log-every", type=int, default=250)
    ap.add_argument("--lr", type=float, default=0.1)
    args = ap.parse_args()

    x_all, y_all = make_data(args.n, args.d, args.classes)
    x_all, y_all = jnp.asarray(x_all), jnp.asarray(y_all)
    params = init(jax.random.PRNGKey(1), args.d, args.classes)
    lr = jnp.float32(args.lr)
    n_batches = args.n // args.batch

    step = 0
    t_begin = time.perf_counter()
    t_log = time.perf_counter()
    while step < args.steps:
        j = step % n_batches
        xb = jax.lax.dynamic_slice_in_dim(x_all, j * args.batch, args.batch)
        yb = jax.lax.dynamic_slice_in_dim(y_all, j * args.batch, args.batch)
        params, metrics = train_step(params, xb, yb, lr)
        step += 1
        if step % args.log_every == 0:
            dt = time.perf_counter() - t_log
            print(f"step {step:5d}  {args.log_every / dt:8.1f} it/s  "
                  f"loss {float(metrics['loss']):.4f}  |g| {float(metrics['gnorm']):.3f}")
            t_log = time.perf_counter()
    jax.block_until_ready(params)
    wall = time.perf_counter() - t_begin
    acc = float(jnp.mean(jnp.argmax(x_all @ params["w"] + params["b"], -1) == y_all))
    print(f"wall time {wall:.2f}s for {step} steps; train acc {acc:.3f}")


if __name__ == "__main__":
    main()
