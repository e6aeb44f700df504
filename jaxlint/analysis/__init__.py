"""What the rules share: which calls are timers and JAX work, and where timed regions are.

The question every rule asks, "is this region's JAX work finished when the clock is read?",
is answered once, by ``flow.FlowAnalysis``; ``plans`` turns its answer into edits.
"""

from jaxlint.analysis.flow import FlowAnalysis, HarnessUse, Region
from jaxlint.analysis.plans import (
    FixPlan,
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
    "InsertSync",
    "MoveAfter",
    "Region",
    "ReplaceExpr",
    "WrapExpr",
    "WrapSync",
]
