"""Notebooks as Jupyter writes them (JSON, indent 1): linted per cell, fixed in place with only
the fixed cells' sources changed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from helpers import jaxlint

from jaxlint.engine import Settings
from jaxlint.notebook import build, fix_notebook, lint_notebook, load


def code(source: str, outputs: list[object] | None = None) -> dict[str, object]:
    lines = source.splitlines(keepends=True)
    return {"cell_type": "code", "execution_count": None, "id": f"c{len(source)}",
            "metadata": {"tags": ["bench"]}, "outputs": outputs or [], "source": lines}


def notebook(*cells: dict[str, object]) -> bytes:
    nb = {"cells": list(cells),
          "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python",
                                      "name": "python3"}},
          "nbformat": 4, "nbformat_minor": 5}
    return (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode()


SETUP = code("import time\nimport jax\nimport jax.numpy as jnp\n\n"
             "f = jax.jit(lambda m: m @ m.T)\nx = jnp.ones((256, 256))\n"
             "f(x).block_until_ready()")
MARKDOWN = {"cell_type": "markdown", "id": "md", "metadata": {}, "source": ["# Timing é\n"]}
OUTPUT = {"name": "stdout", "output_type": "stream", "text": ["0.1 ms\n"]}


def test_magics_and_cross_cell_region_reported_per_cell() -> None:
    data = notebook(
        MARKDOWN, SETUP,
        code("%timeit f(x)", [OUTPUT]),
        code("%%timeit -n 5\nf(x)"),
        code("!nvidia-smi\n%matplotlib inline\nt0 = time.perf_counter()\ny = f(x)"),
        code("f?\nprint(time.perf_counter() - t0)"),
        code("%timeit f(x).block_until_ready()\n%time jax.block_until_ready(f(x))"),
    )
    found = [(f.cell, f.line, f.code) for f in lint_notebook(data, "nb.ipynb", Settings())]
    assert found == [(3, 1, "JAX102"), (4, 1, "JAX102"), (6, 2, "JAX101")]


def test_a_time_cell_of_a_first_call_announced_as_the_compilation_has_no_jax102() -> None:
    # ``%time`` of a first call returns once the function has compiled: a cell that
    # announces the compilation measures it (no JAX102); the same call announced as the
    # function's time is reported. A ``%%time`` whose only wait is a host copy keeps its
    # JAX104 (README: measured both ways).
    fresh = code("import jax\nimport jax.numpy as jnp\nimport numpy as np\n\n"
                 "g = jax.jit(lambda m: m @ m.T)\nh = jax.jit(jnp.tanh)\n"
                 "x = jnp.ones((256, 256))")
    data = notebook(
        fresh,
        code("# the first call compiles g\nprint(\"jit compilation:\")\n%time _ = g(x)"),
        code("print(\"jitted:\")\n%time _ = h(x)"),
        code("%%time\ny = g(x)\nprint(np.asarray(y)[0, 0])"),
    )
    found = [(f.cell, f.line, f.code) for f in lint_notebook(data, "nb.ipynb", Settings())]
    assert found == [(3, 2, "JAX102"), (4, 1, "JAX104")]


def test_a_time_cell_of_a_loop_then_one_copy_waits_by_the_copy() -> None:
    # A ``%%time`` cell of training steps closed by printing the last loss waits for them
    # only by that copy: JAX104, as a region's copy after its loop is. A copy made on
    # every round (a progress print in the loop, or in a function the loop calls) is part
    # of the work timed: the cell is synced.
    setup = code("import jax\nimport jax.numpy as jnp\n\n"
                 "update = jax.jit(lambda w: (w * 0.9, jnp.sum(w)))\n"
                 "w = jnp.ones((512, 512))\nw, loss = update(w)\njax.block_until_ready(w)\n\n"
                 "def logged(w):\n    for _ in range(10):\n        w, loss = update(w)\n"
                 "        print(float(loss))\n    return w")
    data = notebook(
        setup,
        code("%%time\nfor step in range(100):\n    w, loss = update(w)\nprint(f\"loss={loss}\")"),
        code("%%time\nfor step in range(100):\n    w, loss = update(w)\n"
             "    print(f\"loss={loss}\")"),
        code("%%time\nw = logged(w)"),
        code("%%time\nfor step in range(100):\n    w, loss = update(w)\n"
             "jax.block_until_ready(w)\nprint(f\"loss={loss}\")"),
    )
    found = [(f.cell, f.line, f.code) for f in lint_notebook(data, "nb.ipynb", Settings())]
    assert found == [(2, 1, "JAX104")]


def test_timeit_with_a_loop_count_reports_the_first_run_compile() -> None:
    # ``-n`` fixes the loop count: IPython makes no calibration runs, so the first timed
    # run compiles a jitted function nothing called before, and the figure holds it.
    # Without ``-n`` the calibration runs absorb the compile; after a warm-up nothing
    # compiles either way.
    fresh = code("import jax\nimport jax.numpy as jnp\n\n"
                 "g = jax.jit(lambda m: m @ m.T)\nh = jax.jit(jnp.tanh)\n"
                 "k = jax.jit(jnp.exp)\nx = jnp.ones((256, 256))")
    data = notebook(
        fresh,
        code("%timeit -n 100 -r 3 g(x).block_until_ready()"),
        code("%%timeit -qn10\nh(x).block_until_ready()"),
        code("%timeit k(x).block_until_ready()"),
        code("%timeit -n 100 k(x).block_until_ready()"),
    )
    found = [(f.cell, f.line, f.code, f.message.split(",")[0])
             for f in lint_notebook(data, "nb.ipynb", Settings())]
    assert found == [
        (2, 1, "JAX105", "the first run of `g(x).block_until_ready()` is the first "
                  "call of jitted `g`"),
        (3, 1, "JAX105", "the first run of `h(x).block_until_ready()` is the first "
                  "call of jitted `h`"),
    ]


def test_timeit_of_a_lambda_expression_times_no_work_and_has_no_fix(tmp_path: Path) -> None:
    # ``%timeit lambda: ...`` runs its statement, which only makes a function: the jitted
    # call in its body never runs, though it is synced. Passing it as timeit's callable
    # (``timeit.timeit(lambda: ...)``) calls it, and is fine.
    path = tmp_path / "bench.ipynb"
    path.write_bytes(notebook(
        SETUP, code("%timeit -n 1 -r 3 lambda: f(x).block_until_ready()"),
        code("import timeit\ntimeit.timeit(lambda: f(x).block_until_ready(), number=3)")))
    result = jaxlint("--no-cache", "bench.ipynb", cwd=tmp_path)
    assert result.returncode == 1, result.stderr
    assert result.stdout == (
        "bench.ipynb:cell 2:1:1: JAX102 benchmark harness times no JAX work: each run of "
        "`lambda: f(x).block_until_ready()` only makes a function and never calls it; time "
        "the call itself (without `lambda:`)\n")
    before = path.read_bytes()
    assert jaxlint("--no-cache", "--fix", "bench.ipynb", cwd=tmp_path).returncode == 1
    assert path.read_bytes() == before


def test_cli_prints_cell_positions(tmp_path: Path) -> None:
    (tmp_path / "bench.ipynb").write_bytes(notebook(SETUP, code("%timeit f(x)")))
    result = jaxlint(".", cwd=tmp_path)
    assert result.returncode == 1
    assert result.stdout.startswith("bench.ipynb:cell 2:1:1: JAX102 ")
    rows = json.loads(jaxlint("--format", "json", ".", cwd=tmp_path).stdout)
    assert (rows[0]["cell"], rows[0]["line"]) == (2, 1)


def test_fix_changes_only_the_fixed_cells(tmp_path: Path) -> None:
    before = notebook(
        MARKDOWN, SETUP,
        code("%timeit -n 3 f(x)", [OUTPUT]),
        code("t0 = time.perf_counter()\ny = f(x)\n!echo hi"),
        code("print(time.perf_counter() - t0)"),
        code("%%timeit\nf(x)"),
    )
    path = tmp_path / "bench.ipynb"
    path.write_bytes(before)
    result = jaxlint("--fix", "bench.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    after = path.read_bytes()
    old_nb, new_nb = json.loads(before), json.loads(after)
    assert [c["source"] for c in new_nb["cells"]] == [
        old_nb["cells"][0]["source"],
        old_nb["cells"][1]["source"],
        ["%timeit -n 3 jax.block_until_ready(f(x))"],
        ["t0 = time.perf_counter()\n", "y = f(x)\n", "!echo hi"],
        ["jax.block_until_ready(y)\n", "print(time.perf_counter() - t0)"],
        ["%%timeit\n", "jax.block_until_ready(f(x))"],
    ]
    # every other byte is as it was: outputs, metadata, ids, key order, indentation
    for cell in (*old_nb["cells"], *new_nb["cells"]):
        cell["source"] = []
    assert old_nb == new_nb
    assert list(new_nb) == list(old_nb)
    changed = [line for line in after.decode().splitlines()
               if line not in before.decode().splitlines()]
    assert all("block_until_ready" in line for line in changed), changed
    assert jaxlint("bench.ipynb", cwd=tmp_path).returncode == 0
    again = jaxlint("--fix", "bench.ipynb", cwd=tmp_path)
    assert again.returncode == 0 and path.read_bytes() == after


def test_fix_of_a_notebook_on_stdin_is_what_fix_writes(tmp_path: Path) -> None:
    # An editor pipes the notebook's JSON with --fix --stdin-filename: it gets back what
    # ``jaxlint --fix`` writes to the file, and the findings left on stderr (issue 26: it
    # got the notebook back unchanged, no finding and exit 0).
    data = notebook(SETUP, code("%timeit f(x)"),
                    code("t0 = time.perf_counter()\ny = f(x)\n"
                         "while time.perf_counter() - t0 < 1:\n    y = f(y)"))
    path = tmp_path / "bench.ipynb"
    path.write_bytes(data)
    piped = jaxlint("--fix", "--stdin-filename", "bench.ipynb", "-", cwd=tmp_path,
                    input=data.decode())
    assert jaxlint("--fix", "bench.ipynb", cwd=tmp_path).returncode == 0
    assert piped.stdout == path.read_text() != data.decode()
    assert "jax.block_until_ready(f(x))" in piped.stdout
    assert piped.returncode == 0, piped.stderr
    # a notebook that cannot be read is one error line, and the buffer comes back as it was
    broken = jaxlint("--fix", "--stdin-filename", "bench.ipynb", "-", cwd=tmp_path,
                     input='{"cells": [')
    assert broken.returncode == 2 and broken.stdout == '{"cells": ['
    assert broken.stderr.startswith("bench.ipynb: error: ")


def test_fix_adds_import_jax_to_first_code_cell() -> None:
    data = notebook(MARKDOWN, code("import time\nimport jax.numpy as jnp\nx = jnp.ones(3)"),
                    code("t0 = time.perf_counter()\ny = jnp.sin(x)\n"
                         "print(time.perf_counter() - t0)"))
    result = fix_notebook(data, "nb.ipynb", False, Settings())
    cells = json.loads(result.source)["cells"]
    assert "import jax\n" in cells[1]["source"]
    assert cells[2]["source"][2] == "jax.block_until_ready(y)\n"
    assert result.remaining == []


def test_notebook_that_cannot_be_rewritten_exactly_is_left_alone(tmp_path: Path) -> None:
    data = notebook(SETUP, code("%timeit f(x)")).decode()
    odd = data.replace('\n "metadata"', '\n    "metadata"')  # hand-edited indentation
    path = tmp_path / "odd.ipynb"
    path.write_text(odd)
    result = jaxlint("--fix", "odd.ipynb", cwd=tmp_path)
    assert result.returncode == 2
    assert "cannot rewrite this notebook without reformatting" in result.stderr
    assert path.read_text() == odd


def test_bad_notebooks_are_one_line_errors(tmp_path: Path) -> None:
    # Both name jax and read a clock, so the prefilter lets them through to be parsed.
    (tmp_path / "a.ipynb").write_text("{not json import jax, time; time.time()")
    (tmp_path / "b.ipynb").write_text('{"jax": "import time; time.time()", "nbformat": 4}')
    (tmp_path / "c.py").write_text("import time\nimport jax.numpy as jnp\nt0 = time.time()\n"
                                   "y = jnp.ones(3) * 2\nprint(time.time() - t0)\n")
    result = jaxlint(".", cwd=tmp_path)
    assert result.returncode == 2
    errors = result.stderr.splitlines()
    assert any(e.startswith("a.ipynb: error: invalid notebook JSON") for e in errors)
    assert any(e.startswith("b.ipynb: error: not a Jupyter notebook") for e in errors)
    assert "c.py:5:7: JAX101" in result.stdout


def test_virtual_module_masks_ipython_syntax() -> None:
    nb = load(notebook(code("!pip list\n%load_ext autoreload\nx = 1\nx?\n??x"),
                       code("%%bash\necho jax time")), "nb.ipynb")
    virtual = build(nb, "nb.ipynb")
    compile(virtual.text, "virtual", "exec")
    assert "x = 1\n" in virtual.text and "echo" not in virtual.text


# ------------------------------------------------------------ notebooks as IPython runs them
DATA = Path(__file__).parent / "data" / "notebooks"
FIXTURES = sorted(p for p in DATA.glob("*.ipynb") if not p.name.endswith(".fixed.ipynb"))


@pytest.mark.parametrize("fixture", FIXTURES, ids=lambda p: p.stem)
def test_notebook_fixture(fixture: Path, tmp_path: Path, request: pytest.FixtureRequest) -> None:
    """Each fixture lists its findings (``cell N:line:col: CODE``) in its metadata; its
    ``.fixed.ipynb`` twin is what ``--fix`` makes of it, byte for byte."""
    expected = json.loads(fixture.read_bytes())["metadata"]["jaxlint"]["expect"]
    rows = json.loads(jaxlint("--no-cache", "--format", "json", str(fixture)).stdout)
    assert [f"cell {r['cell']}:{r['line']}:{r['col']}: {r['code']}" for r in rows] == expected
    path = tmp_path / fixture.name
    path.write_bytes(fixture.read_bytes())
    result = jaxlint("--no-cache", "--fix", fixture.name, cwd=tmp_path)
    assert "error" not in result.stderr, result.stderr
    twin = fixture.with_name(fixture.stem + ".fixed.ipynb")
    if request.config.getoption("--update-fixtures"):
        twin.write_bytes(path.read_bytes())
    assert path.read_bytes() == twin.read_bytes()
    left = json.loads(jaxlint("--no-cache", "--format", "json", fixture.name, cwd=tmp_path).stdout)
    assert not [r for r in left if r["fixable"]], left
    fixed = path.read_bytes()
    jaxlint("--no-cache", "--fix", fixture.name, cwd=tmp_path)
    assert path.read_bytes() == fixed  # a fixed point


def _sources(data: bytes) -> list[str]:
    return ["".join(c["source"]) for c in json.loads(data)["cells"]]


def test_marker_like_comments_neither_move_nor_crash_the_fix(tmp_path: Path) -> None:
    # Comments spelling the markers older versions put in the joined module.
    cells = ["# jaxlint: cell 3\nimport time\nimport jax.numpy as jnp\nx = jnp.ones(8)",
             "# jaxlint: masked 7\nx = x + 1  # jaxlint: magic 0\n%matplotlib inline",
             "t0 = time.perf_counter()\ny = jnp.sin(x)\nprint(time.perf_counter() - t0)",
             "# jaxlint: cell 1\nprint('unchanged')"]
    path = tmp_path / "nb.ipynb"
    path.write_bytes(notebook(*(code(c) for c in cells)))
    result = jaxlint("--no-cache", "--fix", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    after = _sources(path.read_bytes())
    assert after[1:] == [cells[1], "t0 = time.perf_counter()\ny = jnp.sin(x)\n"
                         "jax.block_until_ready(y)\nprint(time.perf_counter() - t0)", cells[3]]
    lines = after[0].split("\n")
    lines.remove("import jax")
    assert "\n".join(lines) == cells[0]


def test_fix_refused_when_a_cell_without_a_fixed_finding_would_change(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import jaxlint.notebook as nbmod

    data = notebook(SETUP, code("x2 = 1"), code("%timeit f(x)"))
    real = nbmod._restore

    def wrong(virtual, fixed):  # type: ignore[no-untyped-def]
        sources, import_cell, code = real(virtual, fixed)
        return {**sources, 2: "x2 = 2"}, import_cell, code

    monkeypatch.setattr(nbmod, "_restore", wrong)
    with pytest.raises(nbmod.NotebookError, match="would change cell 2, which holds no fixed"):
        fix_notebook(data, "nb.ipynb", False, Settings())

    def broken(virtual, fixed):  # type: ignore[no-untyped-def]
        sources, import_cell, code = real(virtual, fixed)
        return {3: "%timeit jax.block_until_ready(f(x)"}, import_cell, code

    monkeypatch.setattr(nbmod, "_restore", broken)
    with pytest.raises(nbmod.NotebookError, match="cell 3 would not parse|magic times in cell 3"):
        fix_notebook(data, "nb.ipynb", False, Settings())

    def unmagicked(virtual, fixed):  # type: ignore[no-untyped-def]
        sources, import_cell, code = real(virtual, fixed)
        return {3: "timeit.timeit(f(x))"}, import_cell, code

    monkeypatch.setattr(nbmod, "_restore", unmagicked)
    with pytest.raises(nbmod.NotebookError, match="IPython syntax of cell 3"):
        fix_notebook(data, "nb.ipynb", False, Settings())

    def reordered(virtual, fixed):  # type: ignore[no-untyped-def]
        sources, import_cell, code = real(virtual, fixed)
        return sources, import_cell, (code[0][::-1], code[1])

    monkeypatch.setattr(nbmod, "_restore", reordered)
    with pytest.raises(nbmod.NotebookError, match="would not run the fixed code in its order"):
        fix_notebook(data, "nb.ipynb", False, Settings())


def test_u2028_and_form_feed_are_kept_byte_for_byte(tmp_path: Path) -> None:
    odd = 's = "line\u2028separator"\n\x0c\nprint(s)'
    path = tmp_path / "nb.ipynb"
    path.write_bytes(notebook(SETUP, code(odd), code("%timeit f(x)")))
    assert jaxlint("--no-cache", "nb.ipynb", cwd=tmp_path).stdout.startswith(
        "nb.ipynb:cell 3:1:1: JAX102")
    result = jaxlint("--no-cache", "--fix", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _sources(path.read_bytes())[1:] == [odd, "%timeit jax.block_until_ready(f(x))"]


BAD_NOTEBOOKS = {
    "deep.ipynb": ('{"cells": ' + "[" * 100_000 + "]" * 100_000
                   + ', "metadata": {"note": "import jax, time; time.time()"}}',
                   "invalid notebook JSON: nested too deeply"),
    "number.ipynb": ({"cell_type": "code", "source": 42}, "cell 2: source is not text"),
    "null.ipynb": ({"cell_type": "code", "source": None}, "cell 2: source is not text"),
    "mixed.ipynb": ({"cell_type": "code", "source": ["x = 1\n", 2]},
                    "cell 2: source is not text"),
    "surrogate.ipynb": ({"cell_type": "code", "source": ["a = 1\n", "s = '\ud800'\n"]},
                        "cell 2, line 2: lone surrogate U+D800"),
}


BROKEN_CELL_NOTEBOOK = {
    "cells": [
        {"cell_type": "code", "source": "import time\nimport jax\nimport jax.numpy as jnp\n"
                                        "f = jax.jit(lambda x: x @ x)\nx = jnp.ones((8, 8))\n"
                                        "f(x).block_until_ready()"},
        {"cell_type": "markdown", "source": "Exercise: fill in the blanks."},
        {"cell_type": "code", "source": "def loss(w):\n    return ____ (w\n"},
        {"cell_type": "code", "source": "2)"},
        {"cell_type": "code", "source": "t0 = time.perf_counter()\ny = f(x)\n"
                                        "print(time.perf_counter() - t0)"},
    ],
    "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
}


def test_cells_that_do_not_parse_are_one_error_line_each_and_the_rest_is_linted(
        tmp_path: Path) -> None:
    """An exercise notebook left with blanks (and a cell that closes a bracket another left
    open: IPython compiles each cell alone): each such cell is one error line, and every
    cell that parses is still linted (as ruff does). ``--fix`` leaves such a notebook as it
    is, with the same error lines: every cell must parse for a fix to be checked."""
    path = tmp_path / "exercise.ipynb"
    text = json.dumps(BROKEN_CELL_NOTEBOOK, indent=1)
    path.write_text(text)
    result = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 2
    errors = [e for e in result.stderr.splitlines() if ": error: " in e]
    # placed like findings: the cell, the line and column in it
    assert errors == ["exercise.ipynb:cell 3:2:17: error: cannot parse: '(' was never closed",
                      "exercise.ipynb:cell 4:1:2: error: cannot parse: unmatched ')'"], errors
    assert result.stdout.startswith("exercise.ipynb:cell 5:3:7: JAX101 "), result.stdout
    fixed = jaxlint("--no-cache", "--fix", ".", cwd=tmp_path)
    assert fixed.returncode == 2 and "cell 3:2:17: error: cannot parse" in fixed.stderr
    assert path.read_text() == text


@pytest.mark.parametrize("name", sorted(BAD_NOTEBOOKS))
def test_bad_notebook_is_one_error_line_and_the_run_goes_on(name: str, tmp_path: Path) -> None:
    content, message = BAD_NOTEBOOKS[name]
    if isinstance(content, dict):  # a cell after a first good one (and one that closes
        # the bracket a cell leaves open: IPython compiles each cell alone)
        cells = [{"cell_type": "code", "source": "import jax, time\nt = time.time()"}, content,
                 {"cell_type": "code", "source": "2)"}]
        content = json.dumps({"cells": cells, "metadata": {}, "nbformat": 4})
    (tmp_path / name).write_text(content)
    (tmp_path / "good.py").write_text("import time\nimport jax.numpy as jnp\nt0 = time.time()\n"
                                      "y = jnp.ones(3) * 2\nprint(time.time() - t0)\n")
    for args in ((), ("--fix",)):
        result = jaxlint("--no-cache", *args, ".", cwd=tmp_path)
        assert "Traceback" not in result.stderr, result.stderr[-2000:]
        errors = [e for e in result.stderr.splitlines() if ": error: " in e]
        assert errors == [f"{name}: error: {errors[0].split(': error: ', 1)[1]}"], errors
        assert message in errors[0], errors
        assert result.returncode == 2
        assert "good.py:5:7: JAX101" in result.stdout or args
    assert (tmp_path / name).read_text() == content


def test_time_magic_inside_a_timed_region_does_not_crash(tmp_path: Path) -> None:
    # The statement %time runs is analysed as a string; a finding inside it has no place
    # in the file (this crashed the engine, for timeit.timeit("y = f(x)") in .py files too).
    path = tmp_path / "nb.ipynb"
    path.write_bytes(notebook(SETUP, code("t0 = time.perf_counter()\n%time y = f(x)\n"
                                          "print(time.perf_counter() - t0)")))
    result = jaxlint("--no-cache", "nb.ipynb", cwd=tmp_path)
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    assert [line.split(" ")[:2] for line in result.stdout.splitlines()] == [
        ["nb.ipynb:cell", "2:2:1:"], ["nb.ipynb:cell", "2:3:7:"]]
    (tmp_path / "t.py").write_text("import time, timeit, jax\nf = jax.jit(lambda m: m)\n"
                                   "x = jax.numpy.ones(3)\nf(x).block_until_ready()\n"
                                   "t0 = time.perf_counter()\n"
                                   "timeit.timeit('y = f(x)', globals=globals())\n"
                                   "print(time.perf_counter() - t0)\n")
    result = jaxlint("--no-cache", "t.py", cwd=tmp_path)
    assert result.returncode == 1 and "t.py:6:1: JAX102" in result.stdout, result.stderr[-2000:]


def test_generated_notebooks_lint_and_fix_cleanly() -> None:
    """Generated notebooks (tests/notebook_fuzz.py; scripts/fuzz.py runs many more): no
    crash, no refusal, no cell loses text, nothing fixable left, a second fix changes
    nothing."""
    hypothesis = pytest.importorskip("hypothesis")
    from notebook_fuzz import check_notebook, notebooks

    @hypothesis.settings(max_examples=25, deadline=None, database=None, derandomize=True,
                         suppress_health_check=list(hypothesis.HealthCheck))
    @hypothesis.given(notebooks(), hypothesis.strategies.booleans())
    def run(data: bytes, unsafe: bool) -> None:
        assert check_notebook(data, unsafe) == []

    run()


def test_unsafe_move_keeps_a_one_line_automagic_cell_one_line(tmp_path: Path) -> None:
    # JAX104 moves the host copy after the stop and syncs where it was; the sync belongs
    # in the copy's cell, not in the next cell that takes Python (``timeit f(x)`` must stay
    # one line, or IPython no longer reads it as %timeit).
    cells = ["import time\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n"
             "f = jnp.sin\nx = jnp.ones(8)",
             "t0 = time.perf_counter()\ny = f(x)",
             "z = np.asarray(y)\nf?",
             "timeit -n 1 sum(range(3))",
             "t1 = time.perf_counter()\nprint(t1 - t0)"]
    path = tmp_path / "nb.ipynb"
    path.write_bytes(notebook(*(code(c) for c in cells)))
    result = jaxlint("--no-cache", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _sources(path.read_bytes()) == [
        cells[0], cells[1], "jax.block_until_ready(y)\nf?", cells[3],
        "t1 = time.perf_counter()\nz = np.asarray(y)\nprint(t1 - t0)"]


def test_new_lines_keep_the_fixed_order_across_cells(tmp_path: Path) -> None:
    # JAX104 syncs where the copy was and moves the copy after the stop; read line by line,
    # the stop could look moved instead, and went into the cell before, ahead of the sync.
    cells = ["import time\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n"
             "f = jnp.sin\nx = jnp.ones(8)",
             "t0 = time.perf_counter()",
             "%%time\ny = f(x)",
             "z = np.asarray(y)\nprint(time.perf_counter() - t0)\nprint(z)"]
    path = tmp_path / "nb.ipynb"
    path.write_bytes(notebook(*(code(c) for c in cells)))
    result = jaxlint("--no-cache", "--fix", "--unsafe-fixes", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 1, result.stderr  # %%time's own JAX102 has no fix
    assert _sources(path.read_bytes()) == [
        *cells[:3], "jax.block_until_ready(y)\nprint(time.perf_counter() - t0)\n"
                    "z = np.asarray(y)\nprint(z)"]


def test_harness_string_with_a_comment_is_not_broken_by_the_fix(tmp_path: Path) -> None:
    # The notebook's %timeit f(x)  # note is fixed around the expression (fixtures); a .py
    # statement string with a comment gets no fix rather than a ")" inside the comment.
    (tmp_path / "t.py").write_text("import timeit\nimport jax\nf = jax.jit(lambda m: m)\n"
                                   "x = jax.numpy.ones(3)\n"
                                   "timeit.timeit('f(x)  # note', globals=globals())\n")
    before = (tmp_path / "t.py").read_text()
    result = jaxlint("--no-cache", "--fix", "t.py", cwd=tmp_path)
    assert result.returncode == 1 and "t.py:5:1: JAX102" in result.stdout, result.stderr
    assert (tmp_path / "t.py").read_text() == before


def test_time_cell_magic_is_fixed_in_its_body(tmp_path: Path) -> None:
    # %%time runs its body in the notebook: the fix wraps the body's expression in place.
    path = tmp_path / "nb.ipynb"
    path.write_bytes(notebook(SETUP, code("%%time\n# one call\nf(x)  # timed\n")))
    result = jaxlint("--no-cache", "--fix", "nb.ipynb", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert _sources(path.read_bytes())[1] == (
        "%%time\n# one call\njax.block_until_ready(f(x))  # timed\n")


def test_json_region_spans_cells(tmp_path: Path) -> None:
    """A region started in one cell and read in the next: the json ``region`` gives each
    end's cell and its line in that cell."""
    cells = [{"cell_type": "code", "source": "import time\nimport jax.numpy as jnp\n"
                                             "x = jnp.ones((64, 64))"},
             {"cell_type": "code", "source": "t0 = time.perf_counter()\ny = x @ x"},
             {"cell_type": "code", "source": "print(time.perf_counter() - t0)"}]
    (tmp_path / "nb.ipynb").write_text(json.dumps({"cells": cells, "metadata": {},
                                                   "nbformat": 4, "nbformat_minor": 5}))
    rows = json.loads(jaxlint("--no-cache", "--format", "json", "nb.ipynb", cwd=tmp_path).stdout)
    assert [(r["code"], r["cell"], r["line"]) for r in rows] == [("JAX101", 3, 1)]
    assert rows[0]["region"] == {"start": {"line": 1, "cell": 2}, "stop": {"line": 1, "cell": 3}}


