"""Running the real command-line tools as a user would."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def run(*args: str, cwd: Path | str = ROOT, input: str | None = None,
        timeout: float = 300) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    # The jaxlint of this checkout, wherever the command runs: an installed (or editable)
    # jaxlint elsewhere must not answer for it, e.g. when tests run in a git worktree.
    env["PYTHONPATH"] = str(ROOT)
    return subprocess.run(
        list(args), cwd=cwd, input=input, capture_output=True, text=True, env=env,
        timeout=timeout,
    )


def jaxlint(*args: str, cwd: Path | str = ROOT, input: str | None = None
            ) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "jaxlint", *args, cwd=cwd, input=input)


def flake8(*args: str, cwd: Path | str = ROOT) -> subprocess.CompletedProcess[str]:
    return run(sys.executable, "-m", "flake8", *args, cwd=cwd)
