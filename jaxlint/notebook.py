"""Jupyter notebooks: linted and fixed like one module made of their code cells, read the way
IPython runs them.

The code cells are joined into one Python module, in order, so a timed region may start in
one cell and stop in a later one. Each line of that module is recorded beside it (``_VLine``):
the cell and line it came from, and what IPython syntax was taken out of it. Nothing in the
module's text says where a cell starts, so no comment a user writes can be mistaken for it.

Each cell goes through what IPython does to a cell before compiling it
(``IPython.core.inputtransformer2``): leading blank lines dropped, the first line's
indentation taken off every line that starts with it, ``>>>`` and ``In [1]:`` prompts
stripped; a ``%%magic`` first line makes the cell a cell magic; at the start of a logical
line, ``!cmd``, ``!!cmd``, ``%magic``, ``?obj`` and ``,;/`` escapes; ``obj?`` and ``obj??``
at its end; ``x = %magic`` and ``x = !cmd``; and, in a one-line cell, a line magic written
without ``%`` (automagic, on by default) unless an earlier cell binds that name.

* ``%timeit stmt``, ``x = %timeit -o stmt`` and ``%%timeit [setup]`` cells become a
  ``timeit(<stmt>, <setup>, globals=globals())`` call, so JAX102 judges them like
  ``timeit.timeit``; ``%time stmt`` and ``%%time`` cells too, followed by the statements
  themselves, since their effects persist in the notebook. ``%%capture`` cells are their body.
* Any other magic, shell escape or help request becomes ``pass`` (or ``x = None``), and the
  body of any other cell magic (``%%bash``, ``%%writefile``, ...) blank lines.

Findings are reported as ``path:cell N:line:col`` (cells counted from 1, all kinds included).

A fix is mapped back line by line: lines the fixer kept or edited in place go back to the
line they came from, new lines go before the statement that follows them. The fixed
notebook is written only if every cell that holds no fixed finding is byte-identical, every
changed cell still reads as IPython would run it (its Python parses, its magics are as they
were), and re-serialising the original reproduces its bytes exactly (so outputs, metadata,
key order and indentation are kept).
"""

from __future__ import annotations

import ast
import difflib
import json
import re
from collections import Counter
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

from jaxlint.analysis.magics import NOTEBOOK_TIMEIT, ONCE, timeit_options_end
from jaxlint.analysis.names import NO_EXTRAS, Extras
from jaxlint.errors import SourceError
from jaxlint.finding import Finding
from jaxlint.settings import Settings, might_matter
from jaxlint.text_lines import split_lines

if TYPE_CHECKING:
    from jaxlint.engine import FixResult

_TIMEIT = NOTEBOOK_TIMEIT
HEADER = f"from timeit import timeit as {_TIMEIT}"
_WRAP = "jax.block_until_ready("
_FLAGS = ast.PyCF_ONLY_AST | getattr(ast, "PyCF_ALLOW_TOP_LEVEL_AWAIT", 0)
_SURROGATE = re.compile("[\ud800-\udfff]")
# Python's own line ends; str.splitlines() also splits at \f, \v, U+2028 and others, which
# are not line ends in Python source (a U+2028 inside a string literal is just a character).
# IPython's prompt strippers (classic ``>>>`` / ``...`` and ``In [1]:`` / ``...:``)
_CLASSIC_FIRST = re.compile(r"^>>>( |$)")
_CLASSIC = re.compile(r"^(>>>|\.\.\.)( |$)")
_IPYTHON = re.compile(r"^(In \[\d+\]: |\s*\.{3,}: ?)")
# Line magics IPython defines (automagic makes them callable without ``%`` in a one-line cell)
_LINE_MAGICS = frozenset("""
    alias alias_magic autoawait autocall automagic autosave bookmark cat cd clear colors conda
    config connect_info cp debug dhist dirs doctest_mode ed edit env gui hist history
    killbgscripts ldir less lf lk ll load load_ext loadpy logoff logon logstart logstate
    logstop ls lsmagic lx macro magic mamba man matplotlib micromamba mkdir more mv notebook
    page pastebin pdb pdef pdoc pfile pinfo pinfo2 pip popd pprint precision prun psearch
    psource pushd pwd pycat pylab qtconsole quickref recall rehashx reload_ext rep rerun reset
    reset_selective rm rmdir run save sc set_env store sx system tb time timeit unalias
    unload_ext uv who who_ls whos xdel xmode autoreload aimport
""".split())
# Cell magics whose body IPython runs as a cell of Python in the notebook's namespace
_PYTHON_BODY = frozenset({"capture", "time"})
_TOKEN = re.compile(r"""
    (?P<ws>[ \t\f]+)
  | (?P<comment>\#.*)
  | (?P<str>(?i:[rbuft]{1,2})?(?:'''|\"\"\"|'|"))
  | (?P<name>\w+)
  | (?P<open>[(\[{])
  | (?P<close>[)\]}])
  | (?P<op>\*\*=|//=|>>=|<<=|[-+*/%&|^@:<>=!]=|->)
  | (?P<other>.)
""", re.VERBOSE)
_STRING_END = {q: re.compile((r"(?:[^\\" + q + r"]|\\.)*" if len(q) == 1 else
                              r"(?:[^\\]|\\.)*?") + q)
               for q in ("'", '"', "'''", '"""')}


class NotebookError(SourceError):
    """The file is not a notebook we can read, or cannot be fixed safely. ``cell``,
    ``line`` and ``col`` (0-based) say where in a cell, when the problem has one place."""

    def __init__(self, message: str, cell: int | None = None, line: int | None = None,
                 col: int = 0) -> None:
        super().__init__(message, line, col)
        self.cell = cell


class _Refused(Exception):
    """The fixed module cannot be mapped back onto the cells with certainty."""


# ------------------------------------------------------------------------------ reading
def _cells(nb: object) -> list[object]:
    if not isinstance(nb, dict) or not isinstance(nb.get("cells"), list):
        raise NotebookError("not a Jupyter notebook (no 'cells' list)")
    return nb["cells"]


def _is_code(cell: object) -> bool:
    return isinstance(cell, dict) and cell.get("cell_type") == "code"


