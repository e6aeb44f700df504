"""Clock helpers so benchmarks read one clock consistently."""
import time

_clock = time.perf_counter


def now():
    return _clock()


def elapsed(t0):
    """Seconds since `t0` (a value returned by now())."""
    return _clock() - t0


class Stopwatch:
    """start()/stop() stopwatch.  stop(result) blocks on `result` first."""

    def __init__(self):
        self.laps = []

    def start(self):
        self._t0 = _clock()
        return self

    def stop(self, result=None):
        if result is not None:
            import jax
            jax.block_until_ready(result)
        self.laps.append(_clock() - self._t0)
        return self.laps[-1]
