"""The lines of a text as Python's tokenizer, the editor protocol and jaxlint's outputs
count them: broken at ``\\n``, ``\\r\\n`` and ``\\r`` only (not at the other line breaks
``str.splitlines`` knows, such as ``\\f`` or ``\\x85``), each line with its line end."""

from __future__ import annotations

import re

LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")


def split_lines(text: str) -> list[str]:
    """``text``'s lines, each with its line end (the last may have none)."""
    return LINE.findall(text)
