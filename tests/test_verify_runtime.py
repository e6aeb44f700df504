"""Runtime truth in ``jaxlint verify`` (issue 16): the pending-work check at stop reads,
``--detect``, every rule's fix measured in its expected direction, and the JAX104 fix for a
copy that wraps the work.

The pieces (line map, verdicts, wording, the fix) run in the fast tier; what runs scripts
under real JAX on the CPU backend is marked slow.
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
from pathlib import Path

import pytest

import jaxlint
from jaxlint import fix_source, lint_source
from jaxlint.verify import main, stats
from jaxlint.verify.execute import run_script
from jaxlint.verify.linemap import LineMap
from jaxlint.verify.report import format_change

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"

requires_jax = pytest.mark.skipif(importlib.util.find_spec("jax") is None,
                                  reason="verify runs scripts under JAX, which is not installed")


def _env() -> dict[str, str]:
    env = dict(os.environ)
    root = str(Path(jaxlint.__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join([root, *filter(None, [env.get("PYTHONPATH")])])
    return env


def _jaxlint(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "jaxlint", *args], capture_output=True,
                          text=True, env=_env(), cwd=cwd, timeout=300)


# --------------------------------------------------------------------------- pieces (fast)


def test_line_map_follows_the_line_the_jax104_fix_moves() -> None:
    source = (FIXTURES / "JAX104" / "np_asarray.py").read_text()
    (finding,) = lint_source(source)
    fixed = fix_source(source, unsafe_fixes=True).source
    assert isinstance(fixed, str) and fixed != source
    mapped = LineMap(source, fixed).region(finding.region)  # type: ignore[arg-type]
    assert mapped is not None, "the stop read must be found in the fixed file"
    old, new = source.splitlines(), fixed.splitlines()
    assert new[mapped[1] - 1] == old[finding.region[1] - 1]  # type: ignore[index]
    # The copy moved below the stop, and is still mapped to itself.
    copy = next(i for i, line in enumerate(old, 1) if "np.asarray(d)" in line)
    assert LineMap(source, fixed)[copy] > mapped[1]


def test_verdict_takes_the_rule_direction_and_a_floor() -> None:
    short, long = [2e-3, 2.1e-3, 2.2e-3], [20e-3, 21e-3, 22e-3]
    assert stats.judge_expected("JAX101", short, long) == stats.CHANGED
    assert stats.judge_expected("JAX105", long, short) == stats.CHANGED
    assert stats.judge_expected("JAX104", long, short) == stats.CHANGED
    # A JAX104 fix that made the region measure more is not "the fix works".
    assert stats.judge_expected("JAX104", short, long) == stats.WRONG_WAY
    assert stats.judge_expected("JAX101", long, short) == stats.WRONG_WAY
    # Separated and 10x apart, but all under 1 ms: noise on a fast device could do that.
    tiny = stats.judge_expected("JAX101", [1e-5, 1.1e-5, 1.2e-5], [1e-4, 1.1e-4, 1.2e-4])
    assert tiny == ("too small to tell on this device: 0.011 ms as written, 0.110 ms fixed, "
                    "under 1 ms")


def test_pending_summary_reads_as_a_verdict() -> None:
    checks = [
        {"line": 9, "start_line": 7, "pending": 0, "work_left_s": 0.0, "check_s": 1e-5},
        {"line": 9, "start_line": 7, "pending": 2, "work_left_s": 0.020, "check_s": 2e-5,
         "arrays": [[[1024, 1024], "float32", "y"], [[], "float32", None]]},
        {"line": 12, "start_line": 7, "pending": 5},  # another region
    ]
    summary = stats.pending([checks], 7, 9)
    assert summary.verdict == ("2 arrays still computing at the stop (20.00 ms of work left) "
                               "at 1 of 2 stops")
    assert summary.arrays_text() == "float32[1024,1024] held by `y`, float32[]"
    assert stats.pending([checks[:1]], 7, 9).verdict == "synced"
    assert stats.pending([[]], 7, 9).verdict == "not checked"


def test_change_reads_in_words() -> None:
    assert format_change(0.0149) == "67x shorter"
    assert format_change(19.04) == "19x longer"
    assert format_change(1.66) == "1.66x longer"
    assert format_change(0.5) == "2x shorter"
    assert format_change(None) == "-"


WRAPPED = """\
import time

import jax
import numpy as np

