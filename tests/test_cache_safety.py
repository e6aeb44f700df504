"""The cache in a hostile checkout (links, another user's folder) and a cache that is never
stale and does not grow: issue 13, items 1 and 10."""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import ROOT, in_process

import jaxlint.cache as cache_module
from jaxlint.cache import Cache

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""
FINDING = "bench.py:8:7: JAX101"


def _lint(cwd: Path, *args: str, seed: str | None = None) -> tuple[int, str, str]:
    """The real CLI (in this process; with ``seed``, in a process of its own with that hash
    seed)."""
    import subprocess
    import sys

    if seed is None:
        done = in_process(args, cwd)
        assert "Traceback" not in done.stderr, done.stderr
        return done.returncode, done.stdout, done.stderr
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env["PYTHONPATH"] = str(ROOT)
    if seed is not None:
        env["PYTHONHASHSEED"] = seed
    result = subprocess.run([sys.executable, "-m", "jaxlint", *args], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    return result.returncode, result.stdout, result.stderr


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): (p.read_bytes() if p.is_file() else b"<dir>")
            for p in sorted(folder.rglob("*"))}


def _warning(stderr: str, folder: Path) -> str:
    """The one warning line, which names the cache folder (as given, or absolute)."""
    (line,) = [line for line in stderr.splitlines() if "warning" in line]
    prefix = "jaxlint: warning: not using the cache: "
    assert line.startswith(prefix), line
    named = Path(line[len(prefix):].split(" ")[0])
    assert (folder / named if not named.is_absolute() else named) == folder / ".jaxlint_cache"
    return line


# ------------------------------------------------------------------------ item 1: links
def test_a_cache_folder_that_is_a_link_is_refused(tmp_path: Path) -> None:
    """A checkout that commits ``.jaxlint_cache`` as a link to another folder: one warning,
    the run goes on (findings, exit 1), nothing is written in the other folder."""
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    project.mkdir()
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("mine\n")
    (project / "bench.py").write_text(MISTAKE)
    (project / ".jaxlint_cache").symlink_to(elsewhere, target_is_directory=True)
    for _ in range(2):
        status, out, err = _lint(project, ".")
        assert status == 1 and out.startswith(FINDING), err
        assert _warning(err, project).endswith("is a symbolic link")
    assert _snapshot(elsewhere) == {"keep.txt": b"mine\n"}


@pytest.mark.parametrize("name", [".gitignore", "CACHEDIR.TAG"])
def test_tag_and_ignore_files_are_never_written_through_a_link(tmp_path: Path, name: str
                                                               ) -> None:
    """A committed ``.jaxlint_cache/.gitignore`` (or ``CACHEDIR.TAG``) that links to a file
    outside the tree: a plain ``jaxlint .`` leaves that file as it was."""
    project = tmp_path / "project"
    (project / ".jaxlint_cache").mkdir(parents=True)
    (project / "bench.py").write_text(MISTAKE)
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n")
    (project / ".jaxlint_cache" / name).symlink_to(victim)
    status, out, err = _lint(project, ".")
    assert status == 1 and out.startswith(FINDING), err
    assert victim.read_text() == "precious\n"
    assert (project / ".jaxlint_cache" / name).is_symlink()
    other = {".gitignore": "CACHEDIR.TAG", "CACHEDIR.TAG": ".gitignore"}[name]
    assert (project / ".jaxlint_cache" / other).is_file()
    assert not (project / ".jaxlint_cache" / other).is_symlink()
    # the cache still works (second run: the same answer, from the entry)
    assert _lint(project, ".")[1] == out


def test_a_format_folder_or_entry_that_is_a_link_is_not_followed(tmp_path: Path) -> None:
    project, elsewhere = tmp_path / "project", tmp_path / "elsewhere"
    (project / ".jaxlint_cache").mkdir(parents=True)
    elsewhere.mkdir()
    (project / "bench.py").write_text(MISTAKE)
    (project / ".jaxlint_cache" / cache_module.FORMAT).symlink_to(elsewhere)
    status, out, _ = _lint(project, ".")
    assert status == 1 and out.startswith(FINDING)
    assert _snapshot(elsewhere) == {}
    # an entry named as this file's, linking out: replaced, never written through
    (project / ".jaxlint_cache" / cache_module.FORMAT).unlink()
    (project / ".jaxlint_cache" / cache_module.FORMAT).mkdir()
    victim = tmp_path / "victim.json"
    victim.write_text("precious\n")
    entry = project / ".jaxlint_cache" / cache_module.FORMAT / Cache._name(
        str(project / "bench.py"))
    entry.symlink_to(victim)
    status, out, _ = _lint(project, ".")
    assert status == 1 and out.startswith(FINDING)
    assert victim.read_text() == "precious\n"
    assert not entry.is_symlink() and '"findings"' in entry.read_text()


def test_a_cache_path_that_is_a_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    (tmp_path / ".jaxlint_cache").write_text("not a folder\n")
    status, out, err = _lint(tmp_path, ".")
    assert status == 1 and out.startswith(FINDING)
    assert _warning(err, tmp_path).endswith("is not a folder")
    assert (tmp_path / ".jaxlint_cache").read_text() == "not a folder\n"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="giving a folder to another user needs root")
