import time
from contextlib import contextmanager


@contextmanager
def timer(name, logger=print):
    t0 = time.perf_counter()
    yield
    logger(f"[{name}] {time.perf_counter() - t0:.4f}s")


class Throughput:
    def __init__(self, n_items):
        self.n = n_items
        self.rate = None

    def __enter__(self):
        self._t = time.monotonic()
        return self

    def __exit__(self, *exc):
        self.rate = self.n / (time.monotonic() - self._t)
        return False
