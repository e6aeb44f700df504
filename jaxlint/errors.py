"""Errors shared by the engine and its front ends (kept free of heavy imports)."""

from __future__ import annotations


class SourceError(Exception):
    """The file cannot be analysed (it does not parse, or cannot be decoded)."""

    def __init__(self, message: str, line: int = 1, col: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col
