#!/usr/bin/env python3
"""Score jaxlint on a blind synthetic set split into a development and a held-out part
(tests/blind_synth by default), the way corpus/evaluate.py scores the corpus.

Runs ``python -m jaxlint --format json --exit-zero --no-cache .`` inside the set's folder
(so the project index finds the mini-projects' modules as Python would), then matches
findings to ``labels.json`` (``file``, ``line``, ``start_line``, and ``cell`` from 1 among
all cells in a notebook):

* a mistake is **found** when a finding is at its ``line``, or a JAX105 lies anywhere from
  ``start_line`` to ``line`` (JAX105 reports at the compiling call);
* a correct region is **flagged** when a finding other than JAX104 is at its ``line``
  (JAX104 says the region *is* synced, through a host copy; the labels count a host read as
  a sync), or a JAX105 lies in it.

Each label belongs to a group: a script or notebook of ``scripts/`` or ``notebooks/``, else
the top-level folder (a mini-project). ``corpus/split.py`` puts a group in the development
or the held-out part. Only the development part's misses and false alarms are listed; the
held-out part's figures are printed, its cases only with ``--show-heldout`` (read them only
once the work is measured).

Usage: python scripts/score_blind.py [FOLDER] [--json OUT] [--show-heldout]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "corpus"))
import split  # noqa: E402
from score_holdout import scored_line  # noqa: E402  (one rule for where a finding counts)

Key = tuple[str, "int | None", int]  # (file, cell or None, line)



def group(path: str) -> str:
    parts = Path(path).parts
    return parts[1] if parts[0] in ("scripts", "notebooks") and len(parts) > 1 else parts[0]


def findings(folder: Path) -> dict[Key, list[str]]:
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "--format", "json", "--exit-zero",
                           "--no-cache", "."], cwd=folder, capture_output=True, text=True)
    if proc.returncode not in (0, 1, 2):
        raise SystemExit(f"jaxlint failed ({proc.returncode}): {proc.stderr.strip()}")
    out: dict[Key, list[str]] = defaultdict(list)
    for f in json.loads(proc.stdout or "[]"):
        if "code" not in f:
            continue  # an error record
        path = Path(f["path"]).as_posix().removeprefix("./")
        out[(path, f.get("cell"), scored_line(f))].append(f["code"])
    return out


def score(labels: list[dict], found: dict[Key, list[str]]) -> tuple[dict, list, list]:
    per: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])  # found, m, flagged, c
    misses, alarms = [], []
    for lab in labels:
        cell = lab.get("cell")
        at = found.get((lab["file"], cell, lab["line"]), [])
        lo, hi = sorted((lab.get("start_line", lab["line"]), lab["line"]))
        compiling = any("JAX105" in codes for (path, c, line), codes in found.items()
                        if path == lab["file"] and c == cell and lo <= line <= hi)
        part = split.part_of(group(lab["file"]))
        row = per[part]
        if lab["label"] == "mistake":
            hit = bool(at) or compiling
            row[0] += hit
            row[1] += 1
            if not hit:
                misses.append((part, lab))
        else:
            flagged = compiling or any(c != "JAX104" for c in at)
            row[2] += flagged
            row[3] += 1
            if flagged:
                alarms.append((part, lab, at))
    return per, misses, alarms


def pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100 * n / d:.0f}%)" if d else "0/0 (-)"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?", default=str(ROOT / "tests" / "blind_synth"))
    ap.add_argument("--json", help="write the scores here")
    ap.add_argument("--show-heldout", action="store_true")
    args = ap.parse_args(argv)
    folder = Path(args.folder).resolve()
    labels = json.loads((folder / "labels.json").read_text())
    per, misses, alarms = score(labels, findings(folder))
    print("| part | mistakes found | correct regions flagged |\n| --- | --- | --- |")
    for part in (split.DEV, split.HELDOUT):
        f, m, fl, c = per[part]
        print(f"| {part} | {pct(f, m)} | {pct(fl, c)} |")
    shown = {split.DEV, split.HELDOUT} if args.show_heldout else {split.DEV}
    print("\nmisses:")
    for part, lab in misses:
        if part in shown:
            where = f"{lab['file']}:" + (f"cell {lab['cell']}:" if lab.get("cell") else "")
            print(f"  {where}{lab['line']} [{lab['code']}] {lab.get('category')}: {lab['why']}")
    print("false alarms:")
    for part, lab, at in alarms:
        if part in shown:
            where = f"{lab['file']}:" + (f"cell {lab['cell']}:" if lab.get("cell") else "")
            print(f"  {where}{lab['line']} {at} {lab.get('category')}: {lab['why']}")
    if args.json:
        Path(args.json).write_text(json.dumps({p: dict(zip(("found", "mistakes", "flagged",
                                                            "correct"), v))
                                               for p, v in per.items()}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
