"""A checkout someone else made, third review: what its files can make the command line do.

Each test is one attack of issue 26 that worked before the fix, run as a user would run
jaxlint on such a checkout (real subprocesses, real files)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, UNSYNCED, jaxlint


def test_output_file_is_never_written_through_a_planted_link(tmp_path: Path) -> None:
    # ``jaxlint -o report.txt`` in a checkout whose ``report.txt`` is a link to a file of
    # the user's outside it: the file outside stays as it was, and the run says why.
    outside = tmp_path / "home" / ".bashrc"
    outside.parent.mkdir()
    outside.write_text("export PATH=$HOME/bin:$PATH\n")
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    (checkout / "bench.py").write_text(UNSYNCED)
    (checkout / "report.txt").symlink_to(outside)
    result = jaxlint("--no-cache", "-o", "report.txt", "bench.py", cwd=checkout)
    assert result.returncode == 2, result.stderr
    assert "report.txt: error: cannot write: it is a symbolic link" in result.stderr
    assert outside.read_text() == "export PATH=$HOME/bin:$PATH\n"
    # A plain file is still written (and truncated first), and so is /dev/null.
    (checkout / "plain.txt").write_text("x" * 10_000)
    result = jaxlint("--no-cache", "-o", "plain.txt", "bench.py", cwd=checkout)
    assert result.returncode == 1, result.stderr
    assert (checkout / "plain.txt").read_text().startswith("bench.py:8:")
    assert "x" * 100 not in (checkout / "plain.txt").read_text()
    assert jaxlint("--no-cache", "-o", os.devnull, "bench.py", cwd=checkout).returncode == 1
    fifo = checkout / "fifo"
    os.mkfifo(fifo)
    result = jaxlint("--no-cache", "-o", "fifo", "bench.py", cwd=checkout)
    assert result.returncode == 2 and "fifo: error: cannot write" in result.stderr


# A fresh interpreter measures (the test process's heap would make the collector's passes,
# and so the ratio, depend on what ran before); CPU time of 4x the entries over 1x.
_DICT_GROWTH = """
import gc, sys, time
sys.path.insert(0, sys.argv[1])
from jaxlint import lint_source

def shape(n):
    entries = "".join(f"    'k{i}': jnp.sin(x),\\n" for i in range(n))
    return ("import time\\nimport jax.numpy as jnp\\nx = jnp.ones(3)\\n"
            "t0 = time.perf_counter()\\nd = {\\n" + entries + "}\\n"
            "print(time.perf_counter() - t0)\\n")

small, large = shape(400), shape(1600)
assert lint_source(large, "case.py")[0].code == "JAX101"  # and the imports are warm
def cost(text):
    best = float("inf")
    for _ in range(3):
        gc.collect()
        start = time.process_time()
        lint_source(text, "case.py")
        best = min(best, time.process_time() - start)
    return best
print(cost(large) / cost(small))
"""


@pytest.mark.slow
def test_a_dict_literal_of_jax_values_costs_linear_time() -> None:
    # Issue 26, item 13: the plan for a region holding a dict of N JAX values tried every
    # pair of its entries (8,000 entries: 100 s of CPU, outside the analysis' step budget).
    proc = subprocess.run([sys.executable, "-c", _DICT_GROWTH, str(ROOT)],
                          capture_output=True, text=True, timeout=900)
    assert proc.returncode == 0, proc.stderr
    ratio = float(proc.stdout)
    assert ratio <= 6, f"4x the entries cost {ratio:.1f}x the time"


def _json(text: str) -> object:
    return json.loads(text)
