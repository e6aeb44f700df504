"""Tests for ``jaxlint verify``.

The end-to-end tests run real scripts under real JAX (CPU is enough) in real subprocesses, the
way users run verify; they are skipped, with the reason, when jax is not installed.  The rest
test the pieces (pairing, verdict rule, line mapping, timer instrumentation, timeouts) without
JAX, in well under a second each.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import jaxlint
from jaxlint import fix_source, lint_source
from jaxlint.verify import RegionResult, main, stats
from jaxlint.verify.execute import run_script
from jaxlint.verify.linemap import LineMap
from jaxlint.verify.model import NO_FINDINGS, NOT_RUN_CLEAN
from jaxlint.verify.report import format_seconds, report_paths, table

# most run scripts under real JAX in subprocesses: the full suite only
pytestmark = pytest.mark.slow

HAVE_JAX = importlib.util.find_spec("jax") is not None
HAVE_MATPLOTLIB = importlib.util.find_spec("matplotlib") is not None
requires_jax = pytest.mark.skipif(
    not HAVE_JAX,
    reason="verify runs scripts under JAX, which is not installed (from this clone: "
           "python -m pip install '.[verify]')",
)
requires_matplotlib = pytest.mark.skipif(
    not HAVE_MATPLOTLIB, reason="--report draws with matplotlib, which is not installed"
)

# A realistic benchmark with the mistake: a jitted matmul timed in a loop without syncing, so
# each lap measures only dispatch.  1024x1024 makes the real work (~10+ ms on one CPU core)
# dwarf dispatch (~0.1 ms) even on a loaded 2-core CI machine.
UNSYNCED = """\
import time

import jax
import jax.numpy as jnp


@jax.jit
def step(a):
    return jnp.tanh(a @ a)


x = jnp.ones((1024, 1024)) / 1024
step(x).block_until_ready()  # compile outside the timed region

laps = []
for _ in range(3):
    t0 = time.perf_counter()
    y = step(x)
    t1 = time.perf_counter()
    laps.append(t1 - t0)
print(f"step: {min(laps) * 1e3:.3f} ms")
"""

SYNCED = """\
import time

import jax
import jax.numpy as jnp

x = jnp.ones((256, 256))
f = jax.jit(lambda a: a @ a)
f(x).block_until_ready()

t0 = time.perf_counter()
y = f(x)
jax.block_until_ready(y)
t1 = time.perf_counter()
print(f"{(t1 - t0) * 1e3:.3f} ms")
"""

# Has a finding (so verify would run it twice) but raises before the end.
BROKEN = """\
import time

import jax
import jax.numpy as jnp

