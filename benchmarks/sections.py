"""Keep several scripts' tables in one RESULTS.md: each owns a section between markers."""

from __future__ import annotations

from pathlib import Path


def write_section(results: Path, start: str, end: str, body: str) -> None:
    """Replace the text from ``start`` to ``end`` in ``results`` with ``body`` (which holds
    both markers), or append ``body`` when the file has no such section yet."""
    text = results.read_text() if results.exists() else ""
    if start in text and end in text:
        head, rest = text.split(start, 1)
        text = head + body + rest.split(end, 1)[1].lstrip("\n")
    else:
        text = text.rstrip("\n") + "\n\n" + body
    results.write_text(text)
