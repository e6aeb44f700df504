"""Map line numbers of the script as written to the script as ``--fix`` rewrote it.

The fixer inserts lines (``jax.block_until_ready(...)``, ``import jax``), so a region found at
lines 13-15 as written may sit at 14-17 in the fixed file.  The timer reads that bound a region
are not what the fix edits, so they survive as unchanged lines that difflib can match.

The one fix that moves a line (JAX104 moves the host copy after the stop) makes difflib keep
the moved line and drop the stop's read instead: a longest-common-subsequence cannot cross.
So lines left unmatched on both sides are paired afterwards by identical text, when that
text is unique among them: a fix never writes a copy of an existing line, so a line found
once on each side is the same line, moved.
"""

from __future__ import annotations

import difflib


class LineMap:
    """Old (as written) 1-based line -> new (fixed) 1-based line."""

    def __init__(self, old_source: str, new_source: str) -> None:
        self._old = old_source.splitlines()
        self._new = new_source.splitlines()
        self._map: dict[int, int] = {}
        matcher = difflib.SequenceMatcher(a=self._old, b=self._new, autojunk=False)
        for tag, i1, i2, j1, j2 in matcher.get_opcodes():
            if tag == "equal":
                for k in range(i2 - i1):
                    self._map[i1 + k + 1] = j1 + k + 1
            elif tag == "replace":
                self._map_replaced(i1, i2, j1, j2)
            # "delete": the line is gone, so it has no counterpart; "insert" maps nothing old.
        self._map_moved()

    def _map_replaced(self, i1: int, i2: int, j1: int, j2: int) -> None:
        """Lines the fix edited in place: pair each with its most similar new line.

        A fix may rewrite a line of the region itself (for instance wrap a call), and the line
        still exists in the fixed file; the most similar line in the replacement block is the
        best guess for where it went.
        """
        for i in range(i1, i2):
            best_j, best_ratio = -1, 0.0
            for j in range(j1, j2):
                ratio = difflib.SequenceMatcher(a=self._old[i], b=self._new[j]).ratio()
                if ratio > best_ratio:
                    best_j, best_ratio = j, ratio
            if best_j >= 0 and best_ratio >= 0.5:
                self._map[i + 1] = best_j + 1

    def _map_moved(self) -> None:
        taken = set(self._map.values())
        old_left: dict[str, list[int]] = {}
        new_left: dict[str, list[int]] = {}
        for i, text in enumerate(self._old, start=1):
            if i not in self._map and text.strip():
                old_left.setdefault(text, []).append(i)
        for j, text in enumerate(self._new, start=1):
            if j not in taken and text.strip():
                new_left.setdefault(text, []).append(j)
        for text, olds in old_left.items():
            news = new_left.get(text, [])
            if len(olds) == 1 and len(news) == 1:
                self._map[olds[0]] = news[0]

    def __getitem__(self, line: int) -> int:
        return self._map[line]

    def get(self, line: int) -> int | None:
        return self._map.get(line)

    def region(self, region: tuple[int, int]) -> tuple[int, int] | None:
        """The region's (start, stop) in the fixed file, or None if either line vanished."""
        start, stop = self._map.get(region[0]), self._map.get(region[1])
        if start is None or stop is None:
            return None
        return (start, stop)
