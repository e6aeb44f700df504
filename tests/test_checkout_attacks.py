"""A checkout someone else made, third review: what its files can make the command line do.

Each test is one attack of issue 26 that worked before the fix, run as a user would run
jaxlint on such a checkout (real subprocesses, real files)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from helpers import UNSYNCED, jaxlint


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


def _json(text: str) -> object:
    return json.loads(text)
