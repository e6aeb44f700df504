"""Rendering findings as text, JSON, GitHub annotations or SARIF. Pure: strings in, string out.

``render(findings, fmt)`` is all a front end needs. Two optional inputs add detail:

``sources(path)``
    the text of ``path`` that the findings' positions refer to, or None when unknown. The
    ``full`` format shows source lines from it; with ``fixed`` it is the text before fixing.
``fixed[path]``
    the text ``jaxlint --fix`` would write for ``path`` (only paths a fix changes). ``text``,
    ``concise`` and ``full`` show the fix as a unified diff after the file's findings;
    ``sarif`` attaches it to the results as SARIF ``fixes``. All need ``sources`` for the same
    path.

``errors`` are the paths that could not be checked (``FileError``): every format but the
people's (which leave them to stderr) carries them, as error records in ``json`` /
``json-lines`` (``"code": null``, as ruff writes a syntax error), ``::error`` annotations in
``github``, issues in ``gitlab`` and ``toolExecutionNotifications`` in ``sarif`` (whose run
is then marked as not successful).

``places(path, cell, line, col)`` gives, for a notebook, the 1-based (line, column) of the
``.ipynb`` file where that cell's character is stored. ``github``, ``gitlab`` and ``sarif``
address the file as stored with it, and name the cell in the message; without it, a
notebook's finding is placed on the file alone (never on a line of the JSON it is not on).

``color`` adds ANSI colours to the formats meant for people (``text``, ``concise``,
``full``). Whatever came from the user's files (paths, code in messages, source lines) is
shown with its control characters escaped in those formats, so a file named with an escape
sequence or a line break cannot forge or hide output on a terminal.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from jaxlint import __version__
from jaxlint.finding import FileError, Finding
from jaxlint.text_lines import split_lines

# json, difflib, pathlib and urllib are imported where used: the plain text output of a
# clean pre-commit run needs none of them, and start-up time is most of such a run.

FORMATS = ("text", "concise", "full", "json", "json-lines", "github", "gitlab", "sarif")

SARIF_SCHEMA = (
    "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
)
CONTEXT_LINES = 2  # source lines shown before and after a finding's line in ``full``

Sources = Callable[[str], "str | None"]
Places = Callable[[str, int, int, int], "tuple[int, int] | None"]


def render(
    findings: Iterable[Finding],
    fmt: str,
    *,
    sources: Sources | None = None,
    fixed: Mapping[str, str] | None = None,
    unsafe_fixes: bool = False,
    color: bool = False,
    errors: Iterable[FileError] = (),
    places: Places | None = None,
) -> str:
    """All findings (and ``errors``) in the format ``fmt`` (one of FORMATS), sorted by path
    and position.

    ``unsafe_fixes`` says whether ``fixed`` includes unsafe fixes; when it does not, findings
    whose fix is unsafe are not credited with any part of it.
    """
    ordered = sorted(findings, key=Finding.sort_key)
    failed = sorted(errors, key=FileError.sort_key)
    fixed = fixed or {}
    paint = _Paint(color)
    if fmt in ("text", "concise"):
        return _text(ordered, sources, fixed, paint)
    if fmt == "full":
        return _full(ordered, sources, fixed, unsafe_fixes, paint)
    if fmt == "json":
        import json

        return json.dumps(rows(ordered, failed), indent=2) + "\n"
    if fmt == "json-lines":
        import json

        return "".join(json.dumps(r) + "\n" for r in rows(ordered, failed))
    if fmt == "github":
        return "".join(_github(f, places) + "\n" for f in ordered) + "".join(
            _github_error(e, places) + "\n" for e in failed)
    if fmt == "gitlab":
        import json

        return json.dumps(gitlab(ordered, failed, places), indent=2) + "\n"
    if fmt == "sarif":
        import json

        return json.dumps(sarif(ordered, sources, fixed, unsafe_fixes, failed, places),
                          indent=2) + "\n"
    raise ValueError(f"unknown output format: {fmt!r} (expected one of {', '.join(FORMATS)})")


def unified_diff(path: str, old: str, new: str) -> str:
    """The change from ``old`` to ``new`` as a unified diff with a/ and b/ file names."""
    import difflib

    return "".join(difflib.unified_diff(split_lines(old), split_lines(new), f"a/{path}",
                                        f"b/{path}"))


def statistics(findings: Iterable[Finding], fmt: str, color: bool = False,
               errors: Iterable[FileError] = ()) -> str:
    """The number of findings per rule, most frequent first. ``json`` / ``json-lines``:
    ``{"code", "name", "count", "fixable", "unsafe_fixable"}`` objects (``fixable``: how many
    ``--fix`` removes, ``unsafe_fixable``: how many only with ``--unsafe-fixes``), and one
    with ``"code": null`` and the name ``error`` counting the paths that could not be
    checked, if any; any other format: one line each, count, code, ``[*]`` when ``--fix``
    removes all of them (``[-]`` some, or only unsafely) and the rule's name."""
    from jaxlint.rules import rule_name

    counts: dict[str, list[Finding]] = {}
    for f in findings:
        counts.setdefault(f.code, []).append(f)
    ranked = sorted(counts.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    if fmt in ("json", "json-lines"):
        import json

        objects = [{"code": code, "name": rule_name(code), "count": len(items),
                    "fixable": sum(f.fixable and not f.unsafe for f in items),
                    "unsafe_fixable": sum(f.fixable and f.unsafe for f in items)}
                   for code, items in ranked]
        failed = len(list(errors))
        if failed:
            objects.append({"code": None, "name": "error", "count": failed, "fixable": 0,
                            "unsafe_fixable": 0})
        if fmt == "json":
            return json.dumps(objects, indent=2) + "\n"
        return "".join(json.dumps(o) + "\n" for o in objects)
    paint = _Paint(color)
    out = []
    for code, items in ranked:
        mark = "[*]" if all(f.fixable and not f.unsafe for f in items) else "[-]" if any(
            f.fixable for f in items) else "   "
        out.append(f"{len(items):>5}\t{paint.code(code)}\t{mark} {rule_name(code)}\n")
    return "".join(out)


# --- text, json, github -------------------------------------------------------------------

# Shown escaped on a terminal: C0 controls but the tab, DEL and C1 controls (an escape
# sequence, a carriage return that overwrites the line, a line break that forges another
# finding) and the bidirectional overrides that reorder what is shown.
_UNPRINTABLE = re.compile("[\x00-\x08\x0a-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def printable(text: str) -> str:
    """``text`` with its control characters written as Python escapes (``\\x1b``)."""
    return _UNPRINTABLE.sub(lambda m: ascii(m.group())[1:-1], text)


class _Paint:
    """ANSI colours as ruff uses them (bold path, red code, cyan marks), or none."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def _sgr(self, codes: str, text: str) -> str:
        return f"\x1b[{codes}m{text}\x1b[0m" if self.on and text else text

    def path(self, text: str) -> str:
        return self._sgr("1", text)

    def code(self, text: str) -> str:
        return self._sgr("1;31", text)

    def mark(self, text: str) -> str:
        return self._sgr("36", text)

    def diff(self, line: str) -> str:
        if line.startswith(("+++", "---")):
            return self._sgr("1", line)
        if line.startswith("@@"):
            return self._sgr("36", line)
        if line.startswith("+"):
            return self._sgr("32", line)
        if line.startswith("-"):
            return self._sgr("31", line)
        return line


_PLAIN = _Paint(False)


def _header(f: Finding, mark: str = "", paint: _Paint = _PLAIN) -> str:
    return (f"{paint.path(printable(f.location))}: {paint.code(f.code)} "
            f"{paint.mark(mark)}{printable(f.message)}")


def _fix_lines(path: str, old: str, new: str, paint: _Paint) -> list[str]:
    return [f"Fix for {paint.path(printable(path))} (jaxlint --fix):",
            *(paint.diff(printable(line)) for line in unified_diff(path, old, new).splitlines())]


def _text(findings: list[Finding], sources: Sources | None, fixed: Mapping[str, str],
          paint: _Paint) -> str:
    """One line per finding; with ``fixed``, each file's fix as a diff after its findings."""
    out: list[str] = []
    for i, f in enumerate(findings):
        out.append(_header(f, paint=paint))
        last_of_file = i + 1 == len(findings) or findings[i + 1].path != f.path
        text = sources(f.path) if sources and last_of_file and f.path in fixed else None
        if text is not None:
            out.extend(_fix_lines(f.path, text, fixed[f.path], paint))
    return "".join(line + "\n" for line in out)


def _row(f: Finding) -> dict[str, Any]:
    """As ``--format json`` has it: ``fixable`` by ``--fix`` alone; ``fix`` is "safe",
    "unsafe" (needs ``--unsafe-fixes``) or None."""
    row = {"path": f.path, "line": f.line, "col": f.col + 1, "code": f.code,
           "message": f.message, "fixable": f.fixable and not f.unsafe,
           "fix": f.fix_applicability}
    if f.cell is not None:
        row["cell"] = f.cell
    if f.region is not None:
        # the timed region, from its first read to its last (a with-timer: its block), so
        # tools can match a finding to a timing; in a notebook, with each end's cell
        start, stop = ({"line": n} for n in f.region)
        if f.region_cells is not None:
            start["cell"], stop["cell"] = f.region_cells
        row["region"] = {"start": start, "stop": stop}
    if f.explanation is not None:
        row["explanation"] = f.explanation
    return row


def _error_row(e: FileError) -> dict[str, Any]:
    """An error record: a finding's keys, with no code (ruff's JSON marks a syntax error
    so) and no fix; ``line`` and ``col`` are null when the error has no one place."""
    row: dict[str, Any] = {"path": e.path, "line": e.line,
                           "col": e.col + 1 if e.line is not None else None, "code": None,
                           "message": e.message, "fixable": False, "fix": None}
    if e.cell is not None:
        row["cell"] = e.cell
    return row


def rows(findings: Iterable[Finding], errors: Iterable[FileError] = ()) -> list[dict[str, Any]]:
    """The ``json`` format's objects: the findings, then the error records."""
    return [*(_row(f) for f in findings), *(_error_row(e) for e in errors)]


def error_line(e: FileError) -> str:
    """The one line on stderr for a path that could not be checked."""
    return printable(f"{e.location}: error: {e.message}")


def _gh_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _gh_property(text: str) -> str:
    return _gh_data(text).replace(":", "%3A").replace(",", "%2C")


def _stored(path: str, cell: int | None, line: int | None, col: int, places: Places | None
            ) -> tuple[tuple[int, int] | None, str]:
    """Where a finding or error is in the file as stored, 1-based (None: the file alone),
    and what to say before its message: a notebook's cell and line, which the file's line
    does not tell."""
    if line is None:
        return None, ""
    if cell is None:
        return (line, col + 1), ""
    where = places(path, cell, line, col) if places is not None and cell else None
    return where, f"cell {cell}, line {line}: "


def _annotation(path: str, where: tuple[int, int] | None, title: str, text: str) -> str:
    props = [("file", path)]
    if where is not None:
        props += [("line", str(where[0])), ("col", str(where[1]))]
    props.append(("title", title))
    return "::error " + ",".join(f"{k}={_gh_property(v)}" for k, v in props) + \
        f"::{_gh_data(text)}"


def _github(f: Finding, places: Places | None = None) -> str:
    where, cell = _stored(f.path, f.cell, f.line, f.col, places)
    return _annotation(f.path, where, f.code, f"{f.code} {cell}{f.message}")


def _github_error(e: FileError, places: Places | None = None) -> str:
    where, cell = _stored(e.path, e.cell, e.line, e.col, places)
    return _annotation(e.path, where, "jaxlint error", f"error: {cell}{e.message}")


# --- gitlab -------------------------------------------------------------------------------


def gitlab(findings: Iterable[Finding], errors: Iterable[FileError] = (),
           places: Places | None = None) -> list[dict[str, Any]]:
    """GitLab Code Quality issues (the ``codequality`` report of a CI job): one per finding
    and per error, each with a fingerprint that stays the same while the finding does (its
    path, code, message and how many equal ones come before it, not its line, so that an
    edit above it does not make it a new issue)."""
    import hashlib

    out: list[dict[str, Any]] = []
    seen: dict[tuple[str, str, str], int] = {}
    items: list[tuple[str, str, str, int | None, int | None, int, str]] = [
        (f.path, f.code, f.message, f.cell, f.line, f.col, "major") for f in findings]
    items += [(e.path, "jaxlint-error", e.message, e.cell, e.line, e.col, "critical")
              for e in errors]
    for path, check, message, cell, line, col, severity in items:
        key = (path, check, message)
        n = seen[key] = seen.get(key, -1) + 1
        digest = hashlib.sha256("\0".join((path, check, message, str(n))).encode())
        where, prefix = _stored(path, cell, line, col, places)
        row, column = where or (1, 1)
        out.append({
            "description": f"{check} {prefix}{message}" if check != "jaxlint-error"
            else f"error: {prefix}{message}",
            "check_name": check,
            "fingerprint": digest.hexdigest(),
            "severity": severity,
            "location": {"path": path, "positions": {"begin": {"line": row, "column": column},
                                                     "end": {"line": row, "column": column}}},
        })
    return out


# --- full ---------------------------------------------------------------------------------


def _strip_eol(line: str) -> str:
    return line.rstrip("\r\n")


def _applied(f: Finding, unsafe_fixes: bool) -> bool:
    """Whether ``fixed`` includes this finding's fix."""
    return f.fixable and (unsafe_fixes or not f.unsafe)


def _snippet(f: Finding, text: str, paint: _Paint = _PLAIN) -> list[str]:
    lines = split_lines(text)
    if not 1 <= f.line <= len(lines):
        return []
    first = max(1, f.line - CONTEXT_LINES)
    last = min(len(lines), f.line + CONTEXT_LINES)
    width = len(str(last))
    gutter = " " * width + " |"
    out = [gutter]
    for n in range(first, last + 1):
        line = printable(_strip_eol(lines[n - 1]).expandtabs())
        out.append(f"{n:>{width}} | {line}".rstrip())
        if n == f.line:
            # Tabs expanded (and controls escaped) as in the line above, so the caret lands
            # under the column.
            prefix = printable(_strip_eol(lines[n - 1])[: f.col].expandtabs())
            out.append(f"{gutter} {' ' * len(prefix)}{paint.code('^ ' + f.code)}")
    out.append(gutter)
    return out


def _full(findings: list[Finding], sources: Sources | None, fixed: Mapping[str, str],
          unsafe_fixes: bool, paint: _Paint = _PLAIN) -> str:
    """ruff's ``full`` format: each finding with its source lines and a caret under the
    column (``[*]`` marks a finding the fix removes), then the file's fix as a diff."""
    out: list[str] = []
    for i, f in enumerate(findings):
        text = sources(f.path) if sources else None
        out.append(_header(f, "[*] " if _applied(f, unsafe_fixes) else "", paint))
        if text is not None:
            out.extend(_snippet(f, text, paint))
        if f.explanation:
            out.extend("  = " + printable(line) if j == 0 else "    " + printable(line)
                       for j, line in enumerate(f.explanation.splitlines()))
        last_of_file = i + 1 == len(findings) or findings[i + 1].path != f.path
        if last_of_file and text is not None and f.path in fixed:
            out.extend(_fix_lines(f.path, text, fixed[f.path], paint))
        out.append("")
    return "".join(line + "\n" for line in out)


# --- sarif --------------------------------------------------------------------------------


def _uri(path: str) -> str:
    """A URI reference for ``path``: relative with forward slashes, or file:// if absolute."""
    from pathlib import PurePath, PurePosixPath, PureWindowsPath
    from urllib.parse import quote

    pure: PurePath = PureWindowsPath(path) if "\\" in path else PurePosixPath(path)
    if pure.is_absolute():
        return pure.as_uri()
    return quote(pure.as_posix(), safe="/")


def _summary(template: str) -> str:
    """A rule's MESSAGE with its fields elided: "timer stops before JAX work finishes"."""
    text = re.sub(r"\{[^{}]*\}", "…", template)
    return re.sub(r"\s*[:;,]\s*…$", "", text)


def _section(doc: str, title: str) -> str:
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", doc, re.M | re.S)
    return " ".join(match.group(1).split()) if match else ""


def _rule_descriptor(code: str) -> dict[str, Any]:
    from jaxlint.rules import RULES, rule_name  # the rules' docs; SARIF output only

    rule = RULES.get(code)
    if rule is None:
        return {"id": code}
    doc = inspect.cleandoc(rule.__doc__ or "")
    descriptor: dict[str, Any] = {
        "id": code,
        "name": rule_name(code),
        "shortDescription": {"text": _summary(rule.MESSAGE)},
        "defaultConfiguration": {"level": "error"},
    }
    if doc:
        descriptor["fullDescription"] = {"text": _section(doc, "What it does") or doc}
        descriptor["help"] = {"text": doc, "markdown": doc}
    return descriptor


def _position(text: str, offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset into ``text``."""
    before = split_lines(text[:offset])
    if not before or before[-1] != _strip_eol(before[-1]):  # at the start of a line
        return len(before) + 1, 1
    return len(before), len(before[-1]) + 1


def _replacements(old: str, new: str) -> list[tuple[int, dict[str, Any]]]:
    """The edits from ``old`` to ``new``, whole lines at a time, each as (the 1-based line
    it is at in ``old``, a SARIF replacement object)."""
    a, b = split_lines(old), split_lines(new)
    starts = [0]
    for line in a:
        starts.append(starts[-1] + len(line))
    out = []
    import difflib

    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        start_line, start_col = _position(old, starts[i1])
        end_line, end_col = _position(old, starts[i2])
        replacement: dict[str, Any] = {"deletedRegion": {
            "startLine": start_line, "startColumn": start_col,
            "endLine": end_line, "endColumn": end_col,
        }}
        if j2 > j1:
            replacement["insertedContent"] = {"text": "".join(b[j1:j2])}
        out.append((max(i2, i1 + 1), replacement))
    return out


def _fixes_by_finding(findings: list[Finding], sources: Sources | None,
                      fixed: Mapping[str, str], unsafe_fixes: bool,
                      lines: Callable[[Finding], int]) -> dict[int, list[dict[str, Any]]]:
    """Each replacement of a file's fix, given to the first finding the fix removes at or
    after it (the last one for replacements below them all), so that applying all of a
    file's SARIF fixes gives exactly what ``jaxlint --fix`` writes. ``lines(f)``: the
    finding's line in the text the replacements edit."""
    out: dict[int, list[dict[str, Any]]] = {}
    if sources is None:
        return out
    for path, new in fixed.items():
        old = sources(path)
        owners = [i for i, f in enumerate(findings)
                  if f.path == path and _applied(f, unsafe_fixes)]
        if old is None or not owners:
            continue
        for line, replacement in _replacements(old, new):
            owner = next((i for i in owners if lines(findings[i]) >= line), owners[-1])
            out.setdefault(owner, []).append(replacement)
    return out


def _physical(path: str, where: tuple[int, int] | None) -> dict[str, Any]:
    location: dict[str, Any] = {"artifactLocation": {"uri": _uri(path)}}
    if where is not None:
        location["region"] = {"startLine": where[0], "startColumn": where[1]}
    return {"physicalLocation": location}


def sarif(findings: Iterable[Finding], sources: Sources | None = None,
          fixed: Mapping[str, str] | None = None, unsafe_fixes: bool = False,
          errors: Iterable[FileError] = (), places: Places | None = None
          ) -> dict[str, Any]:
    """A SARIF 2.1.0 log with one run: every rule jaxlint has, a result per finding, and
    its invocation, with a notification per error (then not ``executionSuccessful``)."""
    ordered = sorted(findings, key=Finding.sort_key)
    from jaxlint.codes import CODES

    codes = sorted(set(CODES) | {f.code for f in ordered})
    index = {code: i for i, code in enumerate(codes)}
    stored = [_stored(f.path, f.cell, f.line, f.col, places) for f in ordered]
    at = {id(f): (where[0] if where else 0) for f, (where, _) in zip(ordered, stored)}
    fixes = _fixes_by_finding(ordered, sources, fixed or {}, unsafe_fixes, lambda f: at[id(f)])
    results = []
    for i, (f, (where, cell)) in enumerate(zip(ordered, stored)):
        properties: dict[str, Any] = {"fixable": f.fixable and not f.unsafe,
                                      "fix": f.fix_applicability}
        if f.cell is not None:
            properties.update(cell=f.cell, cellLine=f.line, cellColumn=f.col + 1)
        result: dict[str, Any] = {
            "ruleId": f.code,
            "ruleIndex": index[f.code],
            "level": "error",
            "message": {"text": cell + f.message},
            "locations": [_physical(f.path, where)],
            "properties": properties,
        }
        if i in fixes:
            result["fixes"] = [{
                "description": {"text": "Apply jaxlint's fix"},
                "artifactChanges": [{"artifactLocation": {"uri": _uri(f.path)},
                                     "replacements": fixes[i]}],
            }]
        results.append(result)
    notifications = []
    for e in sorted(errors, key=FileError.sort_key):
        where, cell = _stored(e.path, e.cell, e.line, e.col, places)
        notifications.append({"level": "error", "message": {"text": cell + e.message},
                              "locations": [_physical(e.path, where)],
                              "descriptor": {"id": "file-error"}})
    invocation: dict[str, Any] = {"executionSuccessful": not notifications}
    if notifications:
        invocation["toolExecutionNotifications"] = notifications
    return {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "jaxlint",
                "version": __version__,
                "semanticVersion": __version__,
                "rules": [_rule_descriptor(code) for code in codes],
            }},
            "invocations": [invocation],
            # Finding columns count characters (code points), not SARIF's default UTF-16 units.
            "columnKind": "unicodeCodePoints",
            "results": results,
        }],
    }