x = jnp.ones((64, 64))
t0 = time.perf_counter()
y = jnp.dot(x, x)
t1 = time.perf_counter()
print(f"dot: {(t1 - t0) * 1e3:.3f} ms")
raise ValueError("weights file missing")
"""


def _env_with_jaxlint() -> dict[str, str]:
    """Environment for a `python -c` child that imports this checkout's jaxlint."""
    env = dict(os.environ)
    root = str(Path(jaxlint.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    return env


def _region_of(source: str) -> tuple[int, int]:
    findings = [f for f in lint_source(source) if f.region]
    assert findings, "the linter should report the unsynced region"
    return findings[0].region  # type: ignore[return-value]


# --------------------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def verified(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    """One verify run over three scripts, with --json and --report, shared by the tests.

    Running verify costs a few seconds per script run, so the end-to-end assertions share it
    (and the test processes of a pytest-xdist run too: see fixture_support.shared).
    The broken script sorts first, so "the others still run" is tested, not assumed.
    """
    from fixture_support import shared

    return shared("verified", lambda: _verify(tmp_path_factory), UNSYNCED, SYNCED,  # type: ignore[no-any-return]
                  BROKEN)


def _verify(tmp_path_factory: pytest.TempPathFactory) -> dict[str, object]:
    root = tmp_path_factory.mktemp("verify")
    scripts = root / "scripts"
    scripts.mkdir()
    (scripts / "a_broken.py").write_text(BROKEN)
    (scripts / "b_unsynced.py").write_text(UNSYNCED)
    (scripts / "c_synced.py").write_text(SYNCED)
    out_dir = root / "report"
    # Two runs a version (each a start of JAX): the unsynced region's fix is a large effect
    # (dispatch only against the whole 1024x1024 step).
    argv = [str(scripts), "--repeat", "2", "--json", "--report", str(out_dir), "--backend", "cpu"]
    stdout, stderr = io.StringIO(), io.StringIO()
    started = time.perf_counter()
    with contextlib.redirect_stdout(stdout), contextlib.redirect_stderr(stderr):
        rc = main(argv)
    return {
        "rc": rc,
        "rows": json.loads(stdout.getvalue()),
        "stderr": stderr.getvalue(),
        "scripts": scripts,
        "out_dir": out_dir,
        "seconds": time.perf_counter() - started,
    }


def _rows_for(verified: dict[str, object], name: str) -> list[dict[str, object]]:
    rows = verified["rows"]
    assert isinstance(rows, list)
    return [r for r in rows if str(r["path"]).endswith(name)]


@requires_jax
def test_unsynced_fix_measures_more(verified: dict[str, object]) -> None:
    (row,) = _rows_for(verified, "b_unsynced.py")
    assert row["code"] == "JAX101"
    assert tuple(row["region"]) == _region_of(UNSYNCED)
    assert len(row["as_written_runs_s"]) == 2 and len(row["fixed_runs_s"]) == 2
    assert row["fixed_s"] > row["as_written_s"]
    assert row["ratio"] == pytest.approx(row["fixed_s"] / row["as_written_s"])
    assert row["verdict"] == stats.CHANGED
    # The fixed file has `jax.block_until_ready` inserted, so the region moved down.
    assert row["fixed_region"][1] > row["region"][1]


@requires_jax
def test_correct_script_is_left_alone(verified: dict[str, object]) -> None:
    # Found in a folder without findings: not run at all (a named one runs once, below).
    (row,) = _rows_for(verified, "c_synced.py")
    assert row["verdict"] == NOT_RUN_CLEAN
    assert row["failed"] is False
    assert row["fixed_s"] is None and row["fixed_runs_s"] == []


@requires_jax
def test_failing_script_reported_and_others_run(verified: dict[str, object]) -> None:
    (row,) = _rows_for(verified, "a_broken.py")
    # It has a finding, so it was meant to run as written and fixed; the first run failed.
    assert row["code"] == "JAX101" and tuple(row["region"]) == _region_of(BROKEN)
    assert row["failed"] is True
    assert row["verdict"] == "failed (as written): ValueError: weights file missing (line 11)"
    assert row["fixed_runs_s"] == []
    # Both other scripts were still verified, and the exit status reports the failure.
    assert _rows_for(verified, "b_unsynced.py") and _rows_for(verified, "c_synced.py")
    assert verified["rc"] == 1


@requires_jax
def test_json_fields_and_device(verified: dict[str, object]) -> None:
    rows = verified["rows"]
    assert isinstance(rows, list) and len(rows) == 3
    required = {"path", "code", "region", "as_written_s", "fixed_s", "ratio", "verdict", "device"}
    for row in rows:
        assert required <= set(row)
    (row,) = _rows_for(verified, "b_unsynced.py")
    assert row["device"] == "cpu" and row["platform"] == "cpu"
    assert isinstance(row["as_written_s"], float) and isinstance(row["fixed_s"], float)
    # Progress went to stderr, one line per script since stderr is not a terminal here.
    assert "[2/3]" in str(verified["stderr"])


@requires_jax
@requires_matplotlib
def test_report_writes_markdown_and_png(verified: dict[str, object]) -> None:
    out_dir = verified["out_dir"]
    assert isinstance(out_dir, Path)
    md, png = out_dir / "verify-cpu.md", out_dir / "verify-cpu.png"
    assert md.is_file() and png.is_file()
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    text = md.read_text()
    assert "b_unsynced.py" in text and stats.CHANGED in text
    assert "](verify-cpu.png)" in text
    assert "## Failures" in text and "a_broken.py" in text


@requires_jax
def test_parent_never_imports_jax_and_prints_table(tmp_path: Path) -> None:
    script = tmp_path / "clean.py"
    script.write_text(SYNCED)
    code = (
        "import sys, jaxlint.verify as v\n"
        "rc = v.main(sys.argv[1:])\n"
        "assert 'jax' not in sys.modules, 'verify imported jax in the parent'\n"
        "assert 'matplotlib' not in sys.modules\n"
        "sys.exit(rc)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(script), "--backend", "cpu", "--quiet"],
        capture_output=True,
        text=True,
        env=_env_with_jaxlint(),
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("device: cpu (jax ")
    assert lines[1].split() == ["fixture", "code", "region", "as", "written", "(min-max)", "fixed",
                                "(min-max)", "change", "at", "the", "stop", "verdict"]
    assert "clean.py" in lines[2] and NO_FINDINGS in lines[2]


# --------------------------------------------------------------------------- pieces


def test_help_says_it_runs_code(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--help"])
    assert exc.value.code == 0
    assert "EXECUTES THE SCRIPTS" in capsys.readouterr().out


def test_instrumentation_records_every_timer_form(tmp_path: Path) -> None:
    # No JAX needed: this checks that reads are keyed by the script's own lines, including
    # names bound by `from time import ...` before the script could see any patch.
    script = tmp_path / "timers.py"
    script.write_text(
        textwrap.dedent(
            """\
            import time
            from time import perf_counter as pc
            from timeit import default_timer

            def helper():
                return time.monotonic()

            a = pc()
            b = time.perf_counter_ns()
            c = default_timer()
            d = time.time()
            e = helper()
            f = time.process_time_ns()
            """
        )
    )
    outcome = run_script(script, lines=None, timeout=60)
    assert outcome.ok, outcome.error
    lines = [int(r[0]) for r in outcome.reads]
    assert lines == [8, 9, 10, 11, 6, 13]
    divisors = {int(r[0]): r[2] for r in outcome.reads}
    assert divisors[9] == 1e9 and divisors[13] == 1e9 and divisors[8] == 1.0
    assert outcome.device is None  # the script never imported jax


def test_instrumentation_sees_timeit(tmp_path: Path) -> None:
    # timeit reads the clock in its own code; those reads belong to the script line that
    # called timeit, two per timed loop, so the line pairs with itself as a region.
    script = tmp_path / "uses_timeit.py"
    script.write_text(
        "import timeit\n"
        "def work():\n"
        "    return sum(range(20000))\n"
        "total = timeit.timeit(work, number=10)\n"
        "runs = timeit.Timer(work).repeat(repeat=3, number=5)\n"
        "print(total, runs)\n"
    )
    outcome = run_script(script, lines={4, 5}, timeout=60)
    assert outcome.ok, outcome.error
    assert [int(r[0]) for r in outcome.reads] == [4, 4, 5, 5, 5, 5, 5, 5]
    (measured,) = stats.region_durations(outcome.reads, 4, 4)
    assert measured > 0
    assert len(stats.region_durations(outcome.reads, 5, 5)) == 3


def test_instrumentation_keeps_only_requested_lines(tmp_path: Path) -> None:
    script = tmp_path / "loop.py"
    script.write_text("import time\nfor _ in range(4):\n    a = time.time()\n    b = time.time()\n")
    outcome = run_script(script, lines={4}, timeout=60)
    assert [int(r[0]) for r in outcome.reads] == [4, 4, 4, 4]
    # A clean file's run asks for no lines: nothing is kept, however many reads it makes.
    assert run_script(script, lines=set(), timeout=60).reads == []


def test_timeout_is_reported(tmp_path: Path) -> None:
    script = tmp_path / "hang.py"
    script.write_text("import time\ntime.sleep(60)\n")
    started = time.perf_counter()
    outcome = run_script(script, lines=None, timeout=1.5)
    assert time.perf_counter() - started < 20
    assert not outcome.ok and outcome.timed_out
    assert outcome.error == "timed out after 1.5 s"


def test_exit_status_is_a_failure(tmp_path: Path) -> None:
    script = tmp_path / "exits.py"
    script.write_text("import sys\nsys.exit(3)\n")
    outcome = run_script(script, lines=None, timeout=60)
    assert not outcome.ok and outcome.error == "exited with status 3"


def test_script_sees_its_own_directory_and_argv(tmp_path: Path) -> None:
    (tmp_path / "helper_mod.py").write_text("VALUE = 7\n")
    script = tmp_path / "uses_sibling.py"
    script.write_text(
        "import sys, helper_mod\nassert helper_mod.VALUE == 7\n"
        "assert sys.argv[0].endswith('uses_sibling.py')\n"
    )
    outcome = run_script(script, lines=None, timeout=60)
    assert outcome.ok, outcome.error


def test_pairing_start_stop_and_laps() -> None:
    # Lines 5-7 timed twice in a loop, and 7-9 as the next lap starting at line 7.
    reads = [(5, 1.0, 1.0), (7, 1.5, 1.0), (9, 2.5, 1.0), (5, 10.0, 1.0), (7, 10.25, 1.0)]
    assert stats.region_durations(reads, 5, 7) == [0.5, 0.25]
    assert stats.region_durations(reads, 7, 9) == [1.0]
    assert stats.run_value(reads, 5, 7) == pytest.approx(0.375)
    assert stats.run_value(reads, 3, 4) is None


def test_pairing_same_line_and_nanoseconds() -> None:
    same_line = [(4, 1.0, 1.0), (4, 1.5, 1.0), (4, 2.0, 1.0), (4, 2.125, 1.0)]
    assert stats.region_durations(same_line, 4, 4) == [0.5, 0.125]
    # Integer nanoseconds subtract exactly before converting, even at time_ns() magnitudes.
    ns = [(1, 1_700_000_000_000_000_000, 1e9), (2, 1_700_000_000_000_000_250, 1e9)]
    assert stats.region_durations(ns, 1, 2) == [pytest.approx(250e-9)]


def test_verdict_rule() -> None:
    # Separated ranges and a big ratio: changed.
    assert stats.judge([1e-4, 1.2e-4, 0.9e-4], [5e-3, 6e-3, 4e-3]) == stats.CHANGED
    # The other direction counts too (a fix that takes compilation out of the region).
    assert stats.judge([5e-3, 6e-3, 4e-3], [1e-4, 1.2e-4, 0.9e-4]) == stats.CHANGED
    # Overlapping ranges (one slow as-written run): not enough evidence.
    assert stats.judge([1e-4, 1.2e-4, 6e-3], [5e-3, 6e-3, 7e-3]) == stats.TOO_SMALL
    # Consistently higher but by less than MIN_RATIO: the cost of one extra sync.
    assert stats.judge([1.00e-3, 1.01e-3, 1.02e-3], [1.05e-3, 1.06e-3, 1.07e-3]) == stats.TOO_SMALL
    # One run each has no spread to judge against.
    assert stats.judge([1e-4], [1e-2]) == stats.TOO_FEW


def test_line_map_follows_inserted_lines() -> None:
    old = "import time\nt0 = time.time()\ny = f(x)\nt1 = time.time()\nprint(t1 - t0)\n"
    new = (
        "import time\nimport jax\nt0 = time.time()\ny = f(x)\n"
        "jax.block_until_ready(y)\nt1 = time.time()\nprint(t1 - t0)\n"
    )
    line_map = LineMap(old, new)
    assert line_map.region((2, 4)) == (3, 6)
    assert line_map.get(5) == 7


def test_line_map_through_the_real_fix() -> None:
    region = _region_of(UNSYNCED)
    fixed = fix_source(UNSYNCED).source
    assert fixed != UNSYNCED
    mapped = LineMap(UNSYNCED, fixed).region(region)
    assert mapped is not None
    old_lines, new_lines = UNSYNCED.splitlines(), fixed.splitlines()
    # The timer reads themselves are what the fix leaves alone.
    assert new_lines[mapped[0] - 1].strip() == old_lines[region[0] - 1].strip()
    assert new_lines[mapped[1] - 1].strip() == old_lines[region[1] - 1].strip()


def test_table_and_report_names() -> None:
    result = RegionResult(
        "bench.py",
        "JAX101",
        (16, 18),
        stats.CHANGED,
        as_written_runs=[7.7e-5, 7.5e-5, 8.0e-5],
        fixed_runs=[5.05e-4, 5.0e-4, 5.1e-4],
    )
    text = table([result], repeat=3)
    assert "16-18" in text and "0.077 ms (0.075 ms-0.080 ms)" in text
    assert "0.505 ms (0.500 ms-0.510 ms)" in text and "6.56x longer" in text
    assert format_seconds(2.5e-6) == "2.50 us"
    md, png = report_paths(Path("out"), [result])
    assert md == Path("out/verify-unknown.md") and png == Path("out/verify-unknown.png")
    md, png = report_paths(Path("out/custom.md"), [result])
    assert png == Path("out/custom.png")


def test_missing_path_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    if not HAVE_JAX:
        pytest.skip("the jax check comes first when jax is missing")
    assert main(["/no/such/dir", "--quiet"]) == 2
    assert "no such file or directory" in capsys.readouterr().err


def test_missing_jax_is_one_clear_line(tmp_path: Path) -> None:
    # sys.modules[name] = None is how Python spells "this module cannot be imported".
    code = (
        "import sys\n"
        "sys.modules['jax'] = None\n"
        "import jaxlint.verify as v\n"
        "sys.exit(v.main(sys.argv[1:]))\n"
    )
    (tmp_path / "s.py").write_text("print(1)\n")
    env = _env_with_jaxlint()
    proc = subprocess.run(
        [sys.executable, "-c", code, str(tmp_path / "s.py")],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert proc.returncode == 2
    err = proc.stderr.strip().splitlines()
    assert len(err) == 1 and "jax is not installed" in err[0], proc.stderr
    assert os.fspath(tmp_path) not in proc.stdout