f = jax.jit(lambda a: a @ a)
a = jax.numpy.ones((8, 8))
f(a).block_until_ready()
host_device = None
t0 = time.perf_counter()
host = np.asarray(f(a))
dt = time.perf_counter() - t0
print(dt, host.shape, host_device)
"""


def test_jax104_fix_binds_the_work_when_the_copy_wraps_it() -> None:
    (finding,) = lint_source(WRAPPED)
    assert finding.code == "JAX104" and finding.fixable and finding.unsafe
    result = fix_source(WRAPPED, unsafe_fixes=True)
    # `host_device` is taken, so the fresh name is not.
    expected = WRAPPED.replace(
        "host = np.asarray(f(a))\ndt = time.perf_counter() - t0\n",
        "_host_device = f(a)\njax.block_until_ready(_host_device)\n"
        "dt = time.perf_counter() - t0\nhost = np.asarray(_host_device)\n")
    assert result.source == expected
    compile(expected, "<fixed>", "exec")
    assert lint_source(expected) == []
    # Without --unsafe-fixes it is held back, as the other JAX104 fix is.
    assert fix_source(WRAPPED).source == WRAPPED


def test_jax104_wrap_fix_not_offered_when_the_copy_is_used_before_the_stop() -> None:
    source = WRAPPED.replace("dt = time.perf_counter() - t0\n",
                             "n = host.size\ndt = time.perf_counter() - t0\n")
    (finding,) = lint_source(source)
    assert finding.code == "JAX104" and not finding.fixable


# --------------------------------------------------------------------------- runs (slow)

TWO_REGIONS = """\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda a: jnp.tanh(a @ a))
x = jnp.ones((2048, 2048)) / 2048
step(x).block_until_ready()
t0 = time.perf_counter()
y = step(x)
t1 = time.perf_counter()
t2 = time.perf_counter()
z = step(x).block_until_ready()
t3 = time.perf_counter()
print(t1 - t0, t3 - t2)
"""


@pytest.mark.slow
@requires_jax
def test_stop_check_sees_pending_arrays_and_only_them(tmp_path: Path) -> None:
    script = tmp_path / "two.py"
    script.write_text(TWO_REGIONS)
    outcome = run_script(script, lines={9, 11, 12, 14}, starts={9, 12}, stops={11, 14},
                         timeout=120, backend="cpu")
    assert outcome.ok, outcome.error
    by_stop = {c["line"]: c for c in outcome.checks}
    unsynced, synced = by_stop[11], by_stop[14]
    assert unsynced["start_line"] == 9 and unsynced["pending"] == 1
    assert unsynced["arrays"] == [[[2048, 2048], "float32", "y"]]
    assert unsynced["col"] == 5  # the stop call's column, as the linter reports it
    assert synced["start_line"] == 12 and synced["pending"] == 0
    # The wait for the work came after the stop's clock value: the region measured dispatch
    # only, and the work it left was bigger than what it measured.
    (measured,) = stats.region_durations(outcome.reads, 9, 11)
    assert unsynced["work_left_s"] > measured
    # The check costs far less than the work it reports.
    assert max(outcome.costs) < unsynced["work_left_s"]


@pytest.mark.slow
@requires_jax
def test_verify_rows_carry_the_runtime_verdict(tmp_path: Path) -> None:
    script = tmp_path / "two.py"
    script.write_text(TWO_REGIONS)
    hidden = FIXTURES / "runtime" / "dispatch_by_name.py"
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        assert main([str(script), str(hidden), "--repeat", "2", "--json", "--backend",
                     "cpu"]) == 0
    row, clean = json.loads(out.getvalue())
    # stderr is not a terminal here: progress still comes, a line per run.
    assert f"[1/2] {script}: as written run 2/2\n" in err.getvalue()
    assert f"[1/2] {script}: fixed run 2/2\n" in err.getvalue()
    assert row["region"] == [9, 11] and row["fix_applied"] == "safe"
    assert row["runtime"].startswith("1 array still computing at the stop (")
    assert row["pending_arrays"] == "float32[2048,2048] held by `y`"
    assert row["runtime_fixed"] == "synced"  # the fix's sync leaves nothing running
    # No finding, so nothing to fix; but its one run is checked, and the row says what the
    # linter missed.
    assert clean["code"] is None and clean["fixed_runs_s"] == []
    assert clean["verdict"] == ("no findings: left alone; at run time, pending work at the "
                                "stop of lines 28-30 (see --detect)")
    assert clean["pending_arrays"] == "float32[1024,1024] held by `y`"


DISPATCH_BY_NAME = """\
\"\"\"Picks the function to time by name.\"\"\"
import time

import jax
import jax.numpy as jnp


@jax.jit
def matmul_tanh(a):
    return jnp.tanh(a @ a)


def run(name, x):
    fn = globals()[name]
    return fn(x)


