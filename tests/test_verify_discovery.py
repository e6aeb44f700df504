"""``jaxlint verify DIR`` runs only what it should (issue 13, item 5): folders are searched as
lint searches them, setup.py-like files never run, scripts without findings run only with
``--all``, and stderr says which scripts ran."""

from __future__ import annotations

import contextlib
import importlib.util
import io
import json
from pathlib import Path

import pytest

from jaxlint.verify import main

NOT_RUN_CLEAN = "no findings: not run (--all runs it)"
NOT_RUN_SETUP = "not run: a setup.py-like file (verify never runs those)"

pytestmark = pytest.mark.skipif(importlib.util.find_spec("jax") is None,
                                reason="verify runs scripts under JAX")

WITH_FINDING = """\
import pathlib
import time

import jax.numpy as jnp

pathlib.Path({mark!r}).joinpath({name!r}).touch()
t0 = time.perf_counter()
y = jnp.ones(3) * 2
print(time.perf_counter() - t0)
"""
CLEAN = "import pathlib\npathlib.Path({mark!r}).joinpath({name!r}).touch()\n"

# Places a folder walk must not run anything from (each script there has a finding, so
# "only scripts with findings" is not what keeps it out).
SKIPPED = [".venv/lib/bench.py", "env/bench.py", "lib/python3.11/site-packages/pkg/bench.py",
           "build/lib/bench.py", "node_modules/x/bench.py", ".hidden/bench.py",
           "myenv/bench.py", "dist/bench.py"]


def _tree(tmp_path: Path) -> tuple[Path, Path]:
    root, mark = tmp_path / "project", tmp_path / "ran"
    mark.mkdir()
    for i, rel in enumerate(SKIPPED):
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(WITH_FINDING.format(mark=str(mark), name=f"skipped{i}"))
    (root / "myenv" / "pyvenv.cfg").write_text("home = /usr/bin\n")  # a venv by any name
    (root / "setup.py").write_text(WITH_FINDING.format(mark=str(mark), name="setup"))
    (root / "bench.py").write_text(WITH_FINDING.format(mark=str(mark), name="bench"))
    (root / "clean.py").write_text(CLEAN.format(mark=str(mark), name="clean"))
    return root, mark


def _verify(*argv: str) -> tuple[int, list[dict[str, object]], str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        status = main([*argv, "--repeat", "1", "--backend", "cpu", "--json", "--quiet"])
    return status, json.loads(out.getvalue()), err.getvalue()


@pytest.mark.slow
def test_verify_dir_runs_only_scripts_with_findings_found_as_lint_finds_them(
        tmp_path: Path) -> None:
    root, mark = _tree(tmp_path)
    status, rows, err = _verify(str(root))
    assert status == 0, err
    assert sorted(p.name for p in mark.iterdir()) == ["bench"]
    verdicts = {Path(str(r["path"])).name: r["verdict"] for r in rows if not r["code"]}
    assert verdicts == {"clean.py": NOT_RUN_CLEAN, "setup.py": NOT_RUN_SETUP}
    assert [Path(str(r["path"])).name for r in rows if r["code"]] == ["bench.py"]
    assert err.strip().splitlines()[-1] == (
        f"jaxlint verify: ran 1 script: {root / 'bench.py'}; not run: 1 without findings "
        "(--all runs them), 1 setup.py-like.")


@pytest.mark.slow
def test_verify_all_runs_clean_scripts_but_never_setup_py(tmp_path: Path) -> None:
    root, mark = _tree(tmp_path)
    status, rows, err = _verify(str(root), "--all")
    assert status == 0, err
    assert sorted(p.name for p in mark.iterdir()) == ["bench", "clean"]
    assert err.strip().splitlines()[-1] == (
        f"jaxlint verify: ran 2 scripts: {root / 'bench.py'}, {root / 'clean.py'}; "
        "not run: 1 setup.py-like.")


def test_a_named_setup_py_is_not_run_and_a_named_clean_script_is(tmp_path: Path) -> None:
    root, mark = _tree(tmp_path)
    status, rows, err = _verify(str(root / "setup.py"), str(root / "clean.py"))
    assert status == 0, err
    assert sorted(p.name for p in mark.iterdir()) == ["clean"]
    assert [r["verdict"] for r in rows] == [NOT_RUN_SETUP, "no findings: left alone"]


@pytest.mark.slow
def test_a_link_into_a_skipped_folder_is_never_run(tmp_path: Path) -> None:
    # Issue 26 (low): a folder walk kept bench.py, a link to build/evil.py, under the
    # link's name, and verify ran what build/ holds. A link runs only when named.
    from jaxlint.verify import discover

    root, mark = _tree(tmp_path)
    (root / "linked.py").symlink_to(root / "build" / "lib" / "bench.py")
    (root / "also.py").symlink_to(root / "bench.py")  # a link to a walked file: that file
    found = sorted(p.name for p in discover([root]))
    assert found == ["bench.py", "clean.py"], found
    status, rows, err = _verify(str(root), "--all")
    assert status == 0, err
    assert sorted(p.name for p in mark.iterdir()) == ["bench", "clean"]
