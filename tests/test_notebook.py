"""Notebooks as Jupyter writes them (JSON, indent 1): linted per cell, fixed in place with only
the fixed cells' sources changed."""

from __future__ import annotations

import json
from pathlib import Path

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
