"""Misc helpers."""
import jax
import numpy as np


def block(tree):
    """Wait for every array in `tree` and return it."""
    return jax.block_until_ready(tree)


def synthetic_regression(n, din, dout, seed=0):
    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, din)).astype(np.float32)
    w = rng.standard_normal((din, dout)).astype(np.float32) / np.sqrt(din)
    y = np.tanh(x @ w).astype(np.float32)
    return x, y


def batches(x, y, batch):
    for i in range(0, len(x) - batch + 1, batch):
        yield x[i:i + batch], y[i:i + batch]
