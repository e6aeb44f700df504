"""The last line of defence against a file that would take the analysis minutes or
gigabytes: a bound on the statements and expressions interpreted, and on the pending
entries recorded at timer reads. The engine turns ``TooComplex`` into the file's one error
line (``too complex to analyse (...)``); the rest of the run goes on.

Measured on the labelled real-world corpus (the 100 of its 2,686 files that pass the
prefilter): the most any file needs is 12,154 steps and 12 recorded entries, so the bounds
leave a margin of about 400x. The interpretation runs at 100,000-300,000 steps a second on
a 2-core machine, so a file stopped by the step bound has cost 20-50 s.
"""

from __future__ import annotations

MAX_STEPS = 5_000_000
MAX_RECORDED = 2_000_000


class TooComplex(Exception):
    """The file needs more analysis than the budget allows; the message says which part."""
