"""What ``--fix`` keeps when it writes: a save made while it runs (issue 13 item 6), the
owner, extended attributes and hard links, and read-only files (item 12)."""

from __future__ import annotations

import os
import stat
from collections.abc import Callable
from pathlib import Path

import pytest
from helpers import jaxlint

import jaxlint.files as files
from jaxlint import cli, fix_source

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""
SAVED = MISTAKE.replace("(8, 8)", "(16, 16)").encode()  # what the user's editor saves
CHANGED = "bench.py: error: changed on disk while being fixed; left as it is"


def _fix_in_process(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                    capsys: pytest.CaptureFixture[str]) -> tuple[int, list[str]]:
    monkeypatch.chdir(tmp_path)
    status = cli.main(["--fix", "--no-cache", "-j", "1", "."])
    err = capsys.readouterr().err
    return status, [line for line in err.splitlines() if ": error: " in line]


def _save_in_place(path: Path) -> None:
    with open(path, "r+b") as f:
        f.write(SAVED)
        f.truncate()


def _save_by_rename(path: Path) -> None:
    """How most editors save: a new file renamed over the old one."""
    tmp = path.with_name(".bench.py.swp")
    tmp.write_bytes(SAVED)
    os.replace(tmp, path)


@pytest.mark.parametrize("save", [_save_in_place, _save_by_rename])
def test_a_save_after_the_first_comparison_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        save: Callable[[Path], None]) -> None:
    """The editor saves while the fixed text is being flushed to its temporary file (after
    the comparison made when the file was read): the file keeps the user's save."""
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)
    real_fsync = os.fsync
    saved = []

    def fsync_then_save(fd: int) -> None:
        real_fsync(fd)
        if not saved:
            saved.append(True)
            save(path)

    monkeypatch.setattr(os, "fsync", fsync_then_save)
    status, errors = _fix_in_process(tmp_path, monkeypatch, capsys)
    assert saved and status == 2 and errors == [CHANGED]
    assert path.read_bytes() == SAVED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.py"]


@pytest.mark.parametrize(("when", "save"), [("before", _save_in_place),
                                            ("before", _save_by_rename),
                                            ("after", _save_in_place)])
def test_a_save_at_the_swap_itself_is_kept(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        when: str, save: Callable[[Path], None]) -> None:
    """A save between the last comparison and the swap, or (by an editor that holds the
    file open) into the old file right after it: the check after the swap puts the
    user's save back. (A rename after the swap replaces the fixed file: the save wins.)"""
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)
    real_swap = files._swap
    calls = []

    def swap_with_a_save(tmp: str, dst: str) -> bool:
        calls.append(dst)
        if len(calls) > 1:
            return real_swap(tmp, dst)
        if when == "before":
            save(path)
            return real_swap(tmp, dst)
        held = open(path, "r+b")  # noqa: SIM115 - the editor's open file
        try:
            exchanged = real_swap(tmp, dst)
            held.write(SAVED)
            held.truncate()
            held.flush()
        finally:
            held.close()
        return exchanged

    monkeypatch.setattr(files, "_swap", swap_with_a_save)
    status, errors = _fix_in_process(tmp_path, monkeypatch, capsys)
    assert status == 2 and errors == [CHANGED]
    assert path.read_bytes() == SAVED
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.py"]


def test_without_an_exchange_a_save_into_the_old_file_is_restored(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
        ) -> None:
    """Where the system cannot exchange two files (not Linux, or a file system without
    it), a plain rename: a save written into the replaced file is put back."""
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)

    def replace_after_a_save(tmp: str, dst: str) -> bool:
        _save_in_place(path)
        os.replace(tmp, dst)
        return False

    monkeypatch.setattr(files, "_swap", replace_after_a_save)
    status, errors = _fix_in_process(tmp_path, monkeypatch, capsys)
    assert status == 2 and errors == [CHANGED]
    assert path.read_bytes() == SAVED


def test_the_swap_writes_the_fix(tmp_path: Path) -> None:
    """The checks do not stop a plain fix (and leave no temporary file)."""
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)
    result = jaxlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert path.read_bytes() == fix_source(MISTAKE.encode()).source
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.py"]


# ---------------------------------------------------------------------------------- item 12
def test_read_only_files_are_skipped_with_a_message(tmp_path: Path) -> None:
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)
    other = tmp_path / "other.py"
    other.write_text(MISTAKE)
    os.chmod(path, 0o444)
    result = jaxlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    assert [line for line in result.stderr.splitlines() if ": error: " in line] == [
        "bench.py: error: read-only file; not fixed"]
    assert "Fixed 1 finding." in result.stderr
    assert path.read_text() == MISTAKE and stat.S_IMODE(path.stat().st_mode) == 0o444
    assert "jax.block_until_ready(y)" in other.read_text()


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="a file of another user can be fixed only by root")
def test_fix_as_root_keeps_the_owner(tmp_path: Path) -> None:
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)
    os.chown(path, 65534, 65534)
    os.chmod(path, 0o664)
    result = jaxlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    st = path.stat()
    assert (st.st_uid, st.st_gid, stat.S_IMODE(st.st_mode)) == (65534, 65534, 0o664)
    assert "jax.block_until_ready(y)" in path.read_text()


def test_fix_keeps_extended_attributes(tmp_path: Path) -> None:
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)
    try:
        os.setxattr(path, "user.origin", b"downloaded")
    except (OSError, AttributeError):
        pytest.skip("no user extended attributes on this file system")
    result = jaxlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "jax.block_until_ready(y)" in path.read_text()
    assert os.getxattr(path, "user.origin") == b"downloaded"


def test_fix_keeps_hard_links(tmp_path: Path) -> None:
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)
    os.chmod(path, 0o640)
    twin = tmp_path / "elsewhere" / "same.txt"  # not *.py: the walk does not find it
    twin.parent.mkdir()
    os.link(path, twin)
    result = jaxlint("--fix", "--no-cache", "bench.py", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert "Fixed 1 finding." in result.stderr
    assert path.read_bytes() == fix_source(MISTAKE.encode()).source
    assert os.path.samefile(path, twin) and path.stat().st_nlink == 2
    assert stat.S_IMODE(path.stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.py", "elsewhere"]


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                    reason="a file of another user needs root to set up")
def test_an_owner_that_cannot_be_kept_means_no_fix(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Where the new file cannot be given the old one's owner (a user fixing a file of
    another user that is group-writable), the fix is refused rather than taking it over."""
    path = tmp_path / "bench.py"
    path.write_text(MISTAKE)
    os.chown(path, 65534, 65534)

    def refuse(*args: object) -> None:
        raise PermissionError(1, "Operation not permitted")

    monkeypatch.setattr(os, "chown", refuse)
    status, errors = _fix_in_process(tmp_path, monkeypatch, capsys)
    assert status == 2
    assert errors == ["bench.py: error: cannot keep its owner and group; not fixed"]
    assert path.read_text() == MISTAKE and path.stat().st_uid == 65534
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bench.py"]
