"""Every rule, by code. A rule lives in one file named after its code."""

from __future__ import annotations

import re

from jaxlint.rules.base import FileContext, Report, Rule
from jaxlint.rules.jax101_unsynced_timer import UnsyncedTimer
from jaxlint.rules.jax102_unsynced_harness import UnsyncedHarness
from jaxlint.rules.jax103_wrong_value_synced import WrongValueSynced
from jaxlint.rules.jax104_host_transfer_sync import HostTransferSync
from jaxlint.rules.jax105_compile_in_region import CompileInRegion
from jaxlint.rules.jax106_work_pending_at_start import WorkPendingAtStart
from jaxlint.rules.jax107_ineffective_sync import IneffectiveSync

RULES: dict[str, type[Rule]] = {
    cls.CODE: cls
    for cls in (UnsyncedTimer, UnsyncedHarness, WrongValueSynced, HostTransferSync,
                CompileInRegion, WorkPendingAtStart, IneffectiveSync)
}



def rule_name(code: str) -> str:
    """The rule's name as every front end and the README spell it: the class name in
    kebab case (``UnsyncedTimer`` -> ``unsynced-timer``), as ruff names its rules."""
    rule = RULES.get(code)
    if rule is None:
        return ""
    return re.sub(r"(?<!^)(?=[A-Z])", "-", rule.__name__).lower()


__all__ = ["RULES", "FileContext", "Report", "Rule", "rule_name"]
