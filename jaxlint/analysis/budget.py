"""The last line of defence against a file that would take the analysis minutes or
gigabytes: a bound on the statements and expressions interpreted, and on the pending
entries recorded at timer reads. The engine turns ``TooComplex`` into the file's one error
line (``too complex to analyse (...)``); the rest of the run goes on.

The largest file of the benchmark corpus needs far fewer steps (benchmarks/RESULTS.md); the
interpretation runs at about 100,000 steps a second on the machine it was measured on.
"""

from __future__ import annotations

MAX_STEPS = 5_000_000
MAX_RECORDED = 2_000_000


class TooComplex(Exception):
    """The file needs more analysis than the budget allows; the message says which part."""
