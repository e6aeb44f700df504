"""The command line as a user runs it: real subprocesses, real files."""

from __future__ import annotations

import json
import os
import shutil
import stat
from pathlib import Path

import pytest
from fixture_support import FIXTURES, expected, fixture_files
from helpers import ROOT, jaxlint

SEED = FIXTURES / "JAX101" / "seed.py"

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_lint_bundled_fixtures_reports_every_marker() -> None:
    result = jaxlint("fixtures")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    expected_lines = {
        (str(p.relative_to(FIXTURES.parent)), n, code)
        for p in fixture_files()
        for n, code in expected(p)
    }
    got = set()
    for line in lines:
        path, lineno, col, rest = line.split(":", 3)
        got.add((path, int(lineno), rest.split()[0]))
        assert int(col) >= 1
    assert got == expected_lines
    assert lines == sorted(lines, key=lambda s: (s.split(":")[0], int(s.split(":")[1])))
    assert result.stderr.startswith(f"Found {len(lines)} findings (")
    assert "fixable with --fix" in result.stderr and "with --fix --unsafe-fixes" in result.stderr


def test_output_format_and_message(tmp_path: Path) -> None:
    write(tmp_path, "bench.py", MISTAKE)
    result = jaxlint("bench.py", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout == (
        "bench.py:8:7: JAX101 timer stops before JAX work finishes: `y` is still being "
        "computed; call jax.block_until_ready(y) before reading the clock\n"
    )
    assert result.stderr.strip() == "Found 1 finding (1 fixable with --fix)."


def test_clean_exit_zero(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "JAX101" / "seed_ok.py", tmp_path / "ok.py")
    result = jaxlint(str(tmp_path))
    assert (result.returncode, result.stdout) == (0, "")
    assert "All checks passed." in result.stderr


def test_fix_rewrites_and_then_clean(tmp_path: Path) -> None:
    path = write(tmp_path, "src/bench.py", MISTAKE)
    os.chmod(path, 0o754)
    result = jaxlint("--fix", "src", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Fixed 1 finding." in result.stderr
    fixed = path.read_text()
    assert "y = jnp.dot(x, x)\njax.block_until_ready(y)\nprint(" in fixed
    assert fixed.startswith("import time\n\nimport jax.numpy as jnp\nimport jax\n")
    assert stat.S_IMODE(path.stat().st_mode) == 0o754
    again = jaxlint("--fix", "src", cwd=tmp_path)
    assert again.returncode == 0 and path.read_text() == fixed
    assert jaxlint("src", cwd=tmp_path).returncode == 0


def test_fix_keeps_crlf_and_untouched_files(tmp_path: Path) -> None:
    crlf = write(tmp_path, "crlf.py", "")
    crlf.write_bytes(MISTAKE.replace("\n", "\r\n").encode())
    clean = tmp_path / "clean.py"
    shutil.copy(FIXTURES / "JAX101" / "seed_ok.py", clean)
    before = clean.stat().st_mtime_ns
    assert jaxlint("--fix", ".", cwd=tmp_path).returncode == 0
    data = crlf.read_bytes()
    assert b"jax.block_until_ready(y)\r\n" in data and b"\n" not in data.replace(b"\r\n", b"")
    assert clean.stat().st_mtime_ns == before


def test_diff_writes_nothing(tmp_path: Path) -> None:
    path = write(tmp_path, "bench.py", MISTAKE)
    result = jaxlint("--diff", "bench.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "+jax.block_until_ready(y)\n" in result.stdout
    assert result.stdout.startswith("--- a/bench.py\n+++ b/bench.py\n")
    assert path.read_text() == MISTAKE


def test_json_format(tmp_path: Path) -> None:
    write(tmp_path, "bench.py", MISTAKE)
    rows = json.loads(jaxlint("--format", "json", "bench.py", cwd=tmp_path).stdout)
    assert rows == [{
        "path": "bench.py", "line": 8, "col": 7, "code": "JAX101",
        "message": rows[0]["message"], "fixable": True, "fix": "safe",
        "region": {"start": {"line": 6}, "stop": {"line": 8}},
        "explanation": rows[0]["explanation"],
    }]
    assert "line 7: `jnp.dot(x, x)`: `jax.numpy.dot` dispatches device work" \
        in rows[0]["explanation"]
    assert "jax.block_until_ready(y)" in rows[0]["message"]


@pytest.mark.parametrize(
    ("args", "code"),
    [(["--select", "JAX101"], 1), (["--select", "JAX1"], 1), (["--ignore", "JAX101"], 0),
     (["--ignore", "JAX"], 0), (["--exit-zero"], 0)],
)
def test_select_ignore_exit_zero(tmp_path: Path, args: list[str], code: int) -> None:
    write(tmp_path, "bench.py", MISTAKE)
    assert jaxlint(*args, "bench.py", cwd=tmp_path).returncode == code


def test_unknown_code_is_a_usage_error(tmp_path: Path) -> None:
    result = jaxlint("--select", "E501", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert "unknown rule code" in result.stderr


@pytest.mark.parametrize(
    ("comment", "suppressed"),
    [("  # noqa", True), ("  # noqa: JAX101", True), ("  # NOQA:JAX101,E501", True),
     ("  # noqa: JAX1", True), ("  # noqa: E501", False), ("", False)],
)
def test_noqa(tmp_path: Path, comment: str, suppressed: bool) -> None:
    text = MISTAKE.replace("print(time.perf_counter() - t0)",
                           "print(time.perf_counter() - t0)" + comment)
    write(tmp_path, "bench.py", text)
    result = jaxlint("bench.py", cwd=tmp_path)
    assert result.returncode == (0 if suppressed else 1)


def test_folders_skip_environments_and_caches(tmp_path: Path) -> None:
    for folder in (".git", ".venv", "build", "__pycache__", "proj.egg-info", "myenv"):
        write(tmp_path, f"{folder}/bench.py", MISTAKE)
    (tmp_path / "myenv" / "pyvenv.cfg").write_text("home = /usr\n")
    write(tmp_path, "pkg/sub/bench.py", MISTAKE)
    write(tmp_path, "pkg/notes.txt", MISTAKE)
    result = jaxlint(cwd=tmp_path)
    assert [line.split(":")[0] for line in result.stdout.splitlines()] == [
        os.path.join("pkg", "sub", "bench.py")
    ]


def test_bad_input_reports_one_line_and_goes_on(tmp_path: Path) -> None:
    write(tmp_path, "a_broken.py", "import jax, time\nt0 = time.time()\ndef f(:\n")
    (tmp_path / "b_binary.py").write_bytes(b"\0\x01\x02")
    write(tmp_path, "c_bench.py", MISTAKE)
    result = jaxlint(".", "missing.py", cwd=tmp_path)
    assert result.returncode == 2
    errors = [line for line in result.stderr.splitlines() if ": error: " in line]
    assert len(errors) == 3
    assert any(e.startswith("missing.py: error: no such file") for e in errors)
    assert any(e.startswith("a_broken.py:3:") for e in errors)
    assert "c_bench.py:8:7: JAX101" in result.stdout


def test_version_and_module_entry_point() -> None:
    from jaxlint import __version__

    result = jaxlint("--version")
    assert result.returncode == 0 and result.stdout.strip() == f"jaxlint {__version__}"


def test_console_script_installed() -> None:
    import sys

    beside = Path(sys.executable).parent / "jaxlint"
    exe = str(beside) if beside.exists() else shutil.which("jaxlint")
    assert exe is not None, "the jaxlint console script is not on PATH"
    from helpers import run

    result = run(exe, str(SEED))
    assert result.returncode == 1 and "JAX101" in result.stdout


def test_rule_documentation() -> None:
    result = jaxlint("rule", "JAX101")
    assert result.returncode == 0
    for section in ("## What it does", "## Why is this bad?", "## Example", "## Use instead",
                    "## Fix safety"):
        assert section in result.stdout


def test_statistics_counts_per_rule() -> None:
    result = jaxlint("--statistics", "fixtures/JAX101", "fixtures/JAX104")
    assert result.returncode == 1
    rows = [line.split("\t") for line in result.stdout.splitlines()]
    codes = {code: int(n) for n, code, _ in rows}
    listed = jaxlint("fixtures/JAX101", "fixtures/JAX104").stdout.splitlines()
    assert codes == {c: sum(f" {c} " in line for line in listed) for c in codes}
    assert set(codes) == {"JAX101", "JAX104"}


def test_a_path_named_like_a_subcommand_is_a_path(tmp_path: Path) -> None:
    # File names never select a subcommand: pre-commit and other callers pass file names
    # where ``jaxlint`` expects paths, and ``verify`` is the one command that runs code.
    script = ("from pathlib import Path\nPath('ran.txt').write_text('ran')\n"
              "import time\nimport jax.numpy as jnp\nt0 = time.perf_counter()\n"
              "y = jnp.ones(3) * 2\nprint(time.perf_counter() - t0)\n")
    for name in ("verify", "rule", "server"):
        (tmp_path / name).write_text(script)
        proc = jaxlint(name, "--no-cache", cwd=tmp_path)
        assert proc.returncode == 1, proc.stderr
        assert proc.stdout.startswith(f"{name}:7:"), proc.stdout
        assert not (tmp_path / "ran.txt").exists()
    # where no such path exists the word is still the subcommand
    proc = jaxlint("rule", "JAX101", cwd=ROOT)
    assert proc.returncode == 0 and "## What it does" in proc.stdout


def test_every_option_and_subcommand_is_in_the_readmes_option_table() -> None:
    from jaxlint.cli import SUBCOMMANDS, build_parser

    readme = (ROOT / "README.md").read_text()
    table = readme[readme.index("| option | meaning |"):]
    table = table[:table.index("\n\n")]
    first_column = " ".join(row.split(" | ")[0] for row in table.splitlines())
    options = [s for action in build_parser()._actions for s in action.option_strings
               if s.startswith("--") and s not in ("--help", "--version")]
    missing = [o for o in options if f"`{o}" not in first_column and f" {o}" not in first_column]
    assert missing == []
    assert all(f"`jaxlint {name}" in first_column for name in SUBCOMMANDS)
