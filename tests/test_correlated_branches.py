"""Two ``if`` statements with the same test take the same branch (README, "Which paths
count"): a sync under the second covers work dispatched under the first."""

from __future__ import annotations

import pytest

from jaxlint import lint_source

COMPARE = """\
import time

import jax
import numpy as np

f_jax = jax.jit(lambda a: a @ a)


def run(use_jax, x):
    t0 = time.perf_counter()
    if {test}:
        y = f_jax(x)
    else:
        y = np.dot(x, x)
    {between}
    if {test}:
        y.block_until_ready()
    return time.perf_counter() - t0
"""


@pytest.mark.parametrize("test", ["use_jax", "not use_jax", "use_jax == 'jax'",
                                  "use_jax and x is not None"])
def test_the_same_test_twice_takes_the_same_branch(test: str) -> None:
    # the JAX path waits under the second ``if``; the NumPy path has nothing to wait for
    source = COMPARE.format(test=test, between="print('ran')")
    assert lint_source(source, "compare.py") == []


@pytest.mark.parametrize("between", ["use_jax = False", "use_jax = flip(use_jax)",
                                     "for use_jax in (True, False): pass",
                                     "x, use_jax = x, None", "del use_jax"])
def test_a_test_changed_between_is_followed_both_ways(between: str) -> None:
    # the second test may answer otherwise: the JAX path that skips the wait is real
    found = lint_source(COMPARE.format(test="use_jax", between=between), "compare.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 18)], found


def test_a_call_given_the_tested_object_may_change_it() -> None:
    # ``pending.clear()`` may empty the list the test reads
    source = COMPARE.format(test="pending", between="pending.clear()").replace(
        "def run(use_jax, x):", "def run(pending, x):")
    found = lint_source(source, "compare.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 18)], found


FRAMES = """\
import time

import jax
import numpy as np

step = jax.jit(lambda a: a * 2)


def track(x, frames, pos):
    t = time.time()
    n = 0
    for frame in frames:
        if pos:
            x = step(x)
        show(frame)
        if pos:
            n += 1
            if time.time() - t > 5:
                print(n / (time.time() - t), "frames per second")
                t = time.time()
        if pos:
            np.asarray(x)
"""


def test_a_read_between_two_tests_of_a_flag_sees_its_own_path() -> None:
    # the stop read (line 19) is reached only when ``pos`` held: the step of that round is
    # running (the copy comes after the read), and so the read is flagged; without the
    # middle test the step is still judged the same way
    found = lint_source(FRAMES, "demo.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 19)], found


NESTED = """\
import time

import jax

f_jax = jax.jit(lambda a: a @ a)


def run(use_jax, x):
    t0 = time.perf_counter()
    if use_jax:
        y = f_jax(x)
    if use_jax:
        use_jax = False
        if use_jax:
            y.block_until_ready()
        print(time.perf_counter() - t0)
"""


def test_an_if_nested_after_the_test_changed_is_not_decided() -> None:
    # the inner ``if use_jax:`` follows ``use_jax = False``: it is not the block's own, and
    # never waits
    found = lint_source(NESTED, "compare.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 16)], found


CAREFUL_UPLOAD = """\
import time

import jax
import jax.numpy as jnp
import numpy as np

residuals = jax.jit(lambda p, x: x - p[0])


def fit(xdata, careful):
    st = time.time()
    if careful:
        x = jnp.asarray(np.copy(xdata)).block_until_ready()
    else:
        x = jnp.asarray(np.copy(xdata))
    upload = time.time() - st
    r = residuals(jnp.ones(2), x)
    if careful:
        return r, upload
    return r


print(fit(np.ones(1000), careful=True)[1])
"""


def test_a_read_does_not_see_the_events_of_the_other_path() -> None:
    # The block between the two ``if careful:`` is run once per outcome. The first run's
    # call of ``residuals`` (line 17, after the stop read) is not in the second run's
    # region, which used to report its compile (a JAX105 after the region's stop read).
    found = lint_source(CAREFUL_UPLOAD, "bench_fit.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 16)], found


FLAGGED_WAIT = """\
import time

import jax

f_jax = jax.jit(lambda a: a @ a)


def run(x, opts, {flag}=False):
    t0 = time.perf_counter()
    y = f_jax(x)
    if {test}:
        y.block_until_ready()
    print(f"{{(time.perf_counter() - t0) * 1e3:.2f}} ms")
    return y
"""


@pytest.mark.parametrize("flag, test", [
    ("timeit", "timeit"), ("sync", "sync"), ("blocking", "blocking"),
    ("profile", "opts.profile"), ("do_benchmark", "do_benchmark"),
    ("no_sync", "not opts.sync_timing"),
])
def test_a_flag_that_asks_for_the_timing_or_a_wait_is_taken_as_set(flag: str, test: str
                                                                     ) -> None:
    # (README, "Which paths count"): the figure means something when the timing is asked for
    source = FLAGGED_WAIT.format(flag=flag, test=test)
    found = [(f.code, f.line) for f in lint_source(source, "bench.py")]
    assert found == ([("JAX101", 13)] if test.startswith("not ") else []), found


@pytest.mark.parametrize("flag, test", [
    ("verbose", "verbose"), ("log", "opts.log_every"), ("use_jax", "use_jax"),
])
def test_a_flag_that_asks_for_something_else_is_followed_both_ways(flag: str, test: str
                                                                    ) -> None:
    source = FLAGGED_WAIT.format(flag=flag, test=test)
    assert [(f.code, f.line) for f in lint_source(source, "bench.py")] == [("JAX101", 13)]


MODE = """\
import time

import jax

f_jax = jax.jit(lambda a: a @ a)


def main(x, benchmark=False):
    if benchmark:
        print("benchmark mode")
        return None
    t0 = time.perf_counter()
    y = f_jax(x)
    print(time.perf_counter() - t0)
    return y
"""


def test_a_timing_flag_that_decides_no_wait_is_followed_both_ways() -> None:
    # ``if benchmark: ... return`` chooses a mode, not whether to wait: the path past it,
    # with its region, is still judged
    assert [(f.code, f.line) for f in lint_source(MODE, "bench.py")] == [("JAX101", 14)]
