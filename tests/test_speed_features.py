"""What makes jaxlint cheap must never change what it reports: the prefilter, the cache and
parallel runs. (Speed itself is measured by benchmarks/, never asserted here.)"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from fixture_support import FIXTURES, ROOT
from helpers import jaxlint, run

from jaxlint.engine import Settings, lint_source
from jaxlint.settings import might_matter

CORPUS = sorted(FIXTURES.rglob("*.py")) + sorted((ROOT / "tests" / "holdout").glob("*.py")) + \
    sorted((ROOT / "jaxlint").rglob("*.py"))


# Files the prefilter rejects, beside the ones in the corpus that it rejects.
REJECTED = {
    "no_clock.py": "import jax.numpy as jnp\nx = jnp.ones(3)\nprint(x.sum())\n",
    "no_jax.py": "import time\nimport numpy as np\nt0 = time.time()\nnp.ones(3)\n"
                 "print(time.time() - t0)\n",
    "aliased.py": "import time as clock\nimport numpy as np\nt0 = clock.perf_counter()\n"
                  "y = np.dot(np.ones(3), np.ones(3))\nprint(clock.perf_counter() - t0)\n",
    # imports time, but reads no clock
    "sleeps.py": "import time\nimport jax.numpy as jnp\ny = jnp.ones(3) * 2\ntime.sleep(1)\n"
                 "print(y)  # the time it took\n",
    # says benchmark, but has no pytest-benchmark fixture (a parameter named benchmark)
    "google_benchmark.py": "import google_benchmark\nimport jax.numpy as jnp\n\n"
                           "@google_benchmark.register\ndef run_benchmark(state):\n"
                           "    while state:\n        jnp.ones(3).block_until_ready()\n",
    "perf_test.py": "import jax\nfrom brax import test_utils\n\ndef test_perf():\n"
                    "    test_utils.benchmark('ant', jax.jit(f), step)  # a benchmark, timed\n",
    # spells clocks, but every reading is made text at once: nothing to subtract
    "trace_name.py": "import os\nimport time\nimport jax\n\ndef dump(path, x):\n"
                     "    y = jax.numpy.sin(x)\n"
                     "    name = os.path.join(path, f\"{time.time_ns()}-trace.json\")\n"
                     "    return y, name, datetime.datetime.now().isoformat(), str(time.time())\n",
    # imports time, and ``now(`` is only the end of ``unknown(``
    "unknown.py": "import time\nimport jax\n\nloc = ir.Location.unknown()\n"
                  "y = jax.numpy.ones(3)\ntime.sleep(1)\n",
}


def _rejected_corpus() -> list[tuple[str, bytes]]:
    files = [(str(p.relative_to(ROOT)), p.read_bytes()) for p in CORPUS]
    files += [(name, text.encode()) for name, text in REJECTED.items()]
    return [(name, data) for name, data in files if not might_matter(data)]


@pytest.mark.parametrize("own", [
    False, pytest.param(True, marks=pytest.mark.slow, id="True")])
def test_prefilter_never_hides_a_finding(own: bool) -> None:
    """Where the prefilter says a file cannot matter, the full analysis agrees. (Where it
    lets a file through, the analysis runs as without it, so there is nothing to compare.)
    ``own``: jaxlint's own modules (the largest: 99% of the time) in the full suite only;
    the fast tier keeps the fixtures, the holdout set and REJECTED."""
    rejected = _rejected_corpus()
    assert {"trace_name.py", "unknown.py"} <= {name for name, _ in rejected}
    part = [(name, data) for name, data in rejected if name.startswith("jaxlint") == own]
    assert part, own
    for name, data in part:
        assert lint_source(data, name, settings=Settings(prefilter=False)) == [], name


PASSED = {
    # a reading bound, from an aliased import: a region may start there
    "aliased_clock.py": "from time import perf_counter as clock\nimport jax\n\n"
                        "def f(x):\n    t0 = clock()\n    y = jax.numpy.sin(x)\n"
                        "    return y, clock() - t0\n",
    # a stamp inside an f-string's expression that is subtracted there
    "fstring_delta.py": "import time\nimport jax\n\ndef f(x, t0):\n"
                        "    y = jax.numpy.sin(x)\n    print(f\"{time.time() - t0:.3f}\")\n",
    # a clock function kept as a value and called later
    "kept_clock.py": "import time\nimport jax\n\ntimer = time.monotonic\n\ndef f(x):\n"
                     "    y = jax.numpy.sin(x)\n    return y, timer\n",
    # syntax CPython 3.11 cannot parse: the bytes' answer stands
    "new_syntax.py": "import time\nimport jax\n\ndef f[T](x: T) -> T:\n"
                     "    s = f\"{time.time_ns()}\"\n    return jax.numpy.sin(x)\n",
}


@pytest.mark.parametrize("name", sorted(PASSED))
def test_prefilter_passes_what_may_read_a_clock(name: str) -> None:
    assert might_matter(PASSED[name].encode())


def test_timing_a_project_helper_passes_the_prefilter_without_naming_jax(
        tmp_path: Path) -> None:
    """With the project index on, the JAX work may all be in another module of the project:
    a file that never names jax must still be analysed."""
    (tmp_path / "model.py").write_text(
        "import jax.numpy as jnp\n\ndef step(x):\n    return jnp.dot(x, x)\n")
    (tmp_path / "bench.py").write_text(
        "import time\nfrom model import step\n\nt0 = time.perf_counter()\ny = step(3)\n"
        "print(time.perf_counter() - t0)\n")
    result = jaxlint("bench.py", cwd=tmp_path)
    assert result.stdout.startswith("bench.py:6:7: JAX101 "), result.stdout
    assert jaxlint("--no-index", "bench.py", cwd=tmp_path).stdout == ""


@pytest.mark.slow
def test_cache_gives_the_same_findings_and_notices_changes(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / "JAX101", tmp_path / "src")
    cold = jaxlint("src", cwd=tmp_path)
    assert (tmp_path / ".jaxlint_cache" / "CACHEDIR.TAG").exists()
    warm = jaxlint("src", cwd=tmp_path)
    assert (warm.returncode, warm.stdout) == (cold.returncode, cold.stdout)
    seed = tmp_path / "src" / "seed.py"
    seed.write_text(seed.read_text().replace("y = f(x)\n", "y = f(x).block_until_ready()\n"))
    changed = jaxlint("src", cwd=tmp_path)
    assert "src/seed.py" in cold.stdout and "src/seed.py" not in changed.stdout
    assert jaxlint("--no-cache", "src", cwd=tmp_path).stdout == changed.stdout


def test_cache_follows_imported_project_modules(tmp_path: Path) -> None:
    (tmp_path / "helpers_mod.py").write_text(
        "import jax.numpy as jnp\n\ndef step(x):\n    return jnp.dot(x, x).block_until_ready()\n")
    (tmp_path / "bench.py").write_text(
        "import time\nimport jax.numpy as jnp\nfrom helpers_mod import step\n"
        "x = jnp.ones((8, 8))\nt0 = time.perf_counter()\ny = step(x)\n"
        "print(time.perf_counter() - t0)\n")
    assert jaxlint("bench.py", cwd=tmp_path).returncode == 0
    assert jaxlint("bench.py", cwd=tmp_path).returncode == 0  # cached
    (tmp_path / "helpers_mod.py").write_text(
        "import jax.numpy as jnp\n\ndef step(x):\n    return jnp.dot(x, x)\n")
    assert jaxlint("bench.py", cwd=tmp_path).returncode == 1


@pytest.mark.slow
def test_parallel_and_serial_agree() -> None:
    serial = jaxlint("-j1", "--no-cache", "fixtures/JAX101", "tests/holdout")
    parallel = jaxlint("-j2", "--no-cache", "fixtures/JAX101", "tests/holdout")
    assert serial.stdout == parallel.stdout and serial.stdout


def test_no_libcst_import_for_files_that_cannot_matter(tmp_path: Path) -> None:
    import sys

    (tmp_path / "plain.py").write_text("import os\nprint(os.getcwd())\n")
    result = run(sys.executable, "-X", "importtime", "-m", "jaxlint", "plain.py", cwd=tmp_path)
    assert result.returncode == 0
    assert "libcst" not in result.stderr


def test_flake8_plugin_imports_libcst_only_for_files_that_may_matter(tmp_path: Path) -> None:
    import sys

    (tmp_path / "plain.py").write_text("import jax\nimport os\nprint(os.getcwd())\n")
    result = run(sys.executable, "-X", "importtime", "-m", "flake8", "--select", "JAX",
                 "plain.py", cwd=tmp_path)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "jaxlint.settings" in result.stderr  # the plugin was loaded ...
    assert "libcst" not in result.stderr  # ... but had nothing to parse
    (tmp_path / "bench.py").write_text(
        "import time\nimport jax.numpy as jnp\nt0 = time.time()\ny = jnp.ones(3) * 2\n"
        "print(time.time() - t0)\n")
    result = run(sys.executable, "-m", "flake8", "--select", "JAX", "bench.py", cwd=tmp_path)
    assert result.stdout.startswith("bench.py:5:7: JAX101 "), result.stdout


def _notebook(*cells: tuple[str, str, list[object]]) -> str:
    import json

    return json.dumps({"cells": [
        {"cell_type": kind, "metadata": {}, "source": source.splitlines(keepends=True),
         **({"outputs": outputs, "execution_count": 1} if kind == "code" else {})}
        for kind, source, outputs in cells], "metadata": {}, "nbformat": 4,
        "nbformat_minor": 5}, indent=1)


def test_a_notebook_is_judged_by_its_code_cells(tmp_path: Path) -> None:
    """Markdown and outputs that name jax and a clock (``time.perf_counter()`` in the
    prose, ``Wall time`` printed by a run) do not make a notebook worth parsing: it is
    skipped before libcst is imported. The same clock in a code cell is linted."""
    import sys

    prose = ("markdown", "We time `jax.jit(f)` with `import time; time.perf_counter()`.", [])
    printed = [{"output_type": "stream", "name": "stdout",
                "text": ["import time\n", "t0 = time.perf_counter()  # jax\n"]}]
    (tmp_path / "talk.ipynb").write_text(_notebook(
        prose, ("code", "import jax.numpy as jnp\ny = jnp.ones(3) * 2\n", printed)))
    result = run(sys.executable, "-X", "importtime", "-m", "jaxlint", "--no-cache",
                 "talk.ipynb", cwd=tmp_path)
    assert (result.returncode, result.stdout) == (0, "")
    assert "jaxlint.settings" in result.stderr  # the file was read and prefiltered ...
    assert "libcst" not in result.stderr  # ... and left there
    (tmp_path / "bench.ipynb").write_text(_notebook(
        prose, ("code", "import time\nimport jax.numpy as jnp\nt0 = time.perf_counter()\n"
                "y = jnp.ones(3) * 2\nprint(time.perf_counter() - t0)\n", printed)))
    result = jaxlint("--no-cache", "bench.ipynb", cwd=tmp_path)
    assert result.stdout.startswith("bench.ipynb:cell 2:5:7: JAX101 "), result.stdout


SAME_NAMED_TIMERS = '''\
import contextlib
import time

import jax.numpy as jnp


class Plain:
    def timed(self):
        return None


class Timer:
    @contextlib.contextmanager
    def timed(self):
        t0 = time.perf_counter()
        yield
        print(time.perf_counter() - t0)


def run(x):
    with Timer().timed():
        y = jnp.dot(x, x)
    return y
'''


def test_generators_are_told_apart_when_functions_share_a_name() -> None:
    """Which functions are generators is read from CPython's tree by name; where two
    functions of one name differ (a plain ``timed`` and a ``@contextmanager`` one), each is
    still judged by its own body, so the timer is found."""
    found = lint_source(SAME_NAMED_TIMERS.encode(), "timers.py")
    assert [(f.code, f.line) for f in found] == [("JAX101", 21)]
    plain_only = SAME_NAMED_TIMERS.replace("Timer().timed()", "Plain().timed()")
    assert lint_source(plain_only.encode(), "timers.py") == []


# The prefilter's byte tests, written to let ``re`` skip ahead (``settings._plain_reading``,
# ``settings._timer_call``, the helper-clock and stop-call patterns), against the plain
# patterns they replace: the same answer on text made of the pieces each one looks at.
_WS = rb"(?:[ \t\r\n\\]|\\[tnr])"
_READING = (rb"(?:\b(?:perf_counter|monotonic|process_time|thread_time)(?:_ns)?|"
            rb"\btime\.time(?:_ns)?|\bdefault_timer|\.(?:utc)?now)\(\s*\)")
_TIMER_NAME = (rb"(?:[Tt]im(?:er|ed|ing|eit)|[Cc]lock|[Ss]topwatch|[Cc]hrono|[Pp]rofil)"
               rb"\w*\s*\(")
PLAIN = {
    "_plain_reading": rb"[=-]\s*[\w.]*?" + _READING + rb"|" + _READING + rb"\s*-",
    "_timer_call": rb"(?<!def )(?<![A-Za-z0-9])_*" + _TIMER_NAME,
    "_HELPER_CLOCK": rb"\w\.(?:now|elapsed|tic|toc|lap|since)\s*\(",
    "_STOP_CALL": rb"\w\.(?:stop|end|finish)\s*\(",
}
PIECES = [b"time", b".", b"time()", b"perf_counter", b"_ns", b"()", b"( )", b"(", b")", b"=",
          b"-", b" ", b"\n", b"\t", b"x", b"X", b"_", b"1", b"def ", b"utc", b"now", b"default_",
          b"timer", b"Timer", b"TIMER", b"tim", b"ing", b"eit", b"clock", b"Clock", b"chrono",
          b"profil", b"stopwatch", b"monotonic", b"thread_time", b"elapsed", b"toc", b"stop",
          b"end", b"finish", b"lap", b"since", b"t0", b"\xe9", b"\r", b"time.time()",
          b"t0 = ", b" - ", b"a.", b".stop(", b"sw.end (", b"x.now()", b".utcnow()",
          b"perf_counter()", b"make_timer(", b"def timer(", b"t.lap(", b"default_timer()"]


@pytest.mark.parametrize("name", sorted(PLAIN))
def test_the_prefilter_byte_tests_answer_as_their_plain_patterns(name: str) -> None:
    import random
    import re

    from jaxlint import settings

    plain = re.compile(PLAIN[name])
    test = getattr(settings, name)
    fast = test if callable(test) else (lambda data: test.search(data) is not None)
    rng = random.Random(name)
    texts = [b"".join(rng.choice(PIECES) for _ in range(rng.randrange(1, 12)))
             for _ in range(20000)]
    found = 0
    for text in texts:
        expected = plain.search(text) is not None
        assert fast(text) is expected, text
        found += expected
    assert 1000 < found < 19000  # (both answers are tried often)
