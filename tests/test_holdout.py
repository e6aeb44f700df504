"""A blind set: scripts written and labelled (one label per timed region) by someone who had
not seen the analysis. Every labelled mistake must be found, no correct region flagged, and
nothing reported at a line that is not a labelled region.

The labels judge whether the region's work is waited for at all (JAX101, or JAX103 when the
wait is on the wrong value); host-transfer syncs were labelled correct, as JAX101 counts them.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxlint import fix_source, lint_source

HOLDOUT = Path(__file__).parent / "holdout"
LABELS = json.loads((HOLDOUT / "labels.json").read_text())
# (JAX107 is the one finding of a region whose sync cannot wait: it counts at the region's
# stop read, where JAX101 would be)
UNSYNCED = ("JAX101", "JAX103", "JAX107")


def _findings() -> dict[str, set[int]]:
    return {
        p.name: {f.region[1] if f.code == "JAX107" and f.region else f.line
                 for f in lint_source(p.read_bytes(), str(p), select=UNSYNCED)}
        for p in sorted(HOLDOUT.glob("*.py"))
    }


def test_recall_and_precision_on_blind_set() -> None:
    found = _findings()
    missed = [(x["file"], x["line"]) for x in LABELS
              if x["label"] == "mistake" and x["line"] not in found[x["file"]]]
    false = [(x["file"], x["line"]) for x in LABELS
             if x["label"] == "correct" and x["line"] in found[x["file"]]]
    labelled = {(x["file"], x["line"]) for x in LABELS}
    stray = [(f, n) for f, lines in found.items() for n in lines if (f, n) not in labelled]
    assert (missed, false, stray) == ([], [], [])
    assert sum(x["label"] == "mistake" for x in LABELS) >= 40


@pytest.mark.slow
def test_every_holdout_fix_is_clean_and_idempotent() -> None:
    for p in sorted(HOLDOUT.glob("*.py")):
        fixed = fix_source(p.read_bytes(), str(p)).source
        compile(fixed, str(p), "exec")
        assert [f for f in lint_source(fixed, str(p)) if f.fixable and not f.unsafe] == [], p.name
        assert fix_source(fixed, str(p)).source == fixed, p.name