def test_a_cache_folder_owned_by_another_user_is_refused(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    folder = tmp_path / ".jaxlint_cache"
    folder.mkdir()
    os.chown(folder, 65534, 65534)
    status, out, err = _lint(tmp_path, ".")
    assert status == 1 and out.startswith(FINDING)
    assert _warning(err, tmp_path).endswith("is owned by another user")
    assert list(folder.iterdir()) == []


# --------------------------------------------------------------------- item 10: stale, growth
BENCH_IMPORTING = """\
import time

from helpers import step

t0 = time.perf_counter()
y = step(3)
print(time.perf_counter() - t0)
"""
HELPERS = """\
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    return jnp.ones(x) * 2
"""


def test_a_module_created_after_caching_invalidates_the_entry(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(BENCH_IMPORTING)
    assert _lint(tmp_path, "bench.py")[0] == 0  # `helpers` is nowhere: nothing to report
    (tmp_path / "helpers.py").write_text(HELPERS)
    status, out, _ = _lint(tmp_path, "bench.py")
    # (the first call of the module's jitted ``step`` compiles in the region, too)
    assert status == 1 and [line.split(" ")[:2] for line in out.splitlines()[:2]] == [
        ["bench.py:6:5:", "JAX105"], ["bench.py:7:7:", "JAX101"]], out


def test_the_folders_the_index_searches_are_in_the_key(tmp_path: Path) -> None:
    """The same file, the same cache, run from two folders: only one of them holds the
    module it imports (the index searches the current folder)."""
    (tmp_path / "pyproject.toml").write_text("[tool.jaxlint]\n")
    for name in ("a", "b", "src"):
        (tmp_path / name).mkdir()
    (tmp_path / "src" / "bench.py").write_text(BENCH_IMPORTING)
    (tmp_path / "a" / "helpers.py").write_text(HELPERS)
    config = str(tmp_path / "pyproject.toml")
    bench = str(tmp_path / "src" / "bench.py")
    status, out, _ = _lint(tmp_path / "a", "--config", config, bench)
    assert status == 1 and "JAX101" in out
    assert _lint(tmp_path / "b", "--config", config, bench)[0] == 0


def test_the_libcst_version_is_in_the_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                          ) -> None:
    keys = []
    for version in ("1.1.0", "1.9.0"):
        monkeypatch.setattr(cache_module, "_libcst_version", lambda v=version: v)
        keys.append(Cache(str(tmp_path), ()).key("a.py", b"x = 1\n", ()))
    assert keys[0] != keys[1]


def test_identical_runs_hit_the_cache_whatever_the_hash_seed(tmp_path: Path) -> None:
    """Settings holding sets (a project's own timers) keyed by ``repr`` changed with the hash
    seed: each run missed and wrote a new entry. Now the second run writes nothing."""
    (tmp_path / "pyproject.toml").write_text(
        '[tool.jaxlint]\ntimers = ["a.now", "b.now", "c.now", "d.now", "e.now"]\n'
        'jax-work = ["k.one", "k.two", "k.three"]\n')
    (tmp_path / "bench.py").write_text(MISTAKE)
    assert _lint(tmp_path, ".", seed="1")[0] == 1
    entries = tmp_path / ".jaxlint_cache" / cache_module.FORMAT
    before = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in entries.iterdir()}
    assert len(before) == 1
    for seed in ("2", "3", "4"):
        assert _lint(tmp_path, ".", seed=seed)[0] == 1
    after = {p.name: (p.stat().st_mtime_ns, p.read_bytes()) for p in entries.iterdir()}
    assert after == before


def test_editing_a_file_replaces_its_entry(tmp_path: Path) -> None:
    """One entry per file: the cache does not grow with each edit."""
    (tmp_path / "bench.py").write_text(MISTAKE)
    for n in range(4):
        (tmp_path / "bench.py").write_text(MISTAKE + f"z = {n}\n")
        assert _lint(tmp_path, ".")[0] == 1
    entries = list((tmp_path / ".jaxlint_cache" / cache_module.FORMAT).iterdir())
    assert len(entries) == 1, entries


def test_the_index_follows_no_link_out_of_the_tree(tmp_path: Path) -> None:
    """The folder walk refuses links out of the tree; the project index does too (and a
    link inside the tree still counts)."""
    project, outside = tmp_path / "project", tmp_path / "outside"
    project.mkdir()
    outside.mkdir()
    (project / "bench.py").write_text(BENCH_IMPORTING)
    (outside / "helpers.py").write_text(HELPERS)
    (project / "helpers.py").symlink_to(outside / "helpers.py")
    assert _lint(project, "--no-cache", "bench.py")[:2] == (0, "")
    (project / "helpers.py").unlink()
    (project / "lib").mkdir()
    (project / "lib" / "real_helpers.py").write_text(HELPERS)
    (project / "helpers.py").symlink_to(project / "lib" / "real_helpers.py")
    assert _lint(project, "--no-cache", "bench.py")[0] == 1


