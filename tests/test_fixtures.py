"""Every fixture: findings equal its markers; the fix (with unsafe fixes) equals NAME.fixed.py
(or changes nothing when that file is absent); the fixed code compiles, lints clean and is a
fixed point; without unsafe fixes, unsafe ones are held back and counted."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_support import FIXTURES, expected, fix, fixed_path, fixture_files, lint

FILES = fixture_files()
IDS = [str(p.relative_to(FIXTURES)) for p in FILES]


def test_enough_fixtures() -> None:
    mistakes = [p for p in FILES if expected(p)]
    correct = [p for p in FILES if not expected(p)]
    assert len(mistakes) >= 25 and len(correct) >= 25


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_findings_match_markers(path: Path) -> None:
    found = [(f.line, f.code) for f in lint(path)]
    assert sorted(found) == expected(path)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_fix(path: Path, request: pytest.FixtureRequest) -> None:
    source = path.read_bytes()
    result = fix(path, True)
    target = fixed_path(path)
    if request.config.getoption("--update-fixtures"):
        if result.source != source:
            target.write_bytes(result.source)
        elif target.exists():
            target.unlink()
    if target.exists():
        assert result.source == target.read_bytes()
    else:
        assert result.source == source, "the fix changed a file that has no NAME.fixed.py"
    fixed = result.source
    compile(fixed, str(path), "exec")
    # (a fixture the fix leaves alone asks these of the same bytes: answered once)
    assert [f for f in lint(path, fixed) if f.fixable] == []
    assert fix(path, True, fixed).source == fixed


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_safe_fix_holds_back_unsafe(path: Path) -> None:
    unsafe = [f for f in lint(path) if f.fixable and f.unsafe]
    result = fix(path, False)
    still = [f for f in result.remaining if f.fixable and f.unsafe]
    assert [(f.code, f.message) for f in still] == [(f.code, f.message) for f in unsafe]
    assert result.held_back == len(unsafe)
    assert [f for f in result.remaining if f.fixable and not f.unsafe] == []


INSERT_ONLY = ("JAX101", "JAX103", "JAX105")  # fixes that only add lines or wrap a statement
ADDING = [p for p in FILES if expected(p) and {c for _, c in expected(p)} <= set(INSERT_ONLY)]


@pytest.mark.parametrize("path", ADDING, ids=[str(p.relative_to(FIXTURES)) for p in ADDING])
def test_fix_only_adds_lines(path: Path) -> None:
    """Every byte of the original survives: the fix inserts, wraps, and changes nothing else."""
    import difflib

    before = path.read_text(encoding="utf-8").splitlines()
    after = fix(path, True).source.decode()
    after = after.splitlines()
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, before, after).get_opcodes():
        if tag == "equal" or tag == "insert":
            continue
        # a replaced line may only have gained a jax.block_until_ready( ... ) wrapper
        for old, new in zip(before[i1:i2], after[j1:j2]):
            stripped = new.replace("jax.block_until_ready(", "", 1)
            assert stripped.rstrip().rstrip(")") in old or old.strip() in stripped, (old, new)
