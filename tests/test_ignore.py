"""Ignore files and exclude patterns in a checkout nobody vetted (issue 26, items 2, 6, 7 and 8):
matched as git matches them (git itself is the reference here), in time linear in the
pattern and the path, never crashing on a line git accepts, never leaving out a file git
tracks, at any depth."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest
from helpers import UNSYNCED, jaxlint, run

from jaxlint.config import Resolver
from jaxlint.files import Excluder, discover


def git(*args: str, cwd: Path, input: str | None = None) -> str:
    env = {**os.environ, "GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    result = subprocess.run(["git", *args], cwd=cwd, input=input, capture_output=True,
                            text=True, env=env)
    assert result.returncode in (0, 1), result.stderr
    return result.stdout


def write(root: Path, name: str, text: str = UNSYNCED) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def reported(result: subprocess.CompletedProcess[str]) -> list[str]:
    return sorted({line.split(":")[0] for line in result.stdout.splitlines()})


def walked(root: Path, monkeypatch: pytest.MonkeyPatch, *paths: str,
           force: bool = False) -> list[str]:
    monkeypatch.chdir(root)
    excluder = Excluder(Resolver(cwd=str(root)).for_folder)
    found = discover(list(paths) or ["."], excluder, force_exclude=force)
    return sorted(os.path.relpath(p) for p in found if isinstance(p, str))


# --- git is the reference -------------------------------------------------------------------

@pytest.mark.slow  # (over 5 s: the fast tier leaves it to the full suite)
def test_the_walk_and_named_files_agree_with_git(monkeypatch: pytest.MonkeyPatch) -> None:
    """On any ignore lines (negations, slashes, ``**``, brackets, escapes, spaces, lines git
    reads as matching nothing) in two .gitignore files, and any tree with some files
    tracked, the walk checks what ``git ls-files --cached --others --exclude-standard``
    lists, and a named file is left out (``--force-exclude``) exactly when ``git
    check-ignore`` says it is ignored."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    name = st.sampled_from(["a", "b", "ab", "a.b", "ba"])
    files = st.lists(st.lists(name, min_size=0, max_size=3).map(
        lambda parts: "/".join([*parts, "f.py"]) if not parts or parts[-1] != "f.py"
        else "/".join(parts)), min_size=1, max_size=8, unique=True)
    line = st.text(alphabet="ab*?[]!/\\#.- ", min_size=0, max_size=7) | st.sampled_from(
        ["**/a", "a/**", "a/**/b", "*.py", "!f.py", "[z-a]*", "\\", "!", "/", "[!a]*",
         "a/", "/a", "[[:alpha:]]", "f.py ", "f.py\\ ", "**", "**/"])

    @settings(max_examples=120, deadline=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(files, st.lists(line, max_size=5), st.lists(line, max_size=3),
           st.lists(st.booleans(), min_size=8, max_size=8))
    def agree(paths: list[str], top: list[str], sub: list[str], tracked: list[bool]) -> None:
        with tempfile.TemporaryDirectory() as tmp:
            root = Path(tmp)
            git("init", "-q", cwd=root)
            for p in paths:
                write(root, p, "x\n")
            (root / ".gitignore").write_text("\n".join(top) + "\n")
            if (root / "a").is_dir():
                (root / "a" / ".gitignore").write_text("\n".join(sub) + "\n")
            added = [p for p, t in zip(paths, tracked) if t]
            if added:
                git("add", "-f", "--", *added, cwd=root)
            listed = git("ls-files", "--cached", "--others", "--exclude-standard", cwd=root)
            expected = sorted(p for p in listed.split("\n") if p.endswith(".py"))
            assert walked(root, monkeypatch) == expected, (paths, top, sub, added)
            ignored = set(git("check-ignore", "--stdin", cwd=root,
                              input="\n".join(paths) + "\n").split("\n"))
            named = walked(root, monkeypatch, *paths, force=True)
            assert named == sorted(p for p in paths if p not in ignored), (paths, top, sub)

    agree()


# --- item 2: no pattern can hang a front end -------------------------------------------------

STARS = "*a" * 40 + "*b"  # backtracked, this one line took longer than any test may
LONG = "a" * 200 + ".py"


def _slow_tree(root: Path) -> None:
    git("init", "-q", cwd=root)
    (root / ".gitignore").write_text(STARS + "\n")
    write(root, LONG)
    write(root, "sub/" + LONG)


def test_a_pattern_with_many_stars_cannot_hang_the_cli_or_the_hook(tmp_path: Path) -> None:
    _slow_tree(tmp_path)
    for args in ((".",), ("--force-exclude", LONG, "sub/" + LONG)):  # a walk; as the hook
        result = run(sys.executable, "-m", "jaxlint", "--no-cache", *args, cwd=tmp_path,
                     timeout=120)
        assert result.returncode == 1, result.stderr
        assert reported(result) == [LONG, "sub/" + LONG]


def test_a_pattern_with_many_stars_cannot_hang_flake8(tmp_path: Path) -> None:
    _slow_tree(tmp_path)
    result = run(sys.executable, "-m", "flake8", "--select", "JAX", LONG, cwd=tmp_path,
                 timeout=120)
    assert result.returncode == 1, result.stderr
    assert reported(result) == [LONG]


def _cost(excluder: Excluder, path: str) -> float:
    """The least time of five for one ``excluded`` question (repeated to be measurable)."""
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        for _ in range(20):
            excluder.excluded(path, False)
        best = min(best, time.perf_counter() - start)
    return best


@pytest.mark.parametrize("pattern", [
    "*a{}*b", "a*{}*", "**/{}*b/**/c", "*[ab]{}?*", "x/**/{}/**/*a*"])
def test_matching_grows_with_the_pattern_times_the_path_never_faster(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, pattern: str) -> None:
    """Doubling both the pattern and the path makes a question cost at most about four
    times as much (their product), as a ratio: never a fixed time."""
    git("init", "-q", cwd=tmp_path)
    monkeypatch.chdir(tmp_path)

    def cost(k: int) -> float:
        (tmp_path / ".gitignore").write_text(pattern.replace("{}", "*a" * k) + "\n")
        excluder = Excluder(Resolver(cwd=str(tmp_path)).for_folder)
        return _cost(excluder, "x/" * (k // 4) + "a" * (10 * k) + ".py")

    small, large = cost(16), cost(32)
    assert large / small < 8, (small, large)


# --- item 6: lines git accepts are read as git reads them ------------------------------------

@pytest.mark.parametrize("line", ["[z-a]", "!", "\\", "[", "[[:nope:]]", "/", "a\\",
                                  "[b-a]*.py", "\x0c*.py", "\u2028", "!\\"])
def test_lines_git_accepts_never_crash_and_match_as_in_git(tmp_path: Path, line: str) -> None:
    git("init", "-q", cwd=tmp_path)
    (tmp_path / ".gitignore").write_text(f"{line}\n")
    for name in ("z.py", "b.py", "a.py"):
        write(tmp_path, name)
    listed = git("ls-files", "--others", "--exclude-standard", cwd=tmp_path).split()
    result = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert "Traceback" not in result.stderr and result.returncode in (0, 1), result.stderr
    assert reported(result) == sorted(p for p in listed if p.endswith(".py"))


@pytest.mark.parametrize("pattern", ["\\", "[z-a]", "[", "!"])
def test_an_exclude_pattern_git_would_accept_never_crashes(tmp_path: Path, pattern: str
                                                           ) -> None:
    write(tmp_path, "a.py")
    for args in (("--extend-exclude", pattern), ("--exclude", pattern)):
        result = jaxlint("--no-cache", *args, ".", cwd=tmp_path)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert reported(result) == ["a.py"]
    (tmp_path / "pyproject.toml").write_text(
        f"[tool.jaxlint]\nextend-exclude = [{pattern!r}]\n".replace("'", '"').replace(
            '"\\"', '"\\\\"'))
    result = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr


def test_a_large_gitignore_is_read_and_one_too_large_is_said(tmp_path: Path) -> None:
    # git reads a .gitignore of any size; over 1 MiB it was silently not read at all.
    git("init", "-q", cwd=tmp_path)
    lines = [f"generated_{i}.py" for i in range(80_000)] + ["skip.py"]
    (tmp_path / ".gitignore").write_text("\n".join(lines) + "\n")
    assert (tmp_path / ".gitignore").stat().st_size > 1 << 20
    write(tmp_path, "skip.py")
    write(tmp_path, "keep.py")
    result = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert reported(result) == ["keep.py"], result.stderr
    with open(tmp_path / ".gitignore", "a") as f:
        f.truncate(5 << 20)  # past what jaxlint reads: it says so, and checks every file
    result = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert reported(result) == ["keep.py", "skip.py"]
    assert "warning: not reading" in result.stderr and ".gitignore" in result.stderr


# --- item 7: git does not ignore what it tracks ----------------------------------------------

def test_a_tracked_file_that_gitignore_lists_is_checked(tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("*_gen.py\nout/\n")
    write(tmp_path, "kept_gen.py")  # tracked (added before the line, or with -f)
    write(tmp_path, "loose_gen.py")  # not tracked: ignored
    write(tmp_path, "out/tracked.py")
    write(tmp_path, "out/loose.py")
    git("add", "-f", "kept_gen.py", "out/tracked.py", cwd=tmp_path)
    walk = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert reported(walk) == ["kept_gen.py", "out/tracked.py"], walk.stderr
    # as the hooks run: staged files named, with --force-exclude
    hook = jaxlint("--no-cache", "--force-exclude", "kept_gen.py",
                   "loose_gen.py", "out/tracked.py", "out/loose.py", cwd=tmp_path)
    assert reported(hook) == ["kept_gen.py", "out/tracked.py"], hook.stderr
    plugin = run(sys.executable, "-m", "flake8", "--select", "JAX", ".", cwd=tmp_path)
    assert reported(plugin) == ["./kept_gen.py", "./out/tracked.py"], plugin.stderr


def test_a_hostile_git_index_is_unknown_not_a_crash(tmp_path: Path) -> None:
    git("init", "-q", cwd=tmp_path)
    (tmp_path / ".gitignore").write_text("*_gen.py\n")
    write(tmp_path, "x_gen.py")
    write(tmp_path, "a.py")
    for junk in (b"DIRC\0\0\0\2\xff\xff\xff\xff", b"DIRC" + b"\0" * 100, b"\0" * 10):
        (tmp_path / ".git" / "index").write_bytes(junk)
        result = jaxlint("--no-cache", ".", cwd=tmp_path)
        assert reported(result) == ["a.py"] and "Traceback" not in result.stderr
    (tmp_path / ".git" / "index").unlink()
    os.mkfifo(tmp_path / ".git" / "index")  # never read: opened without blocking
    result = run(sys.executable, "-m", "jaxlint", "--no-cache", ".", cwd=tmp_path, timeout=60)
    assert reported(result) == ["a.py"]


# --- item 8: any depth -----------------------------------------------------------------------

DEPTH = 1_100


@pytest.fixture
def deep_root(tmp_path: Path):  # type: ignore[no-untyped-def]
    """``tmp_path``, emptied of the deep tree afterwards from the bottom up (shutil.rmtree,
    which pytest uses on old temporary folders, recurses once a level and fails on it)."""
    yield tmp_path
    folder = tmp_path / "d"
    while (folder / "d").is_dir():
        folder = folder / "d"
    while folder != tmp_path:
        for entry in folder.iterdir():
            entry.unlink()
        folder.rmdir()
        folder = folder.parent


def _deep(root: Path) -> str:
    git("init", "-q", cwd=root)
    (root / ".gitignore").write_text("*.tmp\n")
    folder = root
    for _ in range(DEPTH):  # (os.makedirs and pathlib recurse once a level)
        folder = folder / "d"
        folder.mkdir()
    (folder / "bench.py").write_text(UNSYNCED)
    return "/".join(["d"] * DEPTH) + "/bench.py"


def test_a_file_1100_folders_deep_is_checked_by_the_cli_the_hook_and_flake8(
        deep_root: Path) -> None:
    tmp_path = deep_root
    rel = _deep(tmp_path)
    for args in ((".",), ("--force-exclude", rel)):
        result = jaxlint("--no-cache", *args, cwd=tmp_path)
        assert result.returncode == 1, result.stderr[-2000:]
        assert reported(result) == [rel]
    plugin = run(sys.executable, "-m", "flake8", "--select", "JAX", rel, cwd=tmp_path)
    assert plugin.returncode == 1, plugin.stderr[-2000:]
    assert reported(plugin) == [rel]
