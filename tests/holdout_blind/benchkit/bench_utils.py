"""Framework-agnostic timing helpers (also used by the torch baselines)."""
import statistics
import time


def time_it(fn, *args, repeats=10):
    fn(*args)  # warm-up
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn(*args)
        t1 = time.perf_counter()
        samples.append(t1 - t0)
    return statistics.median(samples)


def time_it_blocking(fn, *args, repeats=10):
    out = fn(*args)
    out.block_until_ready()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn(*args)
        out.block_until_ready()
        samples.append(time.perf_counter() - t0)
    return min(samples)


def wall(fn, *args):
    start = time.time()
    res = fn(*args)
    return res, time.time() - start
