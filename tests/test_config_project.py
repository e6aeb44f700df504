"""Configuration in pyproject.toml, the cross-file index and the stdin path, through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import jaxlint

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""


def write(root: Path, name: str, text: str) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_config_ignore_and_per_file_ignores(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml",
          '[tool.jaxlint]\nper-file-ignores = { "legacy/*" = ["JAX1"] }\n')
    write(tmp_path, "legacy/old.py", MISTAKE)
    write(tmp_path, "src/new.py", MISTAKE)
    result = jaxlint(".", cwd=tmp_path)
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == ["src/new.py"]
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nignore = ["JAX101"]\n')
    assert jaxlint(".", cwd=tmp_path).returncode == 0


def test_config_found_from_a_subfolder_and_cli_select_wins(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nselect = ["JAX105"]\n')
    write(tmp_path, "pkg/bench.py", MISTAKE)
    assert jaxlint("bench.py", cwd=tmp_path / "pkg").returncode == 0
    assert jaxlint("--select", "JAX101", "bench.py", cwd=tmp_path / "pkg").returncode == 1


def test_config_errors_are_one_line_and_exit_2(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nselct = ["JAX"]\n')
    result = jaxlint(".", cwd=tmp_path)
    assert result.returncode == 2
    config = tmp_path / "pyproject.toml"
    assert result.stderr == (f"jaxlint: error: {config}:2:1: unknown [tool.jaxlint] key: "
                             "selct (did you mean 'select'?)\n")
    write(tmp_path, "pyproject.toml", '[tool.jaxlint]\nignore = ["E501"]\n')
    assert f"{config}:2:11: unknown rule code or prefix: E501\n" in jaxlint(
        ".", cwd=tmp_path).stderr
    write(tmp_path, "pyproject.toml", "[tool.jaxlint\n")
    assert f"{config}:1:14: invalid TOML: Expected ']'" in jaxlint(".", cwd=tmp_path).stderr


@pytest.mark.parametrize("text, where, message", [
    # a mistyped code in a list spanning lines: the line and column of the code itself
    ('[tool.jaxlint]\nignore = [\n  "JAX101",\n  "JAX1O1",\n]\n', "4:3",
     "unknown rule code or prefix: JAX1O1 (did you mean 'JAX101'?)"),
    # an inline table under [tool], and a dotted key at the top
    ('[tool]\njaxlint = { selekt = ["JAX"] }\n', "2:13",
     "unknown [tool.jaxlint] key: selekt (did you mean 'select'?)"),
    ('tool.jaxlint.extend-exclude = "gen"\n', "1:1",
     "[tool.jaxlint] extend-exclude must be a list of strings"),
    ('[tool.jaxlint]\nper-file-ignores = { "a.py" = ["JAX9"] }\n', "2:32",
     "unknown rule code or prefix: JAX9"),
    ('[tool.jaxlint]\nselect = ["JAX105"]\n\nexlude = ["gen"]\nfoo = 1\n', "4:1",
     "unknown [tool.jaxlint] key: exlude (did you mean 'exclude'?) (and 1 more)"),
])
def test_config_errors_say_where_and_what_was_meant(tmp_path: Path, text: str, where: str,
                                                    message: str) -> None:
    write(tmp_path, "pyproject.toml", text)
    result = jaxlint(".", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == f"jaxlint: error: {tmp_path / 'pyproject.toml'}:{where}: {message}\n"


def test_another_tools_jaxlint_table_is_ignored_with_a_warning(tmp_path: Path) -> None:
    # An unrelated linter on the package index is also named jaxlint and reads
    # [tool.jaxlint] (its keys and codes are none of ours): a project configured for it
    # is linted with the defaults, and told why, not refused with exit 2.
    write(tmp_path, "pyproject.toml", """\
[project]
name = "md"

