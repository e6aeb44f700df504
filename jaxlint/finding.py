"""The record every rule produces and every front end prints."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Finding:
    """One mistake at one place in one file.

    ``line`` is 1-based and ``col`` is 0-based, as in Python's ``ast`` and flake8's plugin
    API; front ends that print a column add one, as flake8 does.
    ``region`` is the timed region as (start line, stop line) when the rule knows it.
    ``fixable`` says whether ``fix_source`` will change the code for this finding.
    """

    code: str
    message: str
    line: int
    col: int
    fixable: bool = False
    region: tuple[int, int] | None = None
    path: str = field(default="<string>", compare=False)

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.line, self.col, self.code)
