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

import re
from collections.abc import Iterator, Mapping
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


class Positions(Mapping[cst.CSTNode, Start]):
    """Line and column of each node, computed on first use: most files that reach the
    analysis have no timed region to report."""

    def __init__(self, module: cst.Module) -> None:
        self._module = module
        self._starts: dict[cst.CSTNode, Start] | None = None

    @property
    def starts(self) -> dict[cst.CSTNode, Start]:
        if self._starts is None:
            self._starts = starts(self._module)
        return self._starts

    def __getitem__(self, node: cst.CSTNode) -> Start:
        return self.starts[node]

    def __contains__(self, node: object) -> bool:
        return node in self.starts

    def __iter__(self) -> Iterator[cst.CSTNode]:
        return iter(self.starts)

    def __len__(self) -> int:
        return len(self.starts)
