"""Where a TOML file sets a key, for configuration errors that say the line and column.

``tomllib`` gives values, not places; errors are rare, so the file is scanned again, by
lines, only when one is reported. The scan knows tables (``[tool.jaxlint]``), dotted keys
(``tool.jaxlint.select = ...``, ``jaxlint.select`` under ``[tool]``), inline tables on one
line (``jaxlint = { select = [...] }``) and values spanning lines; anything else is simply
not found, and the message then names the file alone.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence

_BARE = r"[A-Za-z0-9_-]+"
_BASIC = r'"(?:[^"\\\n]|\\.)*"'
_LITERAL = r"'[^'\n]*'"
_KEY = rf"(?:{_BARE}|{_BASIC}|{_LITERAL})"
_PART = re.compile(_KEY)
_KEYS_AT = re.compile(rf"[ \t]*({_KEY}(?:[ \t]*\.[ \t]*{_KEY})*)[ \t]*=")
_HEADER = re.compile(rf"[ \t]*\[\[?[ \t]*({_KEY}(?:[ \t]*\.[ \t]*{_KEY})*)[ \t]*\]")
# strings and comments, blanked before brackets are counted
_NOISE = re.compile(r'"""(?:[^\\]|\\.)*?"""' + r"|'''.*?'''|" + _BASIC + "|" + _LITERAL
                    + r"|#[^\n]*", re.S)


def _parts(dotted: str) -> list[str]:
    out = []
    for part in _PART.findall(dotted):
        if part.startswith('"'):
            try:
                part = json.loads(part)
            except ValueError:
                part = part[1:-1]
        elif part.startswith("'"):
            part = part[1:-1]
        out.append(part)
    return out


def _depths(text: str) -> list[int]:
    """For each line, how many brackets are open where it starts (outside strings and
    comments): a line that starts inside a value is no key's line."""
    blank = _NOISE.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text)
    out, depth = [], 0
    for line in blank.split("\n"):
        out.append(depth)
        depth = max(0, depth + line.count("[") + line.count("{") - line.count("]")
                    - line.count("}"))
    return out


def locate(text: str, keys: Sequence[str], value: str | None = None) -> tuple[int, int] | None:
    """The 1-based (line, column) where ``text`` sets the key at the path ``keys``
    (``("tool", "jaxlint", "select")``), or, given ``value``, where that string is in what
    the key is set to; None when the scan cannot tell."""
    want = list(keys)
    table: list[str] = []
    lines = text.split("\n")
    depths = _depths(text)
    offset = 0
    for n, line in enumerate(lines, 1):
        start, offset = offset, offset + len(line) + 1
        if depths[n - 1]:
            continue
        header = _HEADER.match(line)
        if header is not None:
            table = _parts(header.group(1))
            found, col = table, header.start(1)
        else:
            m = _KEYS_AT.match(line)
            if m is None:
                continue
            found, col = table + _parts(m.group(1)), m.start(1)
        if found == want:
            return (n, col + 1) if value is None else _value_at(text, start + col, value)
        if header is None and len(found) < len(want) and found == want[:len(found)]:
            # ``jaxlint = { select = [...] }``: the rest of the path is in an inline table
            inner = re.search(r"(?<![\w-])[\"']?" + re.escape(want[-1]) + r"[\"']?[ \t]*=",
                              line[col:])
            if inner is not None:
                at = col + inner.start()
                return (n, at + 1) if value is None else _value_at(text, start + at, value)
    return None


def _value_at(text: str, start: int, value: str) -> tuple[int, int] | None:
    for quoted in (json.dumps(value), f"'{value}'"):
        at = text.find(quoted, start)
        if at >= 0:
            return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1
    return None
