"""A start reading is forgotten only once no later code can read it (``analysis/liveness.py``):
regions whose readings have names of their own cost only their own work, and a reading that a
later statement, a later round of a loop or a closure may still read keeps its region."""

from __future__ import annotations

from jaxlint import lint_source

HEAD = """import time
import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((8, 8))
f(x).block_until_ready()
"""


def _found(body: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_source(HEAD + body, "case.py")]


def test_each_named_region_is_its_own() -> None:
    body = """t0 = time.perf_counter()
y0 = f(x)
y0.block_until_ready()
e0 = time.perf_counter() - t0
t1 = time.perf_counter()
y1 = f(x)
e1 = time.perf_counter() - t1
"""
    assert _found(body) == [(14, "JAX101")]


def test_a_total_over_named_regions_keeps_its_start() -> None:
    # t0 is read again at the end: the total contains y1, which nothing waited for
    body = """t0 = time.perf_counter()
y0 = f(x)
y0.block_until_ready()
e0 = time.perf_counter() - t0
t1 = time.perf_counter()
y1 = f(x)
y1.block_until_ready()
e1 = time.perf_counter() - t1
y2 = f(x)
total = time.perf_counter() - t0
"""
    assert _found(body) == [(17, "JAX101")]


def test_a_start_read_in_a_later_round_of_a_loop_stays() -> None:
    # t0's last mention comes before t1's region in the text, but the next round reads it
    body = """t0 = time.perf_counter()
for i in range(3):
    if i == 2:
        print(time.perf_counter() - t0)
    t1 = time.perf_counter()
    y = f(x)
    y.block_until_ready()
    print(time.perf_counter() - t1)
    z = f(x)
"""
    assert _found(body) == [(11, "JAX101")]


def test_a_start_a_closure_reads_stays() -> None:
    body = """t0 = time.perf_counter()
def report():
    return time.perf_counter() - t0
t1 = time.perf_counter()
y = f(x)
y.block_until_ready()
print(time.perf_counter() - t1)
z = f(x)
print(report())
"""
    assert [code for _, code in _found(body)] == ["JAX101"]


def _many_regions(n: int, unsynced: int) -> str:
    """``n`` regions with names of their own, each synced but ``unsynced``; every start
    reading printed at the end, so all of them stay live to the last line."""
    out = []
    for i in range(n):
        out += [f"t{i} = time.perf_counter()", f"y{i} = f(x)"]
        if i != unsynced:
            out.append(f"y{i}.block_until_ready()")
        out.append(f"e{i} = time.perf_counter() - t{i}")
    out.append(f"print({', '.join(f't{i}' for i in range(n))})")
    return "\n".join(out) + "\n"


def test_many_live_starts_each_stop_ends_its_own_region() -> None:
    # 20 starts held to the end: each stop read is subtracted from its own start at once,
    # so only that region ends there (the others are not asked), and a start read stored
    # under a name only ever subtracted from ends no region
    body = _many_regions(20, unsynced=7)
    stop = HEAD.count("\n") + 1 + body.splitlines().index("e7 = time.perf_counter() - t7")
    assert _found(body) == [(stop, "JAX101")]


def test_a_start_reading_also_used_as_a_stop_still_ends_its_region() -> None:
    # t12 is a start, and also the stop of ``t12 - t3``: that region holds z, dispatched
    # after the last sync before t12 and never waited for
    body = _many_regions(20, unsynced=-1).replace(
        "e11 = time.perf_counter() - t11\n", "e11 = time.perf_counter() - t11\nz = f(x)\n")
    stop = HEAD.count("\n") + 1 + body.splitlines().index("t12 = time.perf_counter()")
    assert _found(body) == [(stop, "JAX106")]  # z runs into t12's own region
    assert _found(body + "print(t12 - t3)\n") == [(stop, "JAX101")]
