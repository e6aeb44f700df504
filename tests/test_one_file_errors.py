"""Whatever one file raises is that file's one error line (exit 2) in every front end, the
other files are still checked, and files already fixed are still reported."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from helpers import jaxlint

from jaxlint import cli, engine, fix_source, lint_source
from jaxlint.errors import SourceError
from jaxlint.flake8_plugin import Plugin

BODY = ("import time\nimport jax.numpy as jnp\n\nt0 = time.perf_counter()\n"
        "y = jnp.ones(3) * 2\nprint(time.perf_counter() - t0)\n")


def _tree(tmp_path: Path, *cookies: str) -> dict[str, str]:
    """good.py (fixable) and one file per coding cookie, each otherwise a finding."""
    (tmp_path / "good.py").write_text(BODY)
    names = {}
    for i, cookie in enumerate(cookies):
        name = f"bad{i}.py"
        (tmp_path / name).write_bytes(f"# coding: {cookie}\n{BODY}".encode())
        names[name] = cookie
    return names


def _error_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": error: " in line]


@pytest.mark.parametrize("jobs", ["1", "2"])
@pytest.mark.parametrize("mode", ["lint", "fix"])
def test_a_failing_codec_is_the_files_error_line(tmp_path: Path, jobs: str, mode: str) -> None:
    """``# coding: punycode`` makes the decoder raise UnicodeError (not UnicodeDecodeError),
    ``# coding: undefined`` a codec that always raises: each is one line, the run goes on
    (and ``--fix`` still fixes and reports the good file), exit 2."""
    bad = _tree(tmp_path, "punycode", "undefined")
    args = ["--no-cache", "-j", jobs, *(["--fix"] if mode == "fix" else []), "."]
    result = jaxlint(*args, cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr
    assert result.returncode == 2, result.stderr
    errors = _error_lines(result.stderr)
    assert sorted(e.split(":")[0] for e in errors) == sorted(bad), errors
    assert all("cannot decode" in e for e in errors), errors
    if mode == "fix":
        assert "Fixed 1 finding." in result.stderr
        assert "jax.block_until_ready(y)" in (tmp_path / "good.py").read_text()
    else:
        assert result.stdout.startswith("good.py:6:")


def _explode(*args: object, **kwargs: object) -> object:
    raise ValueError("a bug met by one file\nover two lines")


def test_any_exception_in_the_analysis_is_a_source_error(monkeypatch: pytest.MonkeyPatch
                                                         ) -> None:
    monkeypatch.setattr(engine, "_report", _explode)
    for call in (lambda: lint_source(BODY), lambda: fix_source(BODY)):
        with pytest.raises(SourceError) as info:
            call()
        assert info.value.message == ("internal error (ValueError: a bug met by one file "
                                      "over two lines); please report it")


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_any_exception_for_one_file_is_its_error_line_in_the_cli(
        tmp_path: Path, jobs: str, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """A bug met by one file outside the engine (here: building its settings) is that
    file's error line; the other file is fixed and reported, in one process and with worker
    processes (which inherit the patch: they are forked)."""
    (tmp_path / "a.py").write_text(BODY)
    (tmp_path / "b.py").write_text(BODY.replace("y = ", "z = ").replace("(y)", "(z)"))
    real = cli._settings

    def settings_or_explode(path: str, *args: object) -> object:
        if path.endswith("b.py"):
            raise KeyError("boom")
        return real(path, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(cli, "_settings", settings_or_explode)
    monkeypatch.chdir(tmp_path)
    status = cli.main(["--no-cache", "-j", jobs, "--fix", "."])
    err = capsys.readouterr().err
    assert status == 2
    assert _error_lines(err) == [
        "b.py: error: internal error (KeyError: 'boom'); please report it"]
    assert "Fixed 1 finding." in err
    assert "jax.block_until_ready(y)" in (tmp_path / "a.py").read_text()
    assert (tmp_path / "b.py").read_text() == BODY.replace("y = ", "z = ").replace("(y)", "(z)")


def test_flake8_plugin_survives_any_exception(monkeypatch: pytest.MonkeyPatch) -> None:
    """flake8 ends the whole run when a plugin raises; the plugin reports nothing for the
    file instead, whatever was raised."""
    monkeypatch.setattr(engine, "_report", _explode)
    lines = BODY.splitlines(keepends=True)
    assert list(Plugin(ast.parse(BODY), lines, "a.py").run()) == []
    cookie = "# coding: punycode\n" + BODY
    assert list(Plugin(ast.parse(BODY), cookie.splitlines(keepends=True), "b.py").run()) == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_deeply_nested_notebook_json_is_the_files_error_line(tmp_path: Path, jobs: str) -> None:
    """json.loads raises RecursionError on 100,000 nested brackets: the notebook's error line,
    and the good file is still fixed."""
    (tmp_path / "good.py").write_text(BODY)
    (tmp_path / "deep.ipynb").write_text(
        '{"note": "import time\\nimport jax\\nt0 = time.perf_counter()", "cells": '
        + "[" * 100_000 + "]" * 100_000 + "}")
    result = jaxlint("--no-cache", "-j", jobs, "--fix", ".", cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 2
    (line,) = _error_lines(result.stderr)
    assert line.startswith("deep.ipynb: error: ") and "nested" in line, line
    assert "Fixed 1 finding." in result.stderr
