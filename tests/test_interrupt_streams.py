"""Ctrl-C, closed or full standard streams: one line, never a traceback (issue 13, small
items). Ctrl-C during ``--fix`` names every file already fixed and exits 130."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT

from jaxlint import fix_source

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones(3)
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""
FIXED = fix_source(MISTAKE.encode()).source
NO_TRACE = ("Traceback", "Exception ignored")


def _env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(ROOT)
    return env


def _cmd(*args: str) -> list[str]:
    return [sys.executable, "-m", "jaxlint", *args]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_ctrl_c_during_fix_reports_every_file_already_fixed(tmp_path: Path, jobs: str) -> None:
    paths = [tmp_path / f"bench_{i:03d}.py" for i in range(120)]
    for path in paths:
        path.write_text(MISTAKE)
    proc = subprocess.Popen(_cmd("--fix", "--no-cache", "-j", jobs, "."), cwd=tmp_path,
                            env=_env(), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, start_new_session=True)
    try:
        deadline = time.monotonic() + 120
        while not any(p.read_bytes() != MISTAKE.encode() for p in paths):
            assert proc.poll() is None and time.monotonic() < deadline, "no file was fixed"
            time.sleep(0.02)
        os.killpg(proc.pid, signal.SIGINT)  # as a terminal sends it: to the whole group
        out, err = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert not any(t in err for t in NO_TRACE), err
    changed = sorted(p.name for p in paths if p.read_bytes() != MISTAKE.encode())
    assert changed and len(changed) < len(paths)
    assert all((tmp_path / name).read_bytes() == FIXED for name in changed)
    (line,) = err.splitlines()
    k = len(changed)
    assert line == (f"jaxlint: interrupted; fixed {k} finding{'s' if k != 1 else ''} in {k} "
                    f"file{'s' if k != 1 else ''} before that: " + ", ".join(changed))
    assert out == ""


def _run(tmp_path: Path, *args: str, stdout: object = subprocess.PIPE,
         preexec_fn: object = None) -> subprocess.CompletedProcess[str]:
    (tmp_path / "bench.py").write_text(MISTAKE)
    return subprocess.run(_cmd(*args), cwd=tmp_path, env=_env(), text=True,  # type: ignore[call-overload]
                          stdout=stdout, stderr=subprocess.PIPE, preexec_fn=preexec_fn,
                          timeout=120)


def test_a_full_disk_on_stdout_is_one_line(tmp_path: Path) -> None:
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        result = _run(tmp_path, "--no-cache", ".", stdout=full)
    assert result.returncode == 2
    assert not any(t in result.stderr for t in NO_TRACE), result.stderr
    assert result.stderr.splitlines()[-1] == (
        "jaxlint: error: cannot write to standard output: No space left on device")


def test_closed_stdout_is_one_line(tmp_path: Path) -> None:
    result = _run(tmp_path, "--no-cache", ".", preexec_fn=lambda: os.close(1))
    assert result.returncode == 2
    assert not any(t in result.stderr for t in NO_TRACE), result.stderr
    assert result.stderr.splitlines()[-1] == "jaxlint: error: standard output is closed"


def test_closed_stdin_is_one_line(tmp_path: Path) -> None:
    result = _run(tmp_path, "--stdin-filename", "bench.py", preexec_fn=lambda: os.close(0))
    assert result.returncode == 2
    assert result.stderr == ("jaxlint: error: cannot read standard input: standard input is "
                             "closed\n")


def test_a_reader_that_stops_early_gets_no_traceback(tmp_path: Path) -> None:
    """``jaxlint . | head -0``: the pipe is closed before jaxlint writes."""
    (tmp_path / "bench.py").write_text(MISTAKE)
    proc = subprocess.Popen(_cmd("--no-cache", "."), cwd=tmp_path, env=_env(),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()
    err = proc.stderr.read()
    proc.wait(timeout=120)
    assert not any(t in err for t in NO_TRACE), err
    assert proc.returncode == 1


def test_ctrl_c_while_a_fix_is_written_reports_that_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Ctrl-C arriving during the write of a fix (one process): it is held until the write
    is done and recorded, so the file just written is named, and nothing after it runs."""
    from jaxlint import cli

    for name in ("a.py", "b.py"):
        (tmp_path / name).write_text(MISTAKE)
    real = cli.write_atomic

    def write_then_ctrl_c(path: str, data: bytes, expected: bytes) -> None:
        os.kill(os.getpid(), signal.SIGINT)  # arrives in the middle of the write
        real(path, data, expected)

    monkeypatch.setattr(cli, "write_atomic", write_then_ctrl_c)
    monkeypatch.chdir(tmp_path)
    status = cli.main(["--fix", "--no-cache", "-j", "1", "."])
    err = capsys.readouterr().err
    assert status == 130
    assert err == "jaxlint: interrupted; fixed 1 finding in 1 file before that: a.py\n"
    assert (tmp_path / "a.py").read_bytes() == FIXED
    assert (tmp_path / "b.py").read_text() == MISTAKE
