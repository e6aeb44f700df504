"""Real flake8 reports what the CLI reports, at the same line and column: on every fixture,
and on a configured project."""

from __future__ import annotations

from pathlib import Path

import pytest
from fixture_support import FIXTURES
from helpers import flake8, jaxlint, write_configured_project

MISTAKE = """\
import time

import jax.numpy as jnp

x = jnp.ones((256, 256))
t0 = time.perf_counter()
y = jnp.dot(x, x)
print(time.perf_counter() - t0)
"""


@pytest.mark.slow  # over 5 s; the configured project below is the fast tier's parity check
def test_flake8_matches_cli_on_every_fixture() -> None:
    plugin = flake8("--select", "JAX", "fixtures")
    cli = jaxlint("fixtures")
    assert plugin.returncode == 1, plugin.stderr
    assert sorted(plugin.stdout.splitlines()) == sorted(cli.stdout.splitlines())
    assert len(cli.stdout.splitlines()) >= 25


def test_flake8_noqa_and_ignore() -> None:
    path = FIXTURES / "JAX101" / "noqa_suppressed_ok.py"
    assert flake8("--select", "JAX", str(path)).stdout == ""
    seed = FIXTURES / "JAX101" / "seed.py"
    assert flake8("--select", "JAX", "--extend-ignore", "JAX101", str(seed)).stdout == ""
    assert "JAX101" in flake8("--select", "JAX", "--disable-noqa", str(path)).stdout


def test_plugin_registered() -> None:
    result = flake8("--version")
    assert "jaxlint" in result.stdout


def test_a_file_too_deep_to_analyse_yields_nothing_and_raises_nothing() -> None:
    """A 600-term ``+`` chain parses, but jaxlint's analysis recurses too deep: the plugin
    (called as flake8 calls it) reports nothing for the file instead of raising, so flake8
    goes on. (Real flake8 cannot show this: pyflakes fails on such a file first.)"""
    import ast

    from jaxlint.flake8_plugin import Plugin

    src = ("import time\nimport jax.numpy as jnp\nt0 = time.perf_counter()\nx = "
           + "+".join(["jnp.ones(3)"] * 600) + "\nprint(time.perf_counter() - t0)\n")
    lines = src.splitlines(keepends=True)
    assert list(Plugin(ast.Module(body=[], type_ignores=[]), lines, "deep.py").run()) == []
    shallow = src.replace("+".join(["jnp.ones(3)"] * 600), "jnp.ones(3) * 2")
    found = list(Plugin(ast.parse(shallow), shallow.splitlines(keepends=True), "b.py").run())
    assert [(line, col, text[:6]) for line, col, text, _ in found] == [(5, 6, "JAX101")]


def test_flake8_and_cli_agree_on_a_configured_project(tmp_path: Path) -> None:
    """The plugin reads [tool.jaxlint] (the nearest one for each file), uses the project index
    and leaves out what jaxlint leaves out, so flake8 and the CLI report the same findings;
    flake8's own options still apply on top."""
    write_configured_project(tmp_path)

    cli = jaxlint(".", cwd=tmp_path)
    plugin = flake8("--select", "JAX", ".", cwd=tmp_path)
    assert cli.returncode == plugin.returncode == 1, (cli.stderr, plugin.stderr)
    cli_lines = sorted(cli.stdout.splitlines())
    assert sorted(line.removeprefix("./") for line in plugin.stdout.splitlines()) == cli_lines
    # the project index finds the helper's JAX work in pkg/ops.py; the configured clock
    # and work functions make the second region; the rest is ignored or left out
    assert [line.split(": ")[0] for line in cli_lines] == [
        "loud.py:8:7", "pkg/bench.py:12:7", "pkg/bench.py:21:11"]
    # flake8's own options still apply on top of the configuration
    narrowed = flake8("--select", "JAX", "--per-file-ignores", "loud.py:JAX101", ".",
                      cwd=tmp_path)
    assert [line.split(": ")[0] for line in narrowed.stdout.splitlines()] == [
        "./pkg/bench.py:12:7", "./pkg/bench.py:21:11"]
    assert flake8("--select", "JAX", "--extend-ignore", "JAX1", ".", cwd=tmp_path).stdout == ""


def test_flake8_reports_a_bad_configuration_in_one_line(tmp_path: Path) -> None:
    tmp_path.chmod(0o755)
    (tmp_path / "pyproject.toml").write_text('[tool.jaxlint]\nignore = [""]\n')
    (tmp_path / "a.py").write_text(MISTAKE)
    result = flake8("--select", "JAX", "a.py", cwd=tmp_path)
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert result.stdout.splitlines()[0].startswith('a.py: "jaxlint[JAX]" failed during ')
    assert "empty rule code" in result.stdout
