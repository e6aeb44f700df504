#!/usr/bin/env python
"""Benchmark forward and training throughput of the mlpbench MLP.

python run_bench.py --width 1024 --depth 4 --batch 256 --reps 20
"""
import argparse

import jax
import numpy as np

from mlpbench import models, steps, timers, utils
from mlpbench.timers import timed, timer


@timed
def train_epoch(params, x, y, batch):
    for xb, yb in utils.batches(x, y, batch):
        params, loss = steps.sgd_step(params, xb, yb)
    return params, float(loss)


@timed
def predict_all(params, xs):
    return steps.predict_classes(params, xs)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--width", type=int, default=1024)
    ap.add_argument("--depth", type=int, default=4)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--n", type=int, default=8192)
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--epochs", type=int, default=3)
    args = ap.parse_args()

    din = dout = 64
    sizes = [din] + [args.width] * args.depth + [dout]
    params = models.init_mlp(jax.random.PRNGKey(0), sizes)
    print(f"{models.param_count(params) / 1e6:.2f}M parameters")
    x, y = utils.synthetic_regression(args.n, din, dout)
    xb = jax.numpy.asarray(x[: args.batch])
    utils.block(steps.forward(params, xb))

    for _ in range(args.reps):
        with timer("forward (dispatch)"):
            out = steps.forward(params, xb)

    for _ in range(args.reps):
        with timer("forward"):
            out = utils.block(steps.forward(params, xb))

    xt, yt = jax.numpy.asarray(x[: args.batch]), jax.numpy.asarray(y[: args.batch])
    params, _ = utils.block(steps.sgd_step(params, xt, yt))  # compile the train step
    for _ in range(args.reps):
        with timer("train step"):
            params, loss = steps.sgd_step(params, xt, yt)

    x_eval = jax.numpy.asarray(x[:1000])
    for i in range(0, len(x_eval), args.batch):
        with timer("eval forward"):
            utils.block(steps.forward(params, x_eval[i:i + args.batch]))

    for epoch in range(args.epochs):
        params, loss = train_epoch(params, x, y, args.batch)
        print(f"epoch {epoch}: loss {loss:.5f}")

    xs = [x[i:i + args.batch] for i in range(0, args.n, args.batch)]
    preds = predict_all(params, xs)
    print("class histogram:", np.bincount(np.asarray(preds), minlength=dout)[:8], "...")
    print(timers.summary(skip_first=True))


if __name__ == "__main__":
    main()
