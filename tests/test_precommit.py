"""The pre-commit hooks (.pre-commit-hooks.yaml), run by real pre-commit in throwaway repos.

pre-commit installs a hook repository by cloning a commit of it, so the hooks are taken from
a snapshot of this source tree as it is on disk (committed or not) in a temporary git repo.
The hook environment (a virtualenv with jaxlint pip-installed into it, which needs the
package index) is built once per test run, in a PRE_COMMIT_HOME every test process shares.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, shared_folder, source_repo

# pre-commit builds a hook environment from the package index: the full suite only
pytestmark = pytest.mark.slow


MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""

CLEAN = """\
import time

import jax
import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jax.block_until_ready(jnp.dot(x, x))
print(time.perf_counter() - t0)
"""

FINDING = re.compile(r"^bad\.py:8:\d+: JAX101 timer stops before JAX work finishes", re.M)


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("PYTHON", "PRE_COMMIT", "GIT_", "VIRTUAL_ENV"))}
    # No user or system git config (hooksPath, signing, templates) leaks into the test repos.
    empty = home / "gitconfig"
    empty.touch()
    env.update(
        PRE_COMMIT_HOME=str(home / "cache"), PRE_COMMIT_COLOR="never",
        GIT_CONFIG_GLOBAL=str(empty), GIT_CONFIG_NOSYSTEM="1",
        GIT_AUTHOR_NAME="t", GIT_AUTHOR_EMAIL="t@example.com",
        GIT_COMMITTER_NAME="t", GIT_COMMITTER_EMAIL="t@example.com",
    )
    return env


def _run(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(list(args), cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)


def _git(*args: str, cwd: Path, env: dict[str, str]) -> str:
    result = _run("git", *args, cwd=cwd, env=env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


@pytest.fixture(scope="session")
def home(tmp_path_factory: pytest.TempPathFactory) -> Path:
    # one PRE_COMMIT_HOME for every test process of the run: the hook environment is built
    # once (pre-commit locks its store while it installs one)
    return shared_folder(tmp_path_factory, "pre-commit-home", lambda folder: None)


@pytest.fixture(scope="session")
def hook_rev(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """A git repo holding this source tree as it is now, and the commit to point at."""
    return source_repo(tmp_path_factory)


@pytest.fixture
def project(tmp_path: Path, home: Path, hook_rev: tuple[Path, str]) -> Iterator[Path]:
    """A user's repo whose .pre-commit-config.yaml uses both hooks."""
    repo, rev = hook_rev
    env = _env(home)
    _git("init", "-q", cwd=tmp_path, env=env)
    config = {"repos": [{"repo": str(repo), "rev": rev,
                         "hooks": [{"id": "jaxlint"}, {"id": "jaxlint-fix"}]}]}
    (tmp_path / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    _git("add", ".pre-commit-config.yaml", cwd=tmp_path, env=env)
    yield tmp_path


def pre_commit(project: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return _run(sys.executable, "-m", "pre_commit", *args, cwd=project, env=_env(home))


def stage(project: Path, home: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = project / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    _git("add", "--", *files, cwd=project, env=_env(home))


def test_manifest_is_valid() -> None:
    manifest = ROOT / ".pre-commit-hooks.yaml"
    result = _run(sys.executable, "-m", "pre_commit", "validate-manifest", str(manifest),
                  cwd=ROOT, env=dict(os.environ))
    assert result.returncode == 0, result.stdout + result.stderr
    hooks = {h["id"]: h for h in yaml.safe_load(manifest.read_text())}
    assert set(hooks) == {"jaxlint", "jaxlint-fix"}
    assert hooks["jaxlint"]["entry"] == "jaxlint --pre-commit --force-exclude"
    assert hooks["jaxlint-fix"]["entry"] == "jaxlint --pre-commit --fix --force-exclude"
    for hook in hooks.values():
        assert hook["language"] == "python"
        assert hook.get("pass_filenames", True) is True


def test_check_hook_reports_and_fails_changing_nothing(project: Path, home: Path) -> None:
    files = {"bad.py": MISTAKE, "good.py": CLEAN, "pkg/also_good.py": CLEAN}
    stage(project, home, files)
    result = pre_commit(project, home, "run", "jaxlint", "--all-files")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert re.search(r"^jaxlint\.+Failed$", out, re.M), out
    assert FINDING.search(out), out
    assert "good.py" not in out
    assert {n: (project / n).read_text() for n in files} == files

    result = pre_commit(project, home, "run", "jaxlint", "--files", "good.py",
                        "pkg/also_good.py")
    assert result.returncode == 0, result.stdout + result.stderr
    assert re.search(r"^jaxlint\.+Passed$", result.stdout, re.M), result.stdout


def test_fix_hook_rewrites_the_file_then_check_passes(project: Path, home: Path) -> None:
    stage(project, home, {"bad.py": MISTAKE, "good.py": CLEAN})
    result = pre_commit(project, home, "run", "jaxlint-fix", "--all-files")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert "files were modified by this hook" in out
    fixed = (project / "bad.py").read_text()
    assert "y = jnp.dot(x, x)\njax.block_until_ready(y)\nprint(time.perf_counter() - t0)\n" \
        in fixed
    assert re.search(r"^import jax$", fixed, re.M), fixed
    assert (project / "good.py").read_text() == CLEAN

    result = pre_commit(project, home, "run", "jaxlint", "--all-files")
    assert result.returncode == 0, result.stdout + result.stderr


def test_hooks_skip_when_no_python_file_is_passed(project: Path, home: Path) -> None:
    # With no matching file pre-commit does not run jaxlint at all (which would check ".",
    # where bad.py sits unstaged).
    (project / "bad.py").write_text(MISTAKE)
    stage(project, home, {"notes.txt": "time jax\n"})
    result = pre_commit(project, home, "run", "--files", "notes.txt")
    assert result.returncode == 0, result.stdout + result.stderr
    assert len(re.findall(r"\(no files to check\)Skipped$", result.stdout, re.M)) == 2
    assert (project / "bad.py").read_text() == MISTAKE


def test_installed_hook_blocks_the_commit(project: Path, home: Path) -> None:
    env = _env(home)
    config = yaml.safe_load((project / ".pre-commit-config.yaml").read_text())
    config["repos"][0]["hooks"] = [{"id": "jaxlint"}]
    (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
    result = pre_commit(project, home, "install")
    assert result.returncode == 0, result.stdout + result.stderr
    stage(project, home, {".pre-commit-config.yaml": yaml.safe_dump(config),
                          "bad.py": MISTAKE})
    result = _run("git", "commit", "-m", "bench", cwd=project, env=env)
    assert result.returncode != 0
    assert FINDING.search(result.stdout + result.stderr), result.stdout + result.stderr
    assert _run("git", "rev-parse", "--verify", "HEAD", cwd=project, env=env).returncode != 0

    stage(project, home, {"bad.py": CLEAN})
    result = _run("git", "commit", "-m", "bench", cwd=project, env=env)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_staged_file_named_like_a_subcommand_is_linted_not_run(project: Path,
                                                                  home: Path) -> None:
    # pre-commit appends file names to ``entry: jaxlint``; a staged script named ``verify``
    # (a Python file by its shebang) must be checked like any other, never executed.
    script = ("#!/usr/bin/env python3\nfrom pathlib import Path\n"
              "Path('ran.txt').write_text('the hook ran this file')\n" + MISTAKE)
    for name in ("verify", "rule"):
        (project / name).write_text(script)
        (project / name).chmod(0o755)  # identify reads the shebang of executables only
    stage(project, home, {"verify": script, "rule": script})
    result = pre_commit(project, home, "run", "jaxlint", "--files", "verify", "rule")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert re.search(r"^jaxlint\.+Failed$", out, re.M), out
    assert re.search(r"^verify:11:\d+: JAX101 ", out, re.M), out
    assert re.search(r"^rule:11:\d+: JAX101 ", out, re.M), out
    assert not (project / "ran.txt").exists()


def test_staged_files_the_configuration_excludes_are_not_checked(project: Path,
                                                                 home: Path) -> None:
    (project / "pyproject.toml").write_text('[tool.jaxlint]\nextend-exclude = ["gen/"]\n')
    stage(project, home, {"pyproject.toml": (project / "pyproject.toml").read_text(),
                          "gen/bad.py": MISTAKE, "bad.py": MISTAKE})
    result = pre_commit(project, home, "run", "jaxlint", "--all-files")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert FINDING.search(out), out
    assert "gen/bad.py" not in out


# Staged files named like each option that could make the hook pass or write a file; each
# holds a mistake, so each must be reported, and nothing may be written.
OPTION_NAMES = ("--stdin-filename=x.py", "--extend-exclude=*.py", "--output-file=victim.py",
                "--exclude=*.py", "--config=x.py", "--", "--exit-zero", "-q", "--select",
                "--no-index", "--format=json")


@pytest.mark.parametrize("args", [None, ["--select=JAX1", "--no-cache"]])
def test_staged_files_named_like_options_are_linted(project: Path, home: Path,
                                                    args: list[str] | None) -> None:
    # Issue 26: the entry had no end of options, so these names made the hook pass while
    # findings existed, or overwrote victim.py. With a user's ``args:`` the options must
    # still be options (``--select=JAX1`` still selects, so JAX101 is still reported).
    if args is not None:
        config = yaml.safe_load((project / ".pre-commit-config.yaml").read_text())
        config["repos"][0]["hooks"] = [{"id": "jaxlint", "args": args}]
        (project / ".pre-commit-config.yaml").write_text(yaml.safe_dump(config))
        stage(project, home, {".pre-commit-config.yaml": yaml.safe_dump(config)})
    files = {name: ("#!/usr/bin/env python3\n" + MISTAKE if not name.endswith(".py")
                    else MISTAKE) for name in OPTION_NAMES}
    files["victim.py"] = CLEAN
    for name, text in files.items():
        (project / name).write_text(text)
        if not name.endswith(".py"):
            (project / name).chmod(0o755)  # identify reads the shebang of executables only
    stage(project, home, files)
    hooks = ("jaxlint",) if args is not None else ("jaxlint", "jaxlint-fix")
    for hook in hooks:
        result = pre_commit(project, home, "run", hook, "--all-files")
        out = result.stdout + result.stderr
        assert result.returncode == 1, out
        if hook == "jaxlint":
            for name in OPTION_NAMES:
                line = 9 if not name.endswith(".py") else 8
                assert re.search(rf"^{re.escape(name)}:{line}:\d+: JAX101 ", out, re.M), out
        else:
            assert "files were modified by this hook" in out
            for name in OPTION_NAMES:
                assert "jax.block_until_ready(y)" in (project / name).read_text(), name
        assert (project / "victim.py").read_text() == CLEAN


def test_a_tracked_file_that_gitignore_lists_is_checked_by_the_hook(project: Path,
                                                                    home: Path) -> None:
    # Issue 26, item 7: with --force-exclude the hook skipped a staged file .gitignore lists
    # (added with git add -f); git does not ignore what it tracks, and neither does jaxlint.
    (project / ".gitignore").write_text("*_gen.py\n")
    (project / "kept_gen.py").write_text(MISTAKE)
    env = _env(home)
    _git("add", ".gitignore", cwd=project, env=env)
    _git("add", "-f", "kept_gen.py", cwd=project, env=env)
    result = pre_commit(project, home, "run", "jaxlint", "--all-files")
    out = result.stdout + result.stderr
    assert result.returncode == 1, out
    assert re.search(r"^kept_gen\.py:8:\d+: JAX101 ", out, re.M), out
