"""A live session's new cell, linted in the context of the cells run so far (jaxlint.session).

What a user sees is what is new when a cell runs: its own findings, and those its calls
expose in helpers earlier cells defined; nothing already shown. The context earlier cells
give is cut down to what the new cell depends on; the check that this changes nothing is
that every cell of the project's notebooks gets the findings the whole notebook's lint gives
it when the notebook is read up to that cell.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from jaxlint.notebook import build, lint_virtual
from jaxlint.session import WHOLE, Session
from jaxlint.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
PATH = "<session>.ipynb"

SETUP = """\
import time
import jax
import jax.numpy as jnp

@jax.jit
def step(x):
    return jnp.tanh(x @ x)

x = jnp.ones((512, 512))
"""
WARM = "step(x).block_until_ready()\n"
UNSYNCED = """\
t0 = time.perf_counter()
y = step(x)
t1 = time.perf_counter()
print(t1 - t0)
"""
SYNCED = UNSYNCED.replace("y = step(x)", "y = step(x).block_until_ready()")
FILLER = "z = jnp.zeros(3)\n"


def run(*cells: str, settings: Settings | None = None) -> list[list[tuple[int | None, int, str]]]:
    """Each cell's new findings as (cell, line, code), cells numbered from 1."""
    session = Session()
    out = []
    for source in cells:
        found = session.check(source, session.next_number(), settings or Settings(), PATH)
        out.append([(f.cell, f.line, f.code) for f in found])
    return out


def test_a_cell_gets_its_own_findings_and_its_twin_none() -> None:
    assert run(SETUP, WARM, UNSYNCED, SYNCED) == [[], [], [(3, 3, "JAX101")], []]


def test_what_was_shown_is_not_shown_again() -> None:
    shown = run(SETUP, WARM, UNSYNCED, FILLER, FILLER, UNSYNCED)
    assert shown[2] == [(3, 3, "JAX101")]
    assert shown[3] == shown[4] == []
    assert shown[5] == [(6, 3, "JAX101")]  # run again: a new cell, shown again


def test_a_helper_of_an_earlier_cell_judged_by_a_later_call() -> None:
    helper = ("def bench(f, a, n=3):\n    t0 = time.perf_counter()\n    for _ in range(n):\n"
              "        out = f(a)\n    return (time.perf_counter() - t0) / n\n")
    shown = run(SETUP, WARM, helper, FILLER, FILLER, FILLER, "bench(step, x)\n")
    assert shown[2] == []  # given nothing yet, it times no JAX work
    assert shown[-1] == [(3, 5, "JAX101")]  # its stop, in its own cell, under the call


def test_a_region_started_many_cells_before_the_stop() -> None:
    start = "t_all = time.perf_counter()\ny = step(x)\n"
    shown = run(SETUP, WARM, start, *[FILLER] * (WHOLE + 3),
                "print(time.perf_counter() - t_all)\n")
    assert shown[-1] == [(WHOLE + 7, 1, "JAX101")]


def test_warm_ups_in_old_cells_still_count() -> None:
    timed_first_call = "t0 = time.perf_counter()\ny = step(x).block_until_ready()\n" \
                       "print('step latency:', time.perf_counter() - t0)\n"
    cold = run(SETUP, *[FILLER] * (WHOLE + 2), timed_first_call)
    assert cold[-1] == [(WHOLE + 4, 2, "JAX105")]
    for warm_up in (WARM, "%timeit step(x).block_until_ready()\n",
                    "for _ in range(3):\n    step(x).block_until_ready()\n"):
        warm = run(SETUP, warm_up, *[FILLER] * (WHOLE + 2), timed_first_call)
        assert warm[-1] == [], warm_up


def test_magics_as_the_file_linter_reads_them() -> None:
    shown = run(SETUP, WARM, "%timeit step(x)\n", "%timeit step(x).block_until_ready()\n",
                "%%timeit\nstep(x)\n", "%%time\ny = step(x)\n",
                "%%time\ny = step(x).block_until_ready()\n")
    assert shown[2:] == [[(3, 1, "JAX102")], [], [(5, 1, "JAX102")], [(6, 1, "JAX102")], []]


def test_a_magics_message_speaks_the_cells_code() -> None:
    """As in a saved notebook: the statement the magic times, as the cell writes it, not
    the string the module stands in for it with."""
    session = Session()
    for source in (SETUP, WARM, FILLER):
        session.check(source, session.next_number(), Settings(), PATH)
    found = session.check("%timeit -n 5 step(x)\n", session.next_number(), Settings(), PATH)
    assert [f.code for f in found] == ["JAX102"]
    assert "each run of `step(x)` returns" in found[0].message, found[0].message


def test_noqa_select_and_ignore() -> None:
    quiet = UNSYNCED.replace("t1 - t0)", "t1 - t0)  # noqa: JAX101").replace(
        "t1 = time.perf_counter()", "t1 = time.perf_counter()  # noqa: JAX101")
    assert run(SETUP, WARM, quiet)[-1] == []
    assert run(SETUP, WARM, UNSYNCED, settings=Settings(ignore=("JAX101",)))[-1] == []
    assert run(SETUP, WARM, UNSYNCED, settings=Settings(select=("JAX102",)))[-1] == []


def test_a_cell_that_does_not_parse_gets_nothing_and_the_session_goes_on() -> None:
    assert run(SETUP, WARM, "y = step(x\n", UNSYNCED) == [[], [], [], [(4, 3, "JAX101")]]


def test_cells_are_numbered_as_ipython_numbers_them() -> None:
    session = Session()
    session.add("x = 1\n", 1)
    session.add("%load_ext jaxlint\n", 2)
    assert session.next_number(5) == 5  # cells 3 and 4 ran before, not kept
    assert session.next_number(2) == 3  # not numbered in order: the next one
    found = session.check(SETUP + WARM + UNSYNCED.replace("\n", "\n", 1), 5, Settings(), PATH)
    assert {f.cell for f in found} == {5}


def test_the_context_does_not_grow_with_the_session() -> None:
    """What an older cell contributes is what the new one depends on: the module a new cell
    is linted in is the same size after 200 timing cells as after 20."""
    def context_lines(cells: int) -> int:
        session = Session()
        for k in range(cells):
            session.add([SETUP, WARM, UNSYNCED, SYNCED, FILLER][k % 5] if k else SETUP)
        new = session.add(UNSYNCED)
        return len(session.context(new)[0].lines)

    assert context_lines(200) == context_lines(20)


def _notebooks() -> list[Path]:
    return sorted(p for folder in ("tests/dev_sets", "tests/blind_synth", "tests/data")
                  for p in (ROOT / folder).rglob("*.ipynb") if ".fixed." not in p.name)


@pytest.mark.parametrize("path", _notebooks(), ids=lambda p: p.name)
def test_each_cell_as_the_whole_notebook_so_far_judges_it(path: Path) -> None:
    """The cut-down context gives each cell what linting every cell before it gives."""
    nb = json.loads(path.read_text(encoding="utf-8"))
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
               for c in nb["cells"] if c.get("cell_type") == "code"]
    session = Session()
    for n, source in enumerate(sources, 1):
        got = {(f.line, f.code) for f in session.check(source, n, Settings(), PATH)
               if f.cell == n}
        whole = build({"cells": [{"cell_type": "code", "source": s} for s in sources[:n]]},
                      PATH, strict=False)
        want = {(f.line, f.code) for f in lint_virtual(whole, PATH, Settings()) if f.cell == n}
        assert got == want, f"cell {n}"
