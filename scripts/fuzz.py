#!/usr/bin/env python3
"""Run tests/test_fuzz.py's checks with many more examples and count what goes wrong.

Instead of stopping at the first failure (as the tests do), every generated program is
checked and its problems are counted by kind: crashes (an exception other than SourceError
from lint_source/fix_source), broken fixes (a fixed program that no longer compiles), fixes
that leave a fixable finding, fixes that are not idempotent, and results that disagree with
a fresh lint. The smallest program of each kind is kept as a repro.

Usage:
    python scripts/fuzz.py                         # defaults below
    python scripts/fuzz.py --timing 2000 --unsafe 1000 --grammar 1000 --node 500
    python scripts/fuzz.py --timing 0 --unsafe 0 --grammar 0 --node 0 --notebooks 1000
    python scripts/fuzz.py --timing 0 --unsafe 0 --grammar 0 --node 0 --notebooks 0 --configs 2000
    python scripts/fuzz.py --seconds 900 --write-safety   # stop each part at a time budget

Needs ``hypothesis`` and ``hypothesmith`` (the ``test`` extra).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import importlib.util
import platform
import sys
import time
import warnings
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load(name: str, path: Path):  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _kind(problem: str) -> str:
    if problem.startswith("crash"):
        return "crash"
    if "does not compile" in problem:
        return "broken fix"
    if "fixable findings left" in problem or "made no change" in problem:
        return LEFT
    if "second fix" in problem:
        return "not idempotent"
    if "disagrees" in problem:
        return "remaining != fresh lint"
    return "other: " + problem[:60]


LEFT = "fix left a fixable finding"
KINDS = ("crash", "broken fix", LEFT)  # the table's own columns; the rest are "other"


class Tally:
    def __init__(self, name: str) -> None:
        self.name = name
        self.examples = 0
        self.distinct: set[str] = set()
        self.checked = 0  # programs that compile on this Python and were checked
        self.with_findings = 0
        self.fixed = 0
        self.kinds: Counter[str] = Counter()
        self.repros: dict[str, tuple[str, str]] = {}
        self.seconds = 0.0

    def record(self, src: str, outcome: Outcome) -> None:
        self.examples += 1
        self.distinct.add(hashlib.sha1(src.encode()).hexdigest())
        self.checked += outcome.checked
        self.with_findings += outcome.with_findings
        self.fixed += outcome.fixable
        problems = outcome.problems
        for problem in problems:
            kind = _kind(problem)
            self.kinds[kind] += 1
            if kind not in self.repros or len(src) < len(self.repros[kind][0]):
                self.repros[kind] = (src, problem)


@dataclass
class Outcome:
    problems: list[str]
    checked: int  # programs (the example, its wrapped form) that compile and were checked
    with_findings: bool
    fixable: bool  # some finding has a fix (that the mode applies)


def _findings(src: str, unsafe: bool) -> tuple[bool, bool]:
    from jaxlint import lint_source

    try:
        found = lint_source(src)
    except Exception:  # noqa: BLE001 - a crash is counted by the check itself
        return False, False
    return bool(found), any(f.fixable and (unsafe or not f.unsafe) for f in found)


def timing_check(fuzz, unsafe: bool):  # type: ignore[no-untyped-def]
    def check(src: str) -> Outcome:
        problems = fuzz.check_program(src, unsafe=unsafe)
        return Outcome(problems, int(fuzz.compiles(src)), *_findings(src, unsafe))

    return check


def grammar_check(fuzz):  # type: ignore[no-untyped-def]
    """A generated program as it is and inside a timed region (so the analysis has work)."""
    def check(src: str) -> Outcome:
        out = Outcome([], 0, False, False)
        for candidate in (src, fuzz._wrap(src)):
            if fuzz.compiles(candidate):
                out.checked += 1
                out.problems += fuzz.check_valid_python(candidate)
                found, fixable = _findings(candidate, True)
                out.with_findings |= found
                out.fixable |= fixable
        return out

    return check


def notebook_check(nbfuzz):  # type: ignore[no-untyped-def]
    """A generated notebook (JSON text), fixed with and without unsafe fixes."""
    def check(src: str) -> Outcome:
        from jaxlint.engine import Settings
        from jaxlint.notebook import lint_notebook

        data = src.encode()
        out = Outcome([], 1, False, False)
        for unsafe in (False, True):
            out.problems += nbfuzz.check_notebook(data, unsafe=unsafe)
        try:
            found = lint_notebook(data, "nb.ipynb", Settings())
        except Exception:  # noqa: BLE001 - counted by the check itself
            return out
        out.with_findings = bool(found)
        out.fixable = any(f.fixable for f in found)
        return out

    return check


def config_check(cfuzz):  # type: ignore[no-untyped-def]
    """A generated pyproject.toml: read (or refused in one line), then used to lint and fix."""
    def check(src: str) -> Outcome:
        return Outcome(cfuzz.check_config(src), 1, False, False)

    return check


def run_part(tally: Tally, strategy, check, examples: int, seconds: float,  # type: ignore[no-untyped-def]
             seed: int) -> None:
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    deadline = time.monotonic() + seconds
    started = time.monotonic()

    class _Budget(Exception):
        pass

    @hseed(seed)
    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def body(src: str) -> None:
        if time.monotonic() > deadline:
            raise _Budget
        tally.record(src, check(src))

    try:
        body()
    except _Budget:
        pass
    except Exception as exc:  # noqa: BLE001 - hypothesis flakiness etc.: count, go on
        if time.monotonic() <= deadline:  # past it, hypothesis may wrap _Budget: not a find
            tally.kinds["harness: " + type(exc).__name__] += 1
    tally.seconds = round(time.monotonic() - started, 1)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--timing", type=int, default=1000, help="timing programs, safe fixes")
    p.add_argument("--unsafe", type=int, default=400, help="timing programs, unsafe fixes")
    p.add_argument("--grammar", type=int, default=500, help="hypothesmith.from_grammar()")
    p.add_argument("--node", type=int, default=300, help="hypothesmith.from_node()")
    p.add_argument("--notebooks", type=int, default=300,
                   help="generated notebooks (cells, magics, marker-like comments, odd sources)")
    p.add_argument("--configs", type=int, default=300,
                   help="generated pyproject.toml files (any TOML, any value, deep nesting)")
    p.add_argument("--seconds", type=float, default=1800, help="time budget for each part")
    p.add_argument("--seed", type=int, default=12345)
    p.add_argument("--write-safety", action="store_true", help="write the figures to SAFETY.md")
    args = p.parse_args(argv)

    # hypothesmith compiles what it generates; its SyntaxWarnings are not jaxlint's
    # (tests/test_bad_input.py checks that jaxlint prints none).
    warnings.filterwarnings("ignore", category=SyntaxWarning)
    sys.path.insert(0, str(ROOT / "tests"))
    fuzz = _load("test_fuzz", ROOT / "tests" / "test_fuzz.py")
    nbfuzz = _load("notebook_fuzz", ROOT / "tests" / "notebook_fuzz.py")
    cfuzz = _load("config_fuzz", ROOT / "tests" / "config_fuzz.py")
    import hypothesmith

    parts = [
        ("timing programs, --fix", fuzz.timing_programs(), timing_check(fuzz, False),
         args.timing),
        ("timing programs, --fix --unsafe-fixes", fuzz.timing_programs(),
         timing_check(fuzz, True), args.unsafe),
        ("hypothesmith from_grammar (as is and in a timed region)",
         hypothesmith.from_grammar(), grammar_check(fuzz), args.grammar),
        ("hypothesmith from_node (as is and in a timed region)",
         hypothesmith.from_node(), grammar_check(fuzz), args.node),
        ("notebooks, --fix and --fix --unsafe-fixes", nbfuzz.notebooks().map(bytes.decode),
         notebook_check(nbfuzz), args.notebooks),
        ("configuration files (read, then lint and fix with them)", cfuzz.configs(),
         config_check(cfuzz), args.configs),
    ]
    tallies = []
    started = time.monotonic()
    for name, strategy, check, n in parts:
        if n <= 0:
            continue
        tally = Tally(name)
        run_part(tally, strategy, check, n, args.seconds, args.seed)
        tallies.append(tally)
        print(f"{name}: {tally.examples} examples ({len(tally.distinct)} distinct, "
              f"{tally.checked} programs checked), "
              f"{tally.with_findings} with findings, {tally.fixed} with a fixable one, "
              f"problems {dict(tally.kinds) or 'none'} ({tally.seconds} s)", flush=True)
        for kind, (src, problem) in tally.repros.items():
            print(f"--- smallest repro for {kind}: {problem}\n{src}", flush=True)
    if args.write_safety:
        _write(tallies, args, argv, round(time.monotonic() - started))
    return 1 if any(t.kinds for t in tallies) else 0


def _write(tallies: list[Tally], args: argparse.Namespace, argv: list[str] | None,
           total: int) -> None:
    from importlib.metadata import version

    from jaxlint import __version__

    fix_corpus = _load("fix_corpus", ROOT / "scripts" / "fix_corpus.py")
    when = datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    cmd = "python scripts/fuzz.py " + " ".join(argv if argv is not None else sys.argv[1:])
    rows = "".join(
        f"| {t.name} | {t.examples} | {len(t.distinct)} | {t.checked} | {t.with_findings} "
        f"| {t.fixed} | {t.kinds.get('crash', 0)} | {t.kinds.get('broken fix', 0)} "
        f"| {t.kinds.get(LEFT, 0)} "
        f"| {sum(v for k, v in t.kinds.items() if k not in KINDS)} "
        f"| {t.seconds} |\n" for t in tallies)
    repros = []
    for t in tallies:
        for kind, (src, problem) in t.repros.items():
            repros.append(f"**{t.name}: {kind}**: {problem}\n\n```python\n{src.rstrip()}\n```\n")
    body = (
        "## Fuzzing\n\n"
        f"Run {when}: jaxlint {__version__}, Python {platform.python_version()}, libcst "
        f"{version('libcst')}, hypothesis {version('hypothesis')}, hypothesmith "
        f"{version('hypothesmith')}, seed {args.seed}, {total} s in all.\n\n"
        f"Command: `{cmd.strip()}`\n\n"
        "| generator | examples run | distinct | programs checked | with findings "
        "| with a fixable finding | crashes | broken fixes | fix did not remove its finding "
        "| other problems | seconds |\n" + "|---" * 11 + "|\n" + rows
        + "\n*Programs checked*: examples (and, for hypothesmith, the example inside a timed "
        "region) that compile on this Python. *Crashes*: an exception other than "
        "`SourceError` from `lint_source` or `fix_source`. *Broken fixes*: the input "
        "compiled and the fixed program does not. *Fix did not remove its finding*: a fixable "
        "finding left after `fix_source`, or a fixable finding and no change. *Other "
        "problems*: a second fix that changes the program again, `remaining` that disagrees "
        "with a fresh lint, `SourceError` on a program that compiles, a harness error.\n\n"
        + ("Smallest repro of each problem:\n\n" + "\n".join(repros) if repros
           else "No problem found.\n"))
    fix_corpus.write_section("fuzz", body)


if __name__ == "__main__":
    sys.exit(main())
