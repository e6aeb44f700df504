"""What the rules share: which calls are timers and JAX work, and where timed regions are.

The question every rule asks, "is this region's JAX work finished when the clock is read?",
is answered once, by ``flow.FlowAnalysis``; ``plans`` turns its answer into edits.
"""

from jaxlint.analysis.flow import FlowAnalysis, Region
from jaxlint.analysis.plans import FixPlan, InsertSync, MoveAfter, WrapSync

__all__ = ["FixPlan", "FlowAnalysis", "InsertSync", "MoveAfter", "Region", "WrapSync"]
