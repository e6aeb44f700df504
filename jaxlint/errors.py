"""Errors shared by the engine and its front ends (kept free of heavy imports), and the
check that turns source too deeply nested for libcst into one of them."""

from __future__ import annotations


class SourceError(Exception):
    """The file cannot be analysed (it does not parse, or cannot be decoded). ``line`` is
    None when the problem has no one place in the file (it is nested too deeply)."""

    def __init__(self, message: str, line: int | None = 1, col: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.col = col


# libcst's native parser overflows the C stack (a segfault that takes the whole run down) a
# few thousand levels deep, and gets slower than linear well before that (a chain of 4,000
# ``+`` takes 18 s); jaxlint's analysis itself gives up (RecursionError) at a few hundred. So
# source that may be that deep is measured with CPython's own parser first. Deep brackets
# and long chains of operators (libcst nests one level per operator, ``and``/``or`` too) need
# many brackets at once, a line with many operators, or a long bracketed or continued
# statement; a byte scan that costs well under 1% of a parse finds files that have one.
RISKY_BRACKETS = 100  # open brackets at once
RISKY_OPERATORS = 1_000  # operators (or brackets) in one line
RISKY_LINES_IN_BRACKETS = 400  # lines inside one outermost pair of brackets
RISKY_COUNT = 200  # ``elif`` (libcst nests each in the previous one), backslash continuations
MAX_DEPTH = 1_000  # syntax tree levels jaxlint hands to libcst
TOO_DEEP = "too deeply nested for jaxlint to parse"

_OPEN, _NEWLINE = b"([{", 10
_NOT_SHAPE = bytes(b for b in range(256) if b not in b"()[]{}\n")
_CHAIN = (*(bytes([c]) for c in b"+-*/%@&|^~.<>(["), b"and", b"or", b"not", b"if", b"lambda",
          b"await")


def _shape(data: bytes) -> float:
    """How risky ``data`` looks, as a multiple of the thresholds above (> 1: measure it).
    Brackets and operators in strings and comments count too: this only decides whether to
    look closer."""
    score = max(data.count(b"elif") / RISKY_COUNT,
                (data.count(b"\\\n") + data.count(b"\\\r")) / RISKY_COUNT)
    if len(data) > RISKY_OPERATORS:
        for line in data.splitlines():
            if len(line) > RISKY_OPERATORS:
                score = max(score, sum(map(line.count, _CHAIN)) / RISKY_OPERATORS)
    depth = deepest = lines = longest = 0
    for b in data.translate(None, _NOT_SHAPE):
        if b == _NEWLINE:
            lines += depth > 0
        elif b in _OPEN:
            depth += 1
            deepest = max(deepest, depth)
        elif depth:
            depth -= 1
            if not depth:
                longest, lines = max(longest, lines), 0
    longest = max(longest, lines)
    return max(score, deepest / RISKY_BRACKETS, longest / RISKY_LINES_IN_BRACKETS)


def check_nesting(source: str | bytes) -> None:
    """Raise SourceError if ``source`` is nested too deeply to hand to libcst.

    The error is CPython's own when it refuses the file for its nesting (``too many nested
    parentheses``: 200 levels), or TOO_DEEP when CPython gives up (RecursionError,
    MemoryError) or its syntax tree is more than MAX_DEPTH levels deep. A file CPython cannot
    parse for another reason (newer syntax than this Python, a typo) is left to libcst unless
    it looks far too deep to risk, when CPython's error is reported.
    """
    data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
    risk = _shape(data)
    if risk <= 1:
        return
    import ast
    import warnings

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarnings about the user's code
            tree = compile(source, "<source>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except (RecursionError, MemoryError):
        raise SourceError(TOO_DEEP, None) from None
    except SyntaxError as exc:
        if "too many" in (exc.msg or "") or "nested" in (exc.msg or "") or risk > 5:
            raise SourceError(f"cannot parse: {exc.msg}", exc.lineno or 1,
                              max((exc.offset or 1) - 1, 0)) from None
        return
    except ValueError:  # NUL bytes: reported by the callers
        return
    line = _too_deep_at(tree)
    if line is not None:
        raise SourceError(f"{TOO_DEEP} (more than {MAX_DEPTH} levels)", line)


def _too_deep_at(tree: object) -> int | None:
    """The line where ``tree`` gets more than MAX_DEPTH levels deep as libcst nests it, or
    None. Iterative: the tree may be far deeper than Python's recursion limit."""
    import ast

    stack: list[tuple[ast.AST, int, int]] = [(tree, 0, 1)] if isinstance(tree, ast.AST) else []
    while stack:
        node, depth, line = stack.pop()
        line = getattr(node, "lineno", line)
        if isinstance(node, ast.BoolOp):  # ``a and b and c``: flat here, nested in libcst
            depth += len(node.values) - 2
        if depth > MAX_DEPTH:
            return line
        stack.extend((child, depth + 1, line) for child in ast.iter_child_nodes(node))
    return None


def encoding_problem(source: str | bytes, exc: SyntaxError) -> str:
    """What is wrong with ``source``'s encoding declaration, in CPython's words if it has
    any ("encoding problem: iso-8859-1 with BOM"), else in ``exc``'s."""
    import ast

    try:
        compile(source, "<source>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
    except SyntaxError as py:
        if py.msg and "encod" in py.msg:
            return py.msg
    except Exception:  # noqa: BLE001, S110 - any other failure: exc's words will do
        pass
    return str(exc.msg)
