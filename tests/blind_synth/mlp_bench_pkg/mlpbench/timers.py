"""Timing helpers shared by the benchmark scripts."""
import contextlib
import functools
import time

RESULTS = {}


@contextlib.contextmanager
def timer(name, results=RESULTS):
    """Record the wall time of the with-block under `name` (seconds)."""
    t0 = time.perf_counter()
    try:
        yield
    finally:
        results.setdefault(name, []).append(time.perf_counter() - t0)


def timed(fn):
    """Decorator: print and record how long each call to `fn` takes."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        start = time.perf_counter()
        out = fn(*args, **kwargs)
        elapsed = time.perf_counter() - start
        RESULTS.setdefault(fn.__name__, []).append(elapsed)
        print(f"  {fn.__name__}: {elapsed * 1e3:.2f} ms")
        return out
    return wrapper


def summary(results=RESULTS, skip_first=False):
    lines = []
    for name, ts in results.items():
        ts = ts[1:] if skip_first and len(ts) > 1 else ts
        lines.append(f"{name:28s} n={len(ts):3d}  mean {1e3 * sum(ts) / len(ts):9.3f} ms")
    return "\n".join(lines)
