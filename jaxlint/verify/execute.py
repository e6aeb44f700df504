"""Run one script once, in its own subprocess, and collect what the runner recorded.

A subprocess per run keeps JAX out of the parent (which must not import it), gives every run
a cold start like the user's own ``python script.py``, and lets a hung or crashing script be
killed by a timeout without taking verify down with it.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Collection
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

# Run by path (see _runner's docstring): the child then imports nothing of jaxlint but the
# timer instrumentation, and the script's environment is left exactly as the user's.
_RUNNER = str(Path(__file__).resolve().with_name("_runner.py"))
_TAIL_CHARS = 2000


@dataclass
class RunOutcome:
    """What one run of one script produced."""

    ok: bool
    reads: list[list[float]] = field(default_factory=list)  # [line, raw value, divisor]
    checks: list[dict[str, Any]] = field(default_factory=list)  # one per stop read (instrument)
    costs: list[float] = field(default_factory=list)  # the check's own time per kept read
    device: dict[str, Any] | None = None
    error: str | None = None  # one line, for the report; None when ok
    returncode: int | None = None
    timed_out: bool = False
    stderr_tail: str = ""
    wall_s: float = 0.0


# A script that reads this scales its work to it (the bundled fixtures verify runs in its
# reports do: ``N = int(os.environ.get("JAXLINT_VERIFY_SIZE", "1024"))``), so work too small to
# time on a fast device can be made big enough with ``verify --size N``.
SIZE_VARIABLE = "JAXLINT_VERIFY_SIZE"


def child_env(backend: str | None, size: int | None = None) -> dict[str, str]:
    env = dict(os.environ)
    if backend:
        # JAX reads this before choosing a backend; unset means JAX picks the best it finds.
        env["JAX_PLATFORMS"] = backend
    if size is not None:
        env[SIZE_VARIABLE] = str(size)
    return env


def _tail(path: Path) -> str:
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            size = fh.tell()
            fh.seek(max(0, size - _TAIL_CHARS))
            return fh.read().decode("utf-8", "replace")
    except OSError:
        return ""


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1] if lines else ""


def _kill(proc: subprocess.Popen[bytes]) -> None:
    # The child runs in its own session, so this also ends anything the script started.
    try:
        if hasattr(os, "killpg"):
            os.killpg(proc.pid, signal.SIGKILL)
        else:  # pragma: no cover - Windows
            proc.kill()
    except ProcessLookupError:
        pass
    proc.wait()


def run_script(
    script: Path,
    *,
    lines: Collection[int] | None,
    timeout: float,
    starts: Collection[int] | None = None,
    stops: Collection[int] | None = None,
    same: Collection[int] = (),
    check: bool = True,
    backend: str | None = None,
    size: int | None = None,
    path_dir: Path | None = None,
    python: str = sys.executable,
) -> RunOutcome:
    """Run ``script`` once under the runner and return its timer reads or its error."""
    with tempfile.TemporaryDirectory(prefix="jaxlint-run-") as tmp:
        out = Path(tmp) / "result.json"
        stdout, stderr = Path(tmp) / "stdout", Path(tmp) / "stderr"
        cmd = [python, _RUNNER, str(script), "--out", str(out)]
        if lines is not None:
            cmd += ["--lines", ",".join(str(n) for n in sorted(lines))]
        if starts is not None:
            cmd += ["--starts", ",".join(str(n) for n in sorted(starts))]
        if stops is not None:
            cmd += ["--stops", ",".join(str(n) for n in sorted(stops))]
        if same:
            cmd += ["--same", ",".join(str(n) for n in sorted(same))]
        if not check:
            cmd.append("--no-check")
        if path_dir is not None:
            cmd += ["--path-dir", str(path_dir)]
        started = time.perf_counter()
        with open(stdout, "wb") as out_fh, open(stderr, "wb") as err_fh:
            proc = subprocess.Popen(
                cmd,
                stdin=subprocess.DEVNULL,
                stdout=out_fh,
                stderr=err_fh,
                env=child_env(backend, size),
                start_new_session=True,
            )
            try:
                proc.wait(timeout=timeout)
                timed_out = False
            except subprocess.TimeoutExpired:
                _kill(proc)
                timed_out = True
            except BaseException:
                # Ctrl-C reaches only our process group, not the child's own session, so
                # without this an interrupted verify would leave the script running.
                _kill(proc)
                raise
        wall = time.perf_counter() - started
        tail = _tail(stderr)

        if timed_out:
            return RunOutcome(
                ok=False,
                error=f"timed out after {timeout:g} s",
                timed_out=True,
                stderr_tail=tail,
                wall_s=wall,
            )
        result: dict[str, Any] | None = None
        if out.exists():
            with open(out, encoding="utf-8") as fh:
                result = json.load(fh)
        if result is None:
            # The runner itself died (crash, segfault, import failure) before writing a result.
            reason = _last_line(tail) or f"exit status {proc.returncode}"
            return RunOutcome(
                ok=False,
                error=f"runner failed: {reason}",
                returncode=proc.returncode,
                stderr_tail=tail,
                wall_s=wall,
            )
        error = result.get("error")
        if error is None and proc.returncode != 0:
            # The script finished, but the interpreter failed on the way out (atexit, threads).
            error = f"exit status {proc.returncode}: {_last_line(tail)}"
        return RunOutcome(
            ok=error is None,
            reads=result.get("reads", []),
            checks=result.get("checks", []),
            costs=result.get("costs", []),
            device=result.get("device"),
            error=error,
            returncode=proc.returncode,
            stderr_tail=tail,
            wall_s=wall,
        )
