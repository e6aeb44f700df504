"""``jaxlint --add-noqa``: a ``# noqa: CODE`` comment for every current finding, the way a
large codebase adopts a linter (what exists is marked, what is written next is checked).

The comment goes where ``jaxlint.noqa`` (and flake8) look for it: the reported line, or,
when that line is part of a token spanning lines (a multi-line string, a backslash
continuation), the last line of that span, where a comment can be written. A line that
already has ``# noqa: CODES`` gets the new codes added to its list; any other comment stays
and the directive is appended after it. Line endings, encoding and BOM are kept.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable

from jaxlint.finding import Finding
from jaxlint.noqa import INLINE
from jaxlint.text_lines import split_lines


def _scan(text: str) -> tuple[dict[int, int], dict[int, int]]:
    """From the tokens, as flake8 groups them: line -> the last line of the token span it
    is in (lines of spans over one line only), and line -> the column its comment starts
    at (so a ``#`` in a string is not one)."""
    ends: dict[int, int] = {}
    comments: dict[int, int] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError):
        return ends, comments
    lo = hi = 0
    for tok in tokens:
        if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        if tok.type == tokenize.COMMENT:
            comments[tok.start[0]] = tok.start[1]
        lo = min(lo, tok.start[0]) if lo else tok.start[0]
        hi = max(hi, tok.end[0])
        if tok.type in (tokenize.NL, tokenize.NEWLINE):
            if hi > lo:
                for k in range(lo, hi + 1):
                    ends[k] = hi
            lo = hi = 0
    return ends, comments


def add_noqa(text: str, findings: Iterable[Finding]) -> tuple[str, int]:
    """``text`` with a ``# noqa`` directive for each finding (by ``line`` and ``code``),
    and how many lines got one."""
    wanted: dict[int, set[str]] = {}
    ends, comments = _scan(text)
    for f in findings:
        line = ends.get(f.line, f.line)
        wanted.setdefault(line, set()).add(f.code)
    if not wanted:
        return text, 0
    lines = split_lines(text)
    changed = 0
    for n, codes in wanted.items():
        if not 1 <= n <= len(lines):
            continue
        raw = lines[n - 1]
        body = raw.rstrip("\r\n")
        ending = raw[len(body):]
        new = _with_codes(body, sorted(codes), comments.get(n))
        if new != body:
            lines[n - 1] = new + ending
            changed += 1
    return "".join(lines), changed


def _with_codes(body: str, codes: list[str], comment_at: int | None) -> str:
    """The line ``body`` with a directive for ``codes``: added to its ``# noqa: CODES``,
    or appended after its code and any comment."""
    if comment_at is not None:
        m = INLINE.search(body, comment_at)
        if m is not None:
            if m.group("codes") is None:
                return body  # a bare directive (no codes) already silences everything
            start = m.start("codes")
            listed = body[start:m.end("codes")]
            have = [c for c in re.split(r"[,\s]+", listed.upper()) if c]
            new = [c for c in codes if not c.startswith(tuple(have))]
            if not new:
                return body
            kept = listed.rstrip(", \t")
            return body[:start] + kept + ", " + ", ".join(new) + body[start + len(kept):]
    return body.rstrip() + "  # noqa: " + ", ".join(codes)


def add_noqa_notebook(data: bytes, findings: Iterable[Finding]) -> tuple[bytes, int]:
    """``add_noqa`` for a notebook: the directives go into the cells' sources, at the line
    of the cell the finding is on (or the last line of its span), and the notebook is
    written back as it was laid out. Raises ``NotebookError`` when it cannot be (a
    layout that cannot be reproduced)."""
    from jaxlint.notebook import build, cell_lines, load, rewrite_cells

    nb = load(data)
    virtual = build(nb)
    at: dict[tuple[int, int], int] = {}  # (cell, line) -> its line in the module
    for i, v in enumerate(virtual.lines, 1):
        if v.cell and v.kind in ("code", "harness"):
            at.setdefault((v.cell, v.line), i)
    ends, _ = _scan(virtual.text)
    wanted: dict[tuple[int, int], set[str]] = {}
    for f in findings:
        if f.cell is None or (f.cell, f.line) not in at:
            continue
        v = virtual.lines[ends.get(at[(f.cell, f.line)], at[(f.cell, f.line)]) - 1]
        wanted.setdefault((v.cell, v.line), set()).add(f.code)
    sources: dict[int, str] = {}
    changed = 0
    for (cell, line), codes in sorted(wanted.items()):
        lines = sources.get(cell)
        texts = cell_lines(virtual.sources[cell]) if lines is None else split_lines(lines)
        raw = texts[line - 1]
        body = raw.rstrip("\r\n")
        _, comments = _scan(body + "\n")
        new = _with_codes(body, sorted(codes), comments.get(1))
        if new != body:
            texts[line - 1] = new + raw[len(body):]
            changed += 1
        sources[cell] = "".join(texts)
    if not changed:
        return data, 0
    return rewrite_cells(nb, data, sources), changed
