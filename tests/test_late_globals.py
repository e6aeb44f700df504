"""A function called by the module's own code reads the module's names as they are at the
call (README, "What makes a value JAX"): a notebook that times a NumPy ``bellman`` and then
defines it again under ``@jax.jit`` timed NumPy work first, and JAX work second."""

from __future__ import annotations

import ast

from jaxlint import lint_source
from jaxlint.analysis.syntax import LateGlobals

NUMPY_THEN_JAX = """\
import time

import jax
import jax.numpy as jnp
import numpy as np


def step(v):
    return np.tanh(v @ v)


def run(v):
    for _ in range(10):
        v = step(v)
    return v


x = np.ones((256, 256))
t0 = time.perf_counter()
out = run(x)
print("numpy", time.perf_counter() - t0)

step = jax.jit(lambda v: jnp.tanh(v @ v))
x = jnp.ones((256, 256))
run(x).block_until_ready()
t0 = time.perf_counter()
out = run(x)
print("jax", time.perf_counter() - t0)
"""


def lines(source: str, code: str = "JAX101") -> list[int]:
    return sorted(f.line for f in lint_source(source, "t.py") if f.code == code)


def line_of(source: str, text: str) -> int:
    return source.splitlines().index(text) + 1


def test_numpy_version_timed_before_the_jax_one_is_no_finding() -> None:
    jax_stop = line_of(NUMPY_THEN_JAX, 'print("jax", time.perf_counter() - t0)')
    assert lines(NUMPY_THEN_JAX) == [jax_stop]


JAX_THEN_NUMPY = """\
import time

import jax
import jax.numpy as jnp
import numpy as np

step = jax.jit(lambda v: jnp.tanh(v @ v))


def run(v):
    for _ in range(10):
        v = step(v)
    return v


x = jnp.ones((256, 256))
run(x).block_until_ready()
t0 = time.perf_counter()
out = run(x)
print("jax", time.perf_counter() - t0)


def step(v):
    return np.tanh(v @ v)


x = np.ones((256, 256))
t0 = time.perf_counter()
out = run(x)
print("numpy", time.perf_counter() - t0)
"""


def test_jax_version_timed_before_a_numpy_one_is_still_found() -> None:
    jax_stop = line_of(JAX_THEN_NUMPY, 'print("jax", time.perf_counter() - t0)')
    assert lines(JAX_THEN_NUMPY) == [jax_stop]


def test_a_value_bound_again_is_read_as_it_is_at_the_call() -> None:
    src = """\
import time

import jax.numpy as jnp
import numpy as np

scale = np.float32(2.0)


def work(a):
    return a * scale


x = np.ones(1000)
t0 = time.perf_counter()
y = work(x)
print(time.perf_counter() - t0)
scale = jnp.float32(2.0)
"""
    assert lines(src) == []


def test_a_function_analysed_on_its_own_still_sees_the_last_binding() -> None:
    # ``bench`` is not called by the module's code: it runs after the module was loaded,
    # when ``step`` is the jitted one.
    src = NUMPY_THEN_JAX + """

def bench(v):
    t0 = time.perf_counter()
    out = run(v)
    print(time.perf_counter() - t0)
    return out
"""
    assert lines(src) == [line_of(src, 'print("jax", time.perf_counter() - t0)'),
                          line_of(src, "    print(time.perf_counter() - t0)")]


def test_late_globals_are_names_bound_again_and_read_by_a_function() -> None:
    # ``step`` (a def, then an assignment), read by ``run``; ``x`` and ``t0`` are bound
    # twice but no function reads them; ``out`` neither.
    late = LateGlobals(ast.parse(NUMPY_THEN_JAX), NUMPY_THEN_JAX)
    assert late.names == {"step", "x", "t0", "out"}
    assert late.reads("run") == {"step"}
    assert late.reads("nothing") == frozenset()
    loop = "for f in (a, b):\n    pass\n\ndef g():\n    return f()\n"
    assert LateGlobals(ast.parse(loop), loop).reads("g") == {"f"}
    once = "import numpy as np\n\ndef g():\n    return np.ones(3)\n"
    assert LateGlobals(ast.parse(once), once).reads("g") == frozenset()
    # an attribute of the same name is no read of the module's name
    attr = "x = 1\nx = 2\n\ndef g(o):\n    return o.x\n"
    assert LateGlobals(ast.parse(attr), attr).reads("g") == frozenset()


def test_what_a_function_reads_through_the_functions_it_names() -> None:
    # ``vfi`` names ``T``, which names ``B``: both bound again further down
    src = (
        "def B(v):\n    return v\n\ndef T(v):\n    return B(v)\n\n"
        "def vfi(v):\n    return T(v)\n\ndef B(v):\n    return v\n\ndef T(v):\n"
        "    return B(v)\n"
    )
    late = LateGlobals(ast.parse(src), src)
    assert late.reads("vfi") == {"T", "B"}
    assert late.reads("T") == {"T", "B"}
