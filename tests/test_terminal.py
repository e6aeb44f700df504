"""What the command line prints to a person at a terminal and to CI: exit statuses, colours,
progress, output files, and names that cannot forge output."""

from __future__ import annotations

from pathlib import Path

from helpers import jaxlint

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""


def test_diff_on_stdin_exits_like_diff_on_files(tmp_path: Path) -> None:
    (tmp_path / "bench.py").write_text(MISTAKE)
    on_file = jaxlint("--diff", "--no-cache", "bench.py", cwd=tmp_path)
    for args in (["-"], ["--stdin-filename", "bench.py"]):
        on_stdin = jaxlint("--diff", *args, cwd=tmp_path, input=MISTAKE)
        assert "+jax.block_until_ready(y)" in on_stdin.stdout
        assert on_stdin.returncode == on_file.returncode == 1
        assert jaxlint("--diff", "--exit-zero", *args, cwd=tmp_path,
                       input=MISTAKE).returncode == 0
    clean = jaxlint("--diff", "-", cwd=tmp_path, input="import time\n")
    assert clean.returncode == 0 and clean.stdout == ""
