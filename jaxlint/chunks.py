"""Parsing a buffer again after an edit: only the top-level statements whose text changed.

An editor asks for a lint after every edit, and libcst's parse of the whole buffer was a
third of what the server spent on a 300-line training script (about 20 of 58 ms). Most edits
change one top-level statement, so ``ChunkCache.parse`` cuts the text at the starts of its
top-level statements (where CPython's parser, some ten times faster than libcst's, says they
are), parses only the chunks it has not seen, and puts the module together from the
statements of each chunk's tree.

The module made so is the one libcst would make of the whole text (``deep_equals``, and the
same code), given where the cuts may go: a chunk's leading blank lines and comments are what
its first statement owns in the whole module (libcst makes them the chunk's ``header``, and
they are moved back), and a cut is only made where every line between two statements is
empty or a comment at the first column (an indented comment or a line of spaces after a
block belongs to the block, its ``IndentedBlock.footer``). The module's own fields (its
indentation, newline and whether it ends with one) are the whole text's, as libcst works
them out: from the first indented block, the first line end, the end of the text; where the
chunks disagree on them (tabs in one function, spaces in another), the text is parsed whole.
The tests check the equality on every fixture and holdout script, as first parsed, after an
edit (a comment line before the middle line) and again; on 2026-12-07 it held so for all
1,612 ``.py`` files of the benchmark's timing-heavy corpus and all 3,407 of its library
corpus.

A text mostly new to the cache (a document's first lint) is parsed whole, which is faster
than chunk by chunk (about 15% on the timing-heavy corpus), and its statements are kept as
its chunks' parses (``_seed``).

A statement object is never in one module twice: a chunk whose text comes twice in a
buffer is parsed once for each place. Only text (``str``) is cut; bytes, and anything
CPython cannot parse, are parsed whole, so every error is the whole parse's.
"""

from __future__ import annotations

import ast
import re
import threading
import warnings
from collections import OrderedDict
from dataclasses import dataclass

import libcst as cst

from jaxlint.text_lines import split_lines


def _first_line(node: ast.stmt) -> int:
    decorators = getattr(node, "decorator_list", None)
    if decorators:
        return min(node.lineno, *(d.lineno for d in decorators))
    return node.lineno


def cut_points(tree: ast.Module, lines: list[str]) -> list[int]:
    """0-based line numbers where a chunk may start: the first line after the previous
    top-level statement, where every line from there to the next statement is empty or a
    comment at the first column."""
    body = tree.body
    cuts = [0]
    for before, after in zip(body, body[1:]):
        end = before.end_lineno or before.lineno  # 1-based, inclusive
        start = _first_line(after)  # 1-based
        if start <= end:
            continue  # ``a = 1; b = 2``: one line, one statement of libcst's
        if all(line in ("\n", "\r\n", "\r") or line.startswith("#")
               for line in lines[end:start - 1]):
            cuts.append(end)
    return cuts


@dataclass(frozen=True)
class _Part:
    """One chunk's parse: its statements (the first owning the chunk's leading lines, unless
    the chunk starts the text, whose leading lines are the module's header) and what libcst
    worked out of the chunk's text alone."""

    body: tuple[cst.SimpleStatementLine | cst.BaseCompoundStatement, ...]
    header: tuple[cst.EmptyLine, ...]
    footer: tuple[cst.EmptyLine, ...]
    default_indent: str
    default_newline: str
    has_trailing_newline: bool
    indented: bool  # it holds an indented block (so its default_indent is the text's)


def _part(text: str, first: bool) -> _Part:
    module = cst.parse_module(text)
    body = tuple(module.body)
    header = tuple(module.header)
    if not first and header and body:
        body = (body[0].with_changes(leading_lines=(*header, *body[0].leading_lines)),
                *body[1:])
        header = ()
    indented = any(isinstance(getattr(s, "body", None), cst.IndentedBlock) for s in body)
    return _Part(body, header, tuple(module.footer), module.default_indent,
                 module.default_newline, module.has_trailing_newline, indented)


