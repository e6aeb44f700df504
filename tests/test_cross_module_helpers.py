"""Helpers of another module of the project whose behaviour depends on a flag's default
(``def get_from_first_device(nest, as_numpy=True)``): the project index summarises them as
a call that leaves the flag at its default makes them, and only the branch it takes."""

from __future__ import annotations

import sys
from pathlib import Path

from helpers import run

UTILS = '''\
import jax
import numpy as np


def get_first(tree, as_numpy=True):
    first = jax.tree.map(lambda a: a[0], tree)
    return jax.device_get(first) if as_numpy else first


def first_replica(tree, wait=False):
    out = jax.tree.map(lambda a: a[0], tree)
    if wait:
        jax.block_until_ready(out)
    return out


def to_host(tree, copy=None):
    if copy is None:
        return np.asarray(tree)
    return tree
'''

BENCH = '''\
import time

import jax
import jax.numpy as jnp

from proj import utils

step = jax.pmap(lambda a: jnp.tanh(a @ a))


def main():
    x = jnp.ones((1, 512, 512))
    step(x).block_until_ready()
    start = time.time()
    out = utils.get_first(step(x))
    print("copied", time.time() - start)
    start = time.time()
    out = utils.first_replica(step(x))
    print("dispatched", time.time() - start)
    start = time.time()
    out = utils.to_host(step(x))
    print("copied", time.time() - start)
    return out
'''


def test_helpers_of_another_module_take_the_branch_of_their_default(tmp_path: Path) -> None:
    pkg = tmp_path / "proj"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "utils.py").write_text(UTILS)
    (pkg / "bench.py").write_text(BENCH)
    lint = run(sys.executable, "-m", "jaxlint", "--no-cache", "proj", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    lines = lint.stdout.splitlines()
    # get_first copies by default (no unfinished work); first_replica does not wait by
    # default; to_host copies by default (a host transfer in the region).
    assert [line.split(" ")[:2] for line in lines if line.startswith("proj/")] == [
        ["proj/bench.py:19:25:", "JAX101"], ["proj/bench.py:22:21:", "JAX104"]], lint.stdout
