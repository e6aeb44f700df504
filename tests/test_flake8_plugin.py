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
