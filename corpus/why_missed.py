#!/usr/bin/env python3
"""Where the analysis lost each labelled mistake it misses, by stage.

For every labelled mistake of a saved run with no finding at its line (nor a JAX105 in its
region), this asks ``jaxlint --explain PATH:LINE`` (``jaxlint.quiet``) why there is none and
sorts the answer into a stage: the prefilter skipped the file, the module was taken not to
be JAX code, no region ends at the line, a harness is there, the region's work was seen
waited for, or no work was seen in it (and which calls it could not see into: objects of an
unknown class, unknown functions, another package's functions, methods inherited from
another package's class, or only calls it followed and found empty).

    python corpus/why_missed.py RUN.json [--show] [--jaxlint-src DIR]

The development part is printed case by case with ``--show`` (its explanation, its
label); the held-out part only as counts, so that its cases are not read while the analysis
changes. ``--jaxlint-src``: the jaxlint sources the run was made with (as
``evaluate.py``'s), default this checkout's.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import evaluate as E  # noqa: E402
import fetch  # noqa: E402
from split import part_of  # noqa: E402

STAGES = (
    ("did not analyse this file", "prefilter skipped the file"),
    ("did not analyse this module", "module taken not to be JAX code"),
    ("No timed region ends", "no region ends at the line"),
    ("The benchmark harness", "a harness at the line"),
)
UNSEEN = (
    ("whose class jaxlint does not know", "objects"),
    ("does not know what it calls", "unknown functions"),
    ("is outside this project", "other packages"),
    ("inherits from a class", "inherited methods"),
)


def stage(text: str) -> str:
    """The stage a ``--explain`` answer names, in a few words."""
    if not text.strip():
        return "no answer"
    if ": error: " in text:
        return "file could not be checked"
    for needle, name in STAGES:
        if needle in text:
            if "compiles in its first timed run" in text:
                name += ", compiling in its first run"
            return name
    where = " (line inside the region)" if "This line is inside" in text else ""
    if "sees no JAX work" in text:
        kinds = [name for needle, name in UNSEEN if needle in text]
        if not kinds:
            kinds = ["only calls it followed" if "followed and found" in text
                     else "no call it could not see"]
        return "no work seen: " + ", ".join(kinds) + where
    if "still running when the clock is read" in text:
        return "work left running, not reported" + where
    if "waited for" in text:
        return "work seen, taken as waited for" + where
    return "other"


def explain(lab: dict, src: Path | None) -> str:
    name, ref = fetch.key_of(lab)
    root = fetch.SRC_DIR / f"{name}-{fetch.short_ref(ref)}"
    at = f"{lab['path']}:{lab['cell']}:{lab['line']}" if lab.get("cell") else \
        f"{lab['path']}:{lab['line']}"
    env = dict(os.environ)
    if src is not None:
        env["PYTHONPATH"] = str(src.resolve())
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "--no-cache", "--explain", at],
                          cwd=root, capture_output=True, text=True, env=env, timeout=600)
    return proc.stdout + proc.stderr


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("run", type=Path, help="a saved run (evaluate.py's last_run.json)")
    parser.add_argument("--show", action="store_true",
                        help="print each development case's answer and label")
    parser.add_argument("--jaxlint-src", type=Path, default=None, metavar="DIR")
    args = parser.parse_args(argv)
    results, _ = E.load_run(args.run)
    rows, _, _ = E.evaluate(E.load_labels(), results)
    counts: dict[str, Counter[str]] = {"development": Counter(), "held-out": Counter()}
    for row in rows:
        lab = row["label"]
        if lab["label"] != "mistake" or row["at_line"] or any(
                f["code"] == "JAX105" for f in row["in_region"]):
            continue
        part = part_of(lab["project"])
        text = explain(lab, args.jaxlint_src)
        kind = f"{lab['code']} {stage(text)}"
        counts[part][kind] += 1
        if args.show and part == "development":
            print(f"## {kind} | {lab['project']} {lab['path']}"
                  f"{':' + str(lab['cell']) if lab.get('cell') else ''}:{lab['line']}")
            print(text.rstrip())
            print(f"   label: {lab['why']}\n", flush=True)
    for part, found in counts.items():
        print(f"== {part}: {sum(found.values())} missed mistakes")
        for kind, n in sorted(found.items(), key=lambda kv: (-kv[1], kv[0])):
            print(f"   {n:4d}  {kind}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
