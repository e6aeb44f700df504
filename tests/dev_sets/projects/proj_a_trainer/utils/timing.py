"""Small wall-clock helpers shared by the training scripts."""
import time
from functools import wraps


class Timer:
    """Context manager that records elapsed wall time in seconds."""

    def __init__(self, name="block"):
        self.name = name
        self.elapsed = None
        self._t0 = None

    def __enter__(self):
        self._t0 = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.elapsed = time.perf_counter() - self._t0
        return False

    def __repr__(self):
        return f"Timer({self.name!r}, elapsed={self.elapsed})"


def timed(fn):
    """Decorator: stores the duration of the most recent call on the wrapper."""

    @wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        out = fn(*args, **kwargs)
        wrapper.last_elapsed = time.perf_counter() - t0
        return out

    wrapper.last_elapsed = None
    return wrapper
