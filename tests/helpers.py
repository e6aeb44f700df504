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
    # This checkout's jaxlint, whatever the working folder (an editable install may point
    # at another checkout).
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


# A script with one unsynced region (JAX101 at line 8).
UNSYNCED = """\
import time

import jax.numpy as jnp

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""

# A configured project: timers, jax-work, ignore, per-file-ignores, extend-exclude, a
# git-ignored folder, a helper in another module and a folder with its own configuration.
# The CLI, flake8 and the editor server must report the same findings on it.
CONFIGURED_PROJECT = {
    "pyproject.toml": """\
[tool.jaxlint]
timers = ["myclock.now"]
jax-work = ["kernels.launch"]
ignore = ["JAX104"]
per-file-ignores = { "legacy/*" = ["JAX101"] }
extend-exclude = ["generated/"]
""",
    ".gitignore": "out/\n",
    "pkg/__init__.py": "",
    "pkg/ops.py": """\
import jax
import jax.numpy as jnp


def step(x):
    return jnp.dot(x, x)


def sync(tree):
    return jax.block_until_ready(tree)
""",
    "pkg/bench.py": """\
import time

import jax.numpy as jnp
from kernels import launch
from myclock import now

from pkg.ops import step, sync

x = jnp.ones((64, 64))
t0 = time.perf_counter()
y = step(x)
print(time.perf_counter() - t0)

t0 = time.perf_counter()
y = step(x)
sync(y)
print(time.perf_counter() - t0)

start = now()
out = launch(3)
elapsed = now() - start

t0 = time.perf_counter()
y = jnp.dot(x, x)
print(float(y.sum()), time.perf_counter() - t0)
""",
    "legacy/old.py": UNSYNCED,
    "generated/gen.py": UNSYNCED,
    "out/built.py": UNSYNCED,
    "sub/pyproject.toml": '[tool.jaxlint]\nselect = ["JAX105"]\n',
    "sub/quiet.py": UNSYNCED,
    "loud.py": UNSYNCED,
}


def write_configured_project(folder: Path) -> None:
    """``CONFIGURED_PROJECT`` in ``folder``, a git repository (for its .gitignore)."""
    folder.chmod(0o755)
    subprocess.run(["git", "init", "-q", str(folder)], check=True)
    for name, text in CONFIGURED_PROJECT.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)