x = jnp.ones((1024, 1024)) / 1024
jax.block_until_ready(run("matmul_tanh", x))
t0 = time.perf_counter()
y = run("matmul_tanh", x)
t1 = time.perf_counter()
print(f"matmul_tanh: {(t1 - t0) * 1e3:.3f} ms")
"""

PLUGIN = """\
\"\"\"Times a kernel from a module named at run time.\"\"\"
import importlib
import time

import jax.numpy as jnp

ops = importlib.import_module("kernels_mod")
x = jnp.ones((1024, 1024)) / 1024
ops.kernel(x).block_until_ready()
start = time.perf_counter()
out = ops.kernel(x)
elapsed = time.perf_counter() - start
print(f"kernel: {elapsed * 1e3:.3f} ms")
"""

KERNELS = """\
import jax
import jax.numpy as jnp


@jax.jit
def kernel(a):
    return jnp.tanh(a @ a) @ a
"""

SYNCED_LOOP = """\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda a: a @ a)
x = jnp.ones((1024, 1024)) / 1024
step(x).block_until_ready()
for _ in range(3):
    t0 = time.perf_counter()
    y = step(x).block_until_ready()
    t1 = time.perf_counter()
    z = step(y)  # after the stop: runs into the next round's region (JAX106), pending at no stop
