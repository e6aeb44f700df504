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


def statement_lines(module: cst.Module, text: str, tree: ast.Module | None = None
                    ) -> list[int] | None:
    """The line where the code of each of the module's top-level statements begins (its
    leading blank and comment lines included), from CPython's tree: each statement's first
    token, less the lines before it that libcst keeps with it. None when that cannot be
    relied on (syntax newer than this Python, line breaks CPython and libcst may count
    differently, trees that do not pair up). ``tree``: CPython's tree of ``text``, if the
    caller has it."""
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
        if isinstance(stmt, cst.SimpleStatementLine):
            line = first.lineno
            j += len(stmt.body)
        else:
            line = first.lineno
            decorators: Sequence[cst.Decorator] = getattr(stmt, "decorators", [])
            if decorators:
                listed: list[ast.expr] = getattr(first, "decorator_list", [])
                if len(listed) != len(decorators):
                    return None
                line = listed[0].lineno - len(decorators[0].leading_lines)
            j += 1
        out.append(line - len(stmt.leading_lines))
    expected_first = 1 + len(module.header)
    if j != len(body) or (out and out[0] != expected_first) or any(
            b <= a for a, b in zip(out, out[1:])):
        return None
    return out


class Positions(Mapping[cst.CSTNode, Start]):
    """Line and column of each node, computed on first use: most files that reach the
    analysis have no timed region to report.

    Generating the whole module's code is most of what reporting a finding costs, and a
    finding needs only the nodes of its region. So where CPython's tree tells where each
    top-level statement begins (``statement_lines``), the code of one statement is
    generated at a time: first those ``hints`` names (the statements holding timing), then
    the others in order until a node asked for is found. A node of none of them (a timed
    statement string's own tree) is known absent once all are done."""

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
        self._hints = hints
        self._top_of = top_of
        self._index: dict[int, int] | None = None  # id(top-level statement) -> its index
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
                lines = (statement_lines(self._module, self._text, tree)
                         if tree is not None or self._tree is None else None)
            if lines is None:
                return False
            self._lines = lines
            self._done = set()
            index = self._index = {id(stmt): i for i, stmt in enumerate(self._module.body)}
            for hint in self._hints:
                i = index.get(id(hint))
                if i is not None and i not in self._done:
                    self._statement(i)
        return True

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
        top = self._top_of.get(node) if self._top_of is not None else None
        if top is not None and self._index is not None and self._done is not None:
            i = self._index.get(id(top))
            if i is not None and i not in self._done:
                self._statement(i)
                found = self._found.get(node)
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
