#!/usr/bin/env python3
"""Score jaxlint on the development sets in tests/dev_sets/ (see its README.md).

Each set is a folder with a ``labels.json``: a list of ``{"file", "line", "expected",
"why"}`` (plus ``"cell"``, 0-based among all cells, for a notebook), where ``expected`` is
``ok`` or the code of the mistake. jaxlint runs from inside the folder (so the project index
finds the mini-projects' modules as Python would). A mistake is *found* when a finding of
any code but JAX104 is at its line, or, for an ``expected`` JAX104, a JAX104 is; a correct
region is *flagged* when a finding of any code but JAX104 is at its line (the labels count a
host read as a sync, as the other sets do). Prints every miss and false alarm, then
findings at unlabelled lines, then the totals.

Usage: python scripts/score_dev_sets.py [FOLDER ...]
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from score_holdout import scored_line  # (one rule for where a finding counts)

ROOT = Path(__file__).resolve().parent.parent
SETS = ROOT / "tests" / "dev_sets"

Key = tuple[str, int | None, int]  # (file, cell or None, line)


def findings(folder: Path) -> dict[Key, list[str]]:
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "--format", "json", "--exit-zero",
                           "--no-cache", "."], cwd=folder, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"jaxlint failed ({proc.returncode}): {proc.stderr.strip()}")
    out: dict[Key, list[str]] = defaultdict(list)
    for f in json.loads(proc.stdout):
        path = str(Path(f["path"]).as_posix()).removeprefix("./")
        cell = f.get("cell")
        out[(path, cell - 1 if cell else None, scored_line(f))].append(f["code"])
    return out


def score(folder: Path) -> tuple[int, int, int, int]:
    """(mistakes found, mistakes, correct flagged, correct), printing the details."""
    labels = json.loads((folder / "labels.json").read_text())
    found = findings(folder)
    hits = mistakes = flagged = correct = 0
    labelled = set()
    print(f"## {folder.relative_to(ROOT)}")
    for label in labels:
        key = (label["file"], label.get("cell"), label["line"])
        labelled.add(key)
        got = found.get(key, [])
        expected = label["expected"]
        others = [c for c in got if c != "JAX104"]
        if expected == "ok":
            correct += 1
            flagged += bool(others)
            if others:
                print(f"  false alarm {key} {got}: {label['why']}")
        else:
            mistakes += 1
            ok = "JAX104" in got if expected == "JAX104" else bool(others)
            hits += ok
            if not ok:
                print(f"  missed {key} [{expected}] got {got}: {label['why']}")
    for key, codes in sorted(found.items(), key=lambda kv: str(kv[0])):
        if key not in labelled:
            print(f"  unlabelled {key} {codes}")
    print(f"  mistakes found {hits}/{mistakes}, correct flagged {flagged}/{correct}")
    return hits, mistakes, flagged, correct


def main(argv: list[str]) -> int:
    folders = [Path(a).resolve() for a in argv] or sorted(
        p for p in SETS.iterdir() if (p / "labels.json").is_file())
    totals = [0, 0, 0, 0]
    for folder in folders:
        for i, n in enumerate(score(folder)):
            totals[i] += n
    print(f"all: mistakes found {totals[0]}/{totals[1]}, "
          f"correct flagged {totals[2]}/{totals[3]}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