print(t1 - t0, z.shape)
"""
SYNCED_LOOP_OK = "".join(line for line in SYNCED_LOOP.splitlines(keepends=True)
                         if "z = step(y)" not in line).replace("z.shape", "y.shape")


@pytest.fixture(scope="module")
def hidden(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("detect")
    (root / "dispatch_by_name.py").write_text(DISPATCH_BY_NAME)
    (root / "plugin_module.py").write_text(PLUGIN)
    (root / "kernels_mod.py").write_text(KERNELS)
    (root / "synced_loop.py").write_text(SYNCED_LOOP)
    return root


@pytest.mark.slow
@requires_jax
def test_detect_reports_what_the_static_analysis_misses(hidden: Path) -> None:
    lint = _jaxlint(str(hidden))
    # statically only the loop's work left running into its next round (JAX106): the work
    # that --detect finds at the stops is reached through names the analysis cannot follow
    assert lint.returncode == 1, lint.stdout + lint.stderr
    assert [line.split(" ")[:2] for line in lint.stdout.splitlines()] == [
        [f"{hidden / 'synced_loop.py'}:10:10:", "JAX106"]], lint.stdout

    run = _jaxlint("verify", "--detect", "--backend", "cpu", str(hidden))
    assert run.returncode == 1, run.stderr
    lines = run.stdout.splitlines()
    assert len(lines) == 3, run.stdout
    by_name = {Path(line.split(":")[0]).name: line for line in lines}
    missed = "[runtime; the static analysis did not report it]"
    name_line = by_name["dispatch_by_name.py"]
    assert name_line.startswith(f"{hidden / 'dispatch_by_name.py'}:22:6: JAX101 ")
    assert "1 array still computing at the stop (" in name_line
    assert "float32[1024,1024] held by `y`" in name_line and name_line.endswith(missed)
    plugin_line = by_name["plugin_module.py"]
    assert plugin_line.startswith(f"{hidden / 'plugin_module.py'}:12:11: JAX101 ")
    assert "held by `out`" in plugin_line and plugin_line.endswith(missed)
    # the loop's work left running into the next round: seen at run time too, where the
    # linter reports it (the start read), as the static analysis found it
    loop_line = by_name["synced_loop.py"]
    assert loop_line.startswith(f"{hidden / 'synced_loop.py'}:10:10: JAX106 work left running "
                                "into the timed region: 1 array (float32[1024,1024] held by "
                                "`z`) is still running when the clock starts (line 10)")
    assert loop_line.endswith(" [runtime]")
    assert "Found 3 runtime findings (2 not reported by the static analysis) in 4 scripts" \
        in run.stderr
    assert f"jaxlint verify: ran 4 scripts: {hidden / 'dispatch_by_name.py'}, " in run.stderr


@pytest.mark.slow
@requires_jax
def test_detect_formats_exit_codes_and_static_agreement(tmp_path: Path, hidden: Path) -> None:
    unsynced = tmp_path / "unsynced.py"
    unsynced.write_text(DISPATCH_BY_NAME.replace('y = run("matmul_tanh", x)',
                                                 "y = matmul_tanh(x)"))
    static = _jaxlint(str(unsynced))
    assert static.returncode == 1 and ":22:6: JAX101" in static.stdout
    run = _jaxlint("verify", "--detect", "--backend", "cpu", "--format", "json", "-q",
                   str(unsynced), str(hidden / "synced_loop.py"))
    assert run.returncode == 1, run.stderr
    row, loop = sorted(json.loads(run.stdout), key=lambda r: r["code"])
    assert (row["code"], row["line"], row["col"]) == ("JAX101", 22, 6)
    assert row["message"].endswith(" [runtime]")  # the static analysis found it too
    assert "line 20 and again at line 22" in row["explanation"]
    assert (loop["code"], loop["line"], loop["col"]) == ("JAX106", 10, 10)
    assert loop["region"] == {"start": {"line": 10}, "stop": {"line": 12}}
    assert "(3 times, work from before the start still running at 2)" in loop["explanation"]

    synced = tmp_path / "synced_loop_ok.py"
    synced.write_text(SYNCED_LOOP_OK)
    clean = _jaxlint("verify", "--detect", "--backend", "cpu", str(synced))
    assert clean.returncode == 0 and clean.stdout == "", clean.stdout
    broken = tmp_path / "broken.py"
    broken.write_text("raise SystemExit(3)\n")
    failed = _jaxlint("verify", "--detect", "--backend", "cpu", str(broken))
    assert failed.returncode == 2
    assert f"{broken}: error: the script failed: exited with status 3" in failed.stderr


@pytest.mark.slow
@requires_jax
def test_jax104_and_jax105_fixes_are_measured_shorter() -> None:
    scripts = [str(FIXTURES / "JAX104" / "asarray_of_call.py"),
               str(FIXTURES / "JAX105" / "jit_assign_module.py")]
    out = io.StringIO()
    # Three runs a version: the effects are large (on a 2-core CPU, idle: the JAX104 fix
    # 2.4x shorter, the JAX105 one 100x), but with two, a suite sharing the cores once
    # measured the JAX104 pair equal (ratio 1.003); each run is a start of JAX (~2.5 s).
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        rc = main([*scripts, "--repeat", "3", "--json", "--unsafe-fixes", "--backend", "cpu"])
    assert rc == 0
    rows = {row["code"]: row for row in json.loads(out.getvalue())}
    copy, compile_ = rows["JAX104"], rows["JAX105"]
    # Both regions were found in the fixed file (the JAX104 fix moves a line) and measured.
    assert copy["region"] == [21, 23] and copy["fixed_region"] == [21, 24]
    assert len(copy["fixed_runs_s"]) == 3 and len(copy["as_written_runs_s"]) == 3
    assert copy["fix_applied"] == "unsafe" and compile_["fix_applied"] == "unsafe"
    assert copy["ratio"] < 1 and compile_["ratio"] < 0.5
    assert compile_["verdict"] == stats.CHANGED
    assert copy["verdict"] in (stats.CHANGED, stats.TOO_SMALL)

    # Without --unsafe-fixes neither fix is applied, and the rows say so.
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        main([scripts[1], "--repeat", "1", "--json", "--backend", "cpu"])
    (row,) = json.loads(out.getvalue())
    assert row["verdict"] == "not fixed: unsafe fix (add --unsafe-fixes)"
    assert row["fix_applied"] is None and row["fixed_runs_s"] == []


def test_detect_refuses_options_it_does_not_use(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--detect", "--unsafe-fixes", "x.py"])
    assert exc.value.code == 2
    assert "--detect runs scripts as written once" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--format", "json", "x.py"])
    assert "--format applies to --detect" in capsys.readouterr().err


def test_help_documents_detect_pairing(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Regions are consecutive clock reads of one function call on one thread" in text
    assert textwrap.dedent("--detect") in text


def test_size_reaches_the_script(tmp_path: Path) -> None:
    # No JAX: the knob is an environment variable the script reads (the fixtures' N).
    script = tmp_path / "sized.py"
    script.write_text("import os\nassert os.environ['JAXLINT_VERIFY_SIZE'] == '77'\n")
    assert run_script(script, lines=None, timeout=60, size=77).ok
    assert not run_script(script, lines=None, timeout=60).ok
    seed = (FIXTURES / "JAX101" / "seed.py").read_text()
    assert 'N = int(os.environ.get("JAXLINT_VERIFY_SIZE", "1024"))' in seed


def test_a_timeit_line_alternates_start_and_stop(tmp_path: Path) -> None:
    # No JAX needed: the roles, not the arrays. Each timeit call reads twice on its line; the
    # first read starts the region (its note of live arrays comes before the clock), the
    # second stops it, and only the stop is checked.
    script = tmp_path / "timed.py"
    script.write_text("import timeit\nfor _ in range(3):\n"
                      "    timeit.timeit(lambda: sum(range(100)), number=5)\n")
    outcome = run_script(script, lines={3}, starts={3}, stops={3}, same={3}, timeout=60)
    assert outcome.ok, outcome.error
    assert [int(r[0]) for r in outcome.reads] == [3] * 6
    assert [(c["read"], c["start_read"]) for c in outcome.checks] == [(1, 0), (3, 2), (5, 4)]


@pytest.mark.slow
@requires_jax
def test_detect_on_fixtures_the_linter_judges_differently() -> None:
    names = ["JAX101/timer_context_manager.py", "JAX101/noqa_suppressed_ok.py",
             "JAX101/deadline_ok.py", "JAX105/compile_timed_on_purpose_ok.py",
             "JAX101/first_call_incl_compile.py"]
    run = _jaxlint("verify", "--detect", "--backend", "cpu", "--format", "json",
                   *(str(FIXTURES / n) for n in names))
    assert run.returncode == 1, run.stderr
    rows = {(Path(r["path"]).name, r["line"]): r for r in json.loads(run.stdout)}
    # The @contextmanager timer's stop (line 27) is inside the `with` at line 50, where the
    # linter reports it: found by both. (The Timer class and Stopwatch read the clock in two
    # different methods, which --detect does not pair: the linter covers those.)
    assert rows.pop(("timer_context_manager.py", 27))["message"].endswith(" [runtime]")
    # A first call timed "incl. compile" whose run is left going: --detect found the linter
    # letting it through as a compile-time region; both report it now, and its synced twin
    # (compile_timed_on_purpose_ok.py) is clean at run time too.
    late = rows.pop(("first_call_incl_compile.py", 15))
    assert "held by `g`" in late["message"]
    assert late["message"].endswith(" [runtime]")
    # Silenced by noqa comments (2), deadlines (`time.time() - start > timeout`) not reported.
    assert rows == {}
    assert "2 more silenced by # noqa" in run.stderr


def test_thread_time_reads_are_recorded(tmp_path: Path) -> None:
    script = tmp_path / "cpu_clock.py"
    script.write_text("import time\na = time.thread_time_ns()\nb = time.thread_time()\n")
    outcome = run_script(script, lines=None, timeout=60)
    assert outcome.ok, outcome.error
    assert [(int(r[0]), r[2]) for r in outcome.reads] == [(2, 1e9), (3, 1.0)]


@pytest.mark.slow
@requires_jax
def test_no_check_leaves_the_script_alone(tmp_path: Path) -> None:
    script = tmp_path / "two.py"
    script.write_text(TWO_REGIONS)
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(io.StringIO()):
        assert main([str(script), "--repeat", "1", "--json", "--backend", "cpu",
                     "--no-check"]) == 0
    (row,) = json.loads(out.getvalue())
    assert row["runtime"] == "not checked" and row["check_s"] is None
    assert len(row["as_written_runs_s"]) == 1 and len(row["fixed_runs_s"]) == 1


@pytest.mark.slow
@requires_jax
def test_a_sync_that_raises_as_written_is_measured_fixed() -> None:
    """JAX107's no-argument and container forms stop the script as written; verify still
    runs the fixed version and says the fix is what makes it run."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main([str(FIXTURES / "JAX107" / "container_method.py"), "--repeat", "2", "--json",
              "--backend", "cpu"])
    (row,) = json.loads(out.getvalue())
    assert row["code"] == "JAX107" and row["fix_applied"] == "safe"
    assert row["as_written_runs_s"] == [] and len(row["fixed_runs_s"]) == 2
    assert row["verdict"] == ("fix makes the script run (as written: AttributeError: 'tuple' "
                              "object has no attribute 'block_until_ready' (line 19))")


@pytest.mark.slow
@requires_jax
def test_a_sync_of_a_dict_view_waits_for_nothing_until_fixed(monkeypatch) -> None:
    """``jax.block_until_ready(outs.values())`` (and of ``iter``/``zip``) returns at once on
    real JAX: each region's fixed version (given the dict itself) measures longer."""
    monkeypatch.setenv("JAXLINT_VERIFY_SIZE", "1000")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        main([str(FIXTURES / "JAX107" / "sync_of_dict_view.py"), "--repeat", "3", "--json",
              "--backend", "cpu"])
    rows = json.loads(out.getvalue())
    assert [r["code"] for r in rows] == ["JAX107"] * 3
    assert all(r["fix_applied"] == "safe" for r in rows)
    assert all(r["verdict"] == "fix changes measured time" for r in rows), rows
