"""Objects of a class of another module of the project (``engine = Engine(model, params)``
in the script, ``class Engine`` in the package): a timed method call does what that
module's code does, as the project index summarises the method with the attributes its
``__init__`` stores. A method that leaves its work running is JAX101, one that waits is a
sync, and a class of a module with no JAX stays out of it."""

from __future__ import annotations

from pathlib import Path

from helpers import jaxlint

ENGINE = '''\
import time

import jax
import jax.numpy as jnp


class Engine:
    def __init__(self, apply_fn, params, top_k=3):
        self.params = params
        self.top_k = top_k
        self._logits = jax.jit(apply_fn)

    def submit(self, tokens):
        """Dispatch and return at once."""
        return self._logits(self.params, tokens)

    def run_sync(self, tokens):
        return jax.block_until_ready(self._logits(self.params, tokens))

    def run_and_postprocess(self, tokens):
        logits = self._logits(self.params, tokens)
        logits.block_until_ready()
        probs = jax.nn.softmax(logits, axis=-1)
        return jax.lax.top_k(probs, self.top_k)

    def poll(self, result, interval_s=0.0005):
        while not result.is_ready():
            time.sleep(interval_s)
        return result
'''

BENCH = '''\
import time

import numpy as np

from serve import Engine


def apply_fn(params, tokens):
    return tokens @ params


def main(params):
    engine = Engine(apply_fn, params)
    toks = np.ones((8, 128), np.float32)
    engine.run_sync(toks)

    start = time.perf_counter()
    fut = engine.submit(toks)
    print("submit", time.perf_counter() - start)

    start = time.perf_counter()
    values, labels = engine.run_and_postprocess(toks)
    print("top-k", time.perf_counter() - start)

    start = time.perf_counter()
    out = engine.run_sync(toks)
    print("blocking", time.perf_counter() - start)

    start = time.perf_counter()
    fut = engine.poll(engine.submit(toks))
    print("polling", time.perf_counter() - start)
    return fut, values, labels, out
'''


def _project(root: Path, engine: str = ENGINE) -> None:
    pkg = root / "serve"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("from .engine import Engine  # noqa: F401\n")
    (pkg / "engine.py").write_text(engine)
    (root / "bench.py").write_text(BENCH)


def _found(lint_stdout: str) -> list[list[str]]:
    return [line.split(" ")[:2] for line in lint_stdout.splitlines()
            if line.startswith("bench.py:")]


def test_methods_of_another_modules_class_do_what_its_code_does(tmp_path: Path) -> None:
    _project(tmp_path)
    lint = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert lint.returncode == 1, lint.stderr
    # submit leaves its work running; run_and_postprocess waits for the logits and then
    # dispatches more; run_sync and poll (a busy-wait on is_ready) wait.
    assert _found(lint.stdout) == [
        ["bench.py:19:21:", "JAX101"], ["bench.py:23:20:", "JAX101"]], lint.stdout


def test_the_fix_waits_for_what_the_method_returned(tmp_path: Path) -> None:
    _project(tmp_path)
    fixed = jaxlint("--no-cache", "--fix", "bench.py", cwd=tmp_path)
    assert fixed.returncode == 0, fixed.stderr
    text = (tmp_path / "bench.py").read_text()
    assert "    fut = engine.submit(toks)\n    jax.block_until_ready(fut)\n" in text
    assert ("    values, labels = engine.run_and_postprocess(toks)\n"
            "    jax.block_until_ready((values, labels))\n") in text
    assert "from serve import Engine\nimport jax\n" in text  # after the last import
    again = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert again.returncode == 0, again.stdout


def test_a_class_of_a_module_without_jax_is_not_jax_work(tmp_path: Path) -> None:
    """The same engine on NumPy (a module that imports no JAX): nothing to report."""
    numpy_engine = (ENGINE.replace("import jax.numpy as jnp\n", "")
                    .replace("import jax\n", "import numpy as np\n")
                    .replace("jax.jit(apply_fn)", "apply_fn")
                    .replace("jax.block_until_ready(", "np.asarray(")
                    .replace("logits.block_until_ready()", "logits = np.asarray(logits)")
                    .replace("jax.nn.softmax(logits, axis=-1)", "np.exp(logits)")
                    .replace("jax.lax.top_k(probs, self.top_k)", "np.sort(probs)[:self.top_k]")
                    .replace("while not result.is_ready():", "while result is None:"))
    assert "jax" not in numpy_engine
    _project(tmp_path, numpy_engine)
    lint = jaxlint("--no-cache", ".", cwd=tmp_path)
    assert lint.returncode == 0, lint.stdout + lint.stderr
