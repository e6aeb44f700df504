"""Generated configuration files (tests/config_fuzz.py; scripts/fuzz.py --configs runs many
more): each is a usable configuration or one ConfigError line, never a crash, and a
configuration that loads lints and fixes a timing program."""

from __future__ import annotations

from config_fuzz import check_config, configs
from hypothesis import HealthCheck, given, settings


@settings(max_examples=60, deadline=None, database=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
@given(configs())
def test_any_configuration_is_read_or_refused_in_one_line(text: str) -> None:
    assert check_config(text) == []


def test_the_known_bad_shapes_are_one_line_errors() -> None:
    for text in ('tool = "jaxlint"\n', "[tool]\njaxlint = 3\n",
                 "[tool.jaxlint]\nselect = " + "[" * 5000 + "]" * 5000 + "\n",
                 "[tool.jaxlint]\nignore = [\"\"]\n", "[tool.jaxlint]\ntimers = 7\n",
                 "not toml at all = = =\n", "\udcff\n",
                 # a per-file-ignores pattern holding a newline (found by the fuzz test)
                 '[tool.jaxlint]\n"per-file-ignores" = {"\\u000a" = false}\n'):
        assert check_config(text) == [], text[:40]
