#!/usr/bin/env python3
"""Score jaxlint on a labelled holdout folder (tests/holdout_blind by default).

Runs ``python -m jaxlint --format json --exit-zero --no-cache`` on the folder from inside it
(so the project index finds the mini-projects' modules as Python would), then matches
findings to ``labels.json``: a mistake is *found* when a finding is at its line, a correct
region is *flagged* when one is; JAX105 reports at the compiling call, so a JAX105 finding
anywhere from the region's start to its stop counts for it too. JAX104 (synced, but through
a host copy) does not count either way: the labels count a host read as a sync, as the
JAX101 rule does. Findings at unlabelled lines are listed (a timer's internals, a
decorator's wrapper: labels sit at the use site). Prints recall, false-alarm rate, per
category, and every miss and false alarm.

Usage: python scripts/score_holdout.py [FOLDER] [--json OUT]
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent



def scored_line(f: dict) -> int:
    """Where a finding counts: its line, or for JAX107 (reported at the sync that cannot
    wait) the stop read of the region it is about."""
    if f.get("code") == "JAX107" and f.get("region"):
        return int(f["region"]["stop"]["line"])
    return int(f["line"])

def findings(folder: Path) -> dict[tuple[str, int], list[str]]:
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "--format", "json", "--exit-zero",
                           "--no-cache", "."], cwd=folder, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        raise SystemExit(f"jaxlint failed ({proc.returncode}): {proc.stderr.strip()}")
    out: dict[tuple[str, int], list[str]] = defaultdict(list)
    for f in json.loads(proc.stdout):
        if f["code"] == "JAX104":
            continue
        path = str(Path(f["path"]).as_posix()).removeprefix("./")
        out[(path, scored_line(f))].append(f["code"])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("folder", nargs="?", default=str(ROOT / "tests" / "holdout_blind"))
    ap.add_argument("--json", help="write the scores here")
    args = ap.parse_args(argv)
    folder = Path(args.folder).resolve()
    labels = json.loads((folder / "labels.json").read_text())
    found = findings(folder)
    per = defaultdict(lambda: [0, 0, 0, 0])  # found, mistakes, flagged, correct
    misses, alarms = [], []
    compiling: dict[str, list[int]] = defaultdict(list)
    for (path, line), codes in found.items():
        if "JAX105" in codes:
            compiling[path].append(line)
    spans: set[tuple[str, int]] = set()
    for lab in labels:
        key = (lab["file"], lab["line"])
        lo, hi = sorted((lab.get("start_line", lab["line"]), lab["line"]))
        inside = [n for n in compiling[lab["file"]] if lo <= n <= hi]
        spans.update((lab["file"], n) for n in inside)
        hit = key in found or bool(inside)
        row = per[lab.get("category", "-")]
        if lab["label"] == "mistake":
            row[1] += 1
            row[0] += hit
            if not hit:
                misses.append(lab)
        else:
            row[3] += 1
            row[2] += hit
            if hit:
                alarms.append((lab, found[key]))
    labelled = {(x["file"], x["line"]) for x in labels} | spans
    stray = sorted(k for k in found if k not in labelled)
    tot = [sum(r[i] for r in per.values()) for i in range(4)]
    print(f"mistakes found: {tot[0]}/{tot[1]} ({100 * tot[0] / max(tot[1], 1):.0f}%)")
    print(f"correct flagged: {tot[2]}/{tot[3]} ({100 * tot[2] / max(tot[3], 1):.1f}%)")
    print("\n| category | found | flagged |\n| --- | --- | --- |")
    for cat, (f, m, fl, c) in sorted(per.items()):
        print(f"| {cat} | {f}/{m} | {fl}/{c} |")
    print("\nmisses:")
    for lab in misses:
        print(f"  {lab['file']}:{lab['line']} [{lab.get('code')}] {lab.get('category')}: "
              f"{lab['why']}")
    print("false alarms:")
    for lab, codes in alarms:
        print(f"  {lab['file']}:{lab['line']} {codes} {lab.get('category')}: {lab['why']}")
    print("findings at unlabelled lines:")
    for path, line in stray:
        print(f"  {path}:{line} {found[(path, line)]}")
    if args.json:
        Path(args.json).write_text(json.dumps({"found": tot[0], "mistakes": tot[1],
                                               "flagged": tot[2], "correct": tot[3],
                                               "per_category": per}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
