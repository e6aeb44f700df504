"""JAX107: a sync that cannot wait is the one finding of its region (not also JAX101), says
what the call does, and names the region; with JAX107 off, the region's JAX101 is back."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from helpers import run

from jaxlint import lint_source

ROOT = Path(__file__).resolve().parent.parent

HEAD = """import time
import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)
x = jnp.ones((8, 8))
f(x).block_until_ready()
"""
UNCALLED = HEAD + """t0 = time.perf_counter()
y = f(x)
y.block_until_ready
print(time.perf_counter() - t0)
"""


def test_one_finding_for_the_region_at_the_sync() -> None:
    found = lint_source(UNCALLED, "bench.py")
    assert [(f.code, f.line, f.col) for f in found] == [("JAX107", 10, 0)]
    assert found[0].region == (8, 11)
    assert found[0].message == ("sync cannot wait: `y.block_until_ready` without the call does "
                                "nothing; call it: `y.block_until_ready()`")
    assert "looks the method up and drops it" in (found[0].explanation or "")
    assert "`y` is" not in found[0].message


def test_with_jax107_off_the_region_is_jax101() -> None:
    found = lint_source(UNCALLED, "bench.py", ignore=["JAX107"])
    assert [(f.code, f.line) for f in found] == [("JAX101", 11)]


def test_a_sync_that_raises_is_reported_in_a_synced_region_too() -> None:
    body = HEAD + """t0 = time.perf_counter()
a = f(x)
b = f(a)
b.block_until_ready()
(a, b).block_until_ready()
print(time.perf_counter() - t0)
"""
    found = lint_source(body, "bench.py")
    assert [(f.code, f.line) for f in found] == [("JAX107", 12)]
    assert "raises AttributeError" in found[0].message
    # a sync that only waits for nothing, in a synced region, is no finding
    quiet = body.replace("(a, b).block_until_ready()", "jax.effects_barrier()")
    assert lint_source(quiet, "bench.py") == []


def test_outside_a_timed_region_nothing_is_said() -> None:
    assert lint_source(HEAD + "y = f(x)\njax.block_until_ready()\n", "bench.py") == []


def test_json_and_fix(tmp_path) -> None:
    (tmp_path / "bench.py").write_text(UNCALLED)
    out = run(sys.executable, "-m", "jaxlint", "--no-cache", "--format", "json", "bench.py",
              cwd=tmp_path)
    [record] = json.loads(out.stdout)
    assert (record["code"], record["line"], record["fix"]) == ("JAX107", 10, "safe")
    assert record["region"] == {"start": {"line": 8}, "stop": {"line": 11}}
    fixed = run(sys.executable, "-m", "jaxlint", "--no-cache", "--fix", "bench.py", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stdout + fixed.stderr
    assert (tmp_path / "bench.py").read_text() == UNCALLED.replace(
        "y.block_until_ready\n", "y.block_until_ready()\n")


def test_a_sync_inside_the_jitted_function_is_named_for_the_region() -> None:
    body = """import time
import jax
import jax.numpy as jnp


@jax.jit
def step(x):
    y = jnp.tanh(x @ x)
    jax.block_until_ready(y)
    return y


x = jnp.ones((8, 8))
step(x).block_until_ready()
t0 = time.perf_counter()
out = step(x)
print(time.perf_counter() - t0)
"""
    [found] = lint_source(body, "bench.py")
    assert (found.code, found.line, found.region) == ("JAX107", 9, (15, 17))
    assert "inside the jitted `step` waits for nothing when it runs" in found.message
    assert lint_source(body, "bench.py", ignore=["JAX107"])[0].code == "JAX101"
    # synced by the caller: nothing to say, the sync inside is merely idle
    synced = body.replace("out = step(x)\n", "out = step(x).block_until_ready()\n")
    assert lint_source(synced, "bench.py") == []


PMAP = """import time
from functools import partial
import jax
import jax.numpy as jnp

@partial(jax.pmap, axis_name="i")
def step(w, x):
    return x @ w

