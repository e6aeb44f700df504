"""What the project index reads off the project's files (which modules exist, what they
import) is shared by the files of one run, and read afresh by a session that outlives its
files (the editor server, the notebook extension) through ``project.forget_reads``."""

from __future__ import annotations

from pathlib import Path

from jaxlint import lint_source
from jaxlint.config import Config
from jaxlint.project import forget_reads
from jaxlint.settings import for_file

MAIN = """import time
from helpers import run

t0 = time.perf_counter()
y = run()
print(f"took {time.perf_counter() - t0:.3f} s")
"""

HELPERS = """import jax.numpy as jnp


def run():
    return jnp.ones((64, 64)) @ jnp.ones((64, 64))
"""


def _codes(main: Path, modules: dict[str, object]) -> list[str]:
    settings = for_file(str(main), Config(), modules)  # type: ignore[arg-type]
    return [f.code for f in lint_source(main.read_text(), str(main), settings=settings)]


def test_a_module_made_after_a_lint_counts_once_the_reads_are_forgotten(tmp_path: Path
                                                                         ) -> None:
    main = tmp_path / "main.py"
    main.write_text(MAIN)
    modules: dict[str, object] = {}
    assert _codes(main, modules) == []  # ``run`` comes from no module the project has
    (tmp_path / "helpers.py").write_text(HELPERS)
    forget_reads(modules)
    assert _codes(main, modules) == ["JAX101"]


def test_files_of_one_run_share_the_reads(tmp_path: Path) -> None:
    (tmp_path / "helpers.py").write_text(HELPERS)
    first, second = tmp_path / "a.py", tmp_path / "b.py"
    first.write_text(MAIN)
    second.write_text(MAIN)
    modules: dict[str, object] = {}
    assert _codes(first, modules) == ["JAX101"]
    assert _codes(second, modules) == ["JAX101"]
    assert len([k for k in modules if not k.endswith(".py")]) == 1  # one set of reads
