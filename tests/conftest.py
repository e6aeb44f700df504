from __future__ import annotations

import pytest

# The blind synthetic set is code to lint, not tests: its pytest-benchmark suite
# (blind_synth/benchsuite/test_bench_kernels.py) needs a plugin the suite does not use.
collect_ignore = ["blind_synth"]


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-fixtures",
        action="store_true",
        help="rewrite fixtures/**/NAME.fixed.py from the current fixer (review the diff!)",
    )
