"""Record, or check against a record, everything jaxlint says about a set of files.

For each file: every finding (code, line, column, message, whether and how it is fixable)
and the sha256 of the source ``--fix --unsafe-fixes`` would write. Used to prove that a
change of the analysis' machinery (not of its answers) leaves every answer as it was:

    python scripts/findings_snapshot.py --write before.json fixtures tests/holdout
    ... change the analysis ...
    python scripts/findings_snapshot.py --check before.json fixtures tests/holdout

``--check`` prints each difference and exits 1 if there is any. Paths are stored relative
to the current folder. ``tests/test_equivalence.py`` checks the fixtures and the holdout
against ``tests/data/findings_baseline.json`` this way.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from collections.abc import Iterable
from pathlib import Path

from jaxlint import fix_source, lint_source
from jaxlint.errors import SourceError


def files_under(paths: Iterable[str]) -> list[Path]:
    out: list[Path] = []
    for p in map(Path, paths):
        if p.is_dir():
            out += sorted(x for x in p.rglob("*.py") if not x.name.endswith(".fixed.py"))
        else:
            out.append(p)
    return out


def snapshot_of(path: Path) -> dict[str, object]:
    source = path.read_bytes()
    try:
        findings = lint_source(source, str(path))
        fixed = fix_source(source, str(path), unsafe_fixes=True).source
    except SourceError as exc:
        return {"error": str(exc)}
    digest = hashlib.sha256(fixed if isinstance(fixed, bytes) else fixed.encode()).hexdigest()
    return {
        "findings": [[f.code, f.line, f.col, f.message, f.fixable, f.unsafe] for f in findings],
        "fixed_sha256": digest,
    }


def snapshot(paths: Iterable[str]) -> dict[str, dict[str, object]]:
    return {p.as_posix(): snapshot_of(p) for p in files_under(paths)}


def differences(before: dict[str, dict[str, object]], after: dict[str, dict[str, object]]
                ) -> list[str]:
    out = []
    for name in sorted(before.keys() | after.keys()):
        a, b = before.get(name), after.get(name)
        if a != b:
            out.append(f"{name}:\n  before: {json.dumps(a)}\n  after:  {json.dumps(b)}")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--write", type=Path, help="record the snapshot in this file")
    mode.add_argument("--check", type=Path, help="compare with the snapshot in this file")
    ap.add_argument("paths", nargs="+")
    args = ap.parse_args(argv)
    now = snapshot(args.paths)
    if args.write:
        args.write.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n")
        print(f"{len(now)} files recorded in {args.write}")
        return 0
    diffs = differences(json.loads(args.check.read_text()), now)
    for d in diffs:
        print(d)
    print(f"{len(now)} files, {len(diffs)} differ")
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main())
