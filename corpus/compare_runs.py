#!/usr/bin/env python3
"""Compare two saved corpus runs, and score a run by labelling round.

A change to the analysis is judged by a run before it and a run after it
(``evaluate.py --no-write --jaxlint-src SNAPSHOT``, each saved as ``.cache/last_run.json``;
copy the first away before making the second). This prints, for the development part, each
file whose findings changed (what was lost, what is new); for the held-out part only how many
files changed, so that its cases are not read while the analysis changes.

    python corpus/compare_runs.py BEFORE.json AFTER.json
    python corpus/compare_runs.py --rounds RUN.json   # development and held-out rows per round

``--rounds`` groups the labelled repositories by when and by whom they were labelled
(``added`` and ``labeller`` in sources.json), as README's accuracy table does, and scores the
run on each group with ``evaluate.py --rescore``.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from split import part_of  # noqa: E402

Finding = tuple[object, object, object]

ROUNDS: dict[str, Callable[[dict], bool]] = {
    "labelled 2026-12-01 and before": lambda e: e.get("added") in (None, "2026-12-01"),
    "first 48 of 2026-12-03 (L6-L9)": lambda e: e.get("labeller") in ("L6", "L7", "L8", "L9"),
    "next 52 of 2026-12-03 (L10, L12, L13)": lambda e: e.get("labeller") in ("L10", "L12",
                                                                              "L13"),
    "last 13 of 2026-12-03 (L11)": lambda e: e.get("labeller") == "L11",
    "23 of 2026-12-04 (L14-L16)": lambda e: e.get("labeller") in ("L14", "L15", "L16"),
    "27 of 2026-12-05 (L17-L19)": lambda e: e.get("labeller") in ("L17", "L18", "L19"),
    "41 of 2026-12-06 (L20-L25)": lambda e: e.get("added") == "2026-12-06",
    "36 of 2026-12-07 (L26-L30)": lambda e: e.get("added") == "2026-12-07",
    "35 of 2026-12-07, later (L31-L35)": lambda e: e.get("labeller") in ("L31", "L32", "L33",
                                                                          "L34", "L35"),
}


def _findings(run: dict) -> dict[tuple[str, str], set[Finding]]:
    return {(f["project"], f["path"]): {(g.get("line"), g.get("cell"), g.get("code"))
                                        for g in f.get("findings", [])}
            for f in run["files"]}


def compare(before: Path, after: Path) -> None:
    old = _findings(json.loads(before.read_text(encoding="utf-8")))
    new = _findings(json.loads(after.read_text(encoding="utf-8")))
    held_out = 0
    for key in sorted(old.keys() | new.keys()):
        was, now = old.get(key, set()), new.get(key, set())
        if was == now:
            continue
        if part_of(key[0]) != "development":
            held_out += 1  # counted, never shown
            continue
        print(f"{key[0]} {key[1]}: lost {sorted(was - now, key=str)}, "
              f"new {sorted(now - was, key=str)}")
    print(f"held-out files whose findings changed: {held_out}")


def rounds(run: Path) -> None:
    sources = json.loads((HERE / "sources.json").read_text(encoding="utf-8"))
    for name, picks in ROUNDS.items():
        args: list[str] = []
        for entry in sources:
            if picks(entry):
                args += ["--project", entry["name"]]
        out = subprocess.run([sys.executable, str(HERE / "evaluate.py"), "--rescore", str(run),
                              "--no-write", *args], capture_output=True, text=True,
                             check=True).stdout
        for line in out.splitlines():
            cells = [c.strip() for c in line.strip("|").split("|")]
            if len(cells) > 2 and cells[0] in ("development", "**held-out**") and "/" in cells[1]:
                print(f"{name}: {cells[0].strip('*')}: found {cells[1]}, flagged {cells[2]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("runs", nargs="+", type=Path, help="BEFORE AFTER, or one RUN")
    parser.add_argument("--rounds", action="store_true",
                        help="score one run by labelling round instead")
    args = parser.parse_args()
    if args.rounds:
        if len(args.runs) != 1:
            parser.error("--rounds takes one saved run")
        rounds(args.runs[0])
    elif len(args.runs) == 2:
        compare(*args.runs)
    else:
        parser.error("give two saved runs (before, after), or --rounds and one")
    return 0


if __name__ == "__main__":
    sys.exit(main())
