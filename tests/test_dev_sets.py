"""The development sets (tests/dev_sets): written blind, then read and fixed from, so a
regression guard rather than a measure. Scored through the CLI with the project index, as
``scripts/score_dev_sets.py`` does; the floors are the figures last measured (README,
"Measured on real code": 76 of 90 found, 0 of 70 flagged, on 2026-12-07, after NumPy
helper modules were summarised) less one site."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
import score_dev_sets  # noqa: E402

pytestmark = pytest.mark.slow


def test_dev_sets_keep_their_finds_and_flag_no_correct_region() -> None:
    totals = [0, 0, 0, 0]
    for name in ("scripts", "projects"):
        for i, n in enumerate(score_dev_sets.score(ROOT / "tests" / "dev_sets" / name)):
            totals[i] += n
    found, mistakes, flagged, correct = totals
    assert (mistakes, correct) == (90, 70)
    assert found >= 75
    assert flagged <= 1
