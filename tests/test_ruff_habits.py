"""A ruff user's habits work: ruff's option names, --add-noqa to adopt jaxlint on a big
codebase, --watch, --show-settings and --show-files, `jaxlint clean`, --fix --show-fixes,
fixes that keep to the formatter's line length, and # noqa where flake8 honours it."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, flake8, jaxlint

from jaxlint import fix_source
from jaxlint.settings import Settings

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""
# JAX105 and JAX101 at once (a jitted first call, left running)
COMPILES = """\
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = f(x)
print("latency:", time.perf_counter() - t0)
"""


def write(folder: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text)


def test_output_format_is_format(tmp_path: Path) -> None:
    write(tmp_path, {"bench.py": MISTAKE})
    for fmt in ("json", "github", "concise"):
        assert jaxlint("--output-format", fmt, ".", cwd=tmp_path).stdout == \
            jaxlint("--format", fmt, ".", cwd=tmp_path).stdout
    bad = jaxlint("--output-format", "xml", ".", cwd=tmp_path)
    assert bad.returncode == 2 and "invalid choice: 'xml'" in bad.stderr


def test_extend_select_adds_to_the_selection(tmp_path: Path) -> None:
    write(tmp_path, {"bench.py": COMPILES,
                     "pyproject.toml": '[tool.jaxlint]\nselect = ["JAX105"]\n'})

    def codes(*args: str) -> list[str]:
        rows = json.loads(jaxlint("--format", "json", *args, ".", cwd=tmp_path).stdout)
        return [r["code"] for r in rows]

    assert codes() == ["JAX105"]
    assert codes("--extend-select", "JAX101") == ["JAX105", "JAX101"]
    assert codes("--select", "JAX101") == ["JAX101"]
    assert codes("--select", "JAX104", "--extend-select", "JAX101") == ["JAX101"]
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\nselect = ["JAX105"]\nextend-select = ["JAX101"]\n')
    assert codes() == ["JAX105", "JAX101"]
    assert codes("--select", "JAX105") == ["JAX105"]  # --select replaces both, as in ruff
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nextend-select = ["JAX1O1"]\n')
    assert "JAX1O1 (did you mean 'JAX101'?)" in jaxlint(".", cwd=tmp_path).stderr


def test_show_files_lists_what_would_be_checked(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write(tmp_path, {"a.py": MISTAKE, "pkg/b.py": "", "nb.ipynb": "{}", "notes.txt": "",
                     "ignored/c.py": MISTAKE, ".gitignore": "ignored/\n",
                     ".venv/pyvenv.cfg": "", ".venv/lib/d.py": ""})
    result = jaxlint("--show-files", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "")
    assert sorted(result.stdout.split()) == ["a.py", "nb.ipynb", "pkg/b.py"]
    missing = jaxlint("--show-files", "nope.py", cwd=tmp_path)
    assert missing.returncode == 2 and "nope.py: error: " in missing.stderr


def test_show_settings_is_what_the_file_is_checked_with(tmp_path: Path) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write(tmp_path, {"pyproject.toml": '[tool.jaxlint]\nselect = ["JAX10"]\nignore = ["JAX104"]\n'
                     'per-file-ignores = { "legacy/*" = ["JAX105"] }\ntimers = ["my.clock"]\n'
                     '\n[tool.ruff]\nline-length = 100\n',
                     "legacy/old.py": MISTAKE})
    result = jaxlint("--show-settings", "--extend-exclude", "gen", "legacy/old.py",
                     cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    shown = {line.split("  ", 1)[0]: line.split("  ", 1)[1].strip()
             for line in result.stdout.splitlines()}
    assert shown["file"] == "legacy/old.py"
    assert shown["configuration"] == str(tmp_path / "pyproject.toml")
    assert shown["rules"] == "JAX101, JAX102, JAX103, JAX106, JAX107"
    assert shown["select"] == '["JAX10"]'
    assert shown["ignore"] == '["JAX104", "JAX105"]'
    assert shown["timers"] == '["my.clock"]'
    assert shown["extend-exclude"] == '["gen"]'
    assert shown["line-length"].startswith("100")
    assert shown["cache"] == os.path.join(str(tmp_path), ".jaxlint_cache")
    (tmp_path / "empty").mkdir()
    nothing = jaxlint("--show-settings", "--no-cache", cwd=tmp_path / "empty")
    assert "(none found; the current folder)" in nothing.stdout
    assert nothing.stdout.endswith("cache              off\n")


# --------------------------------------------------------------------------- --add-noqa


ODD_LINES = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)  # shown to people
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)  # noqa: E501
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(f\"\"\"{time.perf_counter() - t0}
seconds\"\"\")
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() \\
      - t0)
"""


