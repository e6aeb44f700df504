import time


class Timer:
    def __init__(self, label, verbose=True):
        self.label = label
        self.verbose = verbose
        self.seconds = float("nan")

    def __enter__(self):
        self._start = time.perf_counter()
        return self

    def __exit__(self, *exc_info):
        self.seconds = time.perf_counter() - self._start
        if self.verbose:
            print(f"{self.label}: {self.seconds * 1e3:.2f} ms")
