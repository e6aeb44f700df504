"""The record verify produces for each timed region (or each file without one)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from jaxlint.verify.stats import Pending, Spread, ratio

NO_FINDINGS = "no findings: left alone"
NOT_RUN_CLEAN = "no findings: not run (--all runs it)"
NOT_RUN_SETUP = "not run: a setup.py-like file (verify never runs those)"
NOT_FIXED = "not fixed by --fix"
NOT_FIXED_UNSAFE = "not fixed: unsafe fix (add --unsafe-fixes)"
NOT_MEASURED = "not measured: the region's timer lines never ran"
NO_REGION = "no region reported: not measured"


@dataclass
class Device:
    """The device the scripts ran on, as the child's JAX reported it."""

    kind: str | None
    platform: str | None
    jax_version: str | None
    jaxlib_version: str | None = None
    python: str | None = None
    host: str | None = None

    @classmethod
    def from_json(cls, data: dict[str, Any] | None) -> Device | None:
        if not data or not data.get("kind"):
            return None
        return cls(data.get("kind"), data.get("platform"), data.get("jax_version"),
                   data.get("jaxlib_version"), data.get("python"), data.get("host"))

    def header(self) -> str:
        return f"{self.kind} (jax {self.jax_version}, {self.platform})"

    def details(self) -> str:
        """Everything known about where the runs ran, for a report."""
        return (f"{self.kind} ({self.platform}); jax {self.jax_version}, jaxlib "
                f"{self.jaxlib_version or '?'}, Python {self.python or '?'}, host "
                f"{self.host or '?'}")


@dataclass
class RegionResult:
    """One finding's timed region, measured as written and as fixed.

    ``as_written_runs`` / ``fixed_runs`` hold one value per run that measured the region (the
    median over the region's occurrences in that run), in seconds.  Files with no findings, or
    files that failed before any region could be paired, get one record with ``code`` None.
    """

    path: str
    code: str | None
    region: tuple[int, int] | None
    verdict: str
    fixed_region: tuple[int, int] | None = None
    message: str | None = None
    as_written_runs: list[float] = field(default_factory=list)
    fixed_runs: list[float] = field(default_factory=list)
    device: Device | None = None
    error: str | None = None  # one line, set when a run failed or timed out
    failed: bool = False
    fix: str | None = None  # "safe" / "unsafe": the finding's fix, when it was applied
    runtime: Pending | None = None  # the pending-work check at the stops, as written
    runtime_fixed: Pending | None = None  # the same in the fixed runs
    check_s: float | None = None  # the check's own cost per read in this file's runs (median)

    @property
    def as_written(self) -> Spread:
        return Spread(tuple(self.as_written_runs))

    @property
    def fixed(self) -> Spread:
        return Spread(tuple(self.fixed_runs))

    @property
    def as_written_s(self) -> float | None:
        return self.as_written.median

    @property
    def fixed_s(self) -> float | None:
        return self.fixed.median

    @property
    def ratio(self) -> float | None:
        return ratio(self.as_written_s, self.fixed_s)

    def to_json(self) -> dict[str, Any]:
        """The ``--json`` object: the documented fields first, then the detail behind them."""
        return {
            "path": self.path,
            "code": self.code,
            "region": list(self.region) if self.region else None,
            "as_written_s": self.as_written_s,
            "fixed_s": self.fixed_s,
            "ratio": self.ratio,
            "verdict": self.verdict,
            "device": self.device.kind if self.device else None,
            "platform": self.device.platform if self.device else None,
            "jax_version": self.device.jax_version if self.device else None,
            "fixed_region": list(self.fixed_region) if self.fixed_region else None,
            "as_written_runs_s": list(self.as_written_runs),
            "fixed_runs_s": list(self.fixed_runs),
            "failed": self.failed,
            "error": self.error,
            "message": self.message,
            "fix_applied": self.fix,
            "runtime": self.runtime.verdict if self.runtime else None,
            "runtime_fixed": self.runtime_fixed.verdict if self.runtime_fixed else None,
            "pending_arrays": self.runtime.arrays_text() if self.runtime else None,
            "work_left_s": self.runtime.work_left_s if self.runtime else None,
            "check_s": self.check_s,
            "jaxlib_version": self.device.jaxlib_version if self.device else None,
            "python": self.device.python if self.device else None,
            "host": self.device.host if self.device else None,
        }