def _source(cell: dict[str, object], number: int) -> str:
    src = cell.get("source", "")
    if isinstance(src, str):
        text = src
    elif isinstance(src, list) and all(isinstance(s, str) for s in src):
        text = "".join(src)
    else:
        raise NotebookError(f"cell {number}: source is not text (a string or a list of strings)")
    bad = _SURROGATE.search(text)
    if bad is not None:
        line = len(split_lines(text[:bad.start()] + "x"))
        raise NotebookError(f"cell {number}, line {line}: lone surrogate U+{ord(bad.group()):04X}"
                            " (not valid Unicode; IPython cannot run this cell)")
    if "\0" in text:
        raise NotebookError(f"cell {number}: contains a NUL character")
    return text


def load(data: bytes, path: str = "") -> dict[str, object]:
    """The notebook's JSON, with every code cell's source checked to be text."""
    try:
        nb = json.loads(data.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise NotebookError(f"invalid notebook JSON: {exc}") from None
    except RecursionError:
        raise NotebookError("invalid notebook JSON: nested too deeply") from None
    for number, cell in enumerate(_cells(nb), 1):
        if not isinstance(cell, dict):
            raise NotebookError(f"cell {number} is not a JSON object")
        if _is_code(cell):
            _source(cell, number)
    assert isinstance(nb, dict)
    return nb


@dataclass
class _Src:
    """One line of a cell: ``outer + text`` is the line as written."""

    no: int  # line in the cell, from 1
    text: str
    ending: str
    outer: str = ""  # indentation or prompt taken off, as IPython does

    def cut(self, n: int) -> _Src:
        return _Src(self.no, self.text[n:], self.ending, self.outer + self.text[:n])


def _lines(text: str) -> list[_Src]:
    out = []
    for no, raw in enumerate(split_lines(text), 1):
        content = raw.rstrip("\r\n")
        out.append(_Src(no, content, raw[len(content):]))
    return out


# ------------------------------------------------------------------------------ the module
@dataclass
class _VLine:
    """One line of the joined module and where it came from."""

    text: str
    cell: int = 0  # 0: the header
    line: int = 0
    outer: str = ""  # what IPython took off the start of the cell line
    cut: int = 0  # and where, in ``text``, a magic was taken out ...
    removed: str = ""  # ... and which (``%time `` before a persisted statement)
    kind: str = "code"  # code | masked | harness | timed (a %%timeit body) | header | broken
    inserts: bool = True  # a fix may put a new line before this one, in its cell

    def column(self, col: int) -> int:
        return len(self.outer) + col + (len(self.removed) if col >= self.cut else 0)


@dataclass
class _Harness:
    """A %timeit / %time: its line in the module, and the timed expression in its cell."""

    vline: int  # index into Virtual.lines
    cell: int
    start: tuple[int, int] | None  # (line, col) in the cell; None: no fix can be mapped back
    end: tuple[int, int] | None
    timed: str = ""  # the statement timed, as the harness call gets it
    wrapped: str = ""  # the harness line as JAX102's fix rewrites it
    persists: bool = False  # a %%time: its body also runs as the cell's code


@dataclass
class Virtual:
    """The module made of a notebook's code cells, and how to map it back."""

    text: str = ""
    lines: list[_VLine] = field(default_factory=list)
    harnesses: list[_Harness] = field(default_factory=list)
    sources: dict[int, str] = field(default_factory=dict)  # code cell -> its source
    # how the cells write the code at these places of the module (line, column): a
    # magic, and the statement it times, where the module has a harness call
    shown: dict[tuple[int, int], str] = field(default_factory=dict)
    # line magic's name -> the first cell whose code binds it, shadowing the magic (a
    # snapshot per cell of the names bound before it grew with cells x names: 1 GB for
    # 6,000 one-line cells; only a magic's name can shadow one, so only those are kept)
    bound_by: dict[str, int] = field(default_factory=dict)
    # code cells that do not parse (an exercise left with blanks): each one's error, placed
    # in its cell. Their code is left out of the module (blank lines in its place) so that
    # the cells that parse are still linted.
    broken: dict[int, NotebookError] = field(default_factory=dict)

    def bound_before(self, number: int) -> set[str]:
        """The line magics' names the cells before cell ``number`` bind (shadowing them)."""
        return {name for name, cell in self.bound_by.items() if cell < number}


def _literal(text: str, fixable: bool) -> str:
    """A one-line string literal of ``text``. JAX102's fix rewrites only plain one-line
    literals, so one in triple quotes keeps its finding but gets no fix."""
    quoted = json.dumps(text)
    return quoted if fixable else '""' + quoted + '""'


def _char_col(line: str, byte_col: int) -> int:
    return len(line.encode("utf-8")[:byte_col].decode("utf-8", "replace"))


def _one_expression(code: str) -> ast.expr | None:
    try:
        tree = compile(code, "<magic>", "exec", _FLAGS, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    body = tree.body  # type: ignore[attr-defined]
    if len(body) == 1 and isinstance(body[0], ast.Expr):
        return body[0].value  # type: ignore[no-any-return]
    return None


def _compiles(code: str) -> bool:
    try:
        compile(code, "<magic>", "exec", _FLAGS, dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return False
    return True


class Builder:
    """Reads code cells one at a time into ``v``, as ``build`` does for a whole notebook
    (a live session, ``jaxlint.session``, adds each cell as it runs). ``v.text`` is set by
    ``build``."""

    def __init__(self, strict: bool = True) -> None:
        self.v = Virtual(lines=[_VLine(HEADER, kind="header", inserts=False)])
        self.bound: set[str] = set()
        self.strict = strict  # a cell that does not parse is an error (else: left out)
        self._harnesses_at = 0

    def emit(self, text: str, cell: int, src: _Src | None, kind: str = "code",
             inserts: bool = True, cut: int = 0, removed: str = "") -> int:
        self.v.lines.append(_VLine(text, cell, src.no if src else 0, src.outer if src else "",
                                   cut, removed, kind, inserts))
        return len(self.v.lines) - 1

    # --------------------------------------------------------------- a cell, as IPython does
    def cell(self, number: int, source: str) -> None:
        start = len(self.v.lines)
        self._harnesses_at = len(self.v.harnesses)
        self.v.sources[number] = source
        self.run_cell(number, _lines(source))
        self.check(number, start)

    def run_cell(self, number: int, lines: list[_Src]) -> None:
        """What ``InteractiveShell.transform_cell`` makes of ``lines``."""
        first = next((k for k, s in enumerate(lines) if s.text.strip()), None)
        if first is None:
            for s in lines:
                self.emit(s.text, number, s)
            return
        lines = lines[:first] + _cleanup(lines[first:])
        head = lines[first]
        if head.text.startswith("%%") and not re.match(r"%%\w+\?", head.text):
            self.cell_magic(number, lines, first)
            return
        if len(lines) - first == 1 and self.automagic(number, lines, first):
            return
        self.statements(number, lines)

    def automagic(self, number: int, lines: list[_Src], first: int) -> bool:
        """A one-line cell calling a line magic without ``%`` (IPython's prefilter, which
        leaves a name an earlier cell binds, and ``name = ...``, to Python)."""
        s = lines[first]
        m = re.match(r"(\w+)(?=[ \t]|$)", s.text)
        if m is None or m.group(1) not in _LINE_MAGICS or m.group(1) in self.bound:
            return False
        if s.text[m.end():].lstrip(" \t")[:1] in ("=", ","):
            return False
        harness = m.group(1) in ("timeit", "time")
        if not harness and _compiles(s.text):
            return False
        for k in range(first):
            self.emit(lines[k].text, number, lines[k])
        mark = len(self.v.lines)
        if harness:
            self.line_magic(number, [s], m.group(1), m.end(1), "")
        else:
            self.mask(number, [s], "pass")
        for v in self.v.lines[mark:]:  # a second line would make it Python again
            v.inserts = False
        return True

    def statements(self, number: int, lines: list[_Src]) -> None:
        k = 0
        while k < len(lines):
            s = lines[k]
            stripped = s.text.lstrip(" \t\f")
            at = len(s.text) - len(stripped)
            if not stripped or stripped.startswith("#"):
                self.emit(s.text, number, s)
                k += 1
                continue
            if _is_escape(stripped):
                end = _continued(lines, k)
                self.escape(number, lines[k:end + 1], at)
                k = end + 1
                continue
            end, assign, helped = _scan(lines, k)
            if helped:
                self.mask(number, lines[k:end + 1], s.text[:at] + "pass")
            elif assign is not None:
                j, col = assign
                end = _continued(lines, j)
                self.assign(number, lines[k:end + 1], j - k, col)
            else:
                for s2 in lines[k:end + 1]:
                    self.emit(s2.text, number, s2)
            k = end + 1

    def mask(self, number: int, lines: list[_Src], first: str) -> None:
        self.emit(first, number, lines[0], "masked")
        for s in lines[1:]:
            self.emit("", number, s, "masked", inserts=False)

    def escape(self, number: int, lines: list[_Src], at: int) -> None:
        s = lines[0]
        indent = s.text[:at]
        text = s.text[at:]
        if len(lines) == 1 and text.rstrip().endswith("?") and "#" not in text:
            self.mask(number, lines, indent + "pass")  # ``%timeit?``: help
            return
        m = re.match(r"%(time|timeit)(?: |$)", text)
        if m is None:
            self.mask(number, lines, indent + "pass")
            return
        self.line_magic(number, lines, m.group(1), at + m.end(1), indent)

    def assign(self, number: int, lines: list[_Src], j: int, col: int) -> None:
        """``x = %magic`` / ``x = !cmd`` (IPython's MagicAssign / SystemAssign)."""
        s = lines[j]
        lhs_lines, lhs = lines[:j], s.text[:col]
        m = re.match(r"%(time|timeit)(?: |$)", s.text[col:])
        for s2 in lhs_lines:
            self.emit(s2.text, number, s2)
        if m is None:
            self.mask(number, lines[j:], lhs + "None")
            return
        self.line_magic(number, lines[j:], m.group(1), col + m.end(1), lhs)

    def line_magic(self, number: int, lines: list[_Src], name: str, name_end: int,
                   lhs: str) -> None:
        """``%timeit`` / ``%time`` (possibly written without ``%``, possibly ``x = %...``).
        ``lhs`` is what stays in front of the call (indentation, an assignment)."""
        s = lines[0]
        text = s.text
        args = min(name_end + 1, len(text))
        if name == "timeit":
            stmt_at = timeit_options_end(text, args)
        else:
            stmt_at = len(text) - len(text[args:].lstrip(" \t"))
            if text.startswith("--no-raise-error", stmt_at):
                stmt_at = len(text) - len(text[stmt_at + 16:].lstrip(" \t"))
        if stmt_at is None or not text[stmt_at:].strip():
            self.mask(number, lines, lhs + ("None" if lhs.strip() else "pass"))
            return
        stmt = text[stmt_at:]
        start = end = None
        comment = ""
        if len(lines) > 1:  # continued with backslashes: timed as IPython joins it
            timed = " ".join([stmt.rstrip()[:-1]] + [x.text.rstrip()[:-1] for x in lines[1:-1]]
                             + [lines[-1].text.rstrip()]).strip()
        else:
            # A comment after the statement (a noqa directive) stays on the line that
            # stands for the magic, where the directive is looked for.
            at = _comment_at(stmt)
            if at is not None:
                comment, stmt, text = stmt[at:].strip(), stmt[:at], text[:stmt_at + at]
            lead = len(stmt) - len(stmt.lstrip())
            timed = stmt.strip()
            expr = _one_expression(timed)
            if expr is not None and expr.end_col_offset is not None:
                a = stmt_at + lead + _char_col(timed, expr.col_offset)
                b = stmt_at + lead + _char_col(timed, expr.end_col_offset)
                start, end = (s.no, len(s.outer) + a), (s.no, len(s.outer) + b)
                timed = text[a:b]
        written = " ".join([text[len(lhs):].strip()] + [x.text.strip() for x in lines[1:]])
        loops = _loops(text[args:stmt_at]) if name == "timeit" else None
        self.harness(number, s, lhs, timed, start, end, "", True, written, comment, loops,
                     once=name == "time")
        for s2 in lines[1:]:
            self.emit("", number, s2, "masked", inserts=False)
        if name == "time" and len(lines) == 1 and _compiles(stmt.strip()):
            # %time runs the statement in the notebook: what it binds is bound afterwards
            lead = len(stmt) - len(stmt.lstrip())
            self.emit(lhs + stmt[lead:], number, s, "code", inserts=False, cut=len(lhs),
                      removed=text[len(lhs):stmt_at + lead])

    def harness(self, number: int, src: _Src, lhs: str, timed: str,
                start: tuple[int, int] | None, end: tuple[int, int] | None, setup: str,
                inserts: bool, written: str, comment: str = "",
                loops: str | None = None, once: bool = False) -> _Harness:
        """The ``timeit`` call standing for a magic (``written``: the magic as the cell has
        it, ``comment``: the comment after it, ``loops``: the counts ``-n`` and ``-r`` give,
        which the call passes as ``number=`` and ``repeat=``, so that the analysis knows no
        calibration runs come first; ``once``: a ``%time``/``%%time``, one run of code whose
        effects persist, marked by a keyword timeit never sees). Only a single expression
        whose place in the cell is known (``start``, ``end``) is given to JAX102 as a
        literal it may fix (it fixes nothing else)."""
        literal = _literal(timed, start is not None or _one_expression(timed) is None)
        extra = f", {json.dumps(setup)}" if setup else ""
        if loops is not None:
            extra += f", {loops}"
        if once:
            extra += f", {ONCE}=True"
        call = f"{_TIMEIT}({literal}{extra}, globals=globals())"
        after = f"  {comment}" if comment else ""
        line = self.emit(lhs + call + after, number, src, "harness", inserts)
        # Messages show the magic and the statement it times, never the call standing in
        # for them (``shown``: by where they start in the module, 1-based line, column).
        self.v.shown[(line + 1, len(lhs))] = written
        self.v.shown[(line + 1, len(lhs) + len(_TIMEIT) + 1)] = timed
        harness = _Harness(line, number, start, end, timed)
        if start is not None:
            harness.wrapped = lhs + call.replace(literal, _literal(_WRAP + timed + ")", True),
                                                 1) + after
        self.v.harnesses.append(harness)
        return harness

    def cell_magic(self, number: int, lines: list[_Src], first: int) -> None:
        for s in lines[:first]:
            self.emit(s.text, number, s)
        head, body = lines[first], lines[first + 1:]
        name, _, args = head.text[2:].rstrip().partition(" ")
        if name in _PYTHON_BODY and not (name == "time" and args.strip()):
            mark = len(self.v.lines)
            if name == "time":
                self.timed_body(number, head, body, "", mark, once=True)
                self.v.harnesses[-1].persists = True
            else:
                self.emit("", number, head, "masked", inserts=False)
            if body:
                self.run_cell(number, body)
            return
        if name == "timeit":
            setup_at = timeit_options_end(head.text, 2 + len(name) + 1)
            if setup_at is not None:
                setup = head.text[setup_at:].strip()
                self.timed_body(number, head, body, setup, len(self.v.lines),
                                _loops(head.text[2 + len(name) + 1:setup_at]))
                for s in body:  # timed, not run in the notebook: a fix rewrites it in place
                    self.emit("", number, s, "timed", inserts=False)
                return
        self.emit("", number, head, "masked", inserts=False)
        for s in body:
            self.emit("", number, s, "masked", inserts=False)

    def timed_body(self, number: int, head: _Src, body: list[_Src], setup: str,
                   mark: int, loops: str | None = None, once: bool = False) -> None:
        """The harness line of a ``%%timeit`` / ``%%time`` cell: its body, as IPython
        transforms it, is the timed statement."""
        saved = (len(self.v.harnesses), set(self.bound), dict(self.v.shown))
        if body:
            self.run_cell(number, body)
        made = self.v.lines[mark:]
        del self.v.lines[mark:]
        del self.v.harnesses[saved[0]:]
        self.bound, self.v.shown = saved[1], saved[2]
        code = "\n".join(v.text for v in made)
        start = end = None
        plain = all(v.kind == "code" and not v.removed for v in made)
        expr = _one_expression(code) if plain else None
        timed = code.strip()
        if expr is not None and expr.end_lineno is not None and expr.end_col_offset is not None:
            first, last = made[expr.lineno - 1], made[expr.end_lineno - 1]
            start = (first.line, len(first.outer) + _char_col(first.text, expr.col_offset))
            end = (last.line, len(last.outer) + _char_col(last.text, expr.end_col_offset))
            timed = ast.get_source_segment(code, expr) or timed
        self.harness(number, head, "", timed, start, end, setup, False, head.text.strip(),
                     loops=loops, once=once)

    # --------------------------------------------------------------- each cell parses alone
    def check(self, number: int, start: int) -> None:
        """IPython compiles each cell on its own: a cell that does not parse alone (an
        unclosed bracket the next cell would close) is an error, and the names a cell binds
        shadow line magics in later cells."""
        lines = self.v.lines[start:]
        code = "".join(v.text + "\n" for v in lines)
        try:
            tree = compile(code, "<cell>", "exec", _FLAGS, dont_inherit=True)
        except SyntaxError as exc:
            if _libcst_parses(code):  # newer syntax than this Python
                return
            k = min(max((exc.lineno or 1) - 1, 0), len(lines) - 1)
            v = lines[k] if lines else _VLine("")
            col = v.column(max((exc.offset or 1) - 1, 0))
            error = NotebookError(f"cannot parse: {exc.msg}", number, v.line, col)
            if self.strict:
                raise error from None
            # The cell is left out, as ruff leaves a cell that does not parse: the others
            # are linted, and this one gets one error line.
            self.v.broken[number] = error
            for i in range(start, len(self.v.lines)):
                old_line = self.v.lines[i]
                self.v.lines[i] = replace(old_line, text="", kind="broken", inserts=False)
            del self.v.harnesses[self._harnesses_at:]
            return
        except (ValueError, RecursionError, MemoryError):
            return  # left to the engine, which says why in its own words
        # Only a line magic's name can shadow one; a cell whose code spells none binds none
        # (an identifier spelt otherwise, ``ｔｉｍｅ``, is normalised to one: not ASCII,
        # walked). The walk visits every node, and most cells name no magic.
        names: set[str] = set()
        if not code.isascii() or _MAGIC_WORD.search(code) is not None:
            for node in ast.walk(tree):
                if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
                elif isinstance(node, ast.alias):
                    names.add((node.asname or node.name).split(".")[0])
                elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                    names.add(node.name)
            names &= _LINE_MAGICS
        for name in names - self.bound:
            self.v.bound_by.setdefault(name, number)
        self.bound |= names


_MAGIC_WORD = re.compile(r"\b(?:" + "|".join(sorted(_LINE_MAGICS, key=len, reverse=True))
                         + r")\b")
_LOOPS = re.compile(r"(?:^|\s)-[tcqo]*n\s*(\d+)")
_REPEATS = re.compile(r"(?:^|\s)-[tcqo]*r\s*(\d+)")


def _loops(options: str) -> str | None:
    """The counts ``%timeit``'s options fix, as ``timeit``'s keywords (``-n 100 -r 3`` ->
    ``"number=100, repeat=3"``), or None when ``-n`` is not given (IPython calibrates)."""
    m = _LOOPS.search(options)
    if m is None:
        return None
    r = _REPEATS.search(options)
    return f"number={m.group(1)}" + (f", repeat={r.group(1)}" if r else "")


def _comment_at(code: str) -> int | None:
    """Where the comment of one line of Python starts (by its tokens: a ``#`` in a string
    is no comment), or None."""
    import io
    import tokenize

    try:
        for tok in tokenize.generate_tokens(io.StringIO(code).readline):
            if tok.type == tokenize.COMMENT:
                return tok.start[1] if tok.start[0] == 1 else None
    except (tokenize.TokenError, SyntaxError):
        return None
    return None


def _libcst_parses(code: str) -> bool:
    import libcst as cst

    try:
        cst.parse_module(code)
    except Exception:  # noqa: BLE001 - any failure means: it does not parse
        return False
    return True


def _cleanup(lines: list[_Src]) -> list[_Src]:
    """IPython's cleanup transforms, from the first line that is not blank: the first
    line's indentation comes off every line that starts with it; then prompts."""
    m = re.match(r"[ \t]+", lines[0].text)
    if m is not None:
        space = m.group(0)
        lines = [s.cut(len(space)) if s.text.startswith(space) else s for s in lines]
    for first_re, prompt_re in ((_CLASSIC_FIRST, _CLASSIC), (_IPYTHON, _IPYTHON)):
        if first_re.match(lines[0].text) or (len(lines) > 1 and prompt_re.match(lines[1].text)):
            out = []
            for s in lines:
                p = prompt_re.match(s.text)
                out.append(s.cut(p.end()) if p else s)
            lines = out
    return lines


def _is_escape(stripped: str) -> bool:
    """Whether a logical line starting with ``stripped`` is an IPython escape (its first
    token is one of ``! ? % , ; /`` alone: ``!=``, ``%=``, ``/=`` and ``//`` are Python)."""
    return stripped[:1] in ("!", "?", "%", ",", ";", "/") and stripped[:2] not in (
        "!=", "%=", "/=", "//")


def _continued(lines: list[_Src], k: int) -> int:
    """The last line of the command at line ``k``, continued by trailing backslashes."""
    while k + 1 < len(lines) and lines[k].text.endswith("\\") and lines[k].ending:
        k += 1
    return k


def _scan(lines: list[_Src], k: int) -> tuple[int, tuple[int, int] | None, bool]:
    """The logical line of Python starting at line ``k``: its last line, where a
    ``= %magic`` / ``= !cmd`` right-hand side starts (line, col), and whether it ends with
    ``?`` (a help request)."""
    depth, quote, seen_eq, last, tokens, comment = 0, "", False, "", 0, False
    j = k
    while j < len(lines):
        text, pos, comment = lines[j].text, 0, False
        if quote:
            m = _STRING_END[quote].match(text)
            if m is None:
                if len(quote) == 1 and not text.endswith("\\"):
                    quote, pos = "", len(text)  # unterminated: ends with the line
                else:
                    j += 1
                    continue
            else:
                quote, pos = "", m.end()
        while pos < len(text):
            m = _TOKEN.match(text, pos)
            assert m is not None
            kind, tok, pos = m.lastgroup, m.group(), m.end()
            if kind == "ws":
                continue
            if kind == "comment":
                comment = True
                continue
            tokens += 1
            last = tok
            if kind == "str":
                q = tok.lstrip("rbuftRBUFT")
                end = _STRING_END[q].match(text, pos)
                if end is not None:
                    pos = end.end()
                elif len(q) == 3 or text.endswith("\\"):
                    quote, pos = q, len(text)
                else:
                    pos = len(text)
            elif kind == "open":
                depth += 1
            elif kind == "close":
                depth = max(depth - 1, 0)
            elif tok == "=" and depth == 0 and not seen_eq:
                seen_eq = True
                rest = text[pos:].lstrip(" \t")
                if re.match(r"%[ \t]*[A-Za-z_]|!(?!=)", rest):
                    return j, (j, len(text) - len(rest)), False
        if quote or depth > 0 or (last == "\\" and not comment and text.endswith("\\")):
            j += 1
            continue
        return j, None, last == "?" and not comment and tokens > 1
    return len(lines) - 1, None, False


def build(nb: dict[str, object], path: str = "", strict: bool = True) -> Virtual:
    """The module of a notebook's code cells. ``strict``: a code cell that does not parse
    is an error (``NotebookError``), as a fix needs every cell; else it is left out and
    noted in ``Virtual.broken``, so that linting reports it and goes on with the rest."""
    builder = Builder(strict)
    for number, cell in enumerate(_cells(nb), 1):
        if _is_code(cell):
            assert isinstance(cell, dict)
            builder.cell(number, _source(cell, number))
    builder.v.text = "".join(v.text + "\n" for v in builder.v.lines)
    return builder.v


# ------------------------------------------------------------------------------ linting
def placed(text: str, virtual: Virtual) -> str:
    """``text`` with each "line N" of the joined source named as its cell and line."""
    def place(m: re.Match[str]) -> str:
        n = int(m.group(2))
        if not 1 <= n <= len(virtual.lines):
            return m.group(0)
        v = virtual.lines[n - 1]
        return f"{m.group(1)}cell {v.cell}, line {v.line}"

    return _LINE_REF.sub(place, text)


def _to_cell(f: Finding, virtual: Virtual) -> Finding:
    # Messages and evidence name lines of the joined source: name cells and lines instead.
    message = placed(f.message, virtual)
    explanation = placed(f.explanation, virtual) if f.explanation else f.explanation
    region, cells = None, None
    if f.region is not None and all(1 <= n <= len(virtual.lines) for n in f.region):
        first, last = (virtual.lines[n - 1] for n in f.region)
        if first.cell and last.cell:
            region, cells = (first.line, last.line), (first.cell, last.cell)
    if 1 <= f.line <= len(virtual.lines):
        v = virtual.lines[f.line - 1]
        return replace(f, line=v.line, col=v.column(f.col), cell=v.cell, region=region,
                       region_cells=cells, message=message, explanation=explanation)
    return replace(f, cell=0, region=None, message=message, explanation=explanation)


_LINE_REF = re.compile(r"(^|[\s(])line (\d+)\b")


def _lint(virtual: Virtual, path: str, settings: Settings) -> list[Finding]:
    from jaxlint.engine import lint_source  # libcst: only for a notebook that may matter

    try:
        return lint_source(virtual.text, path, settings=replace(settings, shown=virtual.shown))
    except SourceError as exc:
        raise _located(exc, virtual) from None


def _located(exc: SourceError, virtual: Virtual) -> NotebookError:
    """The engine's error, its position told as cell, line and column."""
    if exc.line is None or not 1 <= exc.line <= len(virtual.lines):
        return NotebookError(exc.message)
    v = virtual.lines[exc.line - 1]
    return NotebookError(exc.message, v.cell, v.line, v.column(exc.col))


def lint_notebook(data: bytes, path: str, settings: Settings) -> list[Finding]:
    """The findings of a notebook whose every code cell parses (else ``NotebookError``)."""
    return lint_virtual(build(load(data, path), path), path, settings)


def lint_virtual(virtual: Virtual, path: str, settings: Settings) -> list[Finding]:
    """The findings in a notebook already read with ``build``, placed in its cells."""
    if settings.prefilter:
        if not may_matter(virtual, settings.extras, project=settings.index is not None):
            return []  # before the engine, and libcst, are imported
        settings = replace(settings, prefilter=False)  # judged: the engine need not again
    return [_to_cell(f, virtual) for f in _lint(virtual, path, settings)]


def may_matter(virtual: Virtual, extras: Extras = NO_EXTRAS, project: bool = False) -> bool:
    """``might_matter`` for the notebook's code cells: the module ``build`` made, less its
    first line. That line imports ``timeit`` for the harness calls that magics become, so
    every notebook's module would pass with it (and the notebook's bytes pass when only its
    outputs or markdown name jax and a clock); without it, the cells are judged as a .py
    file is. A harness call (a magic) always matters."""
    assert virtual.text.startswith(HEADER + "\n")
    body = virtual.text[len(HEADER) + 1:]
    return _TIMEIT in body or might_matter(body, extras, project=project)


# ------------------------------------------------------------------------------ fixing
def _align(old: list[str], new: list[str]) -> list[int | None]:
    """For each line of ``old``, the line of ``new`` it became (None: gone). The fixer only
    inserts lines and adds text to lines, so an edited line still holds the old one's
    characters in order; inside each block difflib could not match exactly, lines are
    paired by that, keeping order, preferring long lines."""
    out: list[int | None] = [None] * len(old)
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op == "equal":
            for k in range(i2 - i1):
                out[i1 + k] = j1 + k
        elif op == "replace":
            if (i2 - i1) * (j2 - j1) > 40_000:
                raise _Refused("too many changed lines to map back onto the cells")
            for i, j in _pair(old[i1:i2], new[j1:j2]):
                out[i1 + i] = j1 + j
    return out


def _subsequence(small: str, big: str) -> bool:
    it = iter(big)
    return all(c in it for c in small)


def _pair(old: list[str], new: list[str]) -> list[tuple[int, int]]:
    n, m = len(old), len(new)
    best = [[0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            take = -1
            if old[i].strip() and _subsequence(old[i], new[j]):
                take = len(old[i]) + 1 + best[i + 1][j + 1]
            best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
    pairs, i, j = [], 0, 0
    while i < n and j < m:
        if old[i].strip() and _subsequence(old[i], new[j]) and \
                best[i][j] == len(old[i]) + 1 + best[i + 1][j + 1]:
            pairs.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return pairs


def _splice(text: str, col: int, piece: str) -> str:
    return text[:col] + piece + text[col:]


def _restore(virtual: Virtual, fixed: str
             ) -> tuple[dict[int, str], int | None, tuple[list[str], set[int]]]:
    """The new source of each cell the fix changed, the cell given ``import jax``, and the
    fixed module's lines that must read back the same from the fixed notebook."""
    lines = virtual.lines
    new = fixed.split("\n")
    if new and new[-1] == "":
        new.pop()
    where = _align([v.text for v in lines], new)
    if where[0] is None:
        raise _Refused("the fix changed jaxlint's own first line")
    taken = {j for j in where if j is not None}
    magic = {j for v, j in zip(lines, where) if v.kind in ("harness", "header") or v.removed}
    gone = {v.text for v, j in zip(lines, where) if j is None}
    changed: dict[tuple[int, int], str] = {}  # (cell, line) -> the line's new content
    deleted: set[tuple[int, int]] = set()
    before: dict[tuple[int, int], list[str]] = {}
    after: dict[tuple[int, int], list[str]] = {}
    for v, j in zip(lines, where):
        if v.kind == "header":
            continue
        if j is None:
            if v.kind != "code" or v.cut:
                raise _Refused(f"the fix removed IPython syntax in cell {v.cell}")
            deleted.add((v.cell, v.line))
        elif new[j] != v.text:
            if v.kind != "code" and v.kind != "harness":
                raise _Refused(f"the fix changed IPython syntax in cell {v.cell}")
            if v.kind == "code":
                if new[j][:v.cut] != v.text[:v.cut]:
                    raise _Refused(f"the fix changed a magic in cell {v.cell}")
                changed[(v.cell, v.line)] = v.outer + _splice(new[j], v.cut, v.removed)
    by_line = {h.vline: h for h in virtual.harnesses}
    wraps = []
    for i, h in by_line.items():
        j = where[i]
        assert j is not None
        if new[j] == lines[i].text:
            continue
        if not h.wrapped or new[j] != h.wrapped or h.start is None or h.end is None:
            raise _Refused(f"the fix changed a magic in cell {h.cell} in a way jaxlint "
                           "cannot write back")
        wraps.append(h)
    positions = sorted((j, i) for i, j in enumerate(where) if j is not None)
    runs: list[list[str]] = []  # new lines, each run between the same two kept lines
    starts: list[int] = []
    for j, text in enumerate(new):
        if j in taken:
            continue
        if starts and starts[-1] + len(runs[-1]) == j:
            runs[-1].append(text)
        else:
            starts.append(j)
            runs.append([text])
    import_cell = None
    for j, run in zip(starts, runs):
        texts = [t for t in run if t.strip()]  # the blank lines the import adds go
        if not texts:
            continue
        # A run goes to one place, in order, so the statements keep the fixed module's order.
        prev = max((i for jj, i in positions if jj < j), default=0)
        nxt = [i for jj, i in positions if jj > j]
        if prev == 0 and texts == ["import jax"]:
            # next to the first import from jax, else before the first Python statement:
            # never above the ``!pip install`` or ``%env`` lines it may need
            nxt = [i for i in nxt if _imports_jax(lines[i].text)] + [
                i for i in nxt if lines[i].kind == "code" and _statement(lines[i].text)]
            place = next((("before", i) for i in nxt if lines[i].inserts), None)
        else:
            follows = next((i for i in nxt if not (lines[i].kind == "code"
                                                   and not _statement(lines[i].text))), None)
            after_ok = prev > 0 and lines[prev].kind == "code" and not lines[prev].cut
            before_ok = follows is not None and lines[follows].inserts
            moved = all(t in gone or t == "import jax" for t in texts)
            if after_ok and (moved or not before_ok):
                place = ("after", prev)  # a line moved after the stop; an added import
            elif before_ok:
                assert follows is not None
                place = ("before", follows)  # a sync before the statement it precedes
            else:
                place = None
        if place is None:
            raise _Refused("the fix added a line where no cell can hold it")
        v = lines[place[1]]
        target = after if place[0] == "after" else before
        target.setdefault((v.cell, v.line), []).extend(v.outer + t for t in texts)
        if "import jax" in texts:
            import_cell = v.cell
    cells = {c for c, _ in (*changed, *deleted, *before, *after)} | {h.cell for h in wraps}
    out = {}
    for number in sorted(cells):
        out[number] = _rebuild(virtual.sources[number], number, changed, deleted, before,
                               after, [h for h in wraps if h.cell == number])
    # A %%time cell whose timed body is wrapped runs that body wrapped: the fixed module
    # cannot say so (its body lines are the cell's code); its cell is checked in _check.
    skip = {h.cell for h in wraps if h.persists}
    magic |= {j for v, j in zip(lines, where) if v.cell in skip}
    code = [text for j, text in enumerate(new)
            if text.strip() and j not in magic and text != "import jax"]
    return out, import_cell, (code, skip)


def _statement(text: str) -> bool:
    return bool(text.strip()) and not text.lstrip().startswith("#")


def _imports_jax(text: str) -> bool:
    return re.match(r"(import|from)[ \t]+jax\b", text) is not None


def _rebuild(source: str, number: int, changed: dict[tuple[int, int], str],
             deleted: set[tuple[int, int]], before: dict[tuple[int, int], list[str]],
             after: dict[tuple[int, int], list[str]], wraps: list[_Harness]) -> str:
    src = _lines(source)
    texts = {s.no: s.text for s in src}
    for h in wraps:
        assert h.start is not None and h.end is not None
        (l1, c1), (l2, c2) = h.start, h.end
        wrapped = dict(texts)
        wrapped[l2] = _splice(wrapped[l2], c2, ")")
        wrapped[l1] = _splice(wrapped[l1], c1, _WRAP)
        for no in range(l1, l2 + 1):
            key = (number, no)
            if key in deleted or (key in changed and changed[key] != wrapped[no]):
                raise _Refused(f"two fixes meet in a magic in cell {number}")
            changed[key] = wrapped[no]
    newline = next((s.ending for s in src if s.ending), "\n")
    parts: list[tuple[str, str | None]] = []
    for s in src:
        key = (number, s.no)
        parts.extend((t, None) for t in before.get(key, []))
        if key not in deleted:
            parts.append((changed.get(key, s.text), s.ending))
        parts.extend((t, None) for t in after.get(key, []))
    out = []
    for k, (text, ending) in enumerate(parts):
        last = k == len(parts) - 1
        end = (src[-1].ending if src else "") if last else (ending or newline)
        out.append(text + end)
    return "".join(out)


def _signature(virtual: Virtual, number: int) -> list[tuple[str, str]]:
    """A cell's IPython syntax as written (masked lines, magics up to what they time): what
    must read the same after a fix."""
    src = {s.no: s.outer + s.text for s in _lines(virtual.sources[number])}
    starts = {h.vline: h.start for h in virtual.harnesses}
    out = []
    for i, v in enumerate(virtual.lines):
        if v.cell != number or v.kind == "timed" or (v.kind == "code" and not v.removed):
            continue
        text = src.get(v.line, "")
        start = starts.get(i)
        if v.removed:
            text = text[:len(v.outer) + v.cut + len(v.removed)]
        elif start is not None and start[0] == v.line:
            text = text[:start[1]]
        out.append((v.kind, text))
    return out


def _dump_like(nb: object, original: str) -> str | None:
    """Serialise ``nb`` the way ``original`` was serialised, if some standard way matches."""
    parsed = json.loads(original)
    for indent in (1, 2, 4, None, 0, 3):
        for ascii_only in (False, True):
            for sort in (False, True):
                text = json.dumps(parsed, indent=indent, ensure_ascii=ascii_only, sort_keys=sort)
                for end in ("\n", ""):
                    if text + end == original:
                        return json.dumps(nb, indent=indent, ensure_ascii=ascii_only,
                                          sort_keys=sort) + end
    return None


def _allowed(virtual: Virtual, path: str, settings: Settings, unsafe: bool) -> set[int]:
    """Cells a fix may change: those a fixable finding's timed region touches."""
    cells: set[int] = set()
    for f in _lint(virtual, path, settings):
        if not f.fixable or (f.unsafe and not unsafe):
            continue
        first, last = f.region or (f.line, f.line)
        cells.update(v.cell for v in virtual.lines[first - 1:last] if v.cell)
    return cells


def fix_notebook(data: bytes, path: str, unsafe_fixes: bool, settings: Settings) -> FixResult:
    from jaxlint.engine import FixResult, fix_source

    nb = load(data, path)
    virtual = build(nb, path)
    try:
        result = fix_source(virtual.text, path, unsafe_fixes=unsafe_fixes,
                            settings=replace(settings, shown=virtual.shown))
    except SourceError as exc:
        raise _located(exc, virtual) from None
    remaining = [_to_cell(f, virtual) for f in result.remaining]
    assert isinstance(result.source, str)
    if result.source == virtual.text:
        return FixResult(data, 0, remaining, result.held_back)
    try:
        new_sources, import_cell, code = _restore(virtual, result.source)
        _check(virtual, new_sources, import_cell, path, settings, unsafe_fixes)
    except _Refused as exc:
        raise NotebookError(f"not fixed: {exc}; nothing was written") from None
    if not new_sources:  # the fix only added blank lines
        return FixResult(data, 0, remaining, result.held_back)
    _set_sources(nb, new_sources)
    if _code_lines(build(nb, path), code[1]) != code[0]:
        # read back as IPython would run it, the notebook is not the code the fixer made
        raise NotebookError("not fixed: the fixed cells would not run the fixed code in its "
                            "order; nothing was written")
    new_data = _serialise_like(nb, data, "apply the fix by hand (see --diff)")
    # what is left, re-read from the written notebook so positions match the new cells
    left = lint_notebook(new_data, path, settings)
    codes = Counter(f.code for f in result.remaining) + Counter(result.fixed_codes)
    codes -= Counter(f.code for f in left)
    return FixResult(new_data, max(len(result.remaining) + result.fixed - len(left), 0), left,
                     result.held_back, dict(sorted(codes.items())))


def cell_lines(source: str) -> list[str]:
    """A cell's source as its lines, each with its line end (Python's line ends only)."""
    return list(split_lines(source))


def _set_sources(nb: dict[str, object], sources: dict[int, str]) -> None:
    cells = _cells(nb)
    for number, text in sources.items():
        cell = cells[number - 1]
        assert isinstance(cell, dict)
        old = cell.get("source")
        # split as nbformat splits a source into a list
        cell["source"] = text.splitlines(keepends=True) if isinstance(old, list) else text


def _serialise_like(nb: dict[str, object], data: bytes, instead: str) -> bytes:
    """``nb`` as ``data`` (what it was read from) was laid out, BOM included; a
    NotebookError ending in ``instead`` (what to do) when no standard layout matches."""
    original = data.decode("utf-8-sig")
    try:
        dumped = _dump_like(nb, original)
    except RecursionError:
        dumped = None
    if dumped is None:
        raise NotebookError(f"cannot rewrite this notebook without reformatting it; {instead}")
    bom = b"\xef\xbb\xbf" if data.startswith(b"\xef\xbb\xbf") else b""
    return bom + dumped.encode("utf-8")


def rewrite_cells(nb: dict[str, object], data: bytes, sources: dict[int, str]) -> bytes:
    """The notebook ``nb`` (read from ``data``) with the cells ``sources`` names given
    those sources, laid out as ``data`` was (outputs, metadata, key order kept)."""
    _set_sources(nb, sources)
    return _serialise_like(nb, data, "add the comments by hand")


def _code_lines(virtual: Virtual, skip: set[int]) -> list[str]:
    """The lines that must read the same in the fixed module and in the fixed notebook read
    back: all but blank lines, the magics' own lines (checked in ``_check``) and ``import
    jax`` (put next to the first import from jax, not where the fixer put it)."""
    return [v.text for v in virtual.lines[1:] if v.text.strip() and v.kind != "harness"
            and not v.removed and v.text != "import jax" and v.cell not in skip]


def _check(virtual: Virtual, new_sources: dict[int, str], import_cell: int | None, path: str,
           settings: Settings, unsafe: bool) -> None:
    """Refuse the fix unless only cells holding a fixed finding changed (and the cell that
    gets ``import jax``), and each changed cell reads as IPython would run it."""
    allowed = _allowed(virtual, path, settings, unsafe) | {import_cell}
    for number, text in new_sources.items():
        if text == virtual.sources[number]:
            continue
        if number not in allowed:
            raise _Refused(f"the fix would change cell {number}, which holds no fixed finding")
        signatures = []
        for source in (virtual.sources[number], text):
            b = Builder()
            b.bound = virtual.bound_before(number)
            try:
                b.cell(number, source)
            except NotebookError as exc:
                raise _Refused(f"cell {number} would not parse after the fix ({exc.message})"
                               ) from None
            signatures.append((_signature(b.v, number),
                               [_compiles(h.timed) for h in b.v.harnesses]))
        if any(was and not now for was, now in zip(*(x[1] for x in signatures))):
            raise _Refused(f"a statement a magic times in cell {number} would not parse "
                           "after the fix")
        if signatures[0][0] != signatures[1][0]:
            raise _Refused(f"the fix would change the IPython syntax of cell {number}")
