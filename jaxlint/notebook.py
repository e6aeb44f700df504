"""Jupyter notebooks: linted and fixed like one module made of their code cells.

The code cells are joined into one Python module, in order, so a timed region may start in
one cell and stop in a later one. Each cell is preceded by a marker comment, which survives
fixing, so the fixed module splits back into cells. IPython syntax is masked:

* ``%timeit stmt`` / ``%%timeit`` become a ``timeit`` call on the statement string (so JAX102
  judges them like ``timeit.timeit("stmt", globals=globals())``); ``%time stmt`` / ``%%time``
  too, followed by the statement itself, since its effects persist in the notebook;
* any other magic, shell escape (``!ls``) or help request (``?obj``, ``obj?``) becomes ``pass``.

Findings are reported as ``path:cell N:line:col`` (cells counted from 1, all kinds included).
A fixed notebook is written back only if re-serialising the original reproduces its bytes
exactly, so that only the fixed cells' sources change (outputs, metadata, key order and
indentation are kept).
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field, replace

from jaxlint.engine import FixResult, Settings, SourceError, fix_source, lint_source
from jaxlint.finding import Finding

MARKER = "# jaxlint: cell {}"
_MARKER_RE = re.compile(r"^# jaxlint: cell (\d+)\r?\n?$")
_TAG_RE = re.compile(r"# jaxlint: (magic|masked) (\d+)\r?\n?$")
_MAGIC_RE = re.compile(r"^(?P<indent>[ \t]*)(?P<magic>%%?[A-Za-z_]\w*|!)(?P<rest>.*)$")
_HELP_RE = re.compile(r"^[ \t]*(\?\??\S.*|[^#]*\S\?\??)[ \t]*$")
_TIMEIT = "__jaxlint_timeit__"
HEADER = f"from timeit import timeit as {_TIMEIT}\n"
# timeit's own options (-n<N> -r<R> -t -c -p<P> -q -o) come before the statement
_OPTIONS = re.compile(r"^((?:\s*-(?:[nrp]\s*\S+|[tcqo]))*\s*)(.*)$")


class NotebookError(SourceError):
    """The file is not a notebook we can read."""


@dataclass
class _Magic:
    prefix: str  # "%timeit -n 10 " or the whole first line of a %%timeit cell, as written
    statement: str  # the statement timed
    cell_magic: bool
    original: str = ""  # the line as written


@dataclass
class Virtual:
    """The module made of a notebook's code cells, and how to map it back."""

    text: str = ""
    line_map: dict[int, tuple[int, int]] = field(default_factory=dict)  # virtual -> (cell, line)
    magics: dict[int, _Magic] = field(default_factory=dict)  # id -> a %timeit / %time
    masked: dict[int, tuple[str, int | None]] = field(default_factory=dict)  # id -> (line, magic)


def _cells(nb: object, path: str) -> list[dict[str, object]]:
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookError("not a Jupyter notebook (no 'cells' list)")
    return nb["cells"]


def _source(cell: dict[str, object]) -> str:
    src = cell.get("source", "")
    return "".join(src) if isinstance(src, list) else str(src)


def load(data: bytes, path: str) -> dict[str, object]:
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise NotebookError(f"invalid notebook JSON: {exc}") from None
    _cells(nb, path)
    assert isinstance(nb, dict)
    return nb


class _Builder:
    def __init__(self) -> None:
        self.v = Virtual()
        self.out = [HEADER]

    def emit(self, text: str, cell: int, line: int) -> None:
        self.v.line_map[len(self.out) + 1] = (cell, line)
        self.out.append(text)

    def mask(self, original: str, indent: str, cell: int, line: int,
             magic: int | None = None, statement: bool = True) -> None:
        ident = len(self.v.masked)
        self.v.masked[ident] = (original, magic)
        body = f"{indent}pass  " if statement else indent
        self.emit(f"{body}# jaxlint: masked {ident}\n", cell, line)

    def harness(self, magic: _Magic, indent: str, tail: str, cell: int, line: int) -> int:
        ident = len(self.v.magics)
        self.v.magics[ident] = magic
        call = f"{_TIMEIT}({json.dumps(magic.statement)}, globals=globals())"
        self.emit(f"{indent}{call}{tail}  # jaxlint: magic {ident}\n", cell, line)
        return ident

    def cell(self, number: int, source: str) -> None:
        self.out.append(MARKER.format(number) + "\n")
        lines = [x if x.endswith("\n") else x + "\n" for x in source.splitlines(keepends=True)]
        first = _MAGIC_RE.match(lines[0].rstrip("\r\n")) if lines else None
        if first is not None and first.group("magic").startswith("%%"):
            self.cell_magic(number, lines, first)
            return
        for i, line in enumerate(lines, 1):
            self.line(number, i, line)

    def cell_magic(self, number: int, lines: list[str], m: re.Match[str]) -> None:
        name = m.group("magic")
        magic_id = None
        if name in ("%%timeit", "%%time"):
            body = "".join(lines[1:]).rstrip("\n")
            magic_id = self.harness(_Magic(lines[0], body, True, lines[0]), "", "", number, 1)
        else:
            self.mask(lines[0], "", number, 1, statement=False)
        for i, line in enumerate(lines[1:], 2):
            self.mask(line, "", number, i, magic_id, statement=False)

    def line(self, number: int, i: int, line: str) -> None:
        text = line.rstrip("\r\n")
        m = _MAGIC_RE.match(text)
        indent = re.match(r"[ \t]*", line).group(0)  # type: ignore[union-attr]
        if m is not None and m.group("magic") in ("%timeit", "%time"):
            opts = _OPTIONS.match(m.group("rest"))
            prefix, statement = (opts.group(1), opts.group(2)) if opts else ("", m.group("rest"))
            magic = _Magic(f"{indent}{m.group('magic')}{prefix}", statement.strip(), False, line)
            tail = f"; {magic.statement}" if m.group("magic") == "%time" else ""
            self.harness(magic, indent, tail, number, i)
        elif m is not None or (_HELP_RE.match(text) and not line.lstrip().startswith("#")):
            self.mask(line, indent, number, i)
        else:
            self.emit(line, number, i)


