"""``jaxlint verify``: run scripts as written and as fixed, and compare what they measured.

This package executes user code; nothing else in jaxlint does.  It never imports JAX in the
calling process: every script runs in a child interpreter (``jaxlint.verify._runner``), and
matplotlib is imported only when a report is written.  (``live`` checks the code of the
process it is loaded into, a notebook's or a test suite's, which the user runs anyway.)

Modules, one job each:
  core        what to run for each file, and assembling results
  execute     one run of one script in a subprocess with a timeout
  _runner     the child side: run a script with its timers instrumented
  instrument  the timer wrappers, keyed by (file, line) of each read
  detect      --detect: every region with work still running at its stop, as findings
  live        the same check inside a running process (a notebook kernel, a test session)
  linemap     carry line numbers through the fix (difflib)
  stats       pair reads into region durations; medians, spread, verdict
  report      table, JSON, Markdown;  chart: the PNG bar chart
  command     argparse front end (``main``)
"""

from __future__ import annotations

from jaxlint.verify.command import main
from jaxlint.verify.core import VerifyError, discover, verify_paths
from jaxlint.verify.model import Device, RegionResult

__all__ = ["Device", "RegionResult", "VerifyError", "discover", "main", "verify_paths"]
