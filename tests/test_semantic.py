"""jaxlint's verdicts checked against what JAX does when the code runs.

``scripts/semantic_check.py`` runs every case in ``tests/semantic`` on real JAX (the CPU
backend in CI): it asks JAX whether each timed region's work was finished at the stop read
(live arrays' ``is_ready()`` there, and the time against the same work waited for) and
whether the region compiled (JAX's compile events), and compares with jaxlint's findings.
Labels say what a person thinks; this says what JAX does. A case jaxlint is known to
differ on carries its reason (``# semantic: differs:`` or ``by policy:``) and must keep
differing, so that a stale marker fails too.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "semantic_check.py"

pytest.importorskip("jax")
pytestmark = pytest.mark.slow


def _check(*args: Path | str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), "--jobs", "2", *map(str, args)],
                          capture_output=True, text=True, cwd=ROOT, timeout=1500,
                          env={**os.environ, "JAX_PLATFORMS": "cpu"})


def test_jaxlint_agrees_with_jax_on_every_case() -> None:
    proc = _check()
    assert proc.returncode == 0, proc.stdout[-6000:] + proc.stderr[-3000:]
    assert "waits: jaxlint agrees with JAX on" in proc.stdout
    assert "compiles: jaxlint agrees with JAX on" in proc.stdout


def test_a_wrong_verdict_is_caught(tmp_path: Path) -> None:
    """The check can fail: a case whose marker claims jaxlint differs, where it agrees (a
    stale marker), and a region jaxlint calls unsynced that JAX shows synced would both be
    reported. Here the stale marker."""
    case = tmp_path / "waits" / "stale.py"
    case.parent.mkdir()
    source = (ROOT / "tests" / "semantic" / "waits" / "block_method.py").read_text()
    case.write_text(source.replace('"""\n', '"""\n# semantic: differs: not really\n', 1))
    proc = _check(case)
    assert proc.returncode == 1
    assert "STALE: waits/stale" in proc.stderr


def test_cases_measured_elsewhere_are_compared_here(tmp_path: Path) -> None:
    """``--measure-only`` (on a machine with JAX but not jaxlint, an accelerator) writes
    what JAX did; ``--measured`` compares it here; a case it lacks is an error (status 2)."""
    cases = ROOT / "tests" / "semantic"
    shape, longer = cases / "waits" / "shape.py", cases / "compiles" / "list_longer.py"
    out = tmp_path / "measured.json"
    proc = _check(shape, "--measure-only", out)
    assert proc.returncode == 0, proc.stderr
    proc = _check(shape, "--measured", out)
    assert proc.returncode == 0, proc.stderr
    assert "| waits/shape | does not wait" in proc.stdout and "| agrees |" in proc.stdout
    proc = _check(shape, longer, "--measured", out)
    assert proc.returncode == 2
    assert "not measured in" in proc.stderr and "compiles/list_longer" in proc.stderr


def test_a_case_that_cannot_be_checked_is_one_line_and_status_2(tmp_path: Path) -> None:
    unmarked = tmp_path / "waits" / "unmarked.py"
    unmarked.parent.mkdir()
    unmarked.write_text("import time\nt0 = time.perf_counter()\n")
    elsewhere = tmp_path / "misc.py"
    elsewhere.write_text("x = 1\n")
    for path, says in [(unmarked, "needs exactly one line with '# semantic: stop'"),
                       (elsewhere, "not in a folder named waits or compiles"),
                       (tmp_path / "missing.py", "no such file or folder")]:
        proc = _check(path)
        assert proc.returncode == 2, proc.stderr
        assert says in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
