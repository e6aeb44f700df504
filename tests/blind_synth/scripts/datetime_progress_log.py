"""Long-running denoising-autoencoder training with wall-clock progress lines.

python datetime_progress_log.py --epochs 3 --steps-per-epoch 200
"""
import argparse
import datetime as dt

import jax
import jax.numpy as jnp
import optax


def init(key, d, h):
    k1, k2 = jax.random.split(key)
    return {"enc": jax.random.normal(k1, (d, h)) * 0.05, "dec": jax.random.normal(k2, (h, d)) * 0.05}


def loss_fn(p, x, key):
    noisy = x + 0.3 * jax.random.normal(key, x.shape)
    rec = jax.nn.relu(noisy @ p["enc"]) @ p["dec"]
    return jnp.mean((rec - x) ** 2)


def make_train_step(tx):
    @jax.jit
    def train_step(p, s, x, key):
        loss, g = jax.value_and_grad(loss_fn)(p, x, key)
        u, s = tx.update(g, s)
        return optax.apply_updates(p, u), s, loss
    return train_step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--steps-per-epoch", type=int, default=200)
    ap.add_argument("--dim", type=int, default=784)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--batch", type=int, default=128)
    args = ap.parse_args()

    key = jax.random.PRNGKey(0)
    p = init(key, args.dim, args.hidden)
    tx = optax.sgd(0.05, momentum=0.9)
    s = tx.init(p)
    train_step = make_train_step(tx)
    data = jax.random.uniform(jax.random.PRNGKey(1), (args.steps_per_epoch, args.batch, args.dim))

    run_start = dt.datetime.now()
    for epoch in range(args.epochs):
        ep_start = dt.datetime.now()
        for i in range(args.steps_per_epoch):
            key, sub = jax.random.split(key)
            p, s, loss = train_step(p, s, data[i], sub)
        print(f"[{dt.datetime.now():%H:%M:%S}] epoch {epoch} took {dt.datetime.now() - ep_start} loss={loss:.5f}")
    elapsed = dt.datetime.now() - run_start
    print(f"finished {args.epochs} epochs in {elapsed.total_seconds():.1f}s")


if __name__ == "__main__":
    main()
