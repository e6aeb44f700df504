"""Context-manager based timing that accumulates into a dict of lists."""
import statistics
import time
from collections import defaultdict
from contextlib import contextmanager

TIMINGS = defaultdict(list)


@contextmanager
def stopwatch(label, store=TIMINGS):
    start = time.perf_counter()
    try:
        yield
    finally:
        store[label].append(time.perf_counter() - start)


def report(store=TIMINGS):
    for label, values in sorted(store.items()):
        med = statistics.median(values)
        print(f"{label:>20s}: median {med * 1e3:8.3f} ms over {len(values)} runs")
