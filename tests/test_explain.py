"""Every finding carries its evidence, and users see it: ``--explain PATH:LINE``, the json
``explanation`` field and ``--format full``."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest
from fixture_support import fixture_files, lint
from helpers import run


def jaxlint(*args: str):  # type: ignore[no-untyped-def]
    import sys

    return run(sys.executable, "-m", "jaxlint", "--no-cache", *args)


def test_every_fixture_finding_is_explained() -> None:
    seen = set()
    for path in fixture_files():
        for f in lint(path):  # lint_source(path.read_bytes(), str(path)), asked once a run
            seen.add(f.code)
            assert f.explanation, (path.name, f.line, f.code)
            # the evidence names the place of the work it is about
            assert "line " in f.explanation, (path.name, f.explanation)
    assert seen == {"JAX101", "JAX102", "JAX103", "JAX104", "JAX105", "JAX106", "JAX107"}


def test_explain_names_the_work_and_why_it_is_jax_work() -> None:
    proc = jaxlint("--explain", "fixtures/JAX101/callables_in_dict.py:25")
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].startswith("fixtures/JAX101/callables_in_dict.py:25:14: JAX101 ")
    text = proc.stdout
    assert "started at line 23 and read again at line 25" in text
    assert "line 24: `step(w, g)`: it calls the function made by `jax.jit(sgd)` at line 16" in text
    assert "held by `w2`" in text


def test_explain_a_helper_and_a_wrong_sync() -> None:
    proc = jaxlint("--explain", "fixtures/JAX103/syncs_elsewhere.py:30")
    assert proc.returncode == 0, proc.stderr
    assert "`update` is a jitted function (see line 11)" in proc.stdout
    assert "The sync at line 29 (`wait_all(params)`) waits for values made before the start" \
        in proc.stdout


def test_explain_a_line_without_finding_says_so() -> None:
    proc = jaxlint("--explain", "fixtures/JAX101/callables_in_dict.py:3")
    assert proc.returncode == 1
    assert proc.stderr.strip() == "jaxlint: no finding at line 3"
    assert proc.stdout.splitlines()[0] == "fixtures/JAX101/callables_in_dict.py:3: no finding"
    assert "No timed region ends at line 3" in proc.stdout
    bad = jaxlint("--explain", "fixtures/JAX101/callables_in_dict.py")
    assert bad.returncode == 2 and "--explain wants PATH:LINE" in bad.stderr


def test_json_and_full_carry_the_explanation() -> None:
    rows = json.loads(jaxlint("--format", "json", "fixtures/JAX105/static_argument_value.py"
                              ).stdout)
    assert [r["line"] for r in rows] == [23, 28]
    assert all("traces and compiles it" in r["explanation"] for r in rows)
    full = jaxlint("--format", "full", "fixtures/JAX101/timer_context_manager.py").stdout
    assert "  = The timer at line 47 reads the clock when its block starts and again when it " \
        "ends." in full


def test_a_notebooks_evidence_names_cells_and_their_lines(tmp_path: Path) -> None:
    cells = [
        "import time\nimport jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef step(x):\n"
        "    return x @ x\n",
        "x = jnp.ones((8, 8))\nstep(x).block_until_ready()\nt0 = time.perf_counter()\n"
        "y = step(x)\nprint(float(y.sum()), time.perf_counter() - t0)\n",
    ]
    nb = {"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
                     "source": c} for c in cells],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (tmp_path / "bench.ipynb").write_text(json.dumps(nb))
    proc = run(__import__("sys").executable, "-m", "jaxlint", "--no-cache", "--explain",
               "bench.ipynb:2:5", cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert "(cell 2, line 5) waits for the work" in proc.stdout  # the message, too
    assert "started at cell 2, line 3 and read again at cell 2, line 5" in proc.stdout
    assert "cell 2, line 4: `step(x)`: `step` is a jitted function (see cell 1, line 6)" \
        in proc.stdout


def test_explain_a_file_that_cannot_be_checked_is_its_error_line_alone(tmp_path: Path) -> None:
    (tmp_path / "broken.py").write_text(
        "import time\nimport jax\nt0 = time.perf_counter()\ndef f(:\n")
    proc = jaxlint("--explain", str(tmp_path / "missing.py") + ":3")
    assert proc.returncode == 2
    assert proc.stderr.strip().endswith("missing.py: error: no such file or directory")
    proc = jaxlint("--explain", str(tmp_path / "broken.py") + ":1")
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and "cannot parse" in proc.stderr


def test_explain_names_the_path_on_which_nothing_waits(tmp_path: Path) -> None:
    """A sync in a loop that never runs (a count left at zero), or under an ``if``: the
    evidence says on which path nothing waits. (A loop over something of unknown length
    runs at least once, so a sync in it counts: see the README's policies.)"""
    script = tmp_path / "paths.py"
    script.write_text(
        "import time\n\nimport jax\n\nf = jax.jit(lambda x: x @ x)\n\n\n"
        "def bench(x, check, n_extra=0):\n"
        "    t0 = time.perf_counter()\n"
        "    y = f(x)\n"
        "    for _ in range(n_extra):\n"
        "        y = f(y + 1)\n"
        "        y.block_until_ready()\n"
        "    t1 = time.perf_counter()\n"
        "    z = f(x)\n"
        "    if check:\n"
        "        z.block_until_ready()\n"
        "    return t1 - t0, time.perf_counter() - t1\n")
    loop = run(sys.executable, "-m", "jaxlint", "--explain", f"{script}:14")
    assert ("The sync at line 13 (`y.block_until_ready()`) is in the loop at line 11, which "
            "never runs (its count is zero or what it goes over is empty), so nothing waits for "
            "the work.") in loop.stdout, loop.stdout
    branch = run(sys.executable, "-m", "jaxlint", "--explain", f"{script}:18")
    assert ("The sync at line 17 (`z.block_until_ready()`) runs only when the `if` at line 16 "
            "is taken: on the other path nothing waits for the work.") in branch.stdout


def test_a_compile_in_nested_regions_is_explained_with_the_innermost(tmp_path: Path) -> None:
    # A benchmark's "time taken" inside a run's clock (the same start read later in the
    # training loop's log): the first call compiles inside both figures; its JAX105 names
    # the benchmark's region, whose stop comes first, in the json and in --explain.
    script = tmp_path / "bigram.py"
    script.write_text(
        "import time\n\nimport jax\nimport jax.numpy as jnp\n\n"
        "train_step = jax.jit(lambda w: w * 0.9)\nw = jnp.ones(3)\n"
        "start = time.perf_counter()\n"           # 8
        "for _ in range(100):\n"
        "    w = train_step(w)\n"                 # 10: compiles
        "    jax.block_until_ready(w)\n"
        "end = time.perf_counter()\n"             # 12
        "print('Time taken:', end - start)\n"
        "for step in range(1000):\n"
        "    w = train_step(w)\n"
        "    if step % 100 == 0:\n"
        "        print(step, float(w[0]), time.perf_counter() - start)\n")  # 17
    proc = jaxlint("--format", "json", "--exit-zero", str(script))
    found = [f for f in json.loads(proc.stdout) if f["code"] == "JAX105"]
    assert [(f["line"], f["region"]["stop"]["line"]) for f in found] == [(10, 12)], proc.stdout
    proc = jaxlint("--explain", f"{script}:10")
    assert "started at line 8 and read again at line 12" in proc.stdout, proc.stdout


# ``--explain`` on a line with no finding says where the analysis lost it, or what it
# concluded: a user who thinks a timing is wrong learns whether jaxlint judged it correct or
# could not see the work (``jaxlint.quiet``).
UNSEEN = """\
import time
import jax.numpy as jnp
from agents import Agent

agent = Agent()
x = jnp.ones(3)
t0 = time.perf_counter()
y = agent.act(x)
t1 = time.perf_counter()
print(t1 - t0)
"""

SYNCED = """\
import time
import jax
import jax.numpy as jnp

f = jax.jit(lambda x: x + 1)
x = jnp.ones(3)
f(x).block_until_ready()
t0 = time.perf_counter()
y = f(x)
y.block_until_ready()
t1 = time.perf_counter()
print(t1 - t0)
t0 = time.perf_counter()
y = f(x)
t1 = time.perf_counter()  # noqa: JAX101
print(t1 - t0)
"""


def _why(tmp_path: Path, name: str, text: str, at: str, *extra: str):  # type: ignore[no-untyped-def]
    (tmp_path / name).write_text(text)
    return run(sys.executable, "-m", "jaxlint", "--no-cache", *extra, "--explain",
               f"{name}:{at}", cwd=tmp_path)


def test_why_quiet_names_the_calls_jaxlint_could_not_see_into(tmp_path: Path) -> None:
    proc = _why(tmp_path, "bench.py", UNSEEN, "9")
    assert proc.returncode == 1, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0] == "bench.py:9: no finding"
    assert lines[1] == ("    The timed region from line 7 to line 9: jaxlint sees no JAX work "
                        "in it that is still running when the clock is read.")
    assert "`agent.act(x)` (line 8: a method of an object whose class jaxlint does not " \
        "know)" in lines[2]
    # a line inside the region is answered for the region it is in
    inner = _why(tmp_path, "bench.py", UNSEEN, "8")
    assert "This line is inside the timed region from line 7 to line 9" in inner.stdout
    assert "`agent.act(x)`" in inner.stdout
    # a line outside any region says where the regions end
    outer = _why(tmp_path, "bench.py", UNSEEN, "5")
    assert "No timed region ends at line 5" in outer.stdout
    assert "Timed regions in this file end at line 9." in outer.stdout


