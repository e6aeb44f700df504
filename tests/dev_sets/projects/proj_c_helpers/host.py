"""Host-side conversion helpers."""
import numpy as np


def to_numpy(x):
    return np.asarray(x)


def summarize(x):
    arr = np.asarray(x)
    return {"mean": float(arr.mean()), "max": float(arr.max())}
