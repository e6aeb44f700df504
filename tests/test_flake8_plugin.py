"""Real flake8 reports what the CLI reports, at the same line and column, on every fixture."""

from __future__ import annotations

from fixture_support import FIXTURES
from helpers import flake8, jaxlint


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
