"""``.py`` fidelity of ``--fix`` (issue 13, small items): a CR-only file keeps its last line
ending; ``import jax`` goes inside a ``try: import jax... except ImportError`` guard."""

from __future__ import annotations

from pathlib import Path

from helpers import jaxlint

from jaxlint import fix_source, lint_source

CR_ONLY = (b"import time\rimport jax.numpy as jnp\rx = jnp.ones(3)\rt0 = time.perf_counter()\r"
           b"y = jnp.dot(x, x)\rprint(time.perf_counter() - t0)\r")


def test_a_cr_only_file_keeps_its_last_line_ending(tmp_path: Path) -> None:
    path = tmp_path / "bench.py"
    path.write_bytes(CR_ONLY)
    result = jaxlint("--fix", "--no-cache", ".", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert path.read_bytes() == (
        b"import time\rimport jax.numpy as jnp\rimport jax\r\rx = jnp.ones(3)\r"
        b"t0 = time.perf_counter()\ry = jnp.dot(x, x)\rjax.block_until_ready(y)\r"
        b"print(time.perf_counter() - t0)\r")
    assert jaxlint("--fix", "--no-cache", ".", cwd=tmp_path).stderr.endswith(
        "Fixed 0 findings.\n")
    assert fix_source(CR_ONLY.decode()).source == path.read_bytes().decode()


GUARDED = """\
import time

try:
    import jax.numpy as jnp
except ImportError:  # the script also runs without jax
    jnp = None

x = jnp.ones(3)
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""


def test_import_jax_goes_inside_the_import_guard() -> None:
    fixed = fix_source(GUARDED).source
    assert fixed == GUARDED.replace(
        "try:\n    import jax.numpy", "try:\n    import jax\n    import jax.numpy").replace(
        "y = jnp.dot(x, x)\n", "y = jnp.dot(x, x)\njax.block_until_ready(y)\n")
    assert isinstance(fixed, str) and lint_source(fixed) == []


def test_a_fallback_in_the_guard_is_not_a_shadowed_jax() -> None:
    """``except ImportError: jax = None`` binds jax to something else only where the timed
    work cannot run either: the plain name is used, no alias is imported unguarded."""
    source = GUARDED.replace("try:\n", "try:\n    import jax\n").replace(
        "    jnp = None\n", "    jax = jnp = None\n")
    fixed = fix_source(source).source
    assert fixed == source.replace(
        "y = jnp.dot(x, x)\n", "y = jnp.dot(x, x)\njax.block_until_ready(y)\n")


def test_a_try_that_guards_something_else_is_left_alone() -> None:
    source = GUARDED.replace("try:\n    import jax.numpy as jnp\n",
                             "import jax.numpy as jnp\n\ntry:\n    import yaml\n").replace(
        "    jnp = None\n", "    yaml = None\n")
    fixed = fix_source(source).source
    assert isinstance(fixed, str)
    assert fixed.startswith("import time\n\nimport jax.numpy as jnp\nimport jax\n")
    assert "try:\n    import yaml\n" in fixed
