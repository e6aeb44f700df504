"""Where a notebook cell's lines are stored in the ``.ipynb`` file itself.

Findings in a notebook are placed in its cells (``cell 3, line 2``), which is what a person
reads in Jupyter. CI formats address the file as stored: a GitHub annotation or a SARIF
result at ``line=2`` of ``nb.ipynb`` lands on the JSON's second line (``"cells": [``), and a
reviewer reads the notebook's diff, where each line of a cell is a string of a ``source``
list on a line of its own. ``Placer`` answers, for a cell's line and column, the line and
column of the file where that character is stored, by scanning the JSON once for the
position of every ``source`` string of every cell (nothing else is kept).
"""

from __future__ import annotations

import bisect
import json
import re

from jaxlint.text_lines import split_lines

# A JSON string (as stored, escapes and all), a structural character, or a bare word
# (number, true, false, null); whitespace between them is skipped by finditer.
_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]|[^\s{}\[\],:"]+', re.S)
_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}|\\.|.", re.S)
# A character beyond U+FFFF escaped as a surrogate pair is one character decoded.
_HIGH = re.compile(r"\\u[dD][89abAB][0-9a-fA-F]{2}")
_LOW = re.compile(r"\\u[dD][c-fC-F][0-9a-fA-F]{2}")


class Placer:
    """``place(cell, line, col)``: the 1-based (line, column) in the file of the character
    at ``col`` (0-based) of line ``line`` (1-based) of cell ``cell`` (1-based, all kinds
    counted), or None when the file does not store that cell's source where it can be
    found (not a notebook, a broken one)."""

    def __init__(self, data: bytes) -> None:
        self.text = data.decode("utf-8-sig", errors="replace")
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        # cell -> its source pieces: (offset of the opening quote, the string as stored,
        # its decoded text); a cell's source is one string or a list of them
        self.pieces: dict[int, list[tuple[int, str, str]]] = {}
        try:
            self._scan()
        except (ValueError, IndexError, RecursionError):
            self.pieces = {}

    def _scan(self) -> None:
        # (kind, key or index, expecting a key) for each open container, outermost first
        stack: list[list[object]] = []
        for m in _TOKEN.finditer(self.text):
            tok = m.group()
            top = stack[-1] if stack else None
            if tok in ("{", "["):
                stack.append(["obj" if tok == "{" else "arr", None if tok == "{" else 0,
                              tok == "{"])
            elif tok in ("}", "]"):
                stack.pop()
            elif tok == ",":
                if top is not None:
                    if top[0] == "arr":
                        top[1] = int(top[1]) + 1  # type: ignore[call-overload]
                    else:
                        top[2] = True
            elif tok == ":":
                if top is not None:
                    top[2] = False
            elif top is not None and top[0] == "obj" and top[2]:
                top[1] = json.loads(tok) if tok.startswith('"') else tok
            elif tok.startswith('"'):
                cell = self._source_of(stack)
                if cell is not None:
                    self.pieces.setdefault(cell, []).append((m.start(), tok, json.loads(tok)))

    @staticmethod
    def _source_of(stack: list[list[object]]) -> int | None:
        """The cell (from 1) whose source the string at this point of the scan belongs to:
        ``{"cells": [..., {"source": "..." or [..., "..."]}]}``."""
        n = len(stack)
        if n not in (3, 4) or stack[0][:2] != ["obj", "cells"] or stack[1][0] != "arr":
            return None
        if stack[2][:2] != ["obj", "source"]:
            return None
        if n == 4 and stack[3][0] != "arr":
            return None
        index = stack[1][1]
        assert isinstance(index, int)
        return index + 1

    def place(self, cell: int, line: int, col: int) -> tuple[int, int] | None:
        pieces = self.pieces.get(cell)
        if not pieces:
            return None
        source = "".join(p[2] for p in pieces)
        lines = split_lines(source)
        if not 1 <= line <= max(len(lines), 1):
            return None
        target = sum(len(s) for s in lines[:line - 1]) + max(col, 0)
        # the piece holding that character (or the end of the last one)
        end = 0
        for i, (quote, raw, text) in enumerate(pieces):
            if target < end + len(text) or i == len(pieces) - 1:
                return self._at(quote, raw, min(target - end, len(text)))
            end += len(text)
        return None

    def _at(self, quote: int, raw: str, k: int) -> tuple[int, int]:
        """The file's (line, column) of the ``k``-th decoded character of the string ``raw``
        stored at offset ``quote``."""
        offset = quote + 1
        body = raw[1:-1]
        pos = n = 0
        while n < k and pos < len(body):
            m = _ESCAPE.match(body, pos)
            assert m is not None
            pos = m.end()
            if _HIGH.fullmatch(m.group()):
                low = _LOW.match(body, pos)
                if low is not None:
                    pos = low.end()
            n += 1
        offset += pos
        row = bisect.bisect_right(self.starts, offset)
        return row, offset - self.starts[row - 1] + 1
