"""Bad input: one clear error line for the bad file, the other files still checked, exit 2.

Every case runs the real command line in a folder that also holds ``good.py``, a script with
one real mistake, and checks that the mistake is still reported. Files that must lint fine
(BOM, CRLF, mixed line endings, tabs, empty) are also fixed, and the fix must change nothing
but the inserted lines.

Bad files mention ``jax`` and ``time``: files that mention neither are not parsed at all.
"""

from __future__ import annotations

import difflib
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import ROOT, jaxlint, run

GOOD = """\
import time

import jax.numpy as jnp

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""
GOOD_FINDING = "good.py:8:7: JAX101 "
# Makes a file worth parsing: it names jax, imports a clock module and reads a clock.
HEAD = "import jax, time\nt = time.perf_counter()\n"
HEAD_LINES = HEAD.count("\n")
SLOW_BUDGET_S = 120  # a huge or very long file must be checked within this
DEEP_BUDGET_S = 60  # a deeply nested one, within this


def _setup(tmp_path: Path) -> None:
    (tmp_path / "good.py").write_text(GOOD)


def _errors(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if ": error: " in line]


def _assert_goes_on(result: subprocess.CompletedProcess[str], name: str) -> str:
    """Exit 2, exactly one error line, for ``name``, and good.py's finding on stdout."""
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    errors = _errors(result.stderr)
    assert result.returncode == 2, (result.returncode, result.stderr[-3000:])
    assert len(errors) == 1, errors
    assert errors[0].startswith(name + ":"), errors
    assert GOOD_FINDING in result.stdout, result.stdout
    return errors[0]


