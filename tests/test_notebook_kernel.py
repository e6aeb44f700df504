"""``%load_ext jaxlint`` in a real Jupyter kernel: a notebook built with nbformat, executed by
nbclient in an ipykernel of this interpreter, JAX on its CPU backend. Its mistaken cells show
a static and a ``[runtime]`` warning in their outputs; their correct twins show nothing."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")
pytest.importorskip("ipykernel")

pytestmark = pytest.mark.slow

KERNEL = "jaxlint-test"
SETUP = """\
import time
import jax
import jax.numpy as jnp

@jax.jit
def step(x):
    return jnp.tanh(x @ x)

x = jnp.ones((1536, 1536))
step(x).block_until_ready();
"""
UNSYNCED = "t0 = time.perf_counter()\ny = step(x)\nt1 = time.perf_counter()\nprint(t1 - t0)\n"
SYNCED = UNSYNCED.replace("y = step(x)", "y = jax.block_until_ready(step(x))")
TIMEIT = "%timeit -n 2 -r 2 step(x)"
TIMEIT_SYNCED = "%timeit -n 2 -r 2 jax.block_until_ready(step(x))"


def kernel_spec(root: Path) -> Path:
    """A kernel spec running ipykernel in this interpreter (this worktree's venv), whatever
    the machine's ``python3`` kernel is."""
    spec = root / "kernels" / KERNEL
    spec.mkdir(parents=True)
    (spec / "kernel.json").write_text(json.dumps({
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "jaxlint test", "language": "python",
        "env": {"JAX_PLATFORMS": "cpu"}}))
    return root


def text(cell: object) -> tuple[str, str]:
    """A cell's stdout and stderr, as the notebook shows them."""
    out = {"stdout": "", "stderr": ""}
    for o in cell.outputs:  # type: ignore[attr-defined]
        assert o.output_type == "stream", o  # no error, no display of ours
        out[o.name] += o.text
    return out["stdout"], out["stderr"]


def jaxlint_lines(stream: str) -> list[str]:
    return [line for line in stream.splitlines() if line.startswith("jaxlint: JAX")]


@pytest.fixture
def executed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> list[tuple[str, str]]:
    monkeypatch.setenv("JUPYTER_PATH", str(kernel_spec(tmp_path / "jupyter")))
    monkeypatch.setenv("JAX_PLATFORMS", "cpu")
    (tmp_path / "nb").mkdir()
    sources = ["import sys\nprint(sys.executable)", "%load_ext jaxlint", SETUP, UNSYNCED,
               SYNCED, TIMEIT, TIMEIT_SYNCED, "%jaxlint status"]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in sources])
    nb.metadata["kernelspec"] = {"name": KERNEL, "display_name": "jaxlint test",
                                 "language": "python"}
    client = nbclient.NotebookClient(nb, kernel_name=KERNEL, timeout=300,
                                     resources={"metadata": {"path": str(tmp_path / "nb")}})
    client.execute()
    nbformat.write(nb, str(tmp_path / "nb" / "executed.ipynb"))
    return [text(cell) for cell in nb.cells]


def test_mistaken_cells_warn_and_their_twins_do_not(executed: list[tuple[str, str]]) -> None:
    interpreter, load, setup, unsynced, synced, timeit, timeit_synced, status = executed
    assert interpreter == (sys.executable + "\n", "")
    assert load[1].startswith("jaxlint: checking JAX timings in each cell before it runs")
    assert jaxlint_lines(setup[1]) == []

    static, runtime = jaxlint_lines(unsynced[1])
    assert static == ("jaxlint: JAX101 line 3: timer stops before JAX work finishes: `y` is "
                      "still being computed; call jax.block_until_ready(y) before reading the "
                      "clock")
    assert runtime.startswith("jaxlint: JAX101 line 3: timer stops before JAX work finishes: "
                              "1 array still computing at the stop (")
    assert runtime.endswith("float32[1536,1536] held by `y`; call jax.block_until_ready(...) "
                            "on them before reading the clock [runtime]")
    assert float(unsynced[0]) >= 0  # the cell ran and printed what it measured
    assert "%jaxlint explain shows the evidence" in unsynced[1]

    assert synced[1] == "" and float(synced[0]) > 0

    static, runtime = jaxlint_lines(timeit[1])
    assert static.startswith("jaxlint: JAX102 line 1: benchmark harness times JAX work "
                             "without waiting for it")
    assert runtime.startswith("jaxlint: JAX101 line 1: timer stops before JAX work finishes: "
                              "1 array still computing at the stop (")
    assert runtime.endswith("[runtime]")
    assert "per loop (mean" in timeit[0]  # %timeit printed its result as usual

    assert timeit_synced[1] == "" and "per loop (mean" in timeit_synced[0]

    lines = status[1].splitlines()
    assert lines[0] == ("jaxlint: on: static and runtime checks; select all; ignore none; "
                        "configuration: none found (defaults)")
    assert lines[1].startswith("jaxlint: static: 6 cells checked, ")
    assert lines[2].startswith("jaxlint: runtime: ") and "clock reads checked)" in lines[2]
