"""``# noqa`` exactly as flake8 reads it, so the CLI and the plugin suppress the same findings.

flake8 looks for the comment on every physical line of the (possibly multi-line) statement
that holds the finding, honours ``# noqa`` and ``# noqa: CODE[,PREFIX...]`` (a code matches
when it starts with a listed one) and skips a whole file with a line ``# flake8: noqa``.
"""

from __future__ import annotations

import io
import re
import tokenize

INLINE = re.compile(r"# noqa(?::[\s]?(?P<codes>([A-Z]+[0-9]+(?:[,\s]+)?)+))?", re.IGNORECASE)
FILE = re.compile(r"\s*# flake8[:=]\s*noqa", re.IGNORECASE)
_SPLIT = re.compile(r"[,\s]")


def file_is_skipped(lines: list[str]) -> bool:
    return any(FILE.match(line) for line in lines)


def _line_groups(text: str, lines: list[str]) -> dict[int, str]:
    """Line number -> the text of all lines of the statement it belongs to (as flake8 does)."""
    out: dict[int, str] = {}
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return out
    lo, hi = len(lines) + 2, -1
    for tok in tokens:
        if tok.type in (tokenize.ENDMARKER, tokenize.DEDENT):
            continue
        lo = min(lo, tok.start[0])
        hi = max(hi, tok.end[0])
        if tok.type in (tokenize.NL, tokenize.NEWLINE):
            joined = "".join(lines[lo - 1 : hi])
            for n in range(lo, hi + 1):
                out[n] = joined
            lo, hi = len(lines) + 2, -1
    return out


class NoqaIndex:
    def __init__(self, text: str) -> None:
        self.lines = text.splitlines(keepends=True)
        self._groups: dict[int, str] | None = None
        self._text = text
        # Most files say ``noqa`` nowhere: then nothing is suppressed, and the file need not
        # be tokenized to find each statement's lines.
        self._any = "noqa" in text or INLINE.search(text) is not None

    def suppresses(self, line: int, code: str) -> bool:
        if not self._any:
            return False
        if self._groups is None:
            self._groups = _line_groups(self._text, self.lines)
        physical = self._groups.get(line)
        if physical is None:
            physical = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        match = INLINE.search(physical)
        if match is None:
            return False
        codes_str = match.group("codes")
        if codes_str is None:
            return True
        codes = {c.strip() for c in _SPLIT.split(codes_str) if c.strip()}
        return code in codes or code.startswith(tuple(codes))
