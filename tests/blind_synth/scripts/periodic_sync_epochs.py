"""Epoch timing for a small VAE where we only pull the loss every `--sync-every` steps.

python periodic_sync_epochs.py --epochs 3 --steps 1000 --sync-every 100
"""
import argparse
import time

import jax
import jax.numpy as jnp
import optax


def init(key, d=256, z=16, h=512):
    ks = jax.random.split(key, 4)
    g = lambda k, s: jax.random.normal(k, s) * (1.0 / jnp.sqrt(s[0]))
    return {"e1": g(ks[0], (d, h)), "e2": g(ks[1], (h, 2 * z)), "d1": g(ks[2], (z, h)), "d2": g(ks[3], (h, d))}


def elbo_loss(p, x, key):
    stats = jax.nn.gelu(x @ p["e1"]) @ p["e2"]
    mu, logvar = jnp.split(stats, 2, axis=-1)
    z = mu + jnp.exp(0.5 * logvar) * jax.random.normal(key, mu.shape)
    rec = jax.nn.gelu(z @ p["d1"]) @ p["d2"]
    kl = -0.5 * jnp.sum(1 + logvar - mu ** 2 - jnp.exp(logvar), axis=-1)
    return jnp.mean(jnp.sum((rec - x) ** 2, axis=-1) + kl)


def build(tx):
    @jax.jit
    def step(p, s, x, key):
        loss, g = jax.value_and_grad(elbo_loss)(p, x, key)
        u, s = tx.update(g, s, p)
        return optax.apply_updates(p, u), s, loss
    return step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--sync-every", type=int, default=100)
    ap.add_argument("--batch", type=int, default=128)
    args = ap.parse_args()

    key = jax.random.PRNGKey(0)
    p = init(key)
    tx = optax.adam(1e-3)
    s = tx.init(p)
    step = build(tx)
    x = jax.random.normal(jax.random.PRNGKey(1), (args.batch, 256))
    p, s, loss = step(p, s, x, key)
    loss.block_until_ready()

    for epoch in range(args.epochs):
        keys = jax.random.split(jax.random.fold_in(key, epoch), args.steps)
        keys.block_until_ready()
        t0 = time.perf_counter()
        for i in range(args.steps):
            p, s, loss = step(p, s, x, keys[i])
            if i % args.sync_every == 0:
                last = float(loss)
        epoch_s = time.perf_counter() - t0
        print(f"epoch {epoch}: {epoch_s:.2f}s  ({args.steps / epoch_s:.0f} steps/s)  loss@last-sync {last:.2f}")

    # variant used for the paper table: sync on the last step of each window
    for epoch in range(args.epochs):
        keys = jax.random.split(jax.random.fold_in(key, 100 + epoch), args.steps)
        keys.block_until_ready()
        t0 = time.perf_counter()
        for i in range(1, args.steps + 1):
            p, s, loss = step(p, s, x, keys[i - 1])
            if i % args.sync_every == 0:
                last = float(loss)
        epoch_s = time.perf_counter() - t0
        print(f"epoch {epoch}: {epoch_s:.2f}s  ({args.steps / epoch_s:.0f} steps/s)  loss {last:.2f}")


if __name__ == "__main__":
    main()
