"""``%load_ext jaxlint`` in a real ``IPython.InteractiveShell``, in this process.

What runs no JAX (loading, unloading, the ``%jaxlint`` magic, a static warning on a cell that
defines a function) is in the fast tier; what executes JAX on the CPU backend is marked slow.
"""

from __future__ import annotations

import os
import time
import timeit
from collections.abc import Iterator

import pytest

IPython = pytest.importorskip("IPython")

from IPython.core.interactiveshell import InteractiveShell  # noqa: E402
from traitlets.config import Config  # noqa: E402

ORIGINAL = {name: getattr(time, name) for name in ("perf_counter", "time", "monotonic")}
ORIGINAL_TIMER = timeit.default_timer


@pytest.fixture
def shell(capsys: pytest.CaptureFixture[str]) -> Iterator[InteractiveShell]:
    os.environ.setdefault("JAX_PLATFORMS", "cpu")
    config = Config()
    config.HistoryManager.hist_file = ":memory:"
    config.InteractiveShell.colors = "nocolor"
    shell = InteractiveShell.instance(config=config)
    shell.reset(new_session=True)
    yield shell
    shell.extension_manager.unload_extension("jaxlint")
    shell.reset(new_session=True)
    capsys.readouterr()


def run(shell: InteractiveShell, capsys: pytest.CaptureFixture[str], source: str
        ) -> tuple[str, str, object]:
    """Run a cell as a notebook does; its stdout, stderr and result."""
    result = shell.run_cell(source, store_history=True)
    out, err = capsys.readouterr()
    return out, err, result


def jaxlint_lines(err: str) -> list[str]:
    return [line for line in err.splitlines() if line.startswith("jaxlint: JAX")]


# ------------------------------------------------------------------------- no JAX (fast)
def test_load_and_unload_leave_the_session_as_it_was(shell: InteractiveShell,
                                                     capsys: pytest.CaptureFixture[str]
                                                     ) -> None:
    _, err, _ = run(shell, capsys, "%load_ext jaxlint")
    assert "jaxlint: checking JAX timings" in err
    assert time.perf_counter is not ORIGINAL["perf_counter"]
    assert time.perf_counter.__wrapped__ is ORIGINAL["perf_counter"]  # type: ignore[attr-defined]
    assert "jaxlint" in shell.magics_manager.magics["line"]
    assert len(shell.ast_transformers) == 1
    run(shell, capsys, "%unload_ext jaxlint")
    assert {name: getattr(time, name) for name in ORIGINAL} == ORIGINAL
    assert timeit.default_timer is ORIGINAL_TIMER
    assert "jaxlint" not in shell.magics_manager.magics["line"]
    assert shell.ast_transformers == []
    _, err, _ = run(shell, capsys, "x = 1")
    assert err == ""


