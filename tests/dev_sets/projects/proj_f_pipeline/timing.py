import time
from functools import wraps


def timed(fn):
    """Return (result, seconds) instead of just result."""

    @wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter_ns()
        result = fn(*args, **kwargs)
        return result, (time.perf_counter_ns() - t0) / 1e9

    return wrapper
