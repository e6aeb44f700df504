"""jaxlint in CI as the README and action.yml offer it: every example installs this jaxlint
(never the unrelated project of that name on the package index), the GitHub Action's steps
run here as a runner would run them, and the SARIF recipe reports every file it could not
check while the step still succeeds."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
import yaml
from helpers import ROOT, jaxlint, shared_folder, source_repo

README = (ROOT / "README.md").read_text()
MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((8, 8))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""


def _blocks(kind: str) -> list[str]:
    return re.findall(rf"```{kind}\n(.*?)```", README, re.S)


def _ci_blocks() -> list[str]:
    """The README's workflow and pipeline snippets that run jaxlint."""
    return [b for b in _blocks("yaml") if re.search(r"(?m)^\s*(- run:|- |script:).*jaxlint", b)
            and "pre-commit" not in b and "hooks:" not in b]


def test_every_ci_example_installs_this_jaxlint_first() -> None:
    blocks = _ci_blocks()
    assert len(blocks) >= 3  # GitHub annotations, SARIF, GitLab (the Action installs itself)
    for block in blocks:
        if re.search(r"uses: \S+/jaxlint@", block):
            continue
        lines = block.splitlines()
        runs = [i for i, line in enumerate(lines)
                if re.search(r"(?<![\w/-])jaxlint --", line) and "pip install" not in line]
        installs = [i for i, line in enumerate(lines) if "pip install" in line]
        assert runs and installs and installs[0] < runs[0], block
        for i in installs:
            assert re.search(r'pip install (-q )?"git\+[^"]+@[^"]+"', lines[i]) \
                or re.search(r"pip install (-q )?\.(\s|$)", lines[i]), lines[i]
    # and no example installs by name, which gets the other project
    for block in _blocks(r"\w*"):
        assert not re.search(r"pip install\s+(-\S+\s+)*['\"]?jaxlint\b(?![\w@/.-]*[@/])", block)


def test_the_sarif_recipe_reports_every_error_and_succeeds(tmp_path: Path) -> None:
    """The code-scanning recipe on a repository with one notebook that does not parse
    (an exercise left with blanks): exit 0 under --exit-zero, the error in the SARIF."""
    (tmp_path / "bench.py").write_text(MISTAKE)
    cells = [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["import time, jax\n", "t0 = time.time()\n", "y = ____(x)\n"]},
             {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
              "source": ["for i in range(:\n"]}]
    (tmp_path / "exercise.ipynb").write_text(json.dumps(
        {"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n")
    command = next(line.split("- run: ", 1)[1] for b in _ci_blocks() for line in b.splitlines()
                   if "--format sarif" in line)
    args = command.split()[1:]
    assert args[:1] == ["--format"] and "--exit-zero" in args
    result = jaxlint(*args, cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    out = tmp_path / args[args.index("-o") + 1] if "-o" in args else None
    log = json.loads(out.read_text() if out is not None else result.stdout)
    (run,) = log["runs"]
    assert [r["ruleId"] for r in run["results"]] == ["JAX101"]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["message"]["text"] == "cell 2, line 1: cannot parse: invalid syntax"
    where = note["locations"][0]["physicalLocation"]
    assert where["artifactLocation"]["uri"] == "exercise.ipynb"
    stored = (tmp_path / "exercise.ipynb").read_text().splitlines()
    line, col = where["region"]["startLine"], where["region"]["startColumn"]
    assert stored[line - 1].strip() == '"for i in range(:\\n"'
    assert stored[line - 1][col - 1:] == ':\\n"'  # where CPython says it stops parsing


# --------------------------------------------------------------------------- action.yml


def _step_env(step: dict[str, object], values: dict[str, str]) -> dict[str, str]:
    """The step's ``env:``, its ``${{ ... }}`` expressions given ``values``."""
    env = {}
    for key, value in dict(step.get("env") or {}).items():  # type: ignore[call-overload]
        env[key] = re.sub(r"\$\{\{\s*([\w.]+)\s*\}\}", lambda m: values[m.group(1)], str(value))
    return env


def run_action(action: Path, workspace: Path, runner_temp: Path, values: dict[str, str],
               extra_env: dict[str, str] | None = None) -> list[subprocess.CompletedProcess[str]]:
    """Run each step of the composite action ``action`` as a runner does: its ``run`` script
    with ``bash -e``, in the workspace, with the step's environment (and RUNNER_TEMP)."""
    spec = yaml.safe_load(action.read_text())
    assert spec["runs"]["using"] == "composite"
    base = {k: v for k, v in os.environ.items() if not k.startswith(("PYTHON", "VIRTUAL_ENV"))}
    out = []
    for step in spec["runs"]["steps"]:
        assert step["shell"] == "bash"
        assert "${{" not in step["run"]  # inputs reach scripts only as environment variables
        env = {**base, **_step_env(step, values), "RUNNER_TEMP": str(runner_temp),
               **(extra_env or {})}
        result = subprocess.run(["bash", "--noprofile", "--norc", "-e", "-o", "pipefail", "-c",
                                 step["run"]], cwd=workspace, env=env, capture_output=True,
                                text=True, timeout=600)
        out.append(result)
        if result.returncode != 0:
            break
    return out


@pytest.mark.slow
def test_action_installs_this_jaxlint_and_annotates(tmp_path: Path,
                                                    tmp_path_factory: pytest.TempPathFactory
                                                    ) -> None:
    repo, rev = source_repo(tmp_path_factory)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "bench.py").write_text(MISTAKE)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "bench.py").write_text(MISTAKE)
    runner_temp = shared_folder(tmp_path_factory, "runner-temp", lambda folder: None)
    values = {"inputs.args": "src --select JAX101", "inputs.version": "",
              "github.action_path": str(repo), "github.action_repository": "",
              "github.server_url": "https://github.com"}
    install, lint = run_action(repo / "action.yml", tmp_path, runner_temp, values)
    assert install.returncode == 0, install.stderr
    assert lint.returncode == 1, lint.stderr
    assert lint.stdout.startswith("::error file=src/bench.py,line=8,col=7,title=JAX101::JAX101 ")
    assert "other/bench.py" not in lint.stdout
    venv = runner_temp / "jaxlint-venv"
    installed = subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "show", "-f",
                                "jaxlint"], capture_output=True, text=True).stdout
    assert "Location: " + str(venv) in installed  # this jaxlint, in the action's own venv

    # a pinned version: installed from the action's repository at that revision
    values.update({"inputs.version": rev, "github.action_repository": str(repo).lstrip("/"),
                   "github.server_url": "file://"})
    install, lint = run_action(repo / "action.yml", tmp_path, runner_temp, values,
                               {"PIP_NO_DEPS": "1", "PIP_FORCE_REINSTALL": "1"})
    assert install.returncode == 0, install.stderr
    assert lint.returncode == 1 and lint.stdout.count("::error ") == 1, lint.stdout
    urls = list(venv.glob("lib/python*/site-packages/jaxlint-*.dist-info/direct_url.json"))
    assert rev in urls[0].read_text()


def test_action_without_a_repository_refuses_a_version(tmp_path: Path) -> None:
    values = {"inputs.args": ".", "inputs.version": "v1", "github.action_path": str(ROOT),
              "github.action_repository": "", "github.server_url": "https://github.com"}
    (install,) = run_action(ROOT / "action.yml", tmp_path, tmp_path, values)
    assert install.returncode == 2
    assert not (tmp_path / "jaxlint-venv").exists()
    assert install.stdout.startswith("::error title=jaxlint::'version' needs")
