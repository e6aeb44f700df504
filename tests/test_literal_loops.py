"""A loop over a short literal sequence runs entry by entry (README, "Which paths count"):
``for name, fn in [("numpy", np_f), ("jax", jit_f)]:`` calls the NumPy function in one round
and the jitted one in the next, and a test of the round's literal (``if name == "jax":``)
takes the branch that round takes."""

from __future__ import annotations

import pytest

from jaxlint import lint_source

COMPARE = """\
import time

import jax
import jax.numpy as jnp
import numpy as np

f_jax = jax.jit(lambda a: a @ a)


def f_np(a):
    return a @ a


def run(x_np):
    x = jnp.asarray(x_np)
    for {target} in {entries}:
        {before}
        jax.block_until_ready(fn(arg))
        t0 = time.perf_counter()
        out = fn(arg)
        if {test}:
            out.block_until_ready()
        print(name, time.perf_counter() - t0)
"""

PAIRS = '[("numpy", f_np, x_np), ("jax", f_jax, x)]'


def codes(source: str) -> list[tuple[str, int]]:
    return [(f.code, f.line) for f in lint_source(source, "compare.py")]


@pytest.mark.parametrize("test", ['name == "jax"', 'name != "numpy"', 'name in ("jax", "jit")',
                                  'not name == "numpy"', "name"])
def test_the_jax_round_waits_when_its_own_name_says_so(test: str) -> None:
    source = COMPARE.format(target="name, fn, arg", entries=PAIRS, before="pass", test=test)
    assert codes(source) == []


@pytest.mark.parametrize("test", ['name == "JAX"', 'name == "numpy"', 'name in ("np", "numpy")',
                                  'name is None'])
def test_a_test_no_jax_round_passes_leaves_its_work_running(test: str) -> None:
    # before, the JAX input among the entries made every name a JAX value, and the test a
    # host read that waited for everything
    source = COMPARE.format(target="name, fn, arg", entries=PAIRS, before="pass", test=test)
    assert codes(source) == [("JAX101", 23)]


def test_a_flag_in_each_entry_decides_its_round() -> None:
    entries = '[("numpy", f_np, x_np, False), ("jax", f_jax, x, True)]'
    ok = COMPARE.format(target="name, fn, arg, on_device", entries=entries, before="pass",
                        test="on_device")
    assert codes(ok) == []
    swapped = entries.replace("False", "X").replace("True", "False").replace("X", "True")
    wrong = COMPARE.format(target="name, fn, arg, on_device", entries=swapped, before="pass",
                           test="on_device")
    assert codes(wrong) == [("JAX101", 23)]


def test_a_dict_literal_items_runs_entry_by_entry() -> None:
    source = COMPARE.format(target="name, fn", entries='{"numpy": f_np, "jax": f_jax}.items()',
                            before="arg = x if name == 'jax' else x_np", test='name == "jax"')
    assert codes(source) == []


def test_a_name_the_body_binds_again_is_not_taken_for_its_literal() -> None:
    # ``name`` is "JAX" when tested: no round waits
    source = COMPARE.format(target="name, fn, arg", entries=PAIRS,
                            before="name = name.upper()", test='name == "jax"')
    assert codes(source) == [("JAX101", 23)]


def test_the_jax_round_without_a_wait_is_reported() -> None:
    source = COMPARE.format(target="name, fn, arg", entries=PAIRS, before="pass",
                            test="False").replace("        if False:\n"
                                                  "            out.block_until_ready()\n", "")
    assert codes(source) == [("JAX101", 21)]


def test_a_literal_of_jax_values_keeps_its_names_host_values() -> None:
    # ``name`` is a string in every round, whatever the other entries hold: testing it is
    # no host read of the JAX input, so it waits for nothing
    source = COMPARE.format(target="name, fn, arg", entries=PAIRS, before="pass",
                            test='name == "other"').replace(
        "            out.block_until_ready()", "            print('other')")
    assert codes(source) == [("JAX101", 23)]


FLAG = """\
import time

import jax

f = jax.jit(lambda x: x @ x)
{binding}


def bench(x):
    {local}
    f(x).block_until_ready()
    t0 = time.perf_counter()
    y = f(x)
    if {test}:
        y.block_until_ready()
    print(time.perf_counter() - t0)
{after}
"""


@pytest.mark.parametrize(("binding", "local", "test"), [
    ("SYNC = True", "pass", "SYNC"),
    ('BACKEND = "jax"', "pass", 'BACKEND == "jax"'),
    ('BACKEND = "jax"', "pass", 'BACKEND in ("jax", "jit")'),
    ("SKIP_SYNC = False", "pass", "not SKIP_SYNC"),
    ("", 'backend = "jax"', 'backend != "numpy"'),
])
def test_a_name_only_ever_bound_to_one_literal_decides_its_test(binding: str, local: str,
                                                                  test: str) -> None:
    source = FLAG.format(binding=binding, local=local, test=test, after="")
    assert codes(source) == []


@pytest.mark.parametrize(("binding", "test", "after"), [
    ("SYNC = False", "SYNC", ""),
    ('BACKEND = "numpy"', 'BACKEND == "jax"', ""),
    # bound to another value elsewhere: either may hold when the test runs (a name that
    # does not ask for a wait: ``SYNC`` would be taken as set, test_correlated_branches)
    ("CHECK = True", "CHECK", "\nCHECK = False\n"),
    ("CHECK = True", "CHECK", "\ndef off():\n    global CHECK\n    CHECK = False\n"),
])
def test_a_literal_that_skips_the_wait_or_may_change_leaves_the_work_running(
        binding: str, test: str, after: str) -> None:
    source = FLAG.format(binding=binding, local="pass", test=test, after=after)
    assert codes(source) == [("JAX101", 16)]
