import functools
import time

import numpy as np


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*a, **k):
        t = time.perf_counter()
        r = fn(*a, **k)
        wrapper.last = time.perf_counter() - t
        return r

    wrapper.last = None
    return wrapper


def measure(fn, *args, n=5):
    best = float("inf")
    for _ in range(n):
        t = time.perf_counter()
        r = fn(*args)
        np.asarray(r)
        best = min(best, time.perf_counter() - t)
    return best
