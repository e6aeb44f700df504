"""``--fix`` never does harm: atomic writes that keep what they should, kills at random moments,
two runs at once, and a corpus slice (the repository's fixtures and holdout set)."""

from __future__ import annotations

import importlib.util
import os
import random
import shutil
import signal
import stat
import subprocess
import sys
import time
import warnings
from pathlib import Path

import pytest
from fixture_support import FIXTURES
from helpers import ROOT, jaxlint

from jaxlint import fix_source

# Small fixtures whose fix inserts a line, adds `import jax` or wraps a call.
SOURCES = ["JAX101/seed.py", "JAX101/bare_call_dropped.py"]
COPIES = int(os.environ.get("JAXLINT_KILL_COPIES", "200"))


def _env() -> dict[str, str]:
    # this checkout's jaxlint, whatever the working folder
    return {**{k: v for k, v in os.environ.items() if not k.startswith("PYTHON")},
            "PYTHONPATH": str(ROOT)}


def _make_tree(root: Path, copies: int = COPIES) -> dict[Path, tuple[bytes, bytes]]:
    """``copies`` files spread over folders; each path maps to (original, fully fixed)."""
    expected: dict[Path, tuple[bytes, bytes]] = {}
    cache: dict[str, tuple[bytes, bytes]] = {}
    for i in range(copies):
        name = SOURCES[i % len(SOURCES)]
        if name not in cache:
            data = (FIXTURES / name).read_bytes()
            fixed = fix_source(data, name).source
            assert isinstance(fixed, bytes) and fixed != data, name
            cache[name] = (data, fixed)
        path = root / f"pkg{i % 10}" / f"bench_{i:03d}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(cache[name][0])
        expected[path] = cache[name]
    return expected


def _reset(expected: dict[Path, tuple[bytes, bytes]]) -> None:
    for path, (data, _) in expected.items():
        path.write_bytes(data)
    for tmp in path.parent.parent.rglob(".jaxlint-*.tmp"):
        tmp.unlink()


def _start_fix(root: Path, *extra: str) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "jaxlint", "--fix", "--no-cache", *extra,
                             "."], cwd=root, env=_env(), start_new_session=True,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


def _group_gone(pgid: int, wait: float) -> bool:
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            return True
        time.sleep(0.05)
    return False


def _states(expected: dict[Path, tuple[bytes, bytes]]) -> tuple[int, int, list[str]]:
    """(files still original, files fully fixed, files in any other state)."""
    original = fixed = 0
    other: list[str] = []
    for path, (data, done) in expected.items():
        now = path.read_bytes()
        if now == data:
            original += 1
        elif now == done:
            fixed += 1
        else:
            other.append(str(path))
    return original, fixed, other


# ----------------------------------------------------------------------------- kills
def _fixed_count(expected: dict[Path, tuple[bytes, bytes]]) -> int:
    n = 0
    for path, (data, _) in expected.items():
        try:
            n += path.read_bytes() != data
        except OSError:
            pass
    return n


@pytest.mark.slow
def test_kill_fix_at_random_moments(tmp_path: Path) -> None:
    """SIGKILL ``jaxlint --fix`` at random moments (after a random number of files were
    written, plus a random few milliseconds): every file is the original or the fully fixed
    version, never half-written; no worker process outlives the kill."""
    expected = _make_tree(tmp_path)
    rng = random.Random(20240531)
    leftovers: list[str] = []
    # Kill the whole process group (what a terminal's kill does) and, once, only the main
    # process (its pool workers are orphaned mid-task).
    for attempt, group in enumerate([True, True, True, False]):
        _reset(expected)
        target = rng.randrange(1, COPIES - 1)
        proc = _start_fix(tmp_path)
        deadline = time.monotonic() + 300
        while _fixed_count(expected) < target and proc.poll() is None:
            assert time.monotonic() < deadline, "the fix run made no progress"
            time.sleep(0.005)
        time.sleep(rng.uniform(0, 0.05))
        pgid = proc.pid
        if group:
            os.killpg(pgid, signal.SIGKILL)
        else:
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        assert proc.stderr is not None
        proc.stderr.close()
        orphans_ended = _group_gone(pgid, 10)
        if not orphans_ended:
            os.killpg(pgid, signal.SIGKILL)
            _group_gone(pgid, 10)
        original, fixed, other = _states(expected)
        assert other == [], f"attempt {attempt} (after ~{target} files): half-written " \
                            f"{other[:5]}"
        assert original + fixed == COPIES
        assert orphans_ended, ("pool workers still running 10 s after the main process was "
                               "killed (they are never cleaned up)")
        leftovers += [str(p) for p in tmp_path.rglob(".jaxlint-*.tmp")]
    if leftovers:
        warnings.warn(f"{len(leftovers)} temporary files left by killed runs: "
                      f"{leftovers[:3]}", stacklevel=1)


