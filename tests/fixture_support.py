"""Reading fixtures: expected findings are trailing ``# JAX101`` comments on the reported line."""

from __future__ import annotations

import fcntl
import functools
import hashlib
import os
import pickle
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"
MARKER = re.compile(r"#\s*(JAX\d{3})\b(?!.*#\s*JAX)")
MARKERS = re.compile(r"#\s*(JAX\d{3})\b")


def fixture_files() -> list[Path]:
    return sorted(p for p in FIXTURES.rglob("*.py") if not p.name.endswith(".fixed.py"))


def expected(path: Path) -> list[tuple[int, str]]:
    out = []
    for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if "#" not in line:
            continue
        comment = line[line.index("#"):]
        for code in MARKERS.findall(comment):
            out.append((n, code))
    return sorted(out)


def fixed_path(path: Path) -> Path:
    return path.with_name(path.stem + ".fixed.py")


def lint(path: Path, data: bytes | None = None) -> tuple[Any, ...]:
    """``lint_source`` of a fixture (``data``: other contents for its path, such as its
    fixed text), once per test session and contents: several tests ask the same question of
    each fixture (the answers are frozen findings)."""
    return _lint(str(path), path.read_bytes() if data is None else data)


def fix(path: Path, unsafe_fixes: bool, data: bytes | None = None) -> Any:
    """``fix_source`` of a fixture (or of ``data`` for its path), once per test session and
    contents (read only)."""
    return _fix(str(path), path.read_bytes() if data is None else data, unsafe_fixes)


# Where the test processes of one pytest-xdist run share their answers (set by conftest.py
# for that run; None: answers are kept in this process only). pytest-xdist deals the first
# quarter of a run's tests out one at a time, so the questions about one fixture are asked
# in both processes: each answer is worked out once, by whichever asks first, and read by
# the other (the same call on the same bytes with the same jaxlint, in the same run).
SHARED: Path | None = None


def shared(kind: str, compute: Callable[[], Any], *key: object) -> Any:
    """``compute()``, worked out once in this run for ``kind`` and ``key`` when SHARED is set
    (the answer must pickle)."""
    if SHARED is None:
        return compute()
    digest = hashlib.sha256(pickle.dumps((kind, *key))).hexdigest()
    answer = SHARED / f"{kind}-{digest}.pickle"
    with open(SHARED / f"{kind}-{digest}.lock", "wb") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)  # the other process waits for an answer in progress
        if answer.exists():
            return pickle.loads(answer.read_bytes())
        value = compute()
        partial = answer.with_suffix(f".{os.getpid()}.tmp")
        partial.write_bytes(pickle.dumps(value))
        os.replace(partial, answer)
        return value


@functools.cache
def _lint(path: str, data: bytes) -> tuple[Any, ...]:
    from jaxlint import lint_source

    return shared("lint", lambda: tuple(lint_source(data, path)), path, data)


@functools.cache
def _fix(path: str, data: bytes, unsafe_fixes: bool) -> Any:
    from jaxlint import fix_source

    return shared("fix", lambda: fix_source(data, path, unsafe_fixes=unsafe_fixes), path, data,
                   unsafe_fixes)