def build(nb: dict[str, object], path: str) -> Virtual:
    builder = _Builder()
    for number, cell in enumerate(_cells(nb, path), 1):
        if isinstance(cell, dict) and cell.get("cell_type") == "code":
            builder.cell(number, _source(cell))
    builder.v.text = "".join(builder.out)
    return builder.v


def _to_cell(f: Finding, virtual: Virtual) -> Finding:
    cell, line = virtual.line_map.get(f.line, (0, f.line))
    return replace(f, line=line, cell=cell, region=None)


def lint_notebook(data: bytes, path: str, settings: Settings) -> list[Finding]:
    virtual = build(load(data, path), path)
    return [_to_cell(f, virtual) for f in lint_source(virtual.text, path, settings=settings)]


def _restore(fixed_text: str, nb: dict[str, object], virtual: Virtual) -> dict[int, str]:
    """New source per code cell number, from the fixed module."""
    cells: dict[int, list[str]] = {}
    current: int | None = None
    preamble: list[str] = []
    for line in fixed_text.splitlines(keepends=True):
        m = _MARKER_RE.match(line)
        if m:
            current = int(m.group(1))
            cells[current] = []
        elif current is not None:
            cells[current].append(line)
        elif line != HEADER:
            preamble.append(line)  # an added ``import jax`` before the first cell joins it
    if preamble and cells:
        first = min(cells)
        cells[first] = [x for x in preamble if x.strip()] + cells[first]
    out: dict[int, str] = {}
    for number, lines in cells.items():
        text: list[str] = []
        changed_magics: set[int] = set()
        for line in lines:
            tag = _TAG_RE.search(line)
            if tag is None:
                text.append(line)
                continue
            ident = int(tag.group(2))
            if tag.group(1) == "masked":
                original, owner = virtual.masked[ident]
                if owner is None or owner not in changed_magics:
                    text.append(original)
                continue
            magic = virtual.magics[ident]
            call = re.search(r"\(\s*(\"(?:[^\"\\]|\\.)*\")", line)
            statement = json.loads(call.group(1)) if call else magic.statement
            if statement == magic.statement:
                text.append(magic.original)
            elif magic.cell_magic:
                changed_magics.add(ident)
                text.append(magic.prefix + statement + "\n")
            else:
                text.append(f"{magic.prefix}{statement}\n")
        joined = "".join(text)
        original = _source(_cells(nb, "")[number - 1])
        if not original.endswith("\n") and joined.endswith("\n"):
            joined = joined[:-1]
        out[number] = joined
    return out


def _dump_like(nb: object, original: str) -> str | None:
    """Serialise ``nb`` the way ``original`` was serialised, if some standard way matches."""
    for indent in (1, 2, 4, None, 0, 3):
        for ascii_only in (False, True):
            for sort in (False, True):
                text = json.dumps(json.loads(original), indent=indent, ensure_ascii=ascii_only,
                                  sort_keys=sort)
                for end in ("\n", ""):
                    if text + end == original:
                        return json.dumps(nb, indent=indent, ensure_ascii=ascii_only,
                                          sort_keys=sort) + end
    return None


def fix_notebook(data: bytes, path: str, unsafe_fixes: bool, settings: Settings) -> FixResult:
    nb = load(data, path)
    virtual = build(nb, path)
    result = fix_source(virtual.text, path, unsafe_fixes=unsafe_fixes, settings=settings)
    remaining = [_to_cell(f, virtual) for f in result.remaining]
    assert isinstance(result.source, str)
    if result.source == virtual.text:
        return FixResult(data, 0, remaining, result.held_back)
    new_sources = _restore(result.source, nb, virtual)
    changed = False
    for number, text in new_sources.items():
        cell = _cells(nb, path)[number - 1]
        if text == _source(cell):
            continue
        changed = True
        old = cell.get("source")
        cell["source"] = text.splitlines(keepends=True) if isinstance(old, list) else text
    if not changed:
        return FixResult(data, 0, remaining, result.held_back)
    original = data.decode("utf-8-sig")
    dumped = _dump_like(nb, original)
    if dumped is None:
        raise SourceError("cannot rewrite this notebook without reformatting it; "
                          "apply the fix by hand (see --diff)")
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    # what is left, re-read from the written notebook so positions match the new cells
    new_data = bom + dumped.encode("utf-8")
    left = lint_notebook(new_data, path, settings)
    return FixResult(new_data, max(len(result.remaining) + result.fixed - len(left), 0), left,
                     result.held_back)