def test_why_quiet_says_what_waits_and_what_silences(tmp_path: Path) -> None:
    proc = _why(tmp_path, "bench.py", SYNCED, "11")
    assert proc.returncode == 1
    assert ("The timed region from line 8 to line 11: its JAX work is waited for before the "
            "clock is read, by the sync at line 10.") in proc.stdout
    silenced = _why(tmp_path, "bench.py", SYNCED, "15")
    assert "JAX101 (timer stops before JAX work finishes: `y` is still being computed" \
        in silenced.stdout
    assert "the `# noqa` comment on this line silences it" in silenced.stdout
    # the same region without its noqa, with the rule left out on the command line
    unselected = _why(tmp_path, "bench.py", SYNCED.replace("  # noqa: JAX101", ""), "15",
                      "--ignore", "JAX101")
    assert "JAX101 (timer stops" in unselected.stdout
    assert "the rule is not selected for this file" in unselected.stdout


def test_why_quiet_for_a_file_never_analysed(tmp_path: Path) -> None:
    proc = _why(tmp_path, "plain.py", "import jax\nx = 1\nprint(x)\n", "2")
    assert proc.returncode == 1
    assert "jaxlint did not analyse this file: it reads no clock that jaxlint knows" \
        in proc.stdout
    # a module of a project that never imports jax and that no JAX value reaches
    (tmp_path / "pyproject.toml").write_text("")
    torch = "import time\nimport torch\nm = torch.nn.Linear(2, 2)\nt0 = time.time()\n" \
        "y = m(torch.ones(2))\nprint(time.time() - t0)\n"
    other = _why(tmp_path, "trainer.py", torch, "6")
    assert "jaxlint did not analyse this module: it never imports jax" in other.stdout


