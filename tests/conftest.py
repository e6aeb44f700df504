from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-fixtures",
        action="store_true",
        help="rewrite fixtures/**/NAME.fixed.py from the current fixer (review the diff!)",
    )
