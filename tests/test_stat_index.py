"""The cache's stat index (jaxlint/cache.py): on a warm run over many files, a file whose
stat is unchanged is not even read, and anything that could change its result makes it be
read and checked again: its bytes, the configuration, the options, a project module it
imports. Run in-process so the test can see which files jaxlint reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

import jaxlint.cache as cache_module
import jaxlint.cli as cli

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""
SYNCED = MISTAKE.replace("y = jnp.dot(x, x)\n", "y = jnp.dot(x, x).block_until_ready()\n")
CLEAN = "import os\n\nprint(os.getcwd())\n"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder of a few files; the index is used for any number of files, and files are
    trusted as soon as they are older than the run (the tests wait for nothing)."""
    monkeypatch.setattr(cli, "STAT_INDEX_MIN_FILES", 1)
    monkeypatch.setattr(cache_module, "RACY_NS", 0)
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bench.py").write_text(MISTAKE)
    (tmp_path / "clean.py").write_text(CLEAN)
    (tmp_path / "other.py").write_text(SYNCED)
    return tmp_path


def _lint(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
          *args: str) -> tuple[str, set[str]]:
    """What the command line prints, and the files it read."""
    read: set[str] = set()
    real = cli.read

    def recording(path: str) -> bytes:
        read.add(os.path.basename(path))
        return real(path)

    monkeypatch.setattr(cli, "read", recording)
    cli.main(["-j1", *args, "."])
    out = capsys.readouterr().out
    monkeypatch.setattr(cli, "read", real)
    return out, read


def test_unchanged_files_are_not_read_and_keep_their_findings(
        project: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    cold, read = _lint(monkeypatch, capsys)
    assert read == {"bench.py", "clean.py", "other.py"}
    assert cold.startswith("bench.py:8:7: JAX101 ")
    warm, read = _lint(monkeypatch, capsys)
    assert (warm, read) == (cold, set())


def test_an_edited_file_is_read_and_checked_again(
        project: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    cold, _ = _lint(monkeypatch, capsys)
    assert "bench.py" in cold
    (project / "bench.py").write_text(SYNCED)  # same size as before, or not: either way
    (project / "clean.py").write_text(MISTAKE)  # a rejected file that now matters
    warm, read = _lint(monkeypatch, capsys)
    assert read == {"bench.py", "clean.py"}
    assert warm.startswith("clean.py:8:7: JAX101 ") and "bench.py" not in warm


def test_a_file_replaced_with_the_same_size_and_time_is_read_again(
        project: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """An editor that writes a new file and renames it over the old one, a checkout that
    restores the modification time: the inode or the change time still differ."""
    _lint(monkeypatch, capsys)
    path = project / "other.py"
    st = path.stat()
    same_size = MISTAKE + "#" * (len(SYNCED) - len(MISTAKE) - 1) + "\n"
    assert len(same_size) == st.st_size
    fresh = project / "fresh.tmp"
    fresh.write_text(same_size)
    os.replace(fresh, path)
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    warm, read = _lint(monkeypatch, capsys)
    assert "other.py" in read and "other.py:8:7: JAX101 " in warm


def test_options_and_configuration_are_part_of_the_signature(
        project: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    _lint(monkeypatch, capsys)
    out, read = _lint(monkeypatch, capsys, "--select", "JAX105")
    assert read == {"bench.py", "clean.py", "other.py"} and out == ""
    (project / "pyproject.toml").write_text('[tool.jaxlint]\nignore = ["JAX101"]\n')
    out, read = _lint(monkeypatch, capsys)
    assert read == {"bench.py", "clean.py", "other.py"} and out == ""


def test_a_changed_project_module_makes_its_importer_be_checked_again(
        project: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    (project / "model.py").write_text(
        "import jax.numpy as jnp\n\ndef step(x):\n    return jnp.dot(x, x).block_until_ready()\n")
    (project / "run.py").write_text(
        "import time\nfrom model import step\n\nt0 = time.perf_counter()\ny = step(3)\n"
        "print(time.perf_counter() - t0)\n")
    cold, _ = _lint(monkeypatch, capsys)
    assert "run.py" not in cold
    (project / "model.py").write_text(
        "import jax.numpy as jnp\n\ndef step(x):\n    return jnp.dot(x, x)\n")
    warm, read = _lint(monkeypatch, capsys)
    assert "run.py" in read and "run.py:6:7: JAX101 " in warm


def test_a_module_that_appears_in_a_new_folder_makes_its_importer_be_checked_again(
        project: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """The index looked for ``pkg/ops/model.py`` and found neither it nor its folders: the
    result stays valid only while they are absent."""
    (project / "run.py").write_text(
        "import time\nimport jax.numpy as jnp\nfrom pkg.ops.model import step\n\n"
        "t0 = time.perf_counter()\ny = step(jnp.ones(3))\nprint(time.perf_counter() - t0)\n")
    cold, _ = _lint(monkeypatch, capsys)
    warm, read = _lint(monkeypatch, capsys)
    assert warm == cold and "run.py" not in read
    (project / "pkg" / "ops").mkdir(parents=True)
    warm, read = _lint(monkeypatch, capsys)
    assert warm == cold and "run.py" not in read  # folders alone change nothing
    (project / "pkg" / "ops" / "model.py").write_text(
        "import jax.numpy as jnp\n\ndef step(x):\n    return jnp.dot(x, x).block_until_ready()\n")
    after, read = _lint(monkeypatch, capsys)
    assert "run.py" in read and after != cold


def test_a_file_changed_just_before_the_run_is_not_trusted_by_its_stat(
        project: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Within a file system's timestamp granularity, a second edit of the same size can
    leave the stat unchanged: files that new are read every time until they are older."""
    monkeypatch.setattr(cache_module, "RACY_NS", 3600 * 10**9)
    _lint(monkeypatch, capsys)
    _, read = _lint(monkeypatch, capsys)
    assert read == {"bench.py", "clean.py", "other.py"}


def test_an_index_planted_as_a_link_is_neither_read_nor_written_through(
        project: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], tmp_path_factory: pytest.TempPathFactory) -> None:
    _lint(monkeypatch, capsys)
    outside = tmp_path_factory.mktemp("outside") / "target.json"
    outside.write_text("{}")
    index = project / ".jaxlint_cache" / cache_module.FORMAT / cache_module.INDEX
    assert index.is_file()
    index.unlink()
    index.symlink_to(outside)
    (project / "bench.py").write_text(SYNCED)
    warm, read = _lint(monkeypatch, capsys)
    assert read == {"bench.py", "clean.py", "other.py"} and warm == ""
    assert outside.read_text() == "{}"
    assert index.is_file() and not index.is_symlink()  # replaced by a file of its own
