"""What the rules share: which calls are timers and JAX work, and where timed regions are.

The question every rule asks, "is this region's JAX work finished when the clock is read?",
is answered once, by ``flow.FlowAnalysis``.
"""

from jaxlint.analysis.flow import FlowAnalysis, Region, SyncPlan

__all__ = ["FlowAnalysis", "Region", "SyncPlan"]
