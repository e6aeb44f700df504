"""With the project index, a module that is no JAX code and that no JAX value can reach is
not analysed (``ProjectIndex.carries_jax``): the README's "what makes a module JAX". The
skip must never hide a finding: every file below is linted with it and without it."""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

import pytest

from jaxlint import lint_source
from jaxlint.project import ProjectIndex

FILES = {
    # a PyTorch trainer beside the JAX code: nothing JAX can reach it
    "train_torch.py": "import time\nimport torch\n\nmodel = torch.nn.Linear(8, 8)\n"
                      "x = torch.ones(8)\nt0 = time.time()\ny = model(x)\n"
                      "print(time.time() - t0)\n",
    # the project's JAX code, a helper that never names jax, and a script using both
    "pkg/__init__.py": "",
    "pkg/model.py": "import jax\nimport jax.numpy as jnp\n\nforward = jax.jit(lambda a: a @ a)\n",
    "pkg/timing.py": "import time\n\n\ndef time_it(fn, *args):\n    t0 = time.perf_counter()\n"
                     "    fn(*args)\n    return time.perf_counter() - t0\n",
    "pkg/reexport.py": "from .model import forward\n",
    "bench.py": "import time\nfrom pkg.model import forward\nfrom pkg.timing import time_it\n\n"
                "x = forward(None)\nprint(time_it(forward, x))\nt0 = time.time()\n"
                "y = forward(x)\nprint(time.time() - t0)\n",
    # a JAX library that never spells "jax"
    "sample.py": "import time\nimport numpyro\nfrom numpyro.infer import MCMC, NUTS\n\n"
                 "mcmc = MCMC(NUTS(None), num_warmup=10, num_samples=10)\nt0 = time.time()\n"
                 "mcmc.run(None)\nprint(time.time() - t0)\n",
    # a comment that mentions plotting is not the library ``ott``
    "plots.py": "import time\n# plotting of the results\nt0 = time.time()\n"
                "print(time.time() - t0)\n",
}
CARRIES = {"train_torch.py": False, "pkg/timing.py": True, "bench.py": True,
           "sample.py": True, "plots.py": False, "pkg/reexport.py": True}

# Timing helpers of a module that never names jax, each a way the clock's call can sit in a
# function: a helper times what it is given for the project's JAX code, so its module is
# analysed (``_reads_clock_in_function``, which searches only the lines spelling a clock).
HELPERS = {
    "wrapped.py": "import time\n\n\ndef run(fn, x):\n    out = fn(\n        x,\n"
                  "        start=time.perf_counter(),\n    )\n    return out\n",
    "decorated.py": "import time\n\n\n@register(clock=time.perf_counter())\n"
                    "def run(fn):\n    return fn()\n",
    "default.py": "import time\n\n\ndef run(fn, t0=time.time()):\n    return fn()\n",
    "old_mac.py": "import time\r\r\rdef run(fn):\r    x = 1\r    t0 = time.time()\r"
                  "    fn()\r",
    "blocks.py": "import time\n\n\ndef run(fn):\n    return fn()\n\n\ndef timed(fn):\n"
                 "    with Timer():\n        fn()\n",
    "in_class.py": "import time\n\n\nclass Clock:\n    def lap(self):\n"
                   "        if True:\n            return time.monotonic()\n",
}
NOT_HELPERS = {
    # the clock named only in a comment and at the top level: no function reads it
    "comment.py": "import time\n\n\ndef run(fn):\n    # time.perf_counter() is not called\n"
                  "    return fn()\n\n\nSTART = time.time()\n",
    # a clock's name that is no call
    "reference.py": "import time\n\n\ndef run(fn, clock=time.perf_counter):\n"
                    "    return fn()\n",
}


@pytest.fixture()
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    for name, text in FILES.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_what_no_jax_value_can_reach_is_skipped(project: Path) -> None:
    index = ProjectIndex([str(project)])
    for name, expected in CARRIES.items():
        assert index.carries_jax(name, (project / name).read_bytes()) is expected, name


def test_a_module_whose_functions_read_a_clock_is_analysed(tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch
                                                        ) -> None:
    (tmp_path / "pyproject.toml").write_text("[project]\nname = 'p'\n")
    monkeypatch.chdir(tmp_path)
    index = ProjectIndex([str(tmp_path)])
    for name, text in {**HELPERS, **NOT_HELPERS}.items():
        data = text.encode()
        (tmp_path / name).write_bytes(data)
        assert index.carries_jax(name, data) is (name in HELPERS), name


def test_the_skip_hides_no_finding(project: Path) -> None:
    from jaxlint.config import load
    from jaxlint.settings import for_file

    config = load(str(project / "pyproject.toml"))
    for name in FILES:
        path = os.path.join(str(project), name)
        settings = for_file(path, config, {})
        data = (project / name).read_bytes()
        with_skip = lint_source(data, path, settings=settings)
        without = lint_source(data, path, settings=replace(settings, skip_non_jax=False))
        assert with_skip == without, name
    bench = os.path.join(str(project), "bench.py")
    settings = for_file(bench, config, {})
    assert "JAX101" in {f.code for f in lint_source((project / "bench.py").read_bytes(),
                                                    bench, settings=settings)}


def test_a_helper_that_never_names_jax_keeps_its_callers_finding(project: Path) -> None:
    # (what the skip must not hide: the helper is judged with what bench.py passes it)
    from jaxlint.config import load
    from jaxlint.settings import for_file

    helper = os.path.join(str(project), "pkg", "timing.py")
    settings = for_file(helper, load(str(project / "pyproject.toml")), {})
    found = lint_source((project / "pkg" / "timing.py").read_bytes(), helper, settings=settings)
    assert [f.code for f in found] == ["JAX101"]