class ChunkCache:
    """Parsed chunks of text, the most recently used kept (``size`` of them)."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._parsed: OrderedDict[tuple[str, bool], list[_Part]] = OrderedDict()
        self._lock = threading.Lock()  # (the server lints in worker threads)
        # the text last parsed and CPython's tree of it, which the analysis of that text
        # reads too (``tree_of``): parsed once
        self._last: tuple[str, ast.Module] | None = None

    def _chunk(self, text: str, first: bool, occurrence: int) -> _Part:
        key = (text, first)
        with self._lock:
            found = self._parsed.get(key)
            if found is None:
                found = self._parsed[key] = []
            else:
                self._parsed.move_to_end(key)
            if len(found) > occurrence:
                return found[occurrence]
        parsed = _part(text, first)  # (outside the lock: the slow part)
        with self._lock:
            found = self._parsed.setdefault(key, found)
            while len(found) <= occurrence:
                found.append(parsed if len(found) == occurrence else _part(text, first))
            while len(self._parsed) > self.size:
                self._parsed.popitem(last=False)
            return found[occurrence]

    def _known(self, keys: list[tuple[str, bool, int]]) -> int:
        with self._lock:
            return sum(1 for text, first, n in keys
                       if len(self._parsed.get((text, first), ())) > n)

    def _seed(self, module: cst.Module, keys: list[tuple[str, bool, int]],
              tree: ast.Module, cuts: list[int]) -> None:
        """Keep the statements of ``module`` (the whole text's parse) as its chunks' parses:
        each chunk holds one statement per line on which a top-level statement of CPython's
        tree starts (``a = 1; b = 2`` is one of libcst's). Nothing is kept unless the
        counts add up to the module's statements."""
        starts = sorted({_first_line(node) - 1 for node in tree.body})  # 0-based
        bounds = [*cuts[1:], float("inf")]
        counts = [0] * len(keys)
        j = 0
        for line in starts:
            while line >= bounds[j]:
                j += 1
            counts[j] += 1
        if sum(counts) != len(module.body) or 0 in counts:
            return
        at = 0
        with self._lock:
            for i, ((text, first, n), count) in enumerate(zip(keys, counts)):
                body = tuple(module.body[at:at + count])
                at += count
                last = i == len(keys) - 1
                part = _Part(body, tuple(module.header) if first else (),
                             tuple(module.footer) if last else (), module.default_indent,
                             module.default_newline,
                             module.has_trailing_newline if last else True,
                             any(isinstance(getattr(s, "body", None), cst.IndentedBlock)
                                 for s in body))
                found = self._parsed.setdefault((text, first), [])
                if len(found) == n:
                    found.append(part)
            while len(self._parsed) > self.size:
                self._parsed.popitem(last=False)

    def tree_of(self, source: str) -> ast.Module | None:
        """CPython's tree of ``source`` if it is the text last parsed, else None."""
        last = self._last
        return last[1] if last is not None and last[0] == source else None

    def parse(self, source: str) -> cst.Module:
        """libcst's module of ``source``; raises what ``cst.parse_module`` raises."""
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarnings about the user's code
                tree = ast.parse(source)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return cst.parse_module(source)
        self._last = (source, tree)
        lines = split_lines(source)
        cuts = cut_points(tree, lines)
        if len(cuts) < 2 or source.startswith("\ufeff") or not source.endswith(("\n", "\r")):
            # (libcst reads a last line without its line end differently alone)
            return cst.parse_module(source)
        texts = ["".join(lines[a:b]) for a, b in zip(cuts, [*cuts[1:], len(lines)])]
        keys: list[tuple[str, bool, int]] = []
        seen: dict[str, int] = {}
        for i, text in enumerate(texts):
            n = seen.get(text, 0)
            seen[text] = n + 1
            keys.append((text, i == 0, n))
        if 2 * self._known(keys) < len(keys):
            # A text mostly new (a document's first lint): parsed whole, which is faster
            # than chunk by chunk, and its statements kept as its chunks' for the next one.
            module = cst.parse_module(source)
            self._seed(module, keys, tree, cuts)
            return module
        parts: list[_Part] = []
        try:
            for text, first, n in keys:
                parts.append(self._chunk(text, first, n))
        except cst.ParserSyntaxError:
            return cst.parse_module(source)
        # (a block whose indentation is its module's, and a line end that is its module's,
        # keep none of their own: every chunk's must be the whole text's)
        indents = {p.default_indent for p in parts if p.indented}
        newlines = {p.default_newline for p, t in zip(parts, texts) if _LINE_END.search(t)}
        if (len(indents) > 1 or len(newlines) > 1 or any(not p.body for p in parts)
                or any(p.footer for p in parts[:-1])):
            return cst.parse_module(source)
        indented = next((p for p in parts if p.indented), None)
        newline_from = next((p for p, t in zip(parts, texts) if _LINE_END.search(t)), None)
        return cst.Module(
            body=tuple(s for p in parts for s in p.body), header=parts[0].header,
            footer=parts[-1].footer, encoding="utf-8",
            default_indent=indented.default_indent if indented is not None else "    ",
            default_newline=(newline_from.default_newline if newline_from is not None
                             else "\n"),
            has_trailing_newline=parts[-1].has_trailing_newline)


_LINE_END = re.compile(r"\r\n|\r|\n")