# ------------------------------------------------ issue 26, items 4 and 5: committed caches
def _lint_as(cwd: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The real CLI, as a user whose cache key is kept under ``home`` (another machine)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(home))
    result = subprocess.run([sys.executable, "-m", "jaxlint", *args], cwd=cwd, env=env,
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr
    return result


def _blank_findings(cache: Path) -> int:
    """What a checkout's author does to a cache made on their machine before committing
    it: every entry's findings emptied, the stat index dropped. How many entries."""
    entries = [p for p in (cache / "2").glob("*.json") if p.name != "files.json"]
    for p in entries:
        entry = json.loads(p.read_text())
        entry["findings"] = []
        p.write_text(json.dumps(entry, separators=(",", ":")))
    (cache / "2" / "files.json").unlink(missing_ok=True)
    return len(entries)


@pytest.mark.parametrize("files", [1, 60], ids=["entries", "with the stat index"])
def test_a_committed_cache_with_blanked_findings_hides_nothing(tmp_path: Path, files: int
                                                              ) -> None:
    # Issue 26, item 4: the entry key (content, path, install) could be predicted, so a
    # committed .jaxlint_cache whose findings were blanked hid them on a fresh checkout.
    checkout = tmp_path / "checkout"
    checkout.mkdir()
    for i in range(files):
        (checkout / f"bench{i}.py").write_text(MISTAKE)
    author, user = tmp_path / "author-home", tmp_path / "user-home"
    assert _lint_as(checkout, author, ".").returncode == 1  # the author's machine
    assert _blank_findings(checkout / ".jaxlint_cache") == files
    assert _lint_as(checkout, author, ".").returncode == 0  # their own key: it hides them
    result = _lint_as(checkout, user, ".")  # this user's machine: the cache means nothing
    assert result.returncode == 1, result.stderr
    assert len(result.stdout.splitlines()) == files
    key = user / "jaxlint" / "key"
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and not key.is_symlink()


def test_a_key_that_is_a_link_or_not_private_means_no_cache(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    home = tmp_path / "home"
    (home / "jaxlint").mkdir(parents=True)
    target = tmp_path / "known-key"
    target.write_text("0" * 64)
    (home / "jaxlint" / "key").symlink_to(target)
    result = _lint_as(tmp_path, home, ".")
    assert result.returncode == 1 and FINDING in result.stdout
    assert "warning: not using the cache" in result.stderr and "key" in result.stderr
    assert not (tmp_path / ".jaxlint_cache").exists()
    (home / "jaxlint" / "key").unlink()
    (home / "jaxlint" / "key").write_text("1" * 64)
    (home / "jaxlint" / "key").chmod(0o644)
    result = _lint_as(tmp_path, home, ".")
    assert "is not a private file of this user" in result.stderr


@pytest.mark.parametrize("shape", ["deep entry", "deep index", "huge index", "dense index"])
def test_cache_json_that_jaxlint_did_not_write_is_a_miss(tmp_path: Path, shape: str) -> None:
    # Issue 26, item 5: JSON nested very deeply in an entry or the stat index crashed the
    # run with a traceback, and a stat index of 60-250 MB ran it out of memory.
    if not Path("/proc/self/status").exists():
        pytest.skip("the peak memory is read from /proc")
    for i in range(60):  # enough files for the stat index to be read
        (tmp_path / f"bench{i}.py").write_text(MISTAKE)
    home = tmp_path / "home"
    assert _lint_as(tmp_path, home, ".").returncode == 1
    folder = tmp_path / ".jaxlint_cache" / "2"
    if shape == "deep entry":
        for p in folder.glob("*.json"):
            if p.name != "files.json":
                p.write_text("[" * 200_000 + "]" * 200_000)
        (folder / "files.json").unlink(missing_ok=True)
    elif shape == "deep index":
        (folder / "files.json").write_text('{"a":' + "[" * 200_000 + "]" * 200_000 + "}")
    elif shape == "huge index":
        with open(folder / "files.json", "w") as f:
            f.write('{"a":[' + "0," * (30 << 20) + "0]}")  # 60 MB
    else:  # within the size bound, but many small objects
        with open(folder / "files.json", "w") as f:
            f.write('{"a":[' + "0," * (7 << 20) + "0]}")  # 14 MB
    # the peak of this process's own memory (VmHWM starts anew at exec; ru_maxrss would
    # count the test process it was forked from)
    code = ("import sys\nfrom jaxlint.cli import main\nstatus = main(['.'])\n"
            "peak = [line.split()[1] for line in open('/proc/self/status')"
            " if line.startswith('VmHWM')]\n"
            "print(peak[0], file=sys.stderr)\nsys.exit(status)\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTHON")}
    env.update(PYTHONPATH=str(ROOT), XDG_CACHE_HOME=str(home))
    result = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                            capture_output=True, text=True, timeout=300)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert result.returncode == 1 and len(result.stdout.splitlines()) == 60
    peak_kb = int(result.stderr.split()[-1])
    assert peak_kb < 100_000, f"{peak_kb} kB at the peak"  # (this run: under 40 MB)
