"""jaxlint: find and fix JAX timings that measure dispatch instead of work."""

from __future__ import annotations

__version__ = "0.1.0"

from jaxlint.engine import FixResult, fix_source, lint_source
from jaxlint.finding import Finding
from jaxlint.rules import RULES

__all__ = ["Finding", "FixResult", "RULES", "__version__", "fix_source", "lint_source"]
