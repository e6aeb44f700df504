"""``corpus/why_missed.py`` sorts ``jaxlint --explain`` answers into stages: each stage from
a real answer, so that a change of the answer's wording shows here."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from helpers import ROOT, run


def _stage_of():  # type: ignore[no-untyped-def]
    sys.path.insert(0, str(ROOT / "corpus"))
    try:
        spec = importlib.util.spec_from_file_location("why_missed", ROOT / "corpus" /
                                                      "why_missed.py")
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(ROOT / "corpus"))
    return module.stage


HEAD = "import time\nimport jax\nimport jax.numpy as jnp\n"


def _answer(tmp_path: Path, text: str, line: int) -> str:
    (tmp_path / "case.py").write_text(text)
    proc = run(sys.executable, "-m", "jaxlint", "--no-cache", "--explain", f"case.py:{line}",
               cwd=tmp_path)
    return proc.stdout + proc.stderr


def test_each_stage_from_a_real_answer(tmp_path: Path) -> None:
    stage = _stage_of()
    cases = [
        ("x = 1\nprint(x)\n", 2, "prefilter skipped the file"),
        (HEAD + "t0 = time.time()\nprint(time.time() - t0)\n", 1, "no region ends at the line"),
        (HEAD + "from agents import Agent\na = Agent()\nt0 = time.time()\ny = a.act(1)\n"
         "print(time.time() - t0)\n", 8, "no work seen: objects"),
        (HEAD + "from agents import act\nt0 = time.time()\ny = act(1)\n"
         "print(time.time() - t0)\n", 7, "no work seen: other packages"),
        (HEAD + "def prep(n):\n    return n\nt0 = time.time()\ny = prep(1)\n"
         "print(time.time() - t0)\n", 8, "no work seen: only calls it followed"),
        (HEAD + "f = jax.jit(lambda x: x)\nt0 = time.time()\ny = f(jnp.ones(2))\n"
         "y.block_until_ready()\nprint(time.time() - t0)\n", 8,
         "work seen, taken as waited for"),
        (HEAD + "f = jax.jit(lambda x: x)\nt0 = time.time()\ny = f(jnp.ones(2))\n"
         "y.block_until_ready()\nprint(time.time() - t0)\n", 6,
         "work seen, taken as waited for (line inside the region)"),
        (HEAD + "import timeit\nf = jax.jit(lambda x: x)\n"
                "print(timeit.timeit('f(1.0).block_until_ready()', globals=globals(), "
                "number=1))\n", 6,
         "a harness at the line, compiling in its first run"),
        (HEAD + "t0 = time.time()\nprint(time.time() - t0)\ndef broken(:\n", 4,
         "file could not be checked"),
    ]
    for text, line, want in cases:
        answer = _answer(tmp_path, text, line)
        assert stage(answer) == want, (want, answer)