w = jnp.ones((1, 8, 8))
step(w, w).block_until_ready()
t0 = time.perf_counter()
out = step(w, w)
{sync}
print(time.perf_counter() - t0)
"""


def test_one_shard_of_a_pmapped_result_is_named_with_the_whole_value_as_fix() -> None:
    found = lint_source(PMAP.format(sync="jax.block_until_ready(out[0])"), "bench.py")
    assert [(f.code, f.line) for f in found] == [("JAX107", 14)]
    assert found[0].message == ("sync cannot wait: `jax.block_until_ready(out[0])` waits for "
                                "one device's shard only, not the others; call "
                                "jax.block_until_ready(out)")
    from jaxlint import fix_source

    fixed = fix_source(PMAP.format(sync="out[0].block_until_ready()"), "bench.py")
    text = fixed.source.decode() if isinstance(fixed.source, bytes) else fixed.source
    assert "\njax.block_until_ready(out)\n" in text
    assert lint_source(text, "bench.py") == []


def test_what_waits_for_every_device_is_no_one_shard_finding() -> None:
    for sync in ("out.block_until_ready()", "jax.block_until_ready(out)",
                 "for i in range(jax.local_device_count()):\n    out[i].block_until_ready()",
                 "for s in out.addressable_shards:\n    s.data.block_until_ready()"):
        assert lint_source(PMAP.format(sync=sync), "bench.py") == [], sync


def test_out_0_of_a_pmapped_function_returning_a_tuple_is_its_first_output() -> None:
    # ``out[0]`` is then the first output, spread over every device: a full sync of it
    body = PMAP.format(sync="out[0].block_until_ready()").replace(
        "return x @ w", "return x @ w, x").replace("out = step", "out = step")
    body = body.replace("step(w, w).block_until_ready()", "jax.block_until_ready(step(w, w))")
    assert lint_source(body, "bench.py") == []
    # a jitted (not pmapped) function's result: ``y[0]`` is a row, computed after all of y
    jitted = PMAP.replace('@partial(jax.pmap, axis_name="i")', "@jax.jit").format(
        sync="out[0].block_until_ready()")
    assert lint_source(jitted, "bench.py") == []


def test_a_shard_taken_apart_is_not_what_the_fix_waits_for() -> None:
    # brax's ``_unpmap``: each leaf's first addressable shard, squeezed; syncing that waits
    # for one device, so the region's result to wait for stays the pmapped state
    body = """import time
import jax

def _unpmap(v):
    return jax.tree_util.tree_map(lambda x: x.addressable_shards[0].data.squeeze(0), v)

step = jax.pmap(lambda s: s * 2)

def train(state):
    t0 = time.time()
    state = step(state)
    params = _unpmap(state)
    print(time.time() - t0)
"""
    [found] = lint_source(body, "train.py")
    assert found.code == "JAX101"
    assert "jax.block_until_ready(state)" in found.message


def test_a_project_function_that_waits_for_its_arguments_given_none_is_no_bare_sync() -> None:
    """The project index says ``flush`` waits for what it is given (as it says of an
    engine's ``step()`` that reads its results back): called with nothing it waits for
    nothing, and it does not raise as ``jax.block_until_ready()`` does. JAX's own sync, and
    an alias of it, written without an argument are still JAX107."""
    from jaxlint.analysis.values import Ref
    from jaxlint.settings import Settings

    source = """import time
import jax
from jax import block_until_ready as bur
from proj.utils import flush


def main():
    t0 = time.perf_counter()
    flush()
    print(time.perf_counter() - t0)
    t0 = time.perf_counter()
    jax.block_until_ready()
    print(time.perf_counter() - t0)
    t0 = time.perf_counter()
    bur()
    print(time.perf_counter() - t0)
"""
    settings = Settings(index={"proj.utils.flush": Ref("jax.block_until_ready")},
                        module_name="bench")
    found = lint_source(source, "bench.py", settings=settings)
    assert [(f.code, f.line) for f in found] == [("JAX107", 12), ("JAX107", 15)]


def test_a_class_call_gives_the_object_not_the_none_its_init_returns() -> None:
    """``jax.block_until_ready(State(f(x)))``: ``__init__`` returns nothing, but calling the
    class gives the object; registered as a pytree, waiting for it waits for its arrays."""
    source = (ROOT / "fixtures" / "JAX105" / "first_call_synced_through_object.py").read_text()
    found = lint_source(source, "bench.py")
    assert [(f.code, f.line) for f in found] == [("JAX105", 32)]
