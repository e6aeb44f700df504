"""JAX106: a synced region whose start read finds the user's own work still running (a
warm-up left unsynced, an earlier round's work) is reported at the start, with the wrap of a
dropped warm-up as its fix; set-up work, another region's unsynced work and a warm-up before
a loop of timed rounds are not."""

from __future__ import annotations

from jaxlint import fix_source, lint_source

HEAD = """import time
import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((8, 8))
"""
WARM_UP = HEAD + """f(x)
t0 = time.perf_counter()
y = f(x)
y.block_until_ready()
print(time.perf_counter() - t0)
"""


def _codes(source: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_source(source, "bench.py")]


def test_an_unsynced_warm_up_is_reported_at_the_start_and_wrapped() -> None:
    [found] = lint_source(WARM_UP, "bench.py")
    assert (found.code, found.line, found.region) == ("JAX106", 8, (8, 11))
    assert found.message.startswith("work left running into the timed region: `f(x)` (line 7) "
                                    "is still running when the clock starts (line 8)")
    assert "the device runs work in order" in (found.explanation or "")
    fixed = fix_source(WARM_UP, "bench.py").source
    assert fixed == WARM_UP.replace("f(x)\nt0", "jax.block_until_ready(f(x))\nt0")
    assert lint_source(fixed, "bench.py") == []


def test_not_when_the_warm_up_was_synced_or_the_region_is_not() -> None:
    assert _codes(WARM_UP.replace("f(x)\nt0", "f(x).block_until_ready()\nt0")) == []
    # the region's own work left running: JAX101 says so, not JAX106
    unsynced = WARM_UP.replace("y.block_until_ready()\n", "")
    assert _codes(unsynced) == [("JAX101", 10)]


def test_set_up_work_before_the_start_is_not_reported() -> None:
    made = HEAD + """f(x).block_until_ready()
z = jax.random.normal(jax.random.PRNGKey(0), (8, 8))
t0 = time.perf_counter()
y = f(z)
y.block_until_ready()
print(time.perf_counter() - t0)
"""
    assert _codes(made) == []


def test_a_warm_up_before_a_loop_of_timed_rounds_is_not_reported() -> None:
    rounds = HEAD + """f(x)
times = []
for _ in range(5):
    t0 = time.perf_counter()
    f(x).block_until_ready()
    times.append(time.perf_counter() - t0)
print(min(times))
"""
    assert _codes(rounds) == []


def test_another_regions_unsynced_work_is_reported_once() -> None:
    two = HEAD + """f(x).block_until_ready()
t0 = time.perf_counter()
a = f(x)
print(time.perf_counter() - t0)
t1 = time.perf_counter()
b = f(x)
b.block_until_ready()
print(time.perf_counter() - t1)
"""
    assert _codes(two) == [("JAX101", 10)]


def test_a_region_naming_a_cold_run_is_not_reported() -> None:
    cold = WARM_UP.replace("print(time.perf_counter() - t0)", 'print("cold, first call:", '
                           "time.perf_counter() - t0)")
    assert _codes(cold) == []
