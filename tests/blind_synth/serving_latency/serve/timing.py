"""Timer helpers for latency measurements."""
import time

import numpy as np


class Timer:
    """Context manager / manual timer.  `elapsed_ms` is set on exit or stop()."""

    def __init__(self, clock=time.perf_counter):
        self._clock = clock
        self.elapsed_ms = None

    def __enter__(self):
        self._start = self._clock()
        return self

    def __exit__(self, *exc):
        self.elapsed_ms = (self._clock() - self._start) * 1e3
        return False

    def start(self):
        self._start = self._clock()

    def stop(self):
        self.elapsed_ms = (self._clock() - self._start) * 1e3
        return self.elapsed_ms


class LatencyRecorder:
    def __init__(self):
        self.samples = []

    def add(self, ms):
        self.samples.append(ms)

    def report(self, name):
        a = np.asarray(self.samples)
        return f"{name:24s} n={a.size:4d} p50={np.percentile(a, 50):8.3f} p99={np.percentile(a, 99):8.3f} ms"