[tool.jaxlint]
# JL010: float64 is required throughout
target = "jax"
[tool.jaxlint.per_file_ignores]
"tests/**" = ["JD001", "JD002"]
"src/**" = ["JL010"]
""")
    write(tmp_path, "src/bench.py", MISTAKE)
    result = jaxlint(".", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("src/bench.py:8:7: JAX101 ")
    config = tmp_path / "pyproject.toml"
    assert result.stderr.splitlines()[0] == (
        f"jaxlint: warning: ignoring [tool.jaxlint] in {config}: none of its keys "
        "(per_file_ignores, target) nor any code in it is this jaxlint's (another tool of "
        "that name reads the same table)")
    # one of our codes in it makes it ours, and its unknown key an error
    write(tmp_path, "pyproject.toml",
          '[tool.jaxlint.per_file_ignores]\n"src/**" = ["JAX101"]\n')
    result = jaxlint(".", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == (f"jaxlint: error: {config}:1:2: unknown [tool.jaxlint] key: "
                             "per_file_ignores (did you mean 'per-file-ignores'?)\n")


def test_cli_code_typo_gets_a_did_you_mean(tmp_path: Path) -> None:
    result = jaxlint("--select", "JAX1O1", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "unknown rule code or prefix: JAX1O1 (did you mean 'JAX101'?)" in result.stderr


def test_config_extra_timer_work_and_sync(tmp_path: Path) -> None:
    write(tmp_path, "pyproject.toml", """\
[tool.jaxlint]
timers = ["myclock.now"]
jax-work = ["kernels.launch"]
syncs = ["kernels.wait"]
""")
    write(tmp_path, "bench.py", """\
import jax
from kernels import launch, wait
from myclock import now

start = now()
out = launch(3)
elapsed = now() - start

start = now()
out = launch(3)
wait(out)
elapsed = now() - start
""")
    result = jaxlint("--no-index", "bench.py", cwd=tmp_path)
    assert [line.split(":")[1] for line in result.stdout.splitlines()] == ["7"]
    assert "JAX101" in result.stdout


def test_cross_file_helpers(tmp_path: Path) -> None:
    write(tmp_path, "pkg/__init__.py", "")
    write(tmp_path, "pkg/ops.py", """\
import jax
import jax.numpy as jnp


def step(x):
    return jnp.dot(x, x)


def step_synced(x):
    return jnp.dot(x, x).block_until_ready()


def sync(tree):
    return jax.block_until_ready(tree)
""")
    write(tmp_path, "pkg/bench.py", """\
import time

import jax.numpy as jnp

from pkg.ops import step, step_synced, sync
from .ops import step as relative_step

x = jnp.ones((64, 64))
t0 = time.perf_counter()
y = step(x)
print(time.perf_counter() - t0)
t0 = time.perf_counter()
y = step_synced(x)
print(time.perf_counter() - t0)
t0 = time.perf_counter()
y = relative_step(x)
sync(y)
print(time.perf_counter() - t0)
""")
    # named alone, the file still sees its package (as pre-commit would run it)
    result = jaxlint("pkg/bench.py", cwd=tmp_path)
    assert [line.split(":")[1] for line in result.stdout.splitlines()] == ["11"]
    alone = jaxlint("--no-index", "pkg/bench.py", cwd=tmp_path)
    assert alone.returncode == 0


def test_stdin_lint_and_fix(tmp_path: Path) -> None:
    result = jaxlint("--stdin-filename", "src/bench.py", cwd=tmp_path, input=MISTAKE)
    assert result.returncode == 1
    assert result.stdout.startswith("src/bench.py:8:7: JAX101 ")
    fixed = jaxlint("--fix", "--stdin-filename", "src/bench.py", cwd=tmp_path, input=MISTAKE)
    assert fixed.returncode == 0
    assert "jax.block_until_ready(y)\nprint(time.perf_counter() - t0)\n" in fixed.stdout
    assert fixed.stdout.startswith("import time\n")
    bad = "import jax, time\nt0 = time.time()\ndef f(:\n"
    broken = jaxlint("--fix", "--stdin-filename", "b.py", cwd=tmp_path, input=bad)
    assert broken.returncode == 2 and broken.stdout == bad
