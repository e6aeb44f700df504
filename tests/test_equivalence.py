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

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT / "scripts"))
import findings_snapshot  # noqa: E402

BASELINE = ROOT / "tests" / "data" / "findings_baseline.json"


@pytest.mark.slow
def test_findings_and_fixes_as_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    before = json.loads(BASELINE.read_text())
    now = findings_snapshot.snapshot(["fixtures", "tests/holdout"])
    assert findings_snapshot.differences(before, now) == []
    assert len(now) >= 180
