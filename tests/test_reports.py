"""What a CI job reads: paths that could not be checked are in every report, the exit status
says what the command means, and a notebook's findings land on the line of the .ipynb file
where the cell's line is stored (where GitHub shows the notebook's diff)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import jaxlint
from test_output import validate

from jaxlint.finding import FileError, Finding
from jaxlint.notebook_lines import Placer
from jaxlint.output import render

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""
BROKEN = "import jax, time\nt0 = time.time()\ndef f(:\n"  # worth parsing, and does not parse


def _cell(source: str | list[str]) -> dict[str, object]:
    return {"cell_type": "code", "execution_count": None, "metadata": {}, "outputs": [],
            "source": source}


def _notebook(*cells: dict[str, object], indent: int | None = 1) -> str:
    return json.dumps({"cells": list(cells), "metadata": {}, "nbformat": 4,
                       "nbformat_minor": 5}, indent=indent) + "\n"


SETUP = "import time\nimport jax\nimport jax.numpy as jnp\n\nf = jax.jit(lambda a: a @ a)\n"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "bench.py").write_text(MISTAKE)
    (tmp_path / "broken.py").write_text(BROKEN)
    return tmp_path


# ------------------------------------------------------------------- errors in every report


@pytest.mark.parametrize("fmt", ["json", "json-lines"])
def test_json_has_an_error_record_per_path_not_checked(project: Path, fmt: str) -> None:
    result = jaxlint("--format", fmt, "--exit-zero", ".", cwd=project)
    assert result.returncode == 0
    rows = (json.loads(result.stdout) if fmt == "json"
            else [json.loads(line) for line in result.stdout.splitlines()])
    assert [r["code"] for r in rows] == ["JAX101", None]
    assert rows[1] == {"path": "broken.py", "line": 3, "col": 7, "code": None,
                       "message": "cannot parse: invalid syntax", "fixable": False,
                       "fix": None}
    assert result.stderr.startswith("broken.py:3:7: error: cannot parse")


def test_github_annotates_errors_too(project: Path) -> None:
    result = jaxlint("--format", "github", ".", cwd=project)
    assert result.returncode == 2
    assert result.stdout.splitlines()[1] == (
        "::error file=broken.py,line=3,col=7,title=jaxlint error::error: cannot parse: "
        "invalid syntax")


def test_sarif_notifies_errors_and_marks_the_run(project: Path) -> None:
    result = jaxlint("--format", "sarif", "--exit-zero", ".", cwd=project)
    assert result.returncode == 0
    log = json.loads(result.stdout)
    validate(log)
    (run,) = log["runs"]
    assert [r["ruleId"] for r in run["results"]] == ["JAX101"]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    assert invocation["toolExecutionNotifications"] == [{
        "level": "error", "message": {"text": "cannot parse: invalid syntax"},
        "locations": [{"physicalLocation": {"artifactLocation": {"uri": "broken.py"},
                                            "region": {"startLine": 3, "startColumn": 7}}}],
        "descriptor": {"id": "file-error"}}]
    (project / "broken.py").unlink()
    clean = json.loads(jaxlint("--format", "sarif", ".", cwd=project).stdout)
    validate(clean)
    assert clean["runs"][0]["invocations"] == [{"executionSuccessful": True}]


def test_gitlab_report_lists_findings_and_errors(project: Path) -> None:
    (project / "twice.py").write_text(MISTAKE + MISTAKE.split("\n", 4)[4])
    result = jaxlint("--format", "gitlab", "--exit-zero", ".", cwd=project)
    issues = json.loads(result.stdout)
    assert [(i["check_name"], i["location"]["path"], i["location"]["positions"]["begin"])
            for i in issues] == [
        ("JAX101", "bench.py", {"line": 8, "column": 7}),
        ("JAX101", "twice.py", {"line": 8, "column": 7}),
        ("JAX101", "twice.py", {"line": 12, "column": 7}),
        ("jaxlint-error", "broken.py", {"line": 3, "column": 7})]
    assert [i["severity"] for i in issues] == ["major", "major", "major", "critical"]
    assert issues[0]["description"].startswith("JAX101 timer stops before JAX work finishes")
    prints = [i["fingerprint"] for i in issues]
    assert len(set(prints)) == 4  # the two equal findings of twice.py too
    # A finding keeps its fingerprint when lines above it move (GitLab tracks it as one).
    (project / "bench.py").write_text("# a new first line\n" + MISTAKE)
    moved = json.loads(jaxlint("--format", "gitlab", "--exit-zero", ".", cwd=project).stdout)
    assert moved[0]["location"]["positions"]["begin"]["line"] == 9
    assert [i["fingerprint"] for i in moved] == prints


def test_statistics_count_errors(project: Path) -> None:
    result = jaxlint("--statistics", "--format", "json", ".", cwd=project)
    assert json.loads(result.stdout)[-1] == {"code": None, "name": "error", "count": 1,
                                             "fixable": 0, "unsafe_fixable": 0}


@pytest.mark.parametrize("args, status", [
    ([], 2), (["--exit-zero"], 0), (["--exit-zero", "--fix"], 0), (["--exit-zero", "--diff"], 0),
])
def test_exit_zero_is_zero_whatever_a_path_did(project: Path, args: list[str],
                                               status: int) -> None:
    result = jaxlint(*args, ".", cwd=project)
    assert result.returncode == status, result.stderr
    assert "broken.py:3:7: error: cannot parse" in result.stderr


def test_exit_zero_is_two_when_the_command_is_wrong(project: Path) -> None:
    assert jaxlint("--exit-zero", "--jobs", "-1", ".", cwd=project).returncode == 2
    (project / "pyproject.toml").write_text('[tool.jaxlint]\nselct = ["JAX"]\n')
    assert jaxlint("--exit-zero", ".", cwd=project).returncode == 2
    (project / "pyproject.toml").unlink()
    (project / "out").mkdir()
    lost = jaxlint("--exit-zero", "-o", "out", ".", cwd=project)  # a folder: cannot be written
    assert lost.returncode == 2 and "out: error: cannot write" in lost.stderr


def test_render_api_carries_errors() -> None:
    e = FileError("a.py", "cannot read: Permission denied")
    assert json.loads(render([], "json", errors=[e])) == [
        {"path": "a.py", "line": None, "col": None, "code": None,
         "message": "cannot read: Permission denied", "fixable": False, "fix": None}]
    assert render([], "github", errors=[e]) == (
        "::error file=a.py,title=jaxlint error::error: cannot read: Permission denied\n")
    assert render([], "text", errors=[e]) == ""  # a person reads errors on stderr
    log = json.loads(render([], "sarif", errors=[e]))
    validate(log)
    note = log["runs"][0]["invocations"][0]["toolExecutionNotifications"][0]
    assert "region" not in note["locations"][0]["physicalLocation"]


# -------------------------------------------------------------- notebooks, as the file has them


def _stored_line(path: Path, line: int) -> str:
    return path.read_text().splitlines()[line - 1]


@pytest.mark.parametrize("indent", [1, None])
def test_github_and_sarif_place_notebook_findings_on_the_files_line(tmp_path: Path,
                                                                     indent: int | None
                                                                     ) -> None:
    """One JSON line per cell line (nbformat's layout) and the whole notebook on one line:
    the annotation is on the line holding the cell's line, at its column."""
    timed = "t0 = time.perf_counter()\ny = f(jnp.ones((4, 4)))\nprint(time.perf_counter() - t0)"
    path = tmp_path / "nb.ipynb"
    path.write_text(_notebook(_cell(SETUP.splitlines(keepends=True)),
                              {"cell_type": "markdown", "metadata": {}, "source": ["# é\n"]},
                              _cell(timed.splitlines(keepends=True)), indent=indent))
    text = jaxlint("nb.ipynb", cwd=tmp_path).stdout
    assert "nb.ipynb:cell 3:3:7: JAX101 " in text
    github = jaxlint("--format", "github", "nb.ipynb", cwd=tmp_path).stdout.splitlines()
    jax101 = next(a for a in github if "title=JAX101" in a)
    props = dict(p.split("=", 1) for p in jax101.split("::")[1][len("error "):].split(","))
    line, col = int(props["line"]), int(props["col"])
    stored = _stored_line(path, line)
    assert stored[col - 1:].startswith("time.perf_counter() - t0)")
    assert jax101.split("::", 2)[2].startswith("JAX101 cell 3, line 3: timer stops")
    log = json.loads(jaxlint("--format", "sarif", "nb.ipynb", cwd=tmp_path).stdout)
    validate(log)
    result = next(r for r in log["runs"][0]["results"] if r["ruleId"] == "JAX101")
    region = result["locations"][0]["physicalLocation"]["region"]
    assert (region["startLine"], region["startColumn"]) == (line, col)
    assert result["message"]["text"].startswith("cell 3, line 3: timer stops")
    assert result["properties"]["cell"] == 3 and result["properties"]["cellLine"] == 3
    # json keeps the cell and the line within it
    row = next(r for r in json.loads(jaxlint("--format", "json", "nb.ipynb",
                                             cwd=tmp_path).stdout) if r["code"] == "JAX101")
    assert (row["cell"], row["line"], row["col"]) == (3, 3, 7)


def test_notebook_error_is_placed_on_the_files_line(tmp_path: Path) -> None:
    path = tmp_path / "nb.ipynb"
    path.write_text(_notebook(_cell(["import jax, time\n", "t = time.time()\n"]),
                              _cell(["x = 1\n", "def f(:\n"])))
    result = jaxlint("--format", "github", "nb.ipynb", cwd=tmp_path)
    assert result.stderr.startswith("nb.ipynb:cell 2:2:7: error: cannot parse")
    props = dict(p.split("=", 1)
                 for p in result.stdout.split("::")[1][len("error "):].split(","))
    assert _stored_line(path, int(props["line"]))[int(props["col"]) - 1:] == ':\\n"'
    assert "::error: cell 2, line 2: cannot parse" in result.stdout


def test_placer_follows_escapes_pieces_and_odd_layouts() -> None:
    nb = ('{"metadata": {"source": ["not a cell"]}, "cells": [\n'
          '  {"cell_type": "markdown", "source": "# t\\u00e9\\n"},\n'
          '  {"source": ["a = \\"\\ud83d\\ude00\\"\\n",\n'
          '    "b = 1\\n"], "cell_type": "code"},\n'
          '  {"cell_type": "code", "source": "x = 1\\ny = \\t2\\n"}]}\n')
    placer = Placer(nb.encode())
    lines = nb.splitlines()

    def at(cell: int, line: int, col: int) -> str:
        where = placer.place(cell, line, col)
        assert where is not None
        return lines[where[0] - 1][where[1] - 1:]

    assert at(2, 1, 0).startswith('a = \\"')
    assert at(2, 1, 6).startswith('\\"\\n",')  # after the escaped emoji, one character
    assert at(2, 2, 4).startswith('1\\n"]')
    assert at(3, 2, 4).startswith("\\t2")  # the whole source in one string
    assert at(1, 1, 3).startswith("\\u00e9")
    assert placer.place(9, 1, 0) is None
    assert Placer(b"{not json").place(1, 1, 0) is None


def test_api_without_places_puts_a_notebook_finding_on_the_file() -> None:
    f = Finding("JAX101", "m", 3, 6, False, None, "nb.ipynb", cell=4)
    assert render([f], "github") == (
        "::error file=nb.ipynb,title=JAX101::JAX101 cell 4, line 3: m\n")


# ---------------------------------------------------------------- messages speak the user's code


def test_notebook_magic_messages_show_the_magic_not_its_stand_in(tmp_path: Path) -> None:
    path = tmp_path / "nb.ipynb"
    path.write_text(_notebook(_cell(SETUP.splitlines(keepends=True) + ["x = jnp.ones(3)\n"]),
                              _cell(["%timeit -n 5 f(x)"]), _cell(["%%timeit\n", "f(x)\n"]),
                              _cell(["r = %timeit -o f(x)  # noted\n"])))
    found = json.loads(jaxlint("--format", "json", "nb.ipynb", cwd=tmp_path).stdout)
    # (``-n 5`` makes no calibration runs: its first timed run compiles ``f``, JAX105)
    assert [(r["cell"], r["code"]) for r in found] == [
        (2, "JAX102"), (2, "JAX105"), (3, "JAX102"), (4, "JAX102")]
    for row in found:
        shown = row["message"] + row["explanation"]
        assert "__jaxlint" not in shown and "globals()" not in shown and '"f(x)"' not in shown
    compile_row = found[1]
    assert "the first run of `f(x)`" in compile_row["message"]
    assert compile_row["explanation"].startswith("`%timeit -n 5 f(x)` (cell 2, line 1) times")
    rows = [r for r in found if r["code"] == "JAX102"]
    for row in rows:
        assert "each run of `f(x)`" in row["message"]
    assert rows[0]["explanation"].startswith("`%timeit -n 5 f(x)` (cell 2, line 1) times `f(x)`")
    assert rows[1]["explanation"].startswith("`%%timeit` (cell 3, line 1) times `f(x)`")
    assert rows[2]["explanation"].startswith("`%timeit -o f(x)` (cell 4, line 1) times `f(x)`")


def test_noqa_on_a_magic_line_is_honoured(tmp_path: Path) -> None:
    path = tmp_path / "nb.ipynb"
    path.write_text(_notebook(_cell(SETUP.splitlines(keepends=True) + ["x = jnp.ones(3)\n"]),
                              _cell(["%timeit f(x)  # noqa: JAX102"]), _cell(["%timeit f(x)"])))
    result = jaxlint("nb.ipynb", cwd=tmp_path)
    assert [line.split(":")[1] for line in result.stdout.splitlines()] == ["cell 3"]
    fixed = jaxlint("--fix", "nb.ipynb", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    sources = ["".join(c["source"]) for c in json.loads(path.read_text())["cells"]]
    assert sources[1:] == ["%timeit f(x)  # noqa: JAX102",
                           "%timeit jax.block_until_ready(f(x))"]