def test_why_quiet_in_a_notebook_with_a_broken_cell(tmp_path: Path) -> None:
    cells = [
        ("code", "import time\nimport jax, jax.numpy as jnp\nf = jax.jit(lambda x: x * 2)\n"
                 "x = jnp.ones(10)\n"),
        ("markdown", "Timing"),
        ("code", "t0 = time.time()\ny = f(x)\ny.block_until_ready()\n"
                 "print(time.time() - t0)\n"),
        ("code", "def broken(:\n"),
    ]
    nb = {"cells": [{"cell_type": kind, "metadata": {}, "source": src,
                     **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                    for kind, src in cells],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    proc = _why(tmp_path, "nb.ipynb", json.dumps(nb), "3:4")
    assert proc.returncode == 2  # the broken cell is an error of the run
    assert "nb.ipynb:cell 4:1:12: error: cannot parse" in proc.stderr
    assert proc.stdout.splitlines()[0] == "nb.ipynb:cell 3:4: no finding"
    assert ("The timed region from cell 3, line 1 to cell 3, line 4: its JAX work is waited "
            "for before the clock is read, by the sync at cell 3, line 3.") in proc.stdout
    asked = _why(tmp_path, "nb.ipynb", json.dumps(nb), "4:1")
    assert asked.returncode == 2 and asked.stdout == ""  # the cell asked about did not parse


def test_why_quiet_names_followed_calls_and_leaves_out_plain_methods(tmp_path: Path) -> None:
    text = """\
import time
import jax.numpy as jnp
from agents import make_agent

def prepare(x):
    return x

agent = make_agent()
times = []
x = jnp.ones(3)
t0 = time.perf_counter()
z = prepare(x)
y = agent.act(z)
times.append(time.perf_counter() - t0)
"""
    proc = _why(tmp_path, "bench.py", text, "14")
    assert "Calls in it that jaxlint followed and found to leave no JAX work running: " \
        "`prepare(x)` (line 12)." in proc.stdout
    assert "`agent.act(z)` (line 13: a method of an object whose class jaxlint does not " \
        "know)" in proc.stdout
    assert "times.append" not in proc.stdout  # a list's method is no call into unseen code


def test_why_quiet_a_method_inherited_from_another_package(tmp_path: Path) -> None:
    text = """\
import time
import jax
from workflows import BaseWorkflow


class Timed(BaseWorkflow):
    def learn(self, state):
        t0 = time.perf_counter()
        state = self.step(state)
        return time.perf_counter() - t0, state
"""
    proc = _why(tmp_path, "wf.py", text, "10")
    assert "`self.step(state)` (line 9: a method the object's class inherits from a class " \
        "jaxlint does not know)" in proc.stdout


def test_why_quiet_names_the_projects_own_functions_it_summarised(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "models.py").write_text("import jax.numpy as jnp\n\n\nclass Model:\n"
                                        "    def load(self, n):\n        return [n]\n")
    text = """\
import time
import jax
from models import Model
from elsewhere import Engine

model = Model()
engine = Engine()
t0 = time.perf_counter()
model.load(3)
engine.warm(model)
t1 = time.perf_counter()
print(t1 - t0)
"""
    proc = _why(tmp_path, "run.py", text, "11")
    assert "`model.load(3)` (line 9: `models.Model.load`, of this project)" in proc.stdout
    assert "`engine.warm(model)` (line 10: a method of an object whose class jaxlint does " \
        "not know)" in proc.stdout


def test_why_quiet_names_the_calls_of_a_magics_statement(tmp_path: Path) -> None:
    cells = [("code", "import jax.numpy as jnp\nfrom emulators import load\nem = load()\n"
                      "x = jnp.ones(3)\n"),
             ("code", "%timeit em.predict(x)\n")]
    nb = {"cells": [{"cell_type": kind, "metadata": {}, "source": src, "outputs": [],
                     "execution_count": None} for kind, src in cells],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    proc = _why(tmp_path, "nb.ipynb", json.dumps(nb), "2:1")
    assert "The benchmark harness `%timeit em.predict(x)`: jaxlint sees no JAX work in what " \
        "it runs." in proc.stdout
    assert "`em.predict(x)` (in the timed statement: a method of an object whose class " \
        "jaxlint does not know)" in proc.stdout


def test_why_quiet_a_harness_whose_runs_wait(tmp_path: Path) -> None:
    text = SYNCED + "import timeit\nprint(timeit.timeit(lambda: f(x).block_until_ready(), " \
        "number=3))\n"
    proc = _why(tmp_path, "bench.py", text, "18")
    assert proc.stdout.splitlines()[1] == (
        "    The benchmark harness `timeit.timeit(lambda: f(x).block_until_ready(), number=3)`: "
        "each run waits for the JAX work it dispatches before it ends.")


def test_explain_a_finding_names_the_calls_a_wait_could_hide_in(tmp_path: Path) -> None:
    text = """\
import time
import jax
import jax.numpy as jnp
from tracking import Recorder

f = jax.jit(lambda x: x + 1)
x = jnp.ones(3)
rec = Recorder()
t0 = time.perf_counter()
y = f(x)
rec.record(y)
t1 = time.perf_counter()
print(t1 - t0)
"""
    proc = _why(tmp_path, "bench.py", text, "12")
    assert proc.returncode == 0
    assert proc.stdout.splitlines()[0].startswith("bench.py:12:6: JAX101 ")
    assert ("Calls after that work that jaxlint could not see into (if one of them waits for "
            "it, by a sync or a copy to the host, the timing is right): `rec.record(y)` (line "
            "11: a method of an object whose class jaxlint does not know).") in proc.stdout


def test_why_quiet_a_namespace_package_is_of_the_project(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text("")
    (tmp_path / "trainer").mkdir()  # no __init__.py: a namespace package
    (tmp_path / "trainer" / "logs.py").write_text(
        "import jax\n\n\nclass Logger:\n    def log(self, n):\n        return [n]\n")
    text = """\
import time
import jax
from trainer.logs import Logger

logger = Logger()
t0 = time.perf_counter()
logger.log(3)
t1 = time.perf_counter()
print(t1 - t0)
"""
    proc = _why(tmp_path, "run.py", text, "8")
    assert "`logger.log(3)` (line 7: `trainer.logs.Logger.log`, of this project)" in proc.stdout


def test_why_quiet_a_region_started_in_the_loops_earlier_round(tmp_path: Path) -> None:
    text = """\
import time
import jax
from lib import step
t0 = time.perf_counter()
for i in range(10):
    y = step(i)
    t1 = time.perf_counter()
    print(t1 - t0)
    t0 = time.perf_counter()
"""
    proc = _why(tmp_path, "loop.py", text, "7")
    assert "The timed region from line 4 (or 9, read in the loop's earlier round) to line 7: " \
        in proc.stdout
    assert "`step(i)` (line 6: `lib.step` is outside this project" in proc.stdout


def test_why_quiet_a_time_magic_of_a_first_call(tmp_path: Path) -> None:
    cells = [("code", "import jax, jax.numpy as jnp\nf = jax.jit(lambda x: x * 2)\n"
                      "x = jnp.ones(8)\n"),
             ("code", "%%time\ny = f(x)\ny.block_until_ready()\n")]
    nb = {"cells": [{"cell_type": kind, "metadata": {}, "source": src, "outputs": [],
                     "execution_count": None} for kind, src in cells],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    proc = _why(tmp_path, "nb.ipynb", json.dumps(nb), "2:1")
    assert "The benchmark harness `%%time`: each run waits for the JAX work it dispatches " \
        "before it ends." in proc.stdout
    assert "`f(x)` compiles in its first timed run (a jitted function's first call); jaxlint " \
        "reports that only where the figure holds that run and the code measures speed" \
        in proc.stdout


def test_why_quiet_a_file_skipped_whole(tmp_path: Path) -> None:
    text = "# flake8: noqa\n" + SYNCED.replace("  # noqa: JAX101", "")
    proc = _why(tmp_path, "bench.py", text, "16")
    assert "JAX101 (timer stops before JAX work finishes" in proc.stdout
    assert "is not reported: the file has a line that skips it whole (`# flake8: noqa`)." \
        in proc.stdout


def test_explain_refuses_a_folder_and_line_zero_and_says_a_line_is_past_the_end(
        tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(UNSEEN)
    folder = run(sys.executable, "-m", "jaxlint", "--explain", ".:3", cwd=tmp_path)
    assert folder.returncode == 2
    assert "--explain takes a file, not a folder: '.'" in folder.stderr
    zero = run(sys.executable, "-m", "jaxlint", "--explain", "bench.py:0", cwd=tmp_path)
    assert zero.returncode == 2
    assert "--explain counts lines (and a notebook's cells) from 1" in zero.stderr
    past = _why(tmp_path, "bench.py", UNSEEN, "99")
    assert past.returncode == 1
    assert past.stdout.splitlines()[1:] == ["    The file has 10 lines."]


def test_why_quiet_a_bug_in_the_answer_is_one_line_not_a_traceback(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import jaxlint.quiet

    def broken(*args: object) -> list[str]:
        raise ValueError("boom")

    monkeypatch.setattr(jaxlint.quiet, "_judged", broken)
    proc = _why(tmp_path, "bench.py", UNSEEN, "9")
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[1:] == [
        "    (why not could not be told: internal error (ValueError: boom); please report it)"]
