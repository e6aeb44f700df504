#!/usr/bin/env python
"""Train the same regression MLP with the JAX and the PyTorch trainer.

The package lives in src/trainer (a namespace package, no __init__.py).
python train.py --steps 300 --batch 128 --framework both
"""
import argparse
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "src"))

from trainer.callbacks import ThroughputLogger  # noqa: E402


def make_batches(steps, batch, din, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal((din, 1)).astype(np.float32)
    out = []
    for _ in range(steps):
        x = rng.standard_normal((batch, din)).astype(np.float32)
        out.append((x, np.sin(x @ w)))
    return out


def run_jax(batches, args):
    import jax
    import jax.numpy as jnp
    import optax
    from trainer.jax_trainer import JaxTrainer

    def init(key, sizes):
        ks = jax.random.split(key, len(sizes) - 1)
        return [(jax.random.normal(k, (a, b)) / np.sqrt(a), jnp.zeros(b)) for k, a, b in zip(ks, sizes[:-1], sizes[1:])]

    def loss_fn(params, batch):
        x, y = batch
        for w, b in params[:-1]:
            x = jax.nn.relu(x @ w + b)
        w, b = params[-1]
        return jnp.mean((x @ w + b - y) ** 2)

    params = init(jax.random.PRNGKey(0), [args.din, args.hidden, args.hidden, 1])
    logger = ThroughputLogger(every=args.log_every, batch_size=args.batch)
    trainer = JaxTrainer(loss_fn, params, optax.adam(1e-3), callbacks=[logger])
    trainer.fit(batches)
    loss, secs = trainer.evaluate(batches[:20])
    print(f"[jax] eval loss {loss:.4f} in {secs * 1e3:.1f} ms")


def run_torch(batches, args):
    import torch
    from trainer.torch_trainer import TorchTrainer

    model = torch.nn.Sequential(torch.nn.Linear(args.din, args.hidden), torch.nn.ReLU(),
                                torch.nn.Linear(args.hidden, args.hidden), torch.nn.ReLU(),
                                torch.nn.Linear(args.hidden, 1))
    tb = [(torch.from_numpy(x), torch.from_numpy(y)) for x, y in batches]
    logger = ThroughputLogger(every=args.log_every, batch_size=args.batch)
    trainer = TorchTrainer(model, torch.nn.functional.mse_loss, torch.optim.Adam(model.parameters(), 1e-3), [logger])
    trainer.fit(tb)
    loss, secs = trainer.evaluate(tb[:20])
    print(f"[torch] eval loss {loss:.4f} in {secs * 1e3:.1f} ms")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--batch", type=int, default=128)
    ap.add_argument("--din", type=int, default=32)
    ap.add_argument("--hidden", type=int, default=256)
    ap.add_argument("--log-every", type=int, default=50)
    ap.add_argument("--framework", choices=["jax", "torch", "both"], default="both")
    args = ap.parse_args()
    batches = make_batches(args.steps, args.batch, args.din)
    if args.framework in ("jax", "both"):
        run_jax(batches, args)
    if args.framework in ("torch", "both"):
        run_torch(batches, args)


if __name__ == "__main__":
    main()
