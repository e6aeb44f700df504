"""Every rule, by code. A rule lives in one file named after its code."""

from __future__ import annotations

from jaxlint.rules.base import FileContext, Report, Rule
from jaxlint.rules.jax101_unsynced_timer import UnsyncedTimer

RULES: dict[str, type[Rule]] = {cls.CODE: cls for cls in (UnsyncedTimer,)}

__all__ = ["RULES", "FileContext", "Report", "Rule"]
