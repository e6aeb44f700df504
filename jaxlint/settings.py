"""What the engine needs besides the source, and the cheap test run before parsing anything.

This module imports nothing heavy, so the command line can reject files that cannot hold a
finding without importing libcst at all.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from jaxlint.analysis.names import NO_EXTRAS, Extras


@dataclass(frozen=True)
class Settings:
    """Which rules, the project's own names, what other modules of the project export
    (a mapping of qualified name to abstract value), and this file's module name."""

    select: Collection[str] | None = None
    ignore: Collection[str] | None = None
    extras: Extras = NO_EXTRAS
    index: Mapping[str, Any] | None = None
    module_name: str | None = None
    honour_noqa: bool = True
    prefilter: bool = True  # off only to prove the prefilter never hides a finding


def might_matter(source: str | bytes, extras: Extras = NO_EXTRAS) -> bool:
    """Whether ``source`` can hold a finding: it must name jax, and a clock module (time,
    timeit), a pytest-benchmark fixture or one of the project's own timers. Never false for
    a file with a finding (a test checks this on every fixture), and about a thousand times
    cheaper than parsing."""
    if isinstance(source, str):
        return "jax" in source and any(
            n in source for n in ("time", "benchmark", *extras.needles()))
    return b"jax" in source and any(
        n in source for n in (b"time", b"benchmark", *(x.encode() for x in extras.needles())))
