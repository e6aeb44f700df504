"""The record every rule produces and every front end prints."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Finding:
    """One mistake at one place in one file.

    ``line`` is 1-based and ``col`` is 0-based, as in Python's ``ast`` and flake8's plugin
    API; front ends that print a column add one, as flake8 does.
    ``region`` is the timed region as (start line, stop line) when the rule knows it.
    ``fixable`` says whether a fix exists; ``unsafe`` whether that fix is unsafe (it moves or
    adds user code) and so applies only when unsafe fixes are asked for.
    """

    code: str
    message: str
    line: int
    col: int
    fixable: bool = False
    region: tuple[int, int] | None = None
    path: str = field(default="<string>", compare=False)
    unsafe: bool = False
    cell: int | None = None  # in a notebook: the cell (from 1); ``line`` is within it
    # in a notebook: the cells of the region's first and last lines (``region`` then counts
    # lines within those cells)
    region_cells: tuple[int, int] | None = field(default=None, compare=False)
    # the evidence (``--explain``): the region, the work still running and why it is work
    explanation: str | None = field(default=None, compare=False)

    @property
    def fix_applicability(self) -> str | None:
        """"safe", "unsafe" or None (no fix), as ruff calls it."""
        if not self.fixable:
            return None
        return "unsafe" if self.unsafe else "safe"

    def sort_key(self) -> tuple[str, int, int, int, str]:
        return (self.path, self.cell or 0, self.line, self.col, self.code)

    @property
    def location(self) -> str:
        """``path:line:col`` (1-based column), or ``path:cell N:line:col`` in a notebook."""
        cell = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.path}:{cell}{self.line}:{self.col + 1}"


@dataclass(frozen=True)
class FileError:
    """A path that could not be checked (it does not parse, cannot be read or written):
    reported beside the findings, in every output format.

    ``line`` is 1-based and None when the problem has no one place in the file; ``col`` is
    0-based. In a notebook, ``cell`` is the cell (from 1) and ``line`` is within it.
    """

    path: str
    message: str
    line: int | None = None
    col: int = 0
    cell: int | None = None

    @property
    def location(self) -> str:
        """``path``, ``path:line:col`` or ``path:cell N:line:col`` (1-based column)."""
        if self.line is None:
            return self.path
        cell = f"cell {self.cell}:" if self.cell is not None else ""
        return f"{self.path}:{cell}{self.line}:{self.col + 1}"

    def sort_key(self) -> tuple[str, int, int, int]:
        return (self.path, self.cell or 0, self.line or 0, self.col)
