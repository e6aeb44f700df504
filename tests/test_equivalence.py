"""Changing how the analysis computes must not change what it answers.

tests/data/findings_baseline.json records every finding (code, position, message, fix
safety) and the sha256 of the ``--fix --unsafe-fixes`` output for every fixture and holdout
file, as the analysis gave them before its state was rebuilt on ticks (linear cost). A
change meant to alter answers re-records it, and the diff of the JSON is the review:

    python scripts/findings_snapshot.py --write tests/data/findings_baseline.json \\
        fixtures tests/holdout
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import findings_snapshot  # noqa: E402

BASELINE = ROOT / "tests" / "data" / "findings_baseline.json"


BEFORE = json.loads(BASELINE.read_text())
SETS = ["fixtures", "tests/holdout"]


def _files() -> list[str]:
    import os

    here = os.getcwd()
    os.chdir(ROOT)  # the baseline's names are relative to the project's root
    try:
        return [p.as_posix() for p in findings_snapshot.files_under(SETS)]
    finally:
        os.chdir(here)


FILES = _files()


@pytest.mark.slow
def test_the_record_covers_the_same_files() -> None:
    assert sorted(BEFORE) == sorted(FILES)
    assert len(FILES) >= 180


# One test a file, so that the test processes share the work.
@pytest.mark.slow
@pytest.mark.parametrize("name", FILES)
def test_findings_and_fixes_as_recorded(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    now = {name: findings_snapshot.snapshot_of(Path(name))}
    assert findings_snapshot.differences({name: BEFORE.get(name)}, now) == []