def test_a_static_warning_is_shown_and_the_cell_still_runs(
        shell: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> None:
    run(shell, capsys, "%load_ext jaxlint")
    cell = ("import time\n\ndef bench():\n    import jax\n    t0 = time.perf_counter()\n"
            "    y = jax.numpy.ones(3) * 2\n    return time.perf_counter() - t0\n")
    _, err, result = run(shell, capsys, cell)
    assert jaxlint_lines(err) == [
        "jaxlint: JAX101 line 7: timer stops before JAX work finishes: `y` is still being "
        "computed; call jax.block_until_ready(y) before reading the clock"]
    assert "%jaxlint explain" in err
    assert result.success and "bench" in shell.user_ns  # type: ignore[attr-defined]
    _, err, _ = run(shell, capsys, "%jaxlint explain 7")
    assert err.startswith("jaxlint: cell 2:\njaxlint: JAX101 line 7: timer stops before")
    assert "    The clock is started at cell 2, line 5 and read again at cell 2, line 7." in err
    _, err, _ = run(shell, capsys, cell.replace("* 2\n", "* 2\n    y.block_until_ready()\n"))
    assert jaxlint_lines(err) == []


def test_the_jaxlint_magic(shell: InteractiveShell, capsys: pytest.CaptureFixture[str]
                           ) -> None:
    run(shell, capsys, "%load_ext jaxlint")
    assert run(shell, capsys, "%jaxlint static")[1] == "jaxlint: on: static checks\n"
    assert time.perf_counter is ORIGINAL["perf_counter"]  # runtime off: nothing instrumented
    assert run(shell, capsys, "%jaxlint runtime")[1] == "jaxlint: on: runtime checks\n"
    assert time.perf_counter is not ORIGINAL["perf_counter"]
    assert run(shell, capsys, "%jaxlint off")[1] == "jaxlint: off\n"
    assert run(shell, capsys, "%jaxlint on")[1] == "jaxlint: on: static and runtime checks\n"
    assert run(shell, capsys, "%jaxlint select JAX1")[1] == "jaxlint: select JAX1; ignore none\n"
    assert run(shell, capsys, "%jaxlint ignore JAX104,JAX105")[1] == (
        "jaxlint: select JAX1; ignore JAX104, JAX105\n")
    assert "unknown rule code or prefix: JAX999" in run(shell, capsys,
                                                        "%jaxlint select JAX999")[1]
    assert run(shell, capsys, "%jaxlint nonsense")[1].startswith("jaxlint: usage: %jaxlint on")
    status = run(shell, capsys, "%jaxlint status")[1]
    assert "select JAX1; ignore JAX104, JAX105" in status
    assert "us per clock read (median; measured now on 100 reads)" in status


def test_the_notebooks_configuration_applies(shell: InteractiveShell,
                                            capsys: pytest.CaptureFixture[str],
                                            tmp_path: pytest.TempPathFactory,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / ".git").mkdir()  # type: ignore[operator]
    (tmp_path / "pyproject.toml").write_text(  # type: ignore[operator]
        '[tool.jaxlint]\nignore = ["JAX101"]\n')
    monkeypatch.chdir(tmp_path)  # Jupyter starts the kernel in the notebook's folder
    run(shell, capsys, "%load_ext jaxlint")
    status = run(shell, capsys, "%jaxlint status")[1]
    assert "ignore JAX101" in status and str(tmp_path / "pyproject.toml") in status
    cell = ("import time\n\ndef bench():\n    import jax\n    t0 = time.perf_counter()\n"
            "    y = jax.numpy.ones(3) * 2\n    return time.perf_counter() - t0\n")
    assert jaxlint_lines(run(shell, capsys, cell)[1]) == []


def test_a_cell_that_does_not_parse_runs_as_without_jaxlint(
        shell: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> None:
    run(shell, capsys, "%load_ext jaxlint")
    out, err, result = run(shell, capsys, "def (:\n")
    assert not result.success  # type: ignore[attr-defined]
    assert "SyntaxError" in out + err
    assert "jaxlint:" not in out + err
    assert run(shell, capsys, "y = 2")[1] == ""


def test_the_check_of_a_typical_cell_costs_under_50_ms_once_warm(
        shell: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> None:
    """A session of 40 cells that define, time and call helpers (none runs JAX); the
    median check, as ``%jaxlint status`` prints it."""
    run(shell, capsys, "%load_ext jaxlint")
    run(shell, capsys, "import time\nimport numpy as np\n")
    for k in range(20):
        run(shell, capsys, f"def bench{k}(f, a, n=3):\n    t0 = time.perf_counter()\n"
                           "    for _ in range(n):\n        out = f(a)\n"
                           "    return (time.perf_counter() - t0) / n\n")
        run(shell, capsys, f"a{k} = np.ones({k + 1})\nr{k} = bench{k}(np.tanh, a{k})\n")
    status = run(shell, capsys, "%jaxlint status")[1]
    line = next(x for x in status.splitlines() if x.startswith("jaxlint: static: "))
    assert line.startswith("jaxlint: static: 42 cells checked, "), line
    median_ms = float(line.split(" cells checked, ")[1].split(" ms per cell")[0])
    assert median_ms < 50, line


# ------------------------------------------------------------------------- real JAX (slow)
SETUP = """\
import time
import jax
import jax.numpy as jnp

@jax.jit
def step(x):
    # eight products (~50 ms on CPU, not one of ~10 ms): the run-time check at a stop read
    # must find the step still running even when a loaded machine pauses this process a
    # moment after the dispatch (one product was found finished once in five full runs)
    for _ in range(8):
        x = jnp.tanh(x @ x)
    return x

x = jnp.ones((1024, 1024))
step(x).block_until_ready();
"""
UNSYNCED = "t0 = time.perf_counter()\ny = step(x)\nt1 = time.perf_counter()\nprint(t1 - t0)\n"
SYNCED = UNSYNCED.replace("y = step(x)", "y = step(x).block_until_ready()")


@pytest.mark.slow
def test_mistaken_cells_warn_and_their_twins_do_not(shell: InteractiveShell,
                                                    capsys: pytest.CaptureFixture[str]
                                                    ) -> None:
    run(shell, capsys, "%load_ext jaxlint")
    assert jaxlint_lines(run(shell, capsys, SETUP)[1]) == []
    out, err, _ = run(shell, capsys, UNSYNCED)
    static, runtime = jaxlint_lines(err)
    assert static.startswith("jaxlint: JAX101 line 3: timer stops before JAX work finishes: "
                             "`y` is still being computed")
    assert runtime.startswith("jaxlint: JAX101 line 3: timer stops before JAX work finishes: "
                              "1 array still computing at the stop (")
    assert runtime.endswith("float32[1024,1024] held by `y`; call jax.block_until_ready(...) "
                            "on them before reading the clock [runtime]")
    assert float(out) >= 0  # the cell ran, and printed what it measured
    assert jaxlint_lines(run(shell, capsys, SYNCED)[1]) == []
    for mistaken in ("%timeit -n 3 -r 2 step(x)", "%%timeit -n 3 -r 2\nstep(x)",
                     "%time y = step(x)", "%%time\ny = step(x)"):
        twin = mistaken.replace("step(x)", "step(x).block_until_ready()")
        static, runtime = jaxlint_lines(run(shell, capsys, mistaken)[1])
        assert static.startswith("jaxlint: JAX102 line 1: benchmark harness times JAX work "
                                 "without waiting for it"), mistaken
        assert runtime.startswith("jaxlint: JAX101 line 1: timer stops before JAX work "
                                  "finishes: 1 array still computing at the stop ("), mistaken
        assert runtime.endswith("[runtime]"), mistaken
        assert jaxlint_lines(run(shell, capsys, twin)[1]) == [], twin
    _, err, _ = run(shell, capsys, "%jaxlint explain")
    assert "At run time the clock was read at line 1 and again at line 1" in err
    status = run(shell, capsys, "%jaxlint status")[1]
    assert "clock reads checked), outside what the reads measure" in status


@pytest.mark.slow
def test_a_warm_up_left_running_into_a_timed_cell(shell: InteractiveShell,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Work still running when a region's clock starts, that the region then waits for, is
    found at the start read (JAX106); the twin that syncs its warm-up is quiet."""
    run(shell, capsys, "%load_ext jaxlint")
    run(shell, capsys, SETUP)
    static, runtime = jaxlint_lines(run(shell, capsys, "y = step(x)  # warm up\n" + SYNCED)[1])
    assert static.startswith("jaxlint: JAX106 line 2: work left running into the timed region: "
                             "`step(x)` (cell 3, line 1) is still running")
    assert runtime.startswith("jaxlint: JAX106 line 2: work left running into the timed "
                              "region: 1 array (float32[1024,1024] held by `y`) is still "
                              "running when the clock starts (line 2)")
    assert runtime.endswith("before the start [runtime]")  # the static analysis found it too
    assert jaxlint_lines(run(shell, capsys, "jax.block_until_ready(step(x))  # warm up\n"
                             + SYNCED)[1]) == []


@pytest.mark.slow
def test_what_the_static_analysis_cannot_see(shell: InteractiveShell,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Work chosen at run time (a function looked up by name) is found by the runtime
    check alone, and it says so."""
    run(shell, capsys, "%load_ext jaxlint")
    run(shell, capsys, SETUP)
    cell = ("fn = globals()['st' + 'ep']\nt0 = time.perf_counter()\ny = fn(x)\n"
            "t1 = time.perf_counter()\n")
    for _ in range(2):  # each run of the cell is checked anew
        (runtime,) = jaxlint_lines(run(shell, capsys, cell)[1])
        assert runtime.startswith("jaxlint: JAX101 line 4: timer stops before JAX work "
                                  "finishes: 1 array still computing at the stop (")
        assert runtime.endswith("[runtime; the static analysis did not report it]")


@pytest.mark.slow
def test_a_helper_of_an_earlier_cell_and_timers_imported_before_loading(
        shell: InteractiveShell, capsys: pytest.CaptureFixture[str]) -> None:
    run(shell, capsys, "from time import perf_counter")
    run(shell, capsys, "%load_ext jaxlint")
    run(shell, capsys, SETUP)
    run(shell, capsys, "def bench(f, a, n=3):\n    t0 = perf_counter()\n    for _ in range(n):\n"
                       "        out = f(a)\n    return (perf_counter() - t0) / n\n")
    number = shell.execution_count - 1
    static, runtime = jaxlint_lines(run(shell, capsys, "bench(step, x)")[1])
    assert static.startswith(f"jaxlint: JAX101 cell {number}, line 5: timer stops before JAX "
                             "work finishes: `out` is still being computed")
    assert runtime.startswith(f"jaxlint: JAX101 cell {number}, line 5:")
    assert runtime.endswith("held by `out`; call jax.block_until_ready(...) on them before "
                            "reading the clock [runtime]")
    run(shell, capsys, "%unload_ext jaxlint")
    assert shell.user_ns["perf_counter"] is ORIGINAL["perf_counter"]
