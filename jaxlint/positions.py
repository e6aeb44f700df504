"""Where each node of a parsed module starts (line, column), as libcst's PositionProvider says.

The PositionProvider generates the module's code and, for every node, builds a ``CodeRange``
of two ``CodePosition``s and splits every token on newlines: four times what generating the
code costs, and the largest part of checking a file with findings (benchmarks/MISSES.md).
Findings need only where nodes start, so ``starts`` runs the same code generation with a
state that keeps a ``(line, column)`` per node and counts newlines only in tokens that hold
one. It follows the provider's rules exactly: a node's position is where its syntactic part
starts (``record_syntactic_position``, or the node it names as its start), else where its
code starts, and the first position recorded for a node is kept. A test compares the two on
every fixture, so a libcst that changes how it generates code is caught there.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

import libcst as cst
from libcst._nodes.internal import CodegenState

from jaxlint.analysis.syntax import children as code_parts

Start = tuple[int, int]

_NEWLINE = re.compile(r"\r\n?|\n")  # what the provider splits tokens on


def _provider_starts(module: cst.Module) -> dict[cst.CSTNode, Start]:
    # Imported here: libcst.metadata costs 17 ms to import, a tenth of a one-file run.
    from libcst.metadata import MetadataWrapper, PositionProvider

    ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return {node: (r.start.line, r.start.column) for node, r in ranges.items()}


class _Syntactic:
    """``with state.record_syntactic_position(node, start_node=...)``: on leaving, the
    node starts where ``start_node`` does, or where the block began."""

    __slots__ = ("found", "node", "start", "start_node")

    def __init__(self, found: dict[cst.CSTNode, Start], node: cst.CSTNode,
                 start_node: cst.CSTNode | None, start: Start) -> None:
        self.found, self.node, self.start_node, self.start = found, node, start_node, start

    def __enter__(self) -> None:
        return None

    def __exit__(self, *exc: object) -> None:
        found = self.found
        found[self.node] = found[self.start_node] if self.start_node is not None \
            else self.start

class _StartsState(CodegenState):
    """libcst's code generation, keeping each node's start instead of the code."""

    __slots__ = ("column", "found", "line", "pending")

    def __init__(self, module: cst.Module) -> None:
        super().__init__(default_indent=module.default_indent,
                         default_newline=module.default_newline)
        self.line = 1
        self.column = 0
        self.pending: list[Start] = []
        self.found: dict[cst.CSTNode, Start] = {}

    def _advance(self, token: str) -> None:
        if "\n" not in token and "\r" not in token:
            self.column += len(token)
            return
        segments = _NEWLINE.split(token)
        self.line += len(segments) - 1
        self.column = len(segments[-1])

    def add_indent_tokens(self) -> None:
        for token in self.indent_tokens:
            self._advance(token)

    def add_token(self, value: str) -> None:
        self._advance(value)

    def pop_trailing_newline(self) -> None:
        pass  # the code is not kept; every node before it is placed already

    def before_codegen(self, node: cst.CSTNode) -> None:
        self.pending.append((self.line, self.column))

    def after_codegen(self, node: cst.CSTNode) -> None:
        start = self.pending.pop()
        if node not in self.found:
            self.found[node] = start

    def record_syntactic_position(self, node: cst.CSTNode, *,
                                  start_node: cst.CSTNode | None = None,
                                  end_node: cst.CSTNode | None = None) -> Any:
        return _Syntactic(self.found, node, start_node, (self.line, self.column))

def starts(module: cst.Module) -> dict[cst.CSTNode, Start]:
    """Every node of ``module`` and where it starts: 1-based line, 0-based column."""
    state = _StartsState(module)
    try:
        module._codegen(state)
    except AttributeError:  # pragma: no cover - a libcst whose internals moved
        return _provider_starts(module)
    return state.found


def statement_lines(module: cst.Module, text: str, tree: ast.Module | None = None,
                    asts: list[ast.stmt | None] | None = None) -> list[int] | None:
    """The line where the code of each of the module's top-level statements begins (its
    leading blank and comment lines included), from CPython's tree: each statement's first
    token, less the lines before it that libcst keeps with it. None when that cannot be
    relied on (syntax newer than this Python, line breaks CPython and libcst may count
    differently, trees that do not pair up). ``tree``: CPython's tree of ``text``, if the
    caller has it. ``asts``: filled with CPython's node of each compound statement (None
    for a line of simple statements)."""
    if "\r" in text or "\f" in text or "\v" in text or text.startswith("\ufeff"):
        return None
    if tree is None:
        try:
            tree = ast.parse(text)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return None
    body, j, out = tree.body, 0, []
    for stmt in module.body:
        if j >= len(body):
            return None
        first = body[j]
        if asts is not None:
            asts.append(None if isinstance(stmt, cst.SimpleStatementLine) else first)
        line = _first_line(stmt, first)
        if line is None:
            return None
        j += len(stmt.body) if isinstance(stmt, cst.SimpleStatementLine) else 1
        out.append(line)
    expected_first = 1 + len(module.header)
    if j != len(body) or (out and out[0] != expected_first) or any(
            b <= a for a, b in zip(out, out[1:])):
        return None
    return out


def _first_line(stmt: cst.CSTNode, first: ast.stmt) -> int | None:
    """The line where the code of ``stmt`` begins, its leading blank and comment lines
    included, from ``first``, CPython's node of it (of its first small statement, for a
    line of them): the first token's line, or the first decorator's, less the lines libcst
    keeps with them. None when the decorators do not pair up."""
    line = first.lineno
    decorators: Sequence[cst.Decorator] = getattr(stmt, "decorators", ())
    if decorators:
        listed: list[ast.expr] = getattr(first, "decorator_list", [])
        if len(listed) != len(decorators):
            return None
        line = listed[0].lineno - len(decorators[0].leading_lines)
    return line - len(getattr(stmt, "leading_lines", ()))


_KINDS: dict[type, tuple[type, ...]] = {
    cst.FunctionDef: (ast.FunctionDef, ast.AsyncFunctionDef), cst.ClassDef: (ast.ClassDef,),
    cst.If: (ast.If,), cst.For: (ast.For, ast.AsyncFor), cst.While: (ast.While,),
    cst.With: (ast.With, ast.AsyncWith), cst.Try: (ast.Try,), cst.Match: (ast.Match,),
}
if hasattr(ast, "TryStar"):
    _KINDS[cst.TryStar] = (ast.TryStar,)


# Compound statements whose own line (decorators, ``def``, a test, an iterable, a context
# manager) comes before all of their blocks.
_HEADED = (cst.FunctionDef, cst.ClassDef, cst.If, cst.For, cst.While, cst.With)
_ONE_LINE = cst.IndentedBlock(body=[cst.SimpleStatementLine(body=[cst.Pass()])])


def _all_nodes(node: cst.CSTNode) -> tuple[cst.CSTNode, ...]:
    """``node`` and every node inside it, layout included."""
    out, todo = [], [node]
    while todo:
        n = todo.pop()
        out.append(n)
        todo.extend(n.children)
    return tuple(out)


# (its nodes, which ``_place_inner`` drops from what it placed; listed once)
_ONE_LINE_NODES = _all_nodes(_ONE_LINE)


def _header_only(stmt: cst.CSTNode) -> cst.CSTNode:
    """``stmt`` with a one-line block and no ``else``: the nodes of its own line start
    where they do in ``stmt``."""
    changes: dict[str, Any] = {"body": _ONE_LINE}
    if getattr(stmt, "orelse", None) is not None:
        changes["orelse"] = None
    return stmt.with_changes(**changes)


def _same_kind(stmt: cst.CSTNode, tree: ast.stmt) -> bool:
    """Whether libcst's compound statement and CPython's node are the same statement."""
    return isinstance(tree, _KINDS.get(type(stmt), ()))


class Positions(Mapping[cst.CSTNode, Start]):
    """Line and column of each node, computed on first use: most files that reach the
    analysis have no timed region to report.

    Generating the whole module's code is most of what reporting a finding costs, and a
    finding needs only the nodes of its region. So where CPython's tree tells where each
    statement begins (``statement_lines``), a node in a statement that ``hints`` or
    ``top_of`` names (the statements holding timing) is placed by generating only the
    innermost statement of a block around it (``_place_inner``), and any other node by
    generating the top-level statements in order until it is found. A node of none of them
    (a timed statement string's own tree) is known absent once all are done."""

    def __init__(self, module: cst.Module, text: str | None = None,
                 hints: Iterable[cst.CSTNode] = (),
                 tree: Callable[[], ast.Module | None] | None = None,
                 top_of: Mapping[cst.CSTNode, cst.CSTNode | None] | None = None) -> None:
        """``tree``: gives CPython's tree of ``text`` (the analysis parsed it already).
        ``top_of``: the top-level statement of a node, where the analysis knows it (a
        function's ``def`` in another function: that statement is placed first)."""
        self._module = module
        self._text = text
        self._tree = tree
        self._hints = tuple(hints)
        self._hint_at = 0  # the first hint not walked yet (each is walked once, in order)
        self._top_of = top_of
        self._index: dict[int, int] | None = None  # id(top-level statement) -> its index
        self._asts: list[ast.stmt | None] = []  # CPython's node of each compound statement
        self._parent: dict[int, cst.CSTNode] = {}  # id(node) -> its parent, in _walked
        self._walked: set[int] = set()  # indexes of the statements in _parent
        self._nested: set[int] = set()  # ids of the inner statements placed alone
        self._blocks: dict[int, dict[int, int]] = {}  # see _places_in
        self._source_lines: list[str] = []
        self._starts: dict[cst.CSTNode, Start] | None = None  # complete
        self._found: dict[cst.CSTNode, Start] = {}
        self._lines: list[int] | None = None
        # the statements generated (indexes), and the first index that may not be: a set
        # and a cursor, not a list of those left (taking one out of a list searched it,
        # which made a long file's cost quadratic)
        self._done: set[int] | None = None
        self._next = 0

    @property
    def starts(self) -> dict[cst.CSTNode, Start]:
        if self._starts is None:
            if self._prepare():
                while (i := self._todo()) is not None:
                    self._statement(i)
                self._finish()
            else:
                self._starts = starts(self._module)
        assert self._starts is not None
        return self._starts

    def _prepare(self) -> bool:
        """Whether statements can be placed one at a time (hinted ones placed already)."""
        if self._done is None:
            lines = None
            if self._text:
                tree = self._tree() if self._tree is not None else None
                lines = (statement_lines(self._module, self._text, tree, self._asts)
                         if tree is not None or self._tree is None else None)
            if lines is None:
                return False
            self._lines = lines
            self._done = set()
            self._index = {id(stmt): i for i, stmt in enumerate(self._module.body)}
            self._source_lines = self._text.split("\n") if self._text else []
        return True

    def _hinted(self, node: cst.CSTNode) -> Start | None:
        """``node``'s start, when it lies in a statement the analysis named (its ``def``'s
        top-level statement, a statement that holds timing): only the innermost statement
        around it is generated, placed by CPython's line numbers. The named statements are
        walked (their nodes' parents noted) once each, in order, until one holds ``node``:
        a file of thousands of timed statements is not searched again for every node."""
        assert self._index is not None and self._done is not None
        top = self._top_of.get(node) if self._top_of is not None else None
        if top is not None:
            self._walk_top(top)
        hints = self._hints
        while (id(node) not in self._parent and id(node) not in self._index
               and self._hint_at < len(hints)):
            self._walk_top(hints[self._hint_at])
            self._hint_at += 1
        if id(node) in self._index:
            root = node  # (a top-level statement itself)
        elif id(node) in self._parent:
            root = self._root_of(node)
        else:
            return None
        i = self._index.get(id(root))
        if i is None or i in self._done:
            return None
        if not self._place_inner(i, node):
            self._statement(i)
        return self._found.get(node)

    def _walk_top(self, top: cst.CSTNode) -> None:
        i = self._index.get(id(top)) if self._index is not None else None
        if i is not None and i not in self._walked:
            self._walk(i)

    def _root_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The top-level statement ``node`` lies in, of those walked (``node`` itself when
        none holds it): not another top's, whose whole code would be generated in vain."""
        parent = self._parent
        while (up := parent.get(id(node))) is not None:
            node = up
        return node

    def _walk(self, i: int) -> None:
        """Note the parent of every node of top-level statement ``i``."""
        self._walked.add(i)
        parent = self._parent
        todo: list[cst.CSTNode] = [self._module.body[i]]
        while todo:
            node = todo.pop()
            for child in code_parts(node):
                parent[id(child)] = node
                todo.append(child)

    def _place_inner(self, i: int, node: cst.CSTNode) -> bool:
        """Generate the code of the innermost statement of a block around ``node`` inside
        top-level statement ``i``, starting at the line CPython gives it, with the indents
        of the blocks around it; False (nothing placed) when the trees do not pair up or
        the placed names do not match the source text there."""
        top = self._module.body[i]
        chain = [node]
        while chain[-1] is not top:
            up = self._parent.get(id(chain[-1]))
            if up is None:
                return False
            chain.append(up)
        chain.reverse()  # top ... node
        stmt: cst.CSTNode = top
        tree = self._asts[i] if i < len(self._asts) else None
        if tree is None or not _same_kind(top, tree):
            return False
        indents: list[str] = []
        inner: tuple[cst.CSTNode, ast.stmt] | None = None
        header = isinstance(top, _HEADED) and len(chain) == 1  # the node is the statement
        k = 1
        while tree is not None and k < len(chain):
            part = chain[k]
            body: list[ast.stmt] | None = None
            if isinstance(part, cst.If) and getattr(stmt, "orelse", None) is part:
                orelse = getattr(tree, "orelse", None)  # ``elif``: CPython's nested ``if``
                if not (isinstance(orelse, list) and len(orelse) == 1
                        and isinstance(orelse[0], ast.If)):
                    return False
                stmt, tree, k = part, orelse[0], k + 1
                continue
            block = part
            if isinstance(part, (cst.Else, cst.Finally)) and k + 1 < len(chain):
                body = getattr(tree, "finalbody" if isinstance(part, cst.Finally)
                               else "orelse", None)
                block, k = chain[k + 1], k + 1
            elif isinstance(part, (cst.ExceptHandler, cst.ExceptStarHandler, cst.MatchCase)
                            ) and k + 1 < len(chain):
                mine = getattr(stmt, "cases" if isinstance(part, cst.MatchCase)
                               else "handlers", ())
                theirs = getattr(tree, "cases" if isinstance(part, cst.MatchCase)
                                 else "handlers", ())
                at = next((n for n, h in enumerate(mine) if h is part), None)
                if at is None or len(mine) != len(theirs):
                    return False
                body = getattr(theirs[at], "body", None)
                block, k = chain[k + 1], k + 1
            elif part is getattr(stmt, "body", None):
                body = getattr(tree, "body", None)
            if not isinstance(block, cst.IndentedBlock) or not isinstance(body, list) or \
                    k + 1 >= len(chain):
                # in the statement's own line (a test, a decorator) or a one-liner; in the
                # line before its block (``header``), its block need not be generated
                header = block is part and isinstance(stmt, _HEADED) and not (
                    part is getattr(stmt, "body", None)
                    or part is getattr(stmt, "orelse", None))
                break
            child = chain[k + 1]
            found_at = self._places_in(block).get(id(child))
            if found_at is None:
                return False
            j = found_at
            if j >= len(body):
                return False
            indents.append(self._module.default_indent if block.indent is None
                           else block.indent)
            stmt, tree, k = child, body[j], k + 2
            inner = (stmt, tree)
            header = k >= len(chain) and isinstance(stmt, _HEADED)  # the node is ``stmt``
            if isinstance(stmt, cst.SimpleStatementLine):
                break
            if not _same_kind(stmt, tree):
                return False
        if inner is None:
            if not header:
                return False
            inner = (top, tree)  # (a top-level statement's own line: ``header``)
        stmt, tree = inner
        if id(stmt) in self._nested:
            return False
        line = _first_line(stmt, tree)
        if line is None:
            return False
        state = _StartsState(self._module)
        state.line = line
        state.indent_tokens = indents
        # The node lies before the statement's block: the statement is generated with a
        # one-line block (its nodes' starts come before it), not with all of its body (a
        # timed ``for`` whose loop is a whole training run, a function's ``def``).
        made = _header_only(stmt) if header else stmt
        try:
            made._codegen(state)
        except AttributeError:  # pragma: no cover - a libcst whose internals moved
            return False
        if made is not stmt:
            state.found[stmt] = state.found.pop(made)
            for part in _ONE_LINE_NODES:
                state.found.pop(part, None)
        lines = self._source_lines
        names = 0
        for placed, (ln, col) in state.found.items():
            if isinstance(placed, cst.Name):
                names += 1
                if not (0 < ln <= len(lines) and lines[ln - 1].startswith(placed.value, col)):
                    return False  # placed wrong: the whole statement is generated instead
        if not names:
            return False  # nothing to check the placing against
        if made is stmt:
            self._nested.add(id(stmt))
        for placed, start in state.found.items():
            self._found.setdefault(placed, start)
        return node in state.found

    def _places_in(self, block: cst.IndentedBlock) -> dict[int, int]:
        """For each statement of ``block`` (by id), the index of its first statement in
        CPython's body of that block (a line of ``a; b`` is two there). Once per block: a
        scan per placed node made a function of thousands of timed statements quadratic."""
        places = self._blocks.get(id(block))
        if places is None:
            places, j = {}, 0
            for b in block.body:
                places[id(b)] = j
                j += len(b.body) if isinstance(b, cst.SimpleStatementLine) else 1
            self._blocks[id(block)] = places
        return places

    def _statement(self, i: int) -> None:
        assert self._lines is not None and self._done is not None
        state = _StartsState(self._module)
        state.line = self._lines[i]
        try:
            self._module.body[i]._codegen(state)
        except AttributeError:  # pragma: no cover - a libcst whose internals moved
            self._starts = _provider_starts(self._module)
            self._done.update(range(len(self._lines)))  # nothing left to generate
            return
        for node, start in state.found.items():
            self._found.setdefault(node, start)
        self._done.add(i)

    def _todo(self) -> int | None:
        """The first statement not generated yet (None: all are)."""
        assert self._lines is not None and self._done is not None
        while self._next < len(self._lines) and self._next in self._done:
            self._next += 1
        return self._next if self._next < len(self._lines) else None

    def _finish(self) -> None:
        """All statements placed: the module, its header and footer lines complete it."""
        if self._starts is not None:
            return
        found = self._found
        found.setdefault(self._module, (1, 0))
        state = _StartsState(self._module)
        for line in self._module.header:
            line._codegen(state)
        if self._module.footer:
            if self._module.body:
                last = self._module.body[-1]
                state.line = self._lines[-1] if self._lines else 1
                last._codegen(state)
            for line in self._module.footer:
                line._codegen(state)
        for node, start in state.found.items():
            found.setdefault(node, start)
        self._starts = found

    def _get(self, node: cst.CSTNode) -> Start | None:
        if self._starts is not None:
            return self._starts.get(node)
        found = self._found.get(node)
        if found is not None:
            return found
        if not self._prepare():
            return self.starts.get(node)
        found = self._hinted(node)
        if found is not None:
            return found
        while (i := self._todo()) is not None:
            self._statement(i)
            found = self._found.get(node)
            if found is not None:
                return found
        self._finish()
        return self.starts.get(node)

    def __getitem__(self, node: cst.CSTNode) -> Start:
        found = self._get(node)
        if found is None:
            raise KeyError(node)
        return found

    def __contains__(self, node: object) -> bool:
        return isinstance(node, cst.CSTNode) and self._get(node) is not None

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self.starts)

    def __len__(self) -> int:
        return len(self.starts)
