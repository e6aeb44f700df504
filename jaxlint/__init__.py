"""jaxlint: find and fix JAX timings that measure dispatch instead of work.

The public API is imported lazily, so ``import jaxlint`` (and the command line on files that
cannot hold a finding) does not pay for importing libcst.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = ["Finding", "FixResult", "RULES", "__version__", "fix_source", "lint_source"]

if TYPE_CHECKING:
    from jaxlint.engine import FixResult, fix_source, lint_source
    from jaxlint.finding import Finding
    from jaxlint.rules import RULES


def __getattr__(name: str) -> Any:
    if name in ("FixResult", "fix_source", "lint_source"):
        from jaxlint import engine

        return getattr(engine, name)
    if name == "Finding":
        from jaxlint.finding import Finding

        return Finding
    if name in ("load_ipython_extension", "unload_ipython_extension"):
        # ``%load_ext jaxlint`` (IPython looks these up on the package)
        from jaxlint import ipython

        return getattr(ipython, name)
    if name == "RULES":
        from jaxlint.rules import RULES

        return RULES
    raise AttributeError(f"module 'jaxlint' has no attribute {name!r}")