@pytest.mark.slow
def test_two_fix_runs_at_once(tmp_path: Path) -> None:
    """Two ``--fix`` runs over one tree at the same time: every file ends fully fixed (or
    original), compiles, and a third run changes nothing."""
    expected = _make_tree(tmp_path, 100)
    a = _start_fix(tmp_path)
    b = _start_fix(tmp_path)
    _, err_a = a.communicate(timeout=600)
    _, err_b = b.communicate(timeout=600)
    for proc, err in ((a, err_a), (b, err_b)):
        text = err.decode()
        assert "Traceback" not in text, text[-2000:]
        assert proc.returncode in (0, 1, 2), text[-2000:]
        # the only error a run may report is losing the race for a file
        bad = [line for line in text.splitlines()
               if ": error: " in line and "changed on disk" not in line]
        assert bad == [], bad[:5]
    original, fixed, other = _states(expected)
    assert other == [] and original == 0, (original, fixed, other[:5])
    for path in expected:
        compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
    snapshot = {p: p.read_bytes() for p in expected}
    third = jaxlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert third.returncode == 0, third.stderr
    assert "Fixed 0 findings." in third.stderr
    assert all(p.read_bytes() == snapshot[p] for p in expected)
    assert list(tmp_path.rglob(".jaxlint-*.tmp")) == []


# ----------------------------------------------------------------------------- what writes keep
MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""