def _assert_lints_fine(result: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in result.stderr, result.stderr[-3000:]
    assert _errors(result.stderr) == []
    assert result.returncode == 1, result.stderr
    assert GOOD_FINDING in result.stdout


def _check(tmp_path: Path, *args: str, timeout: float = 300
           ) -> subprocess.CompletedProcess[str]:
    """The CLI with a time limit; on timeout its whole process group (pool workers too) is
    killed, so no worker is left running after the test."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(ROOT)  # this checkout's jaxlint, whatever the working folder
    proc = subprocess.Popen([sys.executable, "-m", "jaxlint", *args], cwd=tmp_path, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        raise
    finally:
        try:
            os.killpg(proc.pid, signal.SIGKILL)  # workers orphaned by a dead main process
        except ProcessLookupError:
            pass
    return subprocess.CompletedProcess(proc.args, proc.returncode, out, err)


# ----------------------------------------------------------------- files that cannot be checked
def _position(line: str) -> tuple[int, int]:
    _, lineno, col, _ = line.split(":", 3)
    return int(lineno), int(col)


def test_syntax_error_reported_with_cpython_position(tmp_path: Path) -> None:
    _setup(tmp_path)
    src = HEAD + "def f(:\n    pass\n"
    (tmp_path / "broken.py").write_text(src)
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "broken.py")
    with pytest.raises(SyntaxError) as info:
        compile(src, "broken.py", "exec")
    # Where Python itself puts the error (line 2, column 7), not the start of the line.
    assert _position(err) == (info.value.lineno, info.value.offset), err


def test_syntax_error_at_end_of_file(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "broken.py").write_text(HEAD + "x = (1 +\n")
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "broken.py")
    assert _position(err)[0] in (HEAD_LINES + 1, HEAD_LINES + 2), err


def test_python2_file(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "py2.py").write_text(HEAD + 'print "x"\n')
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "py2.py")
    assert err.startswith(f"py2.py:{HEAD_LINES + 1}:"), err


def test_undecodable_bytes(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "latin.py").write_bytes(HEAD.encode() + b'x = "\xff\xfe caf\xe9"\n')
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "latin.py")
    assert "decode" in err


def test_wrong_coding_declaration(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "ascii.py").write_bytes(
        b"# -*- coding: ascii -*-\n" + HEAD.encode() + 'x = "café"\n'.encode())
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "ascii.py")
    assert "decode" in err or "ascii" in err


@pytest.mark.parametrize("first", [b"# -*- coding: no-such-codec -*-\n",
                                   b"\xef\xbb\xbf# coding: latin-1\n"],
                         ids=["unknown-codec", "bom-with-other-cookie"])
def test_bad_coding_declaration(tmp_path: Path, first: bytes) -> None:
    _setup(tmp_path)
    (tmp_path / "nocodec.py").write_bytes(first + HEAD.encode())
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "nocodec.py")
    assert "cannot decode" in err and "encoding" in err, err
    # --fix leaves it byte for byte
    assert jaxlint("--fix", ".", cwd=tmp_path).returncode == 2
    assert (tmp_path / "nocodec.py").read_bytes() == first + HEAD.encode()


def test_nul_bytes(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "nul.py").write_bytes(HEAD.encode() + b"x = 1\0\n")
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "nul.py")
    assert "NUL" in err or "binary" in err


def test_missing_path(tmp_path: Path) -> None:
    _setup(tmp_path)
    err = _assert_goes_on(jaxlint(".", "missing.py", cwd=tmp_path), "missing.py")
    assert "no such file" in err


def test_symlink_loop_named(tmp_path: Path) -> None:
    _setup(tmp_path)
    os.symlink("loop_b.py", tmp_path / "loop_a.py")
    os.symlink("loop_a.py", tmp_path / "loop_b.py")
    result = jaxlint("good.py", "loop_a.py", cwd=tmp_path)
    _assert_goes_on(result, "loop_a.py")


def test_symlink_loop_inside_tree_is_no_crash(tmp_path: Path) -> None:
    """A loop met while walking a folder: skipped or reported once, never a crash or a hang."""
    _setup(tmp_path)
    os.symlink("loop_b.py", tmp_path / "loop_a.py")
    os.symlink("loop_a.py", tmp_path / "loop_b.py")
    os.symlink(".", tmp_path / "self_dir")  # a folder loop
    result = jaxlint(".", cwd=tmp_path)
    assert "Traceback" not in result.stderr
    assert GOOD_FINDING in result.stdout
    assert len(_errors(result.stderr)) <= 2
    assert result.returncode in (1, 2)
    assert result.stdout.count(GOOD_FINDING) == 1  # the folder loop is not followed


def test_directory_named_like_a_file(tmp_path: Path) -> None:
    """A folder called ``x.py`` is a folder: searched, not read as a file, no error."""
    _setup(tmp_path)
    (tmp_path / "x.py").mkdir()
    (tmp_path / "x.py" / "inner.py").write_text(GOOD)
    result = jaxlint(".", cwd=tmp_path)
    _assert_lints_fine(result)
    assert os.path.join("x.py", "inner.py") + ":8:7: JAX101" in result.stdout
    result = jaxlint("good.py", "x.py", cwd=tmp_path)
    _assert_lints_fine(result)


def _unreadable_runner(tmp_path: Path) -> list[str]:
    """How to run the CLI so that a mode-000 file cannot be read, even as root."""
    if os.geteuid() != 0:
        return [sys.executable, "-m", "jaxlint"]
    setpriv = shutil.which("setpriv")
    if setpriv is None:
        pytest.skip("running as root (reads any file) and no setpriv to drop the capability")
    probe = tmp_path / "probe"
    probe.write_text("x")
    probe.chmod(0)
    drop = [setpriv, "--bounding-set=-dac_override,-dac_read_search"]
    got = run(*drop, sys.executable, "-c", f"open({str(probe)!r}).read()", cwd=tmp_path)
    probe.unlink()
    if got.returncode == 0:
        pytest.skip("running as root and dropping CAP_DAC_OVERRIDE did not take effect")
    return [*drop, sys.executable, "-m", "jaxlint"]


def test_unreadable_file(tmp_path: Path) -> None:
    _setup(tmp_path)
    cmd = _unreadable_runner(tmp_path)
    secret = tmp_path / "secret.py"
    secret.write_text(GOOD)
    secret.chmod(0)
    try:
        result = run(*cmd, ".", cwd=tmp_path)
    finally:
        secret.chmod(0o644)
    err = _assert_goes_on(result, "secret.py")
    assert "cannot read" in err or "ermission" in err


def test_unreadable_folder(tmp_path: Path) -> None:
    _setup(tmp_path)
    cmd = _unreadable_runner(tmp_path)
    locked = tmp_path / "locked"
    locked.mkdir()
    (locked / "inner.py").write_text(GOOD)
    locked.chmod(0)
    try:
        result = run(*cmd, ".", cwd=tmp_path)
    finally:
        locked.chmod(0o755)
    _assert_goes_on(result.__class__(result.args, result.returncode, result.stdout,
                                     result.stderr.replace("./locked", "locked")), "locked")


# ----------------------------------------------------------------- nesting and size
# Shapes that once crashed the run: libcst's native parser overflows the C stack (segfault)
# a few thousand levels deep and is slower than linear on long operator chains; the analysis
# hits Python's recursion limit a few hundred levels deep.
DEEP = {
    # name: (source after HEAD, what the error line must say; None: may also lint fine)
    "parens_1000": ("x = " + "(" * 1000 + "1" + ")" * 1000, "too many nested parentheses"),
    "parens_5000": ("x = " + "(" * 5000 + "1" + ")" * 5000, "too many nested parentheses"),
    "calls_190": ("x = " + "f(" * 190 + "1" + ")" * 190, None),
    "ifs_200": ("".join("    " * i + "if x:\n" for i in range(200)) + "    " * 200 + "pass",
                "too many levels of indentation"),
    "defs_60": ("".join("    " * i + f"def f{i}():\n" for i in range(60)) + "    " * 60 + "pass",
                None),  # valid Python (60 < CPython's 100 indents)
    "lists_150": ("x = " + "[" * 150 + "]" * 150, None),
    # CPython parses these; libcst crashed (segfault) or ran for minutes
    "and_10000": ("x = " + " and ".join(["y"] * 10_000), "too deeply nested"),
    "and_10000_lines": ("x = (" + " and\n".join(["y"] * 10_000) + ")", "too deeply nested"),
    "not_3000": ("x = " + "not " * 3000 + "y", "too deeply nested"),
    "elif_10000": ("if x:\n    pass\n" + "elif x:\n    pass\n" * 10_000, "too deeply nested"),
    "attr_5000": ("x = y" + ".a" * 5000, "too deeply nested"),
    # CPython itself gives up (RecursionError, MemoryError)
    "plus_100000": ("x = " + "+".join(["1"] * 100_000), "too deeply nested"),
    "unary_10000": ("x = " + "-" * 10_000 + "1", "too deeply nested"),
    "plus_continued_20000": ("x = " + " + \\\n".join(["1"] * 20_000), "too deeply nested"),
    # shallow enough for the parser, too deep for the analysis (or not, after a rewrite)
    "unary_700": ("x = " + "-" * 700 + "1", None),
    "strings_1500": ("x = " + " ".join(["'a'"] * 1500), None),
}


def _deep(kind: str) -> str:
    return HEAD + DEEP[kind][0] + "\n"


# One of each kind of depth in the fast tier, every shape in the full suite: each case is a
# process of its own (a crash must not take the test run down), a second of start-up each.
FAST_DEEP = {"parens_5000", "and_10000", "elif_10000", "plus_100000", "unary_700"}


def _deep_cases(kinds: list[str]) -> list[object]:
    return [pytest.param(k, id=k, marks=[] if k in FAST_DEEP else [pytest.mark.slow])
            for k in kinds]


@pytest.mark.parametrize("kind", _deep_cases(list(DEEP)))
def test_deep_nesting_is_no_crash(tmp_path: Path, kind: str) -> None:
    """Deep nesting: either lints fine or one error line for the file; never a crash (a
    traceback, a dead worker or a segfault that takes the whole run down)."""
    _setup(tmp_path)
    (tmp_path / "deep.py").write_text(_deep(kind))
    result = _check(tmp_path, ".", timeout=DEEP_BUDGET_S)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode in (1, 2), (result.returncode, result.stderr[-2000:])
    assert GOOD_FINDING in result.stdout
    errors = _errors(result.stderr)
    expected = DEEP[kind][1]
    if expected is not None or result.returncode == 2:
        assert result.returncode == 2, result.stderr[-2000:]
        assert len(errors) == 1 and errors[0].startswith("deep.py:"), errors
        assert expected is None or expected in errors[0], errors
        assert expected is not None or "too deeply nested" in errors[0], errors
    else:
        assert errors == []


@pytest.mark.parametrize("kind", _deep_cases(["and_10000", "unary_10000", "parens_5000"]))
def test_deep_nesting_in_one_process(tmp_path: Path, kind: str) -> None:
    """The same without worker processes (``-j1``): a crash here would end the run itself."""
    _setup(tmp_path)
    (tmp_path / "deep.py").write_text(_deep(kind))
    err = _assert_goes_on(_check(tmp_path, "-j1", ".", timeout=DEEP_BUDGET_S), "deep.py")
    assert DEEP[kind][1] in err  # type: ignore[operator]
    result = _check(tmp_path, "-j1", "--fix", ".", timeout=DEEP_BUDGET_S)
    assert result.returncode == 2 and len(_errors(result.stderr)) == 1, result.stderr
    assert (tmp_path / "deep.py").read_text() == _deep(kind)


def test_deep_nesting_api_raises_source_error() -> None:
    """lint_source and fix_source raise SourceError (what the CLI and the flake8 plugin
    report) rather than crash or raise RecursionError."""
    from jaxlint import fix_source, lint_source
    from jaxlint.engine import SourceError

    for kind in ("and_10000", "plus_100000", "elif_10000", "parens_5000"):
        with pytest.raises(SourceError):
            lint_source(_deep(kind))
        with pytest.raises(SourceError):
            fix_source(_deep(kind).encode())


def test_nesting_guard_leaves_big_flat_code_alone(tmp_path: Path) -> None:
    """What the guard measures but must let through: a long line with many operators, a big
    bracketed table, 300 elifs, 150 nested brackets inside strings, a 200-term sum."""
    _setup(tmp_path)
    table = "TABLE = {\n" + "".join(f"    {i}: ({i} + 1, -{i}, 'a.b'),\n"
                                      for i in range(600)) + "}\n"
    row = "ROW = [" + ", ".join(f"-{i} + {i} * 2" for i in range(1000)) + "]\n"
    elifs = "def pick(k):\n    if k == 0:\n        return 0\n" + "".join(
        f"    elif k == {i}:\n        return {i}\n" for i in range(1, 300)) + "\n"
    text = "S = '" + "(" * 150 + "' + \"" + "[" * 150 + "\"\n"
    chain = "T = " + " + ".join(["1"] * 200) + "\n"
    (tmp_path / "data.py").write_text(GOOD + table + row + elifs + text + chain)
    result = _check(tmp_path, ".", timeout=DEEP_BUDGET_S)
    _assert_lints_fine(result)
    assert "data.py:8:7: JAX101" in result.stdout


@pytest.mark.slow
def test_huge_file(tmp_path: Path) -> None:
    """100,000 lines of module-level statements around a real mistake, in reasonable time."""
    _setup(tmp_path)
    body = "".join(f"v{i} = {i} + 1\n" for i in range(100_000))
    (tmp_path / "huge.py").write_text(GOOD + body)
    start = time.monotonic()
    try:
        result = _check(tmp_path, ".", timeout=SLOW_BUDGET_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a 100k-line file took more than {SLOW_BUDGET_S} s")
    _assert_lints_fine(result)
    assert "huge.py:8:7: JAX101" in result.stdout
    assert time.monotonic() - start < SLOW_BUDGET_S


@pytest.mark.slow
def test_one_very_long_line(tmp_path: Path) -> None:
    """A generated file with a 1 MB line of data (a list literal) after a real mistake."""
    _setup(tmp_path)
    data = "DATA = [" + ", ".join(str(i % 1000) for i in range(250_000)) + "]\n"
    assert len(data) > 1_000_000
    (tmp_path / "generated.py").write_text(GOOD + data)
    try:
        result = _check(tmp_path, ".", timeout=SLOW_BUDGET_S)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a file with a 1 MB line took more than {SLOW_BUDGET_S} s")
    _assert_lints_fine(result)
    assert "generated.py:8:7: JAX101" in result.stdout


def test_one_very_long_string(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "blob.py").write_text(GOOD + "BLOB = '" + "a" * 1_000_000 + "'\n")
    result = _check(tmp_path, ".", timeout=SLOW_BUDGET_S)
    _assert_lints_fine(result)
    assert "blob.py:8:7: JAX101" in result.stdout


# ----------------------------------------------------------------- notebooks
def test_notebook_invalid_json(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "broken.ipynb").write_text(
        '{"cells": [{"cell_type": "code", "source": "import jax, time\\nt = time.perf_counter()')
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "broken.ipynb")
    assert "JSON" in err or "json" in err, err


def test_notebook_without_cells(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "nocells.ipynb").write_text(json.dumps(
        {"metadata": {"note": HEAD}, "nbformat": 4, "nbformat_minor": 5}))
    err = _assert_goes_on(jaxlint(".", cwd=tmp_path), "nocells.ipynb")
    assert "cells" in err, err


def test_notebook_cell_with_syntax_error(tmp_path: Path) -> None:
    _setup(tmp_path)
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": [*HEAD.splitlines(keepends=True), "def f(:\n"]}
    (tmp_path / "cell.ipynb").write_text(json.dumps(
        {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}))
    _assert_goes_on(jaxlint(".", cwd=tmp_path), "cell.ipynb")


# ----------------------------------------------------------------- files that must lint fine
def _only_insertions(before: bytes, after: bytes) -> list[bytes]:
    """The lines ``after`` adds to ``before``; fails if any original line changed."""
    a, b = before.splitlines(keepends=True), after.splitlines(keepends=True)
    added: list[bytes] = []
    for op, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        assert op in ("equal", "insert"), (op, a[i1:i2], b[j1:j2])
        if op == "insert":
            added.extend(b[j1:j2])
    return added


ALLOWED_INSERTS = {b"import jax", b"jax.block_until_ready(y)"}


def _fix_and_compare(tmp_path: Path, name: str, data: bytes, newline: bytes | None) -> bytes:
    from jaxlint import fix_source

    path = tmp_path / name
    path.write_bytes(data)
    _assert_lints_fine(jaxlint(".", cwd=tmp_path))
    result = jaxlint("--fix", ".", cwd=tmp_path)
    assert result.returncode == 0 and _errors(result.stderr) == [], result.stderr
    fixed = path.read_bytes()
    assert fixed != data
    added = _only_insertions(data, fixed)
    assert {line.strip() for line in added} <= ALLOWED_INSERTS, added
    if newline is not None:
        assert all(line.endswith(newline) for line in added), added
    expected = fix_source(data, str(path)).source
    assert fixed == expected  # the CLI writes exactly what the API returns
    compile(fixed, name, "exec", dont_inherit=True)
    assert fix_source(fixed, str(path)).source == fixed  # a second --fix changes nothing
    return fixed


def test_utf8_bom(tmp_path: Path) -> None:
    _setup(tmp_path)
    data = b"\xef\xbb\xbf" + GOOD.replace("x = jnp", "s = 'caf\u00e9'\nx = jnp").encode()
    fixed = _fix_and_compare(tmp_path, "bom.py", data, b"\n")
    assert fixed.startswith(b"\xef\xbb\xbf") and fixed.count(b"\xef\xbb\xbf") == 1
    assert "café".encode() in fixed


def test_crlf(tmp_path: Path) -> None:
    _setup(tmp_path)
    data = GOOD.replace("\n", "\r\n").encode()
    fixed = _fix_and_compare(tmp_path, "crlf.py", data, b"\r\n")
    assert fixed.count(b"\n") == fixed.count(b"\r\n")


def test_mixed_line_endings(tmp_path: Path) -> None:
    _setup(tmp_path)
    lines = GOOD.splitlines()
    data = "".join(line + ("\r\n" if i % 2 else "\n") for i, line in enumerate(lines)).encode()
    _fix_and_compare(tmp_path, "mixed.py", data, None)


def test_bom_and_crlf(tmp_path: Path) -> None:
    _setup(tmp_path)
    data = b"\xef\xbb\xbf" + GOOD.replace("\n", "\r\n").encode()
    fixed = _fix_and_compare(tmp_path, "bomcrlf.py", data, b"\r\n")
    assert fixed.startswith(b"\xef\xbb\xbf")


def test_tab_indentation(tmp_path: Path) -> None:
    _setup(tmp_path)
    body = "\n".join("\t" + line if line else "" for line in GOOD.splitlines()[4:])
    data = ("import time\n\nimport jax.numpy as jnp\n\n\ndef f():\n" + body + "\n").encode()
    fixed = _fix_and_compare(tmp_path, "tabs.py", data, b"\n")
    assert b"\tjax.block_until_ready(y)\n" in fixed


def test_empty_file(tmp_path: Path) -> None:
    _setup(tmp_path)
    (tmp_path / "empty.py").write_bytes(b"")
    (tmp_path / "blank.py").write_bytes(b"\n\n")
    _assert_lints_fine(jaxlint(".", cwd=tmp_path))
    assert jaxlint("--fix", ".", cwd=tmp_path).returncode == 0
    assert (tmp_path / "empty.py").read_bytes() == b""
    assert (tmp_path / "blank.py").read_bytes() == b"\n\n"
    alone = jaxlint("empty.py", cwd=tmp_path)
    assert (alone.returncode, alone.stdout, _errors(alone.stderr)) == (0, "", [])


def test_no_trailing_newline(tmp_path: Path) -> None:
    _setup(tmp_path)
    _fix_and_compare(tmp_path, "nonl.py", GOOD.rstrip("\n").encode(), None)


def test_fix_prints_no_python_warnings_about_the_users_code(tmp_path: Path) -> None:
    """Checking that a fix compiles must not print Python's SyntaxWarnings for the file."""
    _setup(tmp_path)
    (tmp_path / "good.py").write_text(GOOD + 'Q = "x"("y") if False else 0\nP = "\\d"\n')
    result = jaxlint("--fix", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Warning" not in result.stderr, result.stderr


# ----------------------------------------------------------------- the same file twice
def test_file_named_twice_is_checked_once(tmp_path: Path) -> None:
    """``jaxlint . good.py`` reports the finding once, and --fix does not trip over itself."""
    _setup(tmp_path)
    result = jaxlint(".", "good.py", cwd=tmp_path)
    assert result.stdout.count(GOOD_FINDING) == 1, result.stdout
    result = jaxlint("--fix", ".", "good.py", cwd=tmp_path)
    assert (result.returncode, _errors(result.stderr)) == (0, []), result.stderr


def test_symlink_to_a_file_in_the_tree_is_fixed_once(tmp_path: Path) -> None:
    _setup(tmp_path)
    os.symlink("good.py", tmp_path / "alias.py")
    result = jaxlint("--fix", ".", cwd=tmp_path)
    assert (result.returncode, _errors(result.stderr)) == (0, []), result.stderr
    assert os.path.islink(tmp_path / "alias.py")
    assert b"jax.block_until_ready(y)" in (tmp_path / "good.py").read_bytes()


def test_same_file_by_two_names_is_checked_once(tmp_path: Path) -> None:
    _setup(tmp_path)
    for args in (["good.py", "./good.py"], ["good.py", "good.py"], ["good.py", "."]):
        result = jaxlint(*args, cwd=tmp_path)
        assert result.stdout.count("good.py:8:7: JAX101") == 1, (args, result.stdout)
        # under the name the user gave first
        assert result.stdout.startswith(os.path.normpath(args[0]) + ":8:7:"), result.stdout


def test_symlinks_out_of_the_tree_are_not_followed(tmp_path: Path) -> None:
    """Walking a folder never leaves it through a symlink (file or folder), and --fix never
    writes there; a symlink the user names is followed."""
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "bench.py").write_text(GOOD)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "good.py").write_text(GOOD)
    os.symlink(outside / "bench.py", tree / "link.py")
    os.symlink(outside, tree / "linkdir")
    os.symlink(tmp_path / "nowhere.py", tree / "dangling.py")
    result = jaxlint("tree", cwd=tmp_path)
    assert (result.returncode, _errors(result.stderr)) == (1, []), result.stderr
    assert result.stdout.splitlines() == [
        line for line in result.stdout.splitlines() if line.startswith("tree/good.py:")]
    assert result.stdout.count("JAX101") == 1
    fixed = jaxlint("--fix", "tree", cwd=tmp_path)
    assert (fixed.returncode, _errors(fixed.stderr)) == (0, []), fixed.stderr
    assert (outside / "bench.py").read_text() == GOOD
    named = jaxlint(os.path.join("tree", "link.py"), cwd=tmp_path)
    assert named.returncode == 1 and "tree/link.py:8:7: JAX101" in named.stdout, named


