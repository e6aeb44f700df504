"""What the rules share: which calls are timers and JAX work, and where timed regions are.

The question every rule asks, "is this region's JAX work finished when the clock is read?",
is answered once, by ``flow.FlowAnalysis`` (an interpreter whose parts each have a module:
``flow``'s docstring lists them in reading order); ``plans`` turns its answer into edits.
(Imported lazily: ``analysis.names`` is needed before anything is parsed.)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis, HarnessUse, Region
    from jaxlint.analysis.plans import (
        FixPlan,
        InsertBind,
        InsertSync,
        MoveAfter,
        ReplaceExpr,
        WrapExpr,
        WrapSync,
    )

__all__ = [
    "FixPlan",
    "FlowAnalysis",
    "HarnessUse",
    "InsertBind",
    "InsertSync",
    "MoveAfter",
    "Region",
    "ReplaceExpr",
    "WrapExpr",
    "WrapSync",
]


def __getattr__(name: str) -> Any:
    if name in ("FlowAnalysis", "HarnessUse", "Region"):
        from jaxlint.analysis import flow

        return getattr(flow, name)
    if name in __all__:
        from jaxlint.analysis import plans

        return getattr(plans, name)
    raise AttributeError(f"module 'jaxlint.analysis' has no attribute {name!r}")