def test_add_noqa_marks_every_finding_where_it_works(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": ODD_LINES, "b.py": COMPILES, "ok.py": "x = 1\n"})
    (tmp_path / "crlf.py").write_bytes(MISTAKE.replace("\n", "\r\n").encode())
    before = jaxlint("--format", "json", ".", cwd=tmp_path)
    assert len(json.loads(before.stdout)) == 7  # a.py 4, b.py 2, crlf.py 1
    result = jaxlint("--add-noqa", ".", cwd=tmp_path)
    assert (result.returncode, result.stderr) == (0, "Added 7 noqa directives.\n")
    text = (tmp_path / "a.py").read_text()
    assert "print(time.perf_counter() - t0)  # shown to people  # noqa: JAX101\n" in text
    assert "print(time.perf_counter() - t0)  # noqa: E501, JAX101\n" in text
    assert 'seconds""")  # noqa: JAX101\n' in text  # the last line of the string
    assert "      - t0)  # noqa: JAX101\n" in text  # after the continuation, not before it
    assert ("y = f(x)  # noqa: JAX105\n"
            "print(\"latency:\", time.perf_counter() - t0)  # noqa: JAX101\n") in \
        (tmp_path / "b.py").read_text()
    assert (tmp_path / "crlf.py").read_bytes().endswith(
        b"print(time.perf_counter() - t0)  # noqa: JAX101\r\n")
    assert (tmp_path / "ok.py").read_text() == "x = 1\n"
    after = jaxlint(".", cwd=tmp_path)
    assert (after.returncode, after.stdout) == (0, "")
    assert flake8("--select", "JAX", ".", cwd=tmp_path).stdout == ""  # and flake8 agrees
    again = jaxlint("--add-noqa", ".", cwd=tmp_path)
    assert again.stderr == "Added 0 noqa directives.\n"
    assert (tmp_path / "a.py").read_text() == text


def test_add_noqa_in_a_notebook(tmp_path: Path) -> None:
    cell = {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": []}
    setup = ["import time\n", "import jax\n", "import jax.numpy as jnp\n",
             "f = jax.jit(lambda a: a @ a)\n", "x = jnp.ones(3)\n", "f(x)\n"]
    nb = {"cells": [{**cell, "source": setup}, {**cell, "source": ["%timeit f(x)"]},
                    {**cell, "source": ["t0 = time.perf_counter()\n", "y = f(x)\n",
                                        "print(time.perf_counter() - t0)"]}],
          "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "nb.ipynb"
    path.write_text(json.dumps(nb, indent=1) + "\n")
    result = jaxlint("--add-noqa", "nb.ipynb", cwd=tmp_path)
    assert result.stderr == "Added 2 noqa directives.\n"
    after = json.loads(path.read_text())
    assert [c["source"] for c in after["cells"][1:]] == [
        ["%timeit f(x)  # noqa: JAX102"],
        ["t0 = time.perf_counter()\n", "y = f(x)\n",
         "print(time.perf_counter() - t0)  # noqa: JAX101"]]
    assert after["metadata"] == nb["metadata"]
    assert path.read_text() == json.dumps(after, indent=1) + "\n"  # laid out as it was
    assert jaxlint("nb.ipynb", cwd=tmp_path).stdout == ""


def test_add_noqa_refuses_what_would_not_be_a_lint(tmp_path: Path) -> None:
    for args in (["--fix"], ["--diff"], ["--stdin-filename", "a.py"]):
        result = jaxlint("--add-noqa", *args, ".", cwd=tmp_path)
        assert result.returncode == 2 and "--add-noqa writes the files" in result.stderr


# ------------------------------------------------------------------ --fix --show-fixes, clean


def test_fix_show_fixes_says_what_was_fixed_per_file_and_code(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": MISTAKE, "b.py": COMPILES, "ok.py": "x = 1\n"})
    result = jaxlint("--fix", "--unsafe-fixes", "--show-fixes", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == (
        "Fixed 3 findings:\n"
        "- a.py:\n"
        "    1 \N{MULTIPLICATION SIGN} JAX101 (unsynced-timer)\n"
        "- b.py:\n"
        "    1 \N{MULTIPLICATION SIGN} JAX101 (unsynced-timer)\n"
        "    1 \N{MULTIPLICATION SIGN} JAX105 (compile-in-region)\n"
        "Fixed 3 findings.\n")
    nothing = jaxlint("--fix", "--show-fixes", ".", cwd=tmp_path)
    assert nothing.stderr == "No findings were fixed.\nFixed 0 findings.\n"


def test_clean_removes_caches_below_and_follows_no_link(tmp_path: Path) -> None:
    write(tmp_path, {"proj/a.py": MISTAKE, "proj/sub/b.py": MISTAKE, "elsewhere/c.py": MISTAKE})
    proj = tmp_path / "proj"
    for folder in (proj, proj / "sub", tmp_path / "elsewhere"):
        (folder / ".jaxlint_cache" / "v1").mkdir(parents=True)
        (folder / ".jaxlint_cache" / "v1" / "entry").write_text("x")
    (proj / "linked").symlink_to(tmp_path / "elsewhere")  # a linked folder: not entered
    (proj / "sub" / "other").mkdir()
    (proj / "sub" / "other" / ".jaxlint_cache").symlink_to(tmp_path / "elsewhere")
    result = jaxlint("clean", cwd=proj)
    assert result.returncode == 0, result.stderr
    assert sorted(result.stdout.splitlines()) == [
        "Removing cache at: ./.jaxlint_cache", "Removing cache at: ./sub/.jaxlint_cache",
        "Removing cache at: ./sub/other/.jaxlint_cache"]
    assert not (proj / ".jaxlint_cache").exists()
    assert not (proj / "sub" / ".jaxlint_cache").exists()
    assert not os.path.lexists(proj / "sub" / "other" / ".jaxlint_cache")  # the link, only
    assert (tmp_path / "elsewhere" / ".jaxlint_cache" / "v1" / "entry").read_text() == "x"
    assert (tmp_path / "elsewhere" / "c.py").exists()
    assert jaxlint("clean", cwd=proj).stdout == ""
    # a file named clean is a path, as for the other subcommands
    (proj / "clean").write_text(MISTAKE)
    assert jaxlint("clean", cwd=proj).stdout.startswith("clean:8:7: JAX101")


def test_a_real_run_writes_a_cache_that_clean_removes(tmp_path: Path) -> None:
    write(tmp_path, {"a.py": MISTAKE})
    jaxlint(".", cwd=tmp_path)
    assert (tmp_path / ".jaxlint_cache").is_dir()
    assert jaxlint("clean", cwd=tmp_path).returncode == 0
    assert not (tmp_path / ".jaxlint_cache").exists()


# ----------------------------------------------------------------------------- line length


LONG = """\
import time

import jax
import jax.numpy as jnp


def train(x, first_argument_name, second_argument):
    for epoch in range(3):
        if epoch:
            t0 = time.perf_counter()
            a_long_result_name = jnp.dot(x, x)
            b_long_result_name = jnp.dot(x, x) + 1
            c_long_result_name = jnp.sum(x)
            print(time.perf_counter() - t0)
            t0 = time.perf_counter()
            step_function_name(first_argument_name, second_argument)
            print(time.perf_counter() - t0)


step_function_name = jax.jit(lambda a, b: a @ b)
"""
SYNC_ONE_LINE = ("jax.block_until_ready((a_long_result_name, b_long_result_name, "
                 "c_long_result_name))")  # 84 characters, at 12 of indentation


def _new_lines(before: str, after: str) -> list[str]:
    import difflib

    return [line[1:] for line in difflib.unified_diff(before.splitlines(), after.splitlines(),
                                                      lineterm="", n=0)
            if line.startswith("+") and not line.startswith("+++")]


@pytest.mark.parametrize("length", [75, 88, 120])
def test_fixes_keep_to_the_line_length(length: int) -> None:
    fixed = str(fix_source(LONG, "t.py", settings=Settings(line_length=length)).source)
    added = _new_lines(LONG, fixed)
    assert added and all(len(line) <= length for line in added), (length, added)
    compile(fixed, "t.py", "exec")
    assert fix_source(fixed, "t.py", settings=Settings(line_length=length)).source == fixed
    split = ("            jax.block_until_ready(\n"
             "                step_function_name(first_argument_name, second_argument)\n"
             "            )\n")
    if length == 75:  # the tuple does not fit on a line of its own either: one name a line
        assert ("            jax.block_until_ready(\n                (\n"
                "                    a_long_result_name,\n                    b_long_result_name,\n"
                "                    c_long_result_name,\n                )\n            )\n"
                ) in fixed
    if length == 88:
        assert ("            jax.block_until_ready(\n                (a_long_result_name, "
                "b_long_result_name, c_long_result_name)\n            )\n") in fixed
    assert (split in fixed) == (length < 91)
    assert (SYNC_ONE_LINE in fixed) == (length == 120)


@pytest.mark.skipif(shutil.which("ruff") is None and not (Path(sys.executable).parent / "ruff")
                    .exists(), reason="ruff is not installed (the dev extra has it)")
@pytest.mark.parametrize("length", [75, 88])
def test_added_lines_are_as_ruff_format_writes_them(tmp_path: Path, length: int) -> None:
    ruff = shutil.which("ruff") or str(Path(sys.executable).parent / "ruff")
    fixed = str(fix_source(LONG, "t.py", settings=Settings(line_length=length)).source)
    (tmp_path / "t.py").write_text(fixed)
    subprocess.run([ruff, "format", "--line-length", str(length), "--isolated", "t.py"],
                   cwd=tmp_path, check=True, capture_output=True)
    formatted = (tmp_path / "t.py").read_text()
    for line in _new_lines(LONG, fixed):
        assert line in formatted.splitlines(), line


@pytest.mark.parametrize("config, expected", [
    ({"pyproject.toml": "[tool.ruff]\nline-length = 75\n"}, 75),
    ({"pyproject.toml": "[tool.black]\nline-length = 80\n"}, 80),
    ({"ruff.toml": "line-length = 120\n", "pyproject.toml": "[tool.ruff]\nline-length = 99\n"},
     120),
    ({}, 88),
])
def test_the_cli_fixes_with_the_projects_line_length(tmp_path: Path, config: dict[str, str],
                                                     expected: int) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    write(tmp_path, {**config, "pkg/train.py": LONG})
    show = jaxlint("--show-settings", "pkg/train.py", cwd=tmp_path).stdout
    assert f"line-length        {expected} " in show
    result = jaxlint("--fix", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    fixed = (tmp_path / "pkg" / "train.py").read_text()
    added = _new_lines(LONG, fixed)
    assert added and all(len(line) <= expected for line in added), added
    assert (SYNC_ONE_LINE in fixed) == (12 + len(SYNC_ONE_LINE) <= expected)


# ------------------------------------------------------------------------------------ noqa


NOQA_PLACES = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(  # noqa: JAX101
    time.perf_counter() - t0)
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() \\
      - t0)  # noqa: JAX101
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(f\"\"\"{time.perf_counter() - t0}
\"\"\")  # noqa: JAX101
"""


def test_noqa_works_where_the_readme_says_and_as_in_flake8(tmp_path: Path) -> None:
    """On a line joined to the reported one by a backslash or a multi-line string: yes; on
    another line of a statement that only spans lines in brackets: no."""
    write(tmp_path, {"a.py": NOQA_PLACES})
    lint = jaxlint("--no-cache", "a.py", cwd=tmp_path)
    assert [line.split(": ")[0] for line in lint.stdout.splitlines()] == ["a.py:9:5"]
    assert [line.split(": ")[0] for line in flake8("--select", "JAX", "a.py",
                                                    cwd=tmp_path).stdout.splitlines()] == \
        ["a.py:9:5"]


# ----------------------------------------------------------------------------------- --watch


def _read_until(proc: subprocess.Popen[str], text: str, timeout: float) -> str:
    """What ``proc`` writes to stdout and stderr (merged) until ``text`` appears."""
    import selectors

    assert proc.stdout is not None
    seen = ""
    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    deadline = time.monotonic() + timeout
    while text not in seen:
        left = deadline - time.monotonic()
        if left <= 0 or not sel.select(left):
            raise AssertionError(f"waited {timeout} s for {text!r}; got {seen!r}")
        chunk = os.read(proc.stdout.fileno(), 65536).decode()
        if not chunk:
            raise AssertionError(f"jaxlint ended before {text!r}; got {seen!r}")
        seen += chunk
    return seen


def test_watch_checks_again_when_a_file_changes(tmp_path: Path) -> None:
    pytest.importorskip("watchfiles")
    write(tmp_path, {"a.py": MISTAKE})
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(ROOT)
    proc = subprocess.Popen([sys.executable, "-m", "jaxlint", "--watch", "--no-cache", "."],
                            cwd=tmp_path, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True)
    try:
        first = _read_until(proc, "Watching for file changes.", 60)
        assert "a.py:8:7: JAX101" in first and "Found 1 finding" in first
        time.sleep(0.5)
        (tmp_path / "b.py").write_text(MISTAKE)  # a new file
        second = _read_until(proc, "Watching for file changes.", 60)
        assert "changed; checking again." in second
        assert "a.py:8:7: JAX101" in second and "b.py:8:7: JAX101" in second
        time.sleep(0.5)
        (tmp_path / "a.py").write_text("x = 1\n")
        (tmp_path / "notes.txt").write_text("not a source")  # changes nothing checked
        third = _read_until(proc, "Watching for file changes.", 60)
        assert "a.py:8:7" not in third and "b.py:8:7: JAX101" in third
        proc.send_signal(signal.SIGINT)
        assert proc.wait(timeout=30) == 130
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()


def test_watch_without_the_extra_says_what_to_install(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "watchfiles", None)  # as if not installed
    result = jaxlint("--watch", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr == ("jaxlint: error: --watch needs the 'watch' extra (watchfiles is "
                             "missing); from a clone of jaxlint: python3 -m pip install "
                             "'.[watch]'\n")
    assert jaxlint("--watch", "--explain", "a.py:1", cwd=tmp_path).returncode == 2