@pytest.mark.parametrize(("line", "expected"), [
    ("get_ipython().run_line_magic('timeit', '-n 3 -r 2 f(x)')", ["JAX102"]),
    ("get_ipython().run_line_magic('timeit', '-n 3 -r 2 f(x).block_until_ready()')", []),
    ("get_ipython().run_line_magic('timeit', '-n3 lambda: f(x).block_until_ready()')",
     ["JAX102"]),
])
def test_an_exported_timeit_is_judged_after_its_options(line: str, expected: list[str]) -> None:
    # ``jupyter nbconvert --to script`` keeps the magic's options in its string
    from jaxlint import lint_source

    source = ("import jax\nimport jax.numpy as jnp\n\nf = jax.jit(lambda a: a @ a)\n"
              "x = jnp.ones((256, 256))\nf(x).block_until_ready()\n" + line + "  # noqa: F821\n")
    assert [f.code for f in lint_source(source, "exported.py")] == expected


@pytest.mark.parametrize("binding", [
    None, "timeit = None", "ｔｉｍｅｉｔ = None", "for timeit in range(3):\n    pass",
    "from timeit import timeit", "def timeit():\n    pass"])
def test_a_name_an_earlier_cell_binds_is_no_automagic(tmp_path: Path,
                                                     binding: str | None) -> None:
    """``timeit f(x)`` alone in a cell is IPython's automagic, unless an earlier cell binds
    the name (also spelt in full-width letters, which Python reads as the same name): then
    IPython hands the line to Python, which cannot parse it."""
    cells = [SETUP, *([code(binding)] if binding else []), code("timeit f(x)")]
    path = tmp_path / "nb.ipynb"
    path.write_bytes(notebook(*cells))
    out = jaxlint("--no-cache", str(path))
    last = len(cells)
    if binding is None:
        assert f"nb.ipynb:cell {last}:1:1: JAX102 " in out.stdout, out.stdout
    else:
        assert "JAX102" not in out.stdout, out.stdout
        assert f"nb.ipynb:cell {last}:1:8: error: cannot parse" in out.stdout + out.stderr