def test_fix_keeps_mode_bom_line_endings_and_encoding(tmp_path: Path) -> None:
    files = {
        "plain.py": (MISTAKE.encode(), 0o754),
        "bom.py": (b"\xef\xbb\xbf" + MISTAKE.encode(), 0o640),
        "crlf.py": (MISTAKE.replace("\n", "\r\n").encode(), 0o600),
        "latin1.py": (b"# -*- coding: latin-1 -*-\n" + MISTAKE.encode()
                      + b"s = 'caf\xe9 \xb5s'\n", 0o644),
        "cp1252.py": (b"# coding: cp1252\n" + MISTAKE.encode() + b"s = '\x93quoted\x94'\n",
                      0o644),
    }
    for name, (data, mode) in files.items():
        (tmp_path / name).write_bytes(data)
        os.chmod(tmp_path / name, mode)
    os.symlink("plain.py", tmp_path / "link_elsewhere.txt")  # not *.py: not walked
    result = jaxlint("--fix", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert f"Fixed {len(files)} findings." in result.stderr
    for name, (data, mode) in files.items():
        path = tmp_path / name
        fixed = path.read_bytes()
        assert stat.S_IMODE(os.stat(path).st_mode) == mode, name
        assert fixed == fix_source(data, name).source, name
        assert fixed.startswith(b"\xef\xbb\xbf") == data.startswith(b"\xef\xbb\xbf"), name
        assert fixed.count(b"\r\n") == fixed.count(b"\n") or b"\r\n" not in data, name
        assert (b"\r\n" in fixed) == (b"\r\n" in data), name
        assert fixed.splitlines()[-1] == data.splitlines()[-1], name  # non-UTF-8 bytes kept
        compile(fixed, name, "exec", dont_inherit=True)
    assert os.path.islink(tmp_path / "link_elsewhere.txt")
    assert list(tmp_path.glob(".jaxlint-*.tmp")) == []


def test_fix_through_a_symlink_keeps_the_link(tmp_path: Path) -> None:
    real = tmp_path / "real" / "bench.py"
    real.parent.mkdir()
    real.write_text(MISTAKE)
    (tmp_path / "src").mkdir()
    os.symlink(real, tmp_path / "src" / "bench.py")
    result = jaxlint("--fix", "src/bench.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert os.path.islink(tmp_path / "src" / "bench.py")
    assert b"jax.block_until_ready(y)" in real.read_bytes()


def test_write_atomic_refuses_a_file_changed_since_read(tmp_path: Path) -> None:
    from jaxlint.files import ChangedOnDisk, write_atomic

    path = tmp_path / "bench.py"
    path.write_bytes(b"old\n")
    path.write_bytes(b"someone else's edit\n")
    with pytest.raises(ChangedOnDisk):
        write_atomic(str(path), b"fixed\n", expected=b"old\n")
    assert path.read_bytes() == b"someone else's edit\n"
    assert list(tmp_path.iterdir()) == [path]


def test_write_atomic_leaves_no_temp_file_on_failure(tmp_path: Path) -> None:
    from jaxlint.files import write_atomic

    path = tmp_path / "bench.py"
    path.write_bytes(b"old\n")
    import jaxlint.files

    real_swap = jaxlint.files._swap

    def failing_swap(src: str, dst: str) -> bool:
        raise OSError(28, "No space left on device")

    jaxlint.files._swap = failing_swap
    try:
        with pytest.raises(OSError):
            write_atomic(str(path), b"new\n", expected=b"old\n")
    finally:
        jaxlint.files._swap = real_swap
    assert path.read_bytes() == b"old\n"
    assert list(tmp_path.iterdir()) == [path]


def test_fix_never_writes_a_file_that_does_not_parse(tmp_path: Path) -> None:
    """A broken file is reported and left byte-identical; the good one is still fixed."""
    broken = b"import jax, time\nt0 = time.time()\ny = jax.numpy.ones(3)\ndef f(:\n"
    (tmp_path / "broken.py").write_bytes(broken)
    (tmp_path / "good.py").write_text(MISTAKE)
    result = jaxlint("--fix", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert (tmp_path / "broken.py").read_bytes() == broken
    assert b"block_until_ready" in (tmp_path / "good.py").read_bytes()


@pytest.mark.parametrize("tail", ["def f(:\n", "return 1\n"],
                         ids=["does-not-parse", "parses-but-does-not-compile"])
def test_a_fix_that_would_break_the_file_is_never_applied(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, tail: str) -> None:
    """If a fix ever produced code that does not parse (libcst) or compile (CPython), the
    source is returned unchanged and the finding stays."""
    import jaxlint.fixer as fixer

    class Broken:
        code = MISTAKE + tail
        bytes = code.encode()

    monkeypatch.setattr(fixer, "apply_plans", lambda module, plans, *rest: Broken())
    for source in (MISTAKE, MISTAKE.encode()):
        result = fix_source(source, "bench.py", unsafe_fixes=True)
        assert result.source is source and result.fixed == 0
        assert [f.code for f in result.remaining] == ["JAX101"]


# ----------------------------------------------------------------------------- corpus slice
def _fix_corpus():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location("fix_corpus", ROOT / "scripts" / "fix_corpus.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["fix_corpus"] = module
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
def test_fix_corpus_slice(tmp_path: Path) -> None:
    """scripts/fix_corpus.py's checks on the repository's fixtures and holdout set (no
    network): changed files compile, nothing without a fix changes, a second --fix is a no-op,
    no crash."""
    fix_corpus = _fix_corpus()
    tree = tmp_path / "slice"
    # *.fixed.py files are fixed points already checked by test_fixtures.py
    shutil.copytree(FIXTURES, tree / "fixtures", ignore=shutil.ignore_patterns("*.fixed.py"))
    shutil.copytree(ROOT / "tests" / "holdout", tree / "holdout")
    report = fix_corpus.check_tree(tree, "slice", unsafe=True, timeout=600)
    assert report.files > 180
    assert report.changed > 50
    assert (report.crashes, report.broken, report.unexpected_changes,
            report.not_idempotent) == ([], [], [], [])
