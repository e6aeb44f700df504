"""What the command line prints to a person at a terminal and to CI: exit statuses, colours,
progress, output files, and names that cannot forge output."""

from __future__ import annotations

import os
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


@pytest.mark.slow
def test_diff_on_stdin_exits_like_diff_on_files(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    on_file = jaxlint("--diff", "--no-cache", "bench.py", cwd=tmp_path)
    for args in (["-"], ["--stdin-filename", "bench.py"]):
        on_stdin = jaxlint("--diff", *args, cwd=tmp_path, input=MISTAKE)
        assert "+jax.block_until_ready(y)" in on_stdin.stdout
        assert on_stdin.returncode == on_file.returncode == 1
        assert jaxlint("--diff", "--exit-zero", *args, cwd=tmp_path,
                       input=MISTAKE).returncode == 0
    clean = jaxlint("--diff", "-", cwd=tmp_path, input="import time\n")
    assert clean.returncode == 0 and clean.stdout == ""


def on_a_terminal(args: list[str], cwd: Path, env: dict[str, str] | None = None,
                  stdout_tty: bool = True, stderr_tty: bool = False
                  ) -> tuple[int, str, str]:
    """Run jaxlint with stdout and/or stderr on a pseudo-terminal: (status, stdout, stderr)."""
    import os
    import pty
    import subprocess
    import sys

    from helpers import ROOT

    base = {k: v for k, v in os.environ.items()
            if not k.startswith("PYTHON") and k not in ("NO_COLOR", "FORCE_COLOR")}
    base.update({"PYTHONPATH": str(ROOT), "TERM": "xterm"}, **(env or {}))
    leader, follower = pty.openpty()
    out = follower if stdout_tty else subprocess.PIPE
    err = follower if stderr_tty else subprocess.PIPE
    proc = subprocess.Popen([sys.executable, "-m", "jaxlint", *args], cwd=cwd, env=base,
                            stdout=out, stderr=err, stdin=subprocess.DEVNULL)
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other side is closed
            break
        if not chunk:
            break
        chunks.append(chunk)
    piped_out = proc.stdout.read().decode() if proc.stdout else ""
    piped_err = proc.stderr.read().decode() if proc.stderr else ""
    status = proc.wait(timeout=300)
    os.close(leader)
    tty = b"".join(chunks).decode().replace("\r\n", "\n")
    return (status, tty if stdout_tty else piped_out, tty if stderr_tty else piped_err)


ESC = "\x1b["


def test_colours_on_a_terminal_only_and_as_no_color_and_force_color_say(tmp_path: Path
                                                                        ) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    args = ["--no-cache", "bench.py"]
    status, out, _ = on_a_terminal(args, tmp_path)
    assert status == 1 and ESC in out
    assert "JAX101" in out and "bench.py" in out
    # stripped of colour it is the plain line
    import re

    plain = jaxlint(*args, cwd=tmp_path).stdout
    assert ESC not in plain
    assert re.sub(r"\x1b\[[0-9;]*m", "", out) == plain
    assert ESC not in on_a_terminal(args, tmp_path, {"NO_COLOR": "1"})[1]
    assert ESC in jaxlint_env(args, tmp_path, {"FORCE_COLOR": "1"}).stdout
    assert ESC not in jaxlint_env(args, tmp_path, {"FORCE_COLOR": "1", "NO_COLOR": "1"}).stdout
    # NO_COLOR="" is not set (no-color.org), and json is never coloured
    assert ESC in on_a_terminal(args, tmp_path, {"NO_COLOR": ""})[1]
    assert ESC not in on_a_terminal(["--format", "json", *args], tmp_path)[1]


def jaxlint_env(args: list[str], cwd: Path, env: dict[str, str]):  # type: ignore[no-untyped-def]
    import os
    import subprocess
    import sys

    from helpers import ROOT

    full = {k: v for k, v in os.environ.items()
            if not k.startswith("PYTHON") and k not in ("NO_COLOR", "FORCE_COLOR")}
    full.update({"PYTHONPATH": str(ROOT)}, **env)
    return subprocess.run([sys.executable, "-m", "jaxlint", *args], cwd=cwd, env=full,
                          capture_output=True, text=True, timeout=300)


@pytest.mark.slow
def test_progress_goes_to_a_terminals_stderr_for_long_runs_only(tmp_path: Path) -> None:
    from jaxlint.cli import PROGRESS_MIN_FILES

    # A long run: as many files as make one (a run of fewer shows no progress), each
    # analysed (no cache).
    many = tmp_path / "many"
    many.mkdir()
    for i in range(PROGRESS_MIN_FILES):
        (many / f"bench_{i:02d}.py").write_text(MISTAKE)
    assert len(list(many.glob("*.py"))) >= PROGRESS_MIN_FILES
    long = ["--no-cache", "-j1", "--exit-zero", str(many)]
    status, out, err = on_a_terminal(long, tmp_path, stdout_tty=False, stderr_tty=True)
    assert status == 0
    assert re_search(r"\r\S*\s*checking \d+/\d+ files", err), repr(err[:300])
    assert "\r\x1b[K" in err  # the progress line is erased before the summary
    assert "checking" not in out
    # stderr not a terminal: no progress, the summary alone
    piped = jaxlint_env(long, tmp_path, {})
    assert "checking" not in piped.stderr and "\r" not in piped.stderr
    # a short run on a terminal: nothing but the summary
    (tmp_path / "bench.py").write_text(MISTAKE)
    _, _, short = on_a_terminal(["--no-cache", "bench.py"], tmp_path, stdout_tty=False,
                                stderr_tty=True)
    assert "checking" not in short


def re_search(pattern: str, text: str) -> bool:
    import re

    return re.search(pattern, text) is not None


@pytest.mark.slow
def test_output_file_holds_what_stdout_would(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    expected = jaxlint("--no-cache", "bench.py", cwd=tmp_path).stdout
    for fmt in ("text", "json", "sarif"):
        out = tmp_path / "out" / f"report.{fmt}"
        out.parent.mkdir(exist_ok=True)
        result = jaxlint_env(["--no-cache", "--format", fmt, "--output-file", str(out),
                              "bench.py"], tmp_path, {"FORCE_COLOR": "1"})
        assert result.returncode == 1 and result.stdout == ""
        assert "Found 1 finding" in result.stderr
        assert out.read_text() == jaxlint("--no-cache", "--format", fmt, "bench.py",
                                          cwd=tmp_path).stdout
    assert (tmp_path / "out" / "report.text").read_text() == expected  # no colours in a file
    bad = jaxlint("--no-cache", "-o", str(tmp_path / "missing" / "x.txt"), "bench.py",
                  cwd=tmp_path)
    assert bad.returncode == 2 and "cannot write" in bad.stderr


@pytest.mark.slow
def test_statistics_in_json(tmp_path: Path) -> None:
    import json

    from helpers import ROOT

    args = ["--statistics", "--no-cache", str(ROOT / "fixtures" / "JAX101"),
            str(ROOT / "fixtures" / "JAX104")]
    rows = json.loads(jaxlint("--format", "json", *args).stdout)
    listed = jaxlint("--format", "json", "--no-cache", str(ROOT / "fixtures" / "JAX101"),
                     str(ROOT / "fixtures" / "JAX104"))
    findings = json.loads(listed.stdout)
    assert {r["code"] for r in rows} == {"JAX101", "JAX104"}
    for r in rows:
        mine = [f for f in findings if f["code"] == r["code"]]
        assert r["count"] == len(mine)
        assert r["fixable"] == sum(f["fix"] == "safe" for f in mine)
        assert r["unsafe_fixable"] == sum(f["fix"] == "unsafe" for f in mine)
    assert {r["code"]: r["name"] for r in rows} == {"JAX101": "unsynced-timer",
                                                     "JAX104": "host-transfer-sync"}
    assert [r["count"] for r in rows] == sorted((r["count"] for r in rows), reverse=True)
    lines = jaxlint("--format", "json-lines", *args).stdout.splitlines()
    assert [json.loads(line) for line in lines] == rows


def test_show_fixes_with_text_and_concise(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    (tmp_path / "clean.py").write_text("import time\nprint(time.time())\n")
    for fmt in ("text", "concise"):
        result = jaxlint("--show-fixes", "--format", fmt, "bench.py", "clean.py", cwd=tmp_path)
        assert result.returncode == 1
        lines = result.stdout.splitlines()
        assert lines[0].startswith("bench.py:8:7: JAX101 ")
        assert lines[1] == "Fix for bench.py (jaxlint --fix):"
        assert "+jax.block_until_ready(y)" in lines
        assert not any("clean.py" in line for line in lines)
    refused = jaxlint("--show-fixes", "--format", "json", "bench.py", cwd=tmp_path)
    assert refused.returncode == 2 and "--show-fixes" in refused.stderr


def test_jobs_is_validated_and_zero_means_auto(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    for bad in ("-1", "two"):
        result = jaxlint("-j", bad, "bench.py", cwd=tmp_path)
        assert result.returncode == 2 and "-j/--jobs" in result.stderr
    expected = jaxlint("-j", "1", "--no-cache", "bench.py", cwd=tmp_path).stdout
    for ok in ("0", "64"):
        result = jaxlint("-j", ok, "--no-cache", "bench.py", cwd=tmp_path)
        assert result.returncode == 1 and result.stdout == expected


def test_processes_at_most_files_and_cores_and_one_for_small_runs() -> None:
    from jaxlint.cli import PARALLEL_MIN_BYTES, _cores, _processes

    cores = _cores()
    small = [(i, f"f{i}.py", b"x" * 100, None) for i in range(50)]
    big = [(i, f"f{i}.py", b"x" * PARALLEL_MIN_BYTES, None) for i in range(3)]
    assert _processes(0, small) == 1
    assert _processes(0, big) == min(cores, 3)
    assert _processes(5, small[:2]) == min(cores, 2)
    assert _processes(1000, small) == cores
    assert _processes(0, []) == 1


def test_names_cannot_forge_terminal_or_ci_output(tmp_path: Path) -> None:
    import json

    name = "a\x1b[2Jb\rc\nJAX101 fake.py"
    if os.name == "nt":
        return
    (tmp_path / f"{name}.py").write_text(MISTAKE)
    text = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert text.returncode == 1
    (line,) = text.stdout.splitlines()
    assert "\x1b" not in line and "\r" not in line
    assert line.startswith("a\\x1b[2Jb\\rc\\nJAX101 fake.py.py:8:7: JAX101 ")
    github = jaxlint("--no-cache", "--format", "github", ".", cwd=tmp_path).stdout
    (annotation,) = github.splitlines()
    props = annotation.split("::")[1]
    assert props.startswith("error file=a\x1b[2Jb%0Dc%0AJAX101 fake.py.py,line=8,")
    # a name with '::' and ',' cannot end the properties or add one
    (tmp_path / f"{name}.py").rename(tmp_path / "x::warning file=y.py,line=1::z.py")
    github = jaxlint("--no-cache", "--format", "github", ".", cwd=tmp_path).stdout
    (annotation,) = github.splitlines()
    assert annotation.startswith("::error file=x%3A%3Awarning file=y.py%2Cline=1%3A%3Az.py,")
    assert annotation.count("::") == 2
    rows = json.loads(jaxlint("--no-cache", "--format", "json", ".", cwd=tmp_path).stdout)
    assert rows[0]["path"] == "x::warning file=y.py,line=1::z.py"


def test_error_lines_escape_names_too(tmp_path: Path) -> None:
    if os.name == "nt":
        return
    (tmp_path / "a\x1b]0;owned\x07b.py").write_bytes(b"x = 1\0\n")
    result = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    (line, *_) = result.stderr.splitlines()
    assert line == "a\\x1b]0;owned\\x07b.py: error: binary file (contains NUL bytes), skipped"