def test_symlink_inside_the_tree_to_a_file_elsewhere_in_it(tmp_path: Path) -> None:
    """A link to a file the walk does not reach by itself (another suffix) is checked once,
    under the link's name."""
    _setup(tmp_path)
    (tmp_path / "scripts").mkdir()
    (tmp_path / "scripts" / "bench.txt").write_text(GOOD)
    os.symlink(os.path.join("scripts", "bench.txt"), tmp_path / "bench.py")
    result = jaxlint(".", cwd=tmp_path)
    assert result.stdout.count("JAX101") == 2, result.stdout
    assert "bench.py:8:7: JAX101" in result.stdout


# ----------------------------------------------------------------- security
@pytest.mark.parametrize("payload", [
    "open({marker!r}, 'w').write('imported')",
    "raise SystemExit(open({marker!r}, 'w').write('imported'))",
    "import os; os._exit(len(open({marker!r}, 'w').name))",
])
def test_linting_never_runs_the_code(tmp_path: Path, payload: str) -> None:
    """A file whose import has side effects is linted (and fixed) without them: at the top
    of the module, in a function it calls, and in a module another file imports."""
    _setup(tmp_path)
    marker = tmp_path / "MARKER"
    evil = payload.format(marker=str(marker))
    src = GOOD + "\n\ndef helper():\n    " + evil + "\n\n\nhelper()\n" + evil + "\n"
    (tmp_path / "evil.py").write_text(src)
    (tmp_path / "conftest.py").write_text(evil + "\n")
    (tmp_path / "sitecustomize.py").write_text(evil + "\n")
    (tmp_path / "uses_evil.py").write_text("import evil\nfrom evil import helper\n" + GOOD)
    result = jaxlint(".", cwd=tmp_path)
    assert "evil.py:8:7: JAX101" in result.stdout, result.stdout + result.stderr
    assert "uses_evil.py:10:7: JAX101" in result.stdout
    assert result.returncode == 1, result.stderr
    assert not marker.exists()
    fixed = jaxlint("--fix", "--unsafe-fixes", ".", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    assert not marker.exists()
