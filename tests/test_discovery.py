"""Which files are checked and which configuration each one uses: excludes, .gitignore, the
nearest [tool.jaxlint] per file, the project root, folders other users can write to, and
configuration files that are not what they seem. All through the real command line."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from helpers import ROOT, jaxlint

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""

IGNORE_JAX101 = '[tool.jaxlint]\nignore = ["JAX101"]\n'


def write(root: Path, name: str, text: str = MISTAKE) -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def reported(result: subprocess.CompletedProcess[str]) -> list[str]:
    """The paths with findings, in output order."""
    return [line.split(":")[0] for line in result.stdout.splitlines()]


def git_init(folder: Path) -> None:
    subprocess.run(["git", "init", "-q", str(folder)], check=True)


@pytest.fixture
def private(tmp_path: Path) -> Path:
    """A folder only this user can write to, whatever the umask."""
    tmp_path.chmod(0o755)
    return tmp_path


# --- excludes -------------------------------------------------------------------------------


def test_exclude_and_extend_exclude_from_config_and_command_line(private: Path) -> None:
    write(private, "pyproject.toml",
          '[tool.jaxlint]\nextend-exclude = ["generated/", "*_pb2.py", "/top_only.py"]\n')
    for name in ("src/a.py", "generated/b.py", "src/c_pb2.py", "top_only.py",
                 "src/top_only.py", "build/d.py", "scratch/e.py", "scratch/keep/f.py"):
        write(private, name)
    result = jaxlint(".", cwd=private)
    assert result.returncode == 1
    # build/ is in the default list; the configured patterns add to it
    assert reported(result) == ["scratch/e.py", "scratch/keep/f.py", "src/a.py",
                                "src/top_only.py"]
    # --extend-exclude adds (comma-separated or repeated), relative to the current folder
    result = jaxlint("--extend-exclude", "scratch/*.py,nothing", "--extend-exclude", "src/a.py",
                     ".", cwd=private)
    assert reported(result) == ["scratch/keep/f.py", "src/top_only.py"]
    # --exclude replaces the configured `exclude` and the default list (build/ comes back);
    # extend-exclude still applies
    result = jaxlint("--exclude", "scratch", ".", cwd=private)
    assert reported(result) == ["build/d.py", "src/a.py", "src/top_only.py"]
    # `exclude` in the configuration replaces the default list too
    write(private, "pyproject.toml", '[tool.jaxlint]\nexclude = ["src"]\n')
    result = jaxlint(".", cwd=private)
    assert reported(result) == ["build/d.py", "generated/b.py", "scratch/e.py",
                                "scratch/keep/f.py", "top_only.py"]


def test_named_paths_are_checked_even_when_excluded_unless_force_exclude(private: Path) -> None:
    write(private, "pyproject.toml", '[tool.jaxlint]\nextend-exclude = ["generated"]\n')
    write(private, "generated/b.py")
    write(private, "generated/deeper/c.py")
    write(private, "generated/build/d.py")  # still left out: build/ is excluded below it
    git_init(private)
    write(private, ".gitignore", "generated/\n*_skip.py\n")
    write(private, "generated/e_skip.py")
    assert jaxlint(".", cwd=private).returncode == 0
    assert reported(jaxlint("generated/b.py", cwd=private)) == ["generated/b.py"]
    assert reported(jaxlint("generated", cwd=private)) == ["generated/b.py",
                                                           "generated/deeper/c.py"]
    forced = jaxlint("--force-exclude", "generated/b.py", "generated", cwd=private)
    assert (forced.returncode, forced.stdout) == (0, "")
    # an editor buffer named like an excluded file: nothing reported, the buffer kept
    stdin = jaxlint("--force-exclude", "--fix", "--stdin-filename", "generated/b.py",
                    cwd=private, input=MISTAKE)
    assert (stdin.returncode, stdin.stdout) == (0, MISTAKE)


def test_a_project_folder_named_like_an_excluded_one_is_searched_as_usual(
        private: Path) -> None:
    project = private / "env"  # "env" is in the default list
    write(project, "pyproject.toml", '[tool.jaxlint]\nextend-exclude = ["gen"]\n')
    write(project, "a.py")
    write(project, "build/b.py")
    write(project, "gen/c.py")
    assert reported(jaxlint(".", cwd=project)) == ["a.py"]
    assert reported(jaxlint("env", cwd=private)) == ["env/a.py"]


def test_gitignore_is_respected_in_a_git_repository(private: Path) -> None:
    git_init(private)
    write(private, ".gitignore", "out/\n*_gen.py\n!keep_gen.py\n")
    write(private, "pkg/.gitignore", "local.py\n")
    write(private, ".git/info/exclude", "mine/\n")
    for name in ("pkg/a.py", "out/b.py", "pkg/x_gen.py", "pkg/keep_gen.py", "pkg/local.py",
                 "local.py", "mine/c.py"):
        write(private, name)
    result = jaxlint(".", cwd=private)
    assert reported(result) == ["local.py", "pkg/a.py", "pkg/keep_gen.py"]
    everything = jaxlint("--no-respect-gitignore", ".", cwd=private)
    assert reported(everything) == ["local.py", "mine/c.py", "out/b.py", "pkg/a.py",
                                    "pkg/keep_gen.py", "pkg/local.py", "pkg/x_gen.py"]
    # git itself agrees on what is ignored
    listed = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=private,
                            capture_output=True, text=True, check=True).stdout.split()
    assert sorted(p for p in listed if p.endswith(".py")) == reported(result)
    # a named file is checked even if ignored; with --force-exclude it is not
    assert reported(jaxlint("out/b.py", cwd=private)) == ["out/b.py"]
    assert jaxlint("--force-exclude", "out/b.py", cwd=private).stdout == ""
    # the configuration can turn it off too
    write(private, "pyproject.toml", "[tool.jaxlint]\nrespect-gitignore = false\n")
    assert reported(jaxlint(".", cwd=private)) == reported(everything)


def test_gitignore_means_nothing_outside_a_git_repository(private: Path) -> None:
    write(private, ".gitignore", "out/\n")
    write(private, "out/b.py")
    assert reported(jaxlint(".", cwd=private)) == ["out/b.py"]


# --- the nearest configuration for each file --------------------------------------------------


def test_each_file_uses_the_nearest_configuration(private: Path) -> None:
    project = private / "project"
    write(project, "pyproject.toml",
          '[tool.jaxlint]\nper-file-ignores = { "legacy/*" = ["JAX101"] }\n')
    write(project, "legacy/old.py")
    write(project, "src/new.py")
    write(project, "sub/pyproject.toml", IGNORE_JAX101)
    write(project, "sub/quiet.py")
    write(project, "other/pyproject.toml", "[project]\nname = 'not-ours'\n")
    write(project, "other/loud.py")
    # run from outside the project: each file still gets its own configuration
    result = jaxlint("project", cwd=private)
    assert reported(result) == ["project/other/loud.py", "project/src/new.py"]
    # and from inside it, the same files (paths relative to where it runs)
    inside = jaxlint(".", cwd=project / "src")
    assert reported(inside) == ["new.py"]
    assert jaxlint("old.py", cwd=project / "legacy").returncode == 0
    # --config names one file for all
    forced = jaxlint("--config", str(project / "sub" / "pyproject.toml"), "project", cwd=private)
    assert forced.returncode == 0, forced.stdout
    # an editor's buffer gets the configuration of the file it names
    stdin = jaxlint("--stdin-filename", "project/sub/quiet.py", cwd=private, input=MISTAKE)
    assert (stdin.returncode, stdin.stdout) == (0, "")


def test_excludes_come_from_the_configuration_of_each_folder(private: Path) -> None:
    write(private, "pyproject.toml", '[tool.jaxlint]\nextend-exclude = ["/skip.py"]\n')
    write(private, "skip.py")
    write(private, "sub/pyproject.toml", '[tool.jaxlint]\nextend-exclude = ["gen/"]\n')
    write(private, "sub/skip.py")
    write(private, "sub/gen/a.py")
    write(private, "gen/a.py")
    assert reported(jaxlint(".", cwd=private)) == ["gen/a.py", "sub/skip.py"]


def test_discovery_stops_at_the_project_root(private: Path) -> None:
    write(private, "pyproject.toml", IGNORE_JAX101)  # above the repository: not used
    project = private / "project"
    git_init(project)
    write(project, "bench.py")
    result = jaxlint(".", cwd=project)
    assert reported(result) == ["bench.py"]
    # the repository's own configuration counts
    write(project, "pyproject.toml", IGNORE_JAX101)
    assert jaxlint(".", cwd=project).returncode == 0


# --- folders and files other users control ----------------------------------------------------


def test_configuration_in_a_folder_others_can_write_is_ignored(private: Path) -> None:
    shared = private / "shared"
    shared.mkdir()
    write(shared, "pyproject.toml", IGNORE_JAX101)
    write(shared, "project/a.py")
    write(shared, "project/b.py")
    (shared / "project").chmod(0o755)
    shared.chmod(0o1777)  # like /tmp
    result = jaxlint(".", cwd=shared / "project")
    assert reported(result) == ["a.py", "b.py"]
    warnings = [line for line in result.stderr.splitlines() if "warning" in line]
    assert warnings == [f"jaxlint: warning: ignoring {shared / 'pyproject.toml'}: its folder "
                        "is writable by other users"]
    # a configuration file others can write is ignored too, in a folder that is safe
    shared.chmod(0o755)
    (shared / "pyproject.toml").chmod(0o666)
    result = jaxlint(".", cwd=shared / "project")
    assert reported(result) == ["a.py", "b.py"]
    assert "the file is writable by other users" in result.stderr
    (shared / "pyproject.toml").chmod(0o644)
    assert jaxlint(".", cwd=shared / "project").returncode == 0


def test_no_cache_in_a_folder_others_can_write(private: Path) -> None:
    shared = private / "shared"
    write(shared, "a.py")
    shared.chmod(0o777)
    assert jaxlint("a.py", cwd=shared).returncode == 1
    assert not (shared / ".jaxlint_cache").exists()
    (shared / ".jaxlint_cache").mkdir()
    result = jaxlint("a.py", cwd=shared)
    assert result.returncode == 1
    assert ("jaxlint: warning: ignoring ./.jaxlint_cache: its folder is writable by other "
            "users") in result.stderr
    assert list((shared / ".jaxlint_cache").iterdir()) == []
    shared.chmod(0o755)
    jaxlint("a.py", cwd=shared)
    assert list((shared / ".jaxlint_cache").iterdir()) != []  # the check above could fail


@pytest.fixture
def outside_tmp() -> Iterator[Path]:
    """A folder other users may enter (pytest's own temporary folders are private)."""
    folder = Path(tempfile.mkdtemp(prefix="jaxlint-test-"))
    folder.chmod(0o755)
    yield folder
    shutil.rmtree(folder)


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root to make files owned by two other users")
def test_configuration_owned_by_another_user_is_ignored(outside_tmp: Path) -> None:
    """Run as user 65534 (nobody) in its own folder inside one owned by user 12345, whose
    configuration would silence the finding."""
    theirs = outside_tmp / "theirs"
    write(theirs, "pyproject.toml", IGNORE_JAX101)
    mine = theirs / "mine"
    write(mine, "a.py")
    for path, uid in ((theirs, 12345), (theirs / "pyproject.toml", 12345), (mine, 65534),
                      (mine / "a.py", 65534)):
        os.chown(path, uid, 65534)
    for path in (theirs, mine):
        path.chmod(0o755)
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(ROOT)

    def as_nobody() -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "jaxlint", "--no-cache", "a.py"],
                              cwd=mine, env=env, capture_output=True, text=True, timeout=120,
                              user=65534, group=65534)

    try:
        result = as_nobody()
    except PermissionError:
        pytest.skip("another user cannot run this Python (test_owner_check_in_process covers it)")
    assert result.returncode == 1, result.stderr
    assert (f"jaxlint: warning: ignoring {theirs / 'pyproject.toml'}: its folder is owned by "
            "another user") in result.stderr
    os.chown(theirs, 65534, 65534)
    os.chown(theirs / "pyproject.toml", 65534, 65534)
    assert as_nobody().returncode == 0  # the same configuration, now the user's own


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="needs root to give files to other users")
def test_owner_check_in_process(private: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ownership rule as seen by user 65534, in this process (so it runs where another
    user cannot start this Python): another user's folder stops the search, with a warning."""
    from jaxlint.config import Resolver

    theirs = private / "theirs"
    write(theirs, "pyproject.toml", IGNORE_JAX101)
    mine = theirs / "mine"
    mine.mkdir()
    os.chown(mine, 65534, os.getegid())
    os.chown(theirs, 12345, os.getegid())
    monkeypatch.setattr(os, "geteuid", lambda: 65534)
    warnings: list[str] = []
    config = Resolver(warn=warnings.append, cwd=str(mine)).for_folder(str(mine))
    assert config.source is None and config.ignore == ()
    assert warnings == [f"jaxlint: warning: ignoring {theirs / 'pyproject.toml'}: its folder "
                        "is owned by another user"]
    os.chown(theirs, 65534, os.getegid())
    assert Resolver(cwd=str(mine)).for_folder(str(mine)).ignore == ("JAX101",)


# --- configuration files that are not what they seem ----------------------------------------


@pytest.mark.parametrize("text, message", [
    ('tool = "jaxlint"\n', "[tool] must be a table"),
    ('[tool]\njaxlint = "on"\n', "[tool.jaxlint] must be a table"),
    ("[tool.jaxlint]\nselect = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
    ("[tool.jaxlint]\nx = " + "{a=" * 5000 + "1" + "}" * 5000 + "\n", "nested too deeply"),
    ('[tool.jaxlint]\nignore = [""]\n', 'empty rule code'),
    ('[tool.jaxlint]\nselect = [""]\n', 'empty rule code'),
    ('[tool.jaxlint]\nper-file-ignores = { "a.py" = [""] }\n', 'empty rule code'),
    ('[tool.jaxlint]\nrespect-gitignore = "no"\n', "respect-gitignore must be true or false"),
    ('[tool.jaxlint]\nextend-exclude = "gen"\n', "extend-exclude must be a list of strings"),
])
def test_bad_configuration_is_one_error_line(private: Path, text: str, message: str) -> None:
    write(private, "pyproject.toml", text)
    write(private, "a.py")
    result = jaxlint(".", cwd=private)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.count("\n") == 1, result.stderr
    assert result.stderr.startswith(f"jaxlint: error: {private / 'pyproject.toml'}")
    assert message in result.stderr


def test_a_fifo_or_device_as_configuration_never_hangs(private: Path) -> None:
    write(private, "a.py")
    fifo = private / "pyproject.toml"
    os.mkfifo(fifo)
    # found by discovery: not a file jaxlint can read, so not a configuration
    assert reported(jaxlint(".", cwd=private)) == ["a.py"]
    named = jaxlint("--config", str(fifo), ".", cwd=private)
    assert named.returncode == 2
    assert named.stderr == f"jaxlint: error: {fifo}: not a regular file\n"
    fifo.unlink()
    fifo.symlink_to("/dev/zero")
    assert reported(jaxlint(".", cwd=private)) == ["a.py"]
    zero = jaxlint("--config", "/dev/zero", ".", cwd=private)
    assert zero.stderr == "jaxlint: error: /dev/zero: not a regular file\n"
    fifo.unlink()
    with open(fifo, "wb") as f:  # a sparse file far larger than any configuration
        f.truncate(1 << 30)
    big = jaxlint(".", cwd=private)
    assert big.returncode == 2
    assert big.stderr == f"jaxlint: error: {fifo}: larger than 1024 KiB\n"


# --- the matcher (tests/test_ignore.py compares it with git) -----------------------------


def test_a_large_tree_is_walked_as_git_lists_it(private: Path) -> None:
    """Many files under two .gitignore files: what is checked is what git lists, in a
    named subfolder too."""
    git_init(private)
    write(private, ".gitignore", "out/\n*_gen.py\n!keep_gen.py\n/top.py\ndocs/**/skip*.py\n"
          "# a comment\nsub/deep/\n")
    write(private, "pkg/.gitignore", "local.py\n!/local_keep.py\nb*/\n")
    names = ["top.py", "pkg/top.py", "pkg/local.py", "pkg/x/local.py", "pkg/local_keep.py",
             "pkg/bin/a.py", "pkg/x/bin/c.py", "out/b.py", "pkg/out/c.py", "pkg/out.py",
             "docs/a/skip_me.py", "docs/skip_me.py", "docs/a/b/keep.py", "sub/deep/x.py",
             "pkg/sub/deep/y.py", "pkg/x_gen.py", "pkg/keep_gen.py"]
    names += [f"pkg/m{i}/f{j}.py" for i in range(12) for j in range(10)]
    names += [f"docs/a/skip{i}.py" for i in range(5)]
    for name in names:
        write(private, name)
    listed = subprocess.run(["git", "ls-files", "--others", "--exclude-standard"], cwd=private,
                            capture_output=True, text=True, check=True).stdout.split()
    expected = sorted(p for p in listed if p.endswith(".py"))
    assert len(expected) > 100
    assert sorted(reported(jaxlint(".", cwd=private))) == expected
    assert sorted(reported(jaxlint("pkg", cwd=private))) == [
        p for p in expected if p.startswith("pkg/")]
