"""What the analysis reads off the syntax tree without interpreting it: dotted names,
string literals, parameters, whether a function body yields."""

from __future__ import annotations

import ast
import builtins
import dataclasses
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import libcst as cst


def dotted(node: cst.BaseExpression) -> str | None:
    """``a.b.c`` for a chain of names and attributes, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted(node.value)
        return None if base is None else f"{base}.{node.attr.value}"
    return None


def base_name(node: cst.BaseExpression) -> str | None:
    while isinstance(node, cst.Attribute):
        node = node.value
    return node.value if isinstance(node, cst.Name) else None


def is_const_string(node: cst.BaseExpression) -> bool:
    return isinstance(node, (cst.SimpleString, cst.ConcatenatedString, cst.FormattedString))


def by_tick(entry: tuple[int, Any, Any] | tuple[int, Any]) -> int:
    return entry[0]


def params_of(node: cst.FunctionDef | cst.Lambda) -> Iterator[cst.Param]:
    p = node.params
    yield from (*p.posonly_params, *p.params, *p.kwonly_params)
    if isinstance(p.star_arg, cst.Param):
        yield p.star_arg
    if p.star_kwarg is not None:
        yield p.star_kwarg


def all_params(node: cst.FunctionDef | cst.Lambda) -> Iterator[str]:
    for param in params_of(node):
        yield param.name.value


# Fields of libcst's nodes that hold only layout (whitespace, comments, blank lines) or
# punctuation (commas, parentheses, brackets, colons, dots, ``=`` signs): no code.
_LAYOUT_FIELDS = frozenset({
    "comma", "colon", "dot", "equal", "first_colon", "second_colon", "semicolon",
    "lbrace", "lbracket", "lpar", "rbrace", "rbracket", "rpar", "relative",
    "leading_lines", "lines_after_decorators", "header", "footer", "empty_lines",
    "newline", "trailing_whitespace", "trailing_comma", "whitespace", "comment",
    "first_line", "last_line",
})
# Nodes whose fields are declared in another order than their parts are written.
_SOURCE_ORDER: dict[type[cst.CSTNode], tuple[str, ...]] = {
    cst.FunctionDef: ("decorators", "asynchronous", "name", "type_parameters", "params",
                      "returns", "body"),
    cst.ClassDef: ("decorators", "name", "type_parameters", "bases", "keywords", "body"),
    cst.IfExp: ("body", "test", "orelse"),
    cst.ExceptHandler: ("type", "name", "body"),
    cst.ExceptStarHandler: ("type", "name", "body"),
    cst.MatchCase: ("pattern", "guard", "body"),
    cst.Arg: ("keyword", "value"),
    cst.Parameters: ("posonly_params", "posonly_ind", "params", "star_arg", "kwonly_params",
                     "star_kwarg"),
    cst.For: ("asynchronous", "target", "iter", "body", "orelse"),
    cst.With: ("asynchronous", "items", "body"),
    cst.CompFor: ("asynchronous", "target", "iter", "ifs", "inner_for_in"),
}
_CODE_FIELDS: dict[type, tuple[str, ...]] = {}


def _code_fields(cls: type) -> tuple[str, ...]:
    names = tuple(f.name for f in dataclasses.fields(cls)
                  if f.name not in _LAYOUT_FIELDS and "whitespace" not in f.name)
    order = _SOURCE_ORDER.get(cls)
    if order is not None:
        # the written order, then any field a newer libcst added (in declared order)
        names = (*(n for n in order if n in names), *(n for n in names if n not in order))
    _CODE_FIELDS[cls] = names
    return names


def children(node: cst.CSTNode) -> list[cst.CSTNode]:
    """``node``'s parts that are code, in the order they are written: libcst's
    ``children`` less whitespace, comments and punctuation, read off the node's fields
    (``children`` rebuilds the node to list them, several times the cost)."""
    out: list[cst.CSTNode] = []
    cls = type(node)
    fields = _CODE_FIELDS.get(cls) or _code_fields(cls)
    kinds = _KINDS
    for name in fields:
        value = getattr(node, name)
        kind = kinds.get(type(value))
        if kind is None:
            kind = _kind(type(value))
        if kind == 1:
            out.append(value)
        elif kind == 2:
            for v in value:
                if (kinds.get(type(v)) or _kind(type(v))) == 1:
                    out.append(v)
    return out


# type -> 1: a libcst node, 2: a tuple or list, 3: anything else. ``isinstance`` against
# libcst's classes goes through ``ABCMeta.__instancecheck__`` whenever it is false (their
# metaclass is ABCMeta): a lookup by the value's own type is several times cheaper.
_KINDS: dict[type, int] = {}


def _kind(t: type) -> int:
    kind = 1 if issubclass(t, cst.CSTNode) else 2 if issubclass(t, (tuple, list)) else 3
    _KINDS[t] = kind
    return kind


def walk(node: cst.CSTNode, skip: tuple[type, ...] = ()) -> Iterator[cst.CSTNode]:
    """``node`` and the code inside it, depth first in written order; below a node of a
    type in ``skip`` (met inside ``node``), nothing."""
    todo = [node]
    while todo:
        n = todo.pop()
        yield n
        if n is node or not isinstance(n, skip):
            parts = children(n)
            parts.reverse()
            todo.extend(parts)


def names_in(node: cst.CSTNode) -> set[str]:
    """Every name ``node`` spells (``Name`` nodes, attribute and keyword names included)."""
    return {n.value for n in walk(node) if isinstance(n, cst.Name)}


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def cpython_tree(code: str) -> ast.Module | None:
    """CPython's tree of ``code``; None where it cannot parse it (syntax newer than this
    Python). The analysis asks for it once per module (``FlowAnalysis.cpython_tree``)."""
    try:
        return ast.parse(code)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


# a name as code spells it, not an attribute's (``o.x``)
_NAME_SPELT = re.compile(r"(?<![\w.])[^\W\d]\w*")


class LateGlobals:
    """The module-level names whose value depends on when the module's code calls a
    function: names the module binds more than once (a notebook's NumPy ``T`` defined
    again under ``@jax.jit`` further down, ``x = np.ones(n)`` then ``x = jnp.ones(n)``)
    or in a loop (``names``). ``reads(scope)``: those that the module's top-level
    functions or classes named ``scope`` read, themselves or through the module's functions
    and classes they name (``value_function_iteration`` calls ``T``, which calls ``B``).
    Only the module-level statements are walked; what a function reads is read off its
    text (a name spelt there, not as an attribute: at worst a name too many, which only
    makes the analysis tell more calls apart), once per function, and each function's
    closure once. (The names a statement binds are counted here on CPython's tree, which
    numbers the lines the texts are cut at; ``bindings.py`` answers a different question,
    bound on every path, on libcst's.)"""

    def __init__(self, tree: ast.Module, code: str) -> None:
        counts: dict[str, int] = {}
        scopes: list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef] = []

        def bind(target: ast.AST, times: int = 1) -> None:
            for node in ast.walk(target):
                if isinstance(node, ast.Name):
                    counts[node.id] = counts.get(node.id, 0) + times

        todo: list[ast.AST] = list(tree.body)
        while todo:
            stmt = todo.pop()
            if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                counts[stmt.name] = counts.get(stmt.name, 0) + 1
                scopes.append(stmt)
                continue
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                for target in (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]):
                    bind(target, 2 if isinstance(stmt, ast.AugAssign) else 1)
            elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
                for alias in stmt.names:
                    name = (alias.asname or alias.name).split(".")[0]
                    counts[name] = counts.get(name, 0) + 1
            elif isinstance(stmt, (ast.For, ast.AsyncFor)):
                bind(stmt.target, 2)  # (a value each round)
            elif isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    if item.optional_vars is not None:
                        bind(item.optional_vars)
            for field in ("body", "orelse", "finalbody", "handlers"):
                todo.extend(getattr(stmt, field, ()) or ())
            if isinstance(stmt, ast.ExceptHandler) and stmt.name:
                counts[stmt.name] = counts.get(stmt.name, 0) + 1
            for case in getattr(stmt, "cases", ()) or ():
                todo.extend(case.body)
        self.names = frozenset(n for n, k in counts.items() if k > 1)
        # (the lines as CPython numbers them: not ``splitlines``, which also splits at
        # form feeds and the like)
        self._lines = re.split(r"\r\n|\r|\n", code) if self.names else []
        self._scopes: dict[str, list[ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef]] = {}
        if self.names:
            for s in scopes:
                self._scopes.setdefault(s.name, []).append(s)
        self._spelt: dict[str, set[str]] = {}
        self._closed: dict[str, frozenset[str]] = {}

    def _spelt_in(self, name: str) -> set[str]:
        found = self._spelt.get(name)
        if found is None:
            found = self._spelt[name] = set()
            for s in self._scopes[name]:
                text = "\n".join(self._lines[s.lineno - 1:s.end_lineno or s.lineno])
                found.update(_NAME_SPELT.findall(text))
        return found

    def reads(self, scope: str) -> frozenset[str]:
        """What the module's top-level function or class ``scope`` (every one of that name)
        reads of ``names``; nothing for a name that is none."""
        if scope not in self._scopes:
            return frozenset()
        done = self._closed.get(scope)
        if done is not None:
            return done
        # the functions and classes it names, and those they name, not yet closed; all of
        # them get the union (a name too many for some: safe, as said above), so each
        # function is closed once and the whole costs what the text does
        order: list[str] = []
        seen = {scope}
        todo = [scope]
        while todo:
            k = todo.pop()
            order.append(k)
            for named in self._spelt_in(k) & self._scopes.keys():
                if named not in seen and named not in self._closed:
                    seen.add(named)
                    todo.append(named)
        reads: set[str] = set()
        for k in order:
            spelt = self._spelt_in(k)
            reads |= spelt & self.names
            for named in spelt & self._closed.keys():
                reads |= self._closed[named]
        result = frozenset(reads)
        for k in order:
            self._closed[k] = result
        return result


def generator_verdicts(tree: ast.Module) -> dict[str, frozenset[bool]]:
    """For each function name ``def``-ined in ``tree``, whether its definitions are
    generators (their own bodies ``yield``, nested functions and lambdas left out): {True},
    {False}, or both when same-named functions differ.

    A walk of CPython's tree costs a fraction of generating each function's text from
    libcst's tree, which is what answering per function would take."""
    found: dict[str, set[bool]] = {}
    stack: list[ast.AST] = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            own = False
            inner: list[ast.AST] = list(node.body)
            while inner:
                sub = inner.pop()
                if isinstance(sub, (ast.Yield, ast.YieldFrom)):
                    own = True
                if isinstance(sub, _SCOPES):
                    stack.append(sub)  # its own scope, judged on its own
                else:
                    inner.extend(ast.iter_child_nodes(sub))
            found.setdefault(node.name, set()).add(own)
            stack.extend(node.decorator_list)
            stack.append(node.args)
        else:
            stack.extend(ast.iter_child_nodes(node))
    return {name: frozenset(v) for name, v in found.items()}


class YieldFinder(cst.CSTVisitor):
    def __init__(self) -> None:
        self.found = False

    def visit_Yield(self, node: cst.Yield) -> bool:
        self.found = True
        return False

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_Lambda(self, node: cst.Lambda) -> bool:
        return False


BUILTINS = frozenset(dir(builtins))


@dataclass(frozen=True)
class StmtLoc:
    """Where a sync for a timer read would go: before ``node``, if ``fixable``; with
    ``at_end``, ``node`` is a block and the sync goes after its last statement (a ``with``
    timer reads the clock when its body ends)."""

    node: cst.CSTNode
    fixable: bool
    at_end: bool = False



def literal_truth(node: cst.BaseExpression | None) -> bool | None:
    """``bool(node)`` for a literal (``True``, ``None``, ``0``, ``"x"``, ``()``), else None."""
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return node.value == "True"
    if isinstance(node, (cst.Integer, cst.Float)):
        try:
            return float(node.value.replace("_", "")) != 0 if isinstance(node, cst.Float) else (
                int(node.value.replace("_", ""), 0) != 0)
        except ValueError:
            return None
    if isinstance(node, cst.SimpleString):
        return len(node.evaluated_value) > 0
    if isinstance(node, (cst.List, cst.Tuple, cst.Dict)) and not node.elements:
        return False
    return None


def int_literal(node: cst.BaseExpression | None) -> int | None:
    """The value of an integer literal (``10``, ``-1``, ``1_000``), else None."""
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = int_literal(node.expression)
        return None if inner is None else -inner
    if isinstance(node, cst.Integer):
        try:
            return int(node.value.replace("_", ""), 0)
        except ValueError:
            return None
    return None


# Progress bars that iterate like what they wrap (``tqdm(range(n))``) or like ``range``
# (``trange(n)``), and ``itertools.count``: a loop over one counts its rounds.
_BARS = frozenset({"tqdm", "tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "auto.tqdm"})
_RANGES = frozenset({"range", "trange", "tqdm.trange", "tqdm.auto.trange",
                     "tqdm.notebook.trange"})


def counter_start(node: cst.BaseExpression) -> str | None:
    """The code of the first value a loop over ``node`` gives, when it counts its rounds:
    ``range(n)`` and ``trange(n)`` ("0"), ``range(start, n)`` (``start``), ``tqdm(range(n))``,
    ``itertools.count(k)``; None for anything else."""
    if not isinstance(node, cst.Call) or any(a.star for a in node.args):
        return None
    name = dotted(node.func)
    positional = [a.value for a in node.args if a.keyword is None]
    if name in _BARS:
        return counter_start(positional[0]) if positional else None
    if name in _RANGES and positional:
        return "0" if len(positional) == 1 else _code(positional[0])
    if name in ("count", "itertools.count"):
        return _code(positional[0]) if positional else "0"
    return None


def _code(node: cst.BaseExpression) -> str | None:
    """A name's or a literal's code (``start``, ``1``), else None."""
    return dotted(node) or literal_text(node)


def empty_literal(node: cst.BaseExpression | None) -> bool:
    """An empty container literal (``[]``, ``()``, ``{}``, ``""``): a loop over it never runs."""
    if isinstance(node, (cst.List, cst.Tuple, cst.Set, cst.Dict)):
        return not node.elements
    return isinstance(node, cst.SimpleString) and node.evaluated_value == ""


def static_spec(args: Sequence[cst.Arg]) -> tuple[tuple[int, ...], tuple[str, ...]]:
    """``static_argnums=`` and ``static_argnames=`` of a ``jax.jit(...)`` call, as literals."""
    nums: list[int] = []
    names: list[str] = []
    for arg in args:
        if arg.keyword is None or arg.keyword.value not in ("static_argnums", "static_argnames"):
            continue
        value = arg.value
        items = ([e.value for e in value.elements]
                 if isinstance(value, (cst.Tuple, cst.List)) else [value])
        for item in items:
            if isinstance(item, cst.Integer) and arg.keyword.value == "static_argnums":
                nums.append(int(item.value, 0))
            elif isinstance(item, cst.SimpleString) and arg.keyword.value == "static_argnames":
                names.append(item.raw_value)
    return tuple(nums), tuple(names)


def literal_text(node: cst.BaseExpression) -> str | None:
    """The text of a literal constant argument (``4``, ``'eval'``, ``True``), else None."""
    if isinstance(node, (cst.Integer, cst.Float, cst.SimpleString)):
        return node.value
    if isinstance(node, cst.Name) and node.value in ("True", "False", "None"):
        return node.value
    if isinstance(node, cst.UnaryOperation) and isinstance(node.operator, cst.Minus):
        inner = literal_text(node.expression)
        return None if inner is None else "-" + inner
    return None


# The last word of a flag that asks for a timing or a wait (``timeit``, ``self.profile``,
# ``args.sync``, ``block``, ``do_benchmark``): README, "Which paths count".
_TIMING_FLAG = re.compile(
    r"(?:^|_)(timeit|time_it|timing|timings|timed|profile|profiling|benchmark|benchmarking|"
    r"bench|sync|synced|synchronize|synchronise|synchronous|block|blocking|"
    r"block_until_ready|measure|measuring)$", re.IGNORECASE)


def timing_flag(test: cst.BaseExpression) -> bool | None:
    """The outcome of a test of a flag that asks for a timing or a wait (``if timeit:``,
    ``if not self.profile:``), taken as set: code that waits for its work when its caller
    asks for the timing is judged as it runs then (the figure means something only then).
    None for any other test."""
    truth = True
    while isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        test, truth = test.expression, not truth
    if isinstance(test, cst.Attribute):
        word = test.attr.value
    elif isinstance(test, cst.Name):
        word = test.value
    else:
        return None
    return truth if _TIMING_FLAG.search(word) is not None else None


def main_test(test: cst.BaseExpression) -> bool | None:
    """The outcome of ``__name__ == "__main__"`` (either way round, or ``!=``) in a module
    being imported (False, True for ``!=``); None for any other test."""
    if not (isinstance(test, cst.Comparison) and len(test.comparisons) == 1):
        return None
    comp = test.comparisons[0]
    if not isinstance(comp.operator, (cst.Equal, cst.NotEqual)):
        return None
    sides = (test.left, comp.comparator)
    names = [s for s in sides if isinstance(s, cst.Name) and s.value == "__name__"]
    strings = [s for s in sides if isinstance(s, cst.SimpleString)
               and s.evaluated_value == "__main__"]
    if len(names) != 1 or len(strings) != 1:
        return None
    return isinstance(comp.operator, cst.NotEqual)


def entry_key(name: str, literal: str) -> str:
    """The state's key for a dict entry ``name[literal]`` (``outs.['loss']``): under ``name``,
    so rebinding ``name`` forgets it; ``entry_code`` gives it back as code."""
    return f"{name}.[{literal}]"


def entry_code(key: str) -> str:
    """Code for a state key: ``outs.['loss']`` -> ``outs['loss']``; names are themselves."""
    return key.replace(".[", "[")


def annotated_fields(node: cst.ClassDef) -> dict[str, cst.BaseExpression]:
    """The names a class body annotates, in order, with their annotations: a dataclass's or
    NamedTuple's fields (``step: Callable``, ``sampler: BaseSampler``)."""
    out: dict[str, cst.BaseExpression] = {}
    for line in node.body.body:
        if isinstance(line, cst.SimpleStatementLine):
            for small in line.body:
                if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                    out.setdefault(small.target.value, small.annotation.annotation)
    return out


_LITERALS = (cst.Integer, cst.Float, cst.SimpleString)


def test_key(test: cst.BaseExpression) -> tuple[str, frozenset[str], frozenset[str]] | None:
    """A test made only of names (``use_jax``, ``args.backend``), literals, comparisons
    and ``not``/``and``/``or``, as a text two equal tests share, the names it reads, and
    those of them whose answer a mutation may change (read for their truth or through an
    attribute; not ``x is None``, ``mode == "jax"``). None for any other test (a call, a
    subscript: it may give another answer each time)."""
    if isinstance(test, (cst.Name, cst.Attribute)):
        path = dotted(test)
        if path is None:
            return None
        if path in ("True", "False", "None"):
            return path, frozenset(), frozenset()
        root = frozenset({path.partition(".")[0]})
        return path, root, root
    if isinstance(test, _LITERALS):
        return test.value, frozenset(), frozenset()
    if isinstance(test, cst.UnaryOperation) and isinstance(test.operator, cst.Not):
        inner = test_key(test.expression)
        return None if inner is None else (f"not ({inner[0]})", inner[1], inner[2])
    if isinstance(test, cst.BooleanOperation):
        left, right = test_key(test.left), test_key(test.right)
        if left is None or right is None:
            return None
        op = "and" if isinstance(test.operator, cst.And) else "or"
        return f"({left[0]}) {op} ({right[0]})", left[1] | right[1], left[2] | right[2]
    if isinstance(test, cst.Comparison):
        parts = [test.left, *(comp.comparator for comp in test.comparisons)]
        text, read, mutable = "", frozenset[str](), frozenset[str]()
        for n, part in enumerate(parts):
            key = test_key(part)
            if key is None:
                return None
            op = type(test.comparisons[n - 1].operator).__name__ if n else ""
            text = f"{text} {op} {key[0]}" if n else key[0]
            read |= key[1]
            if isinstance(part, cst.Attribute):
                mutable |= key[2]
        return text, read, mutable
    return None


def _writes(node: cst.CSTNode, roots: frozenset[str], mutable: frozenset[str]) -> bool:
    """Whether running ``node`` may change what a test of ``roots`` reads: it binds one
    (an assignment, a loop or ``with`` target, an import, a definition, ``del``,
    ``global``/``nonlocal``), assigns into one (``args.x = 1``, ``q[0] = 1``), or calls
    something that is given one of ``mutable`` or is a method of one (``q.pop()``,
    ``update(args)``)."""
    for n in walk(node):
        targets: list[cst.BaseExpression] = []
        if isinstance(n, cst.AssignTarget):
            targets.append(n.target)
        elif isinstance(n, (cst.AugAssign, cst.AnnAssign)):
            targets.append(n.target)
        elif isinstance(n, (cst.For, cst.CompFor)):
            targets.append(n.target)
        elif isinstance(n, cst.AsName):
            targets.append(n.name)
        elif isinstance(n, cst.NamedExpr):
            targets.append(n.target)
        elif isinstance(n, cst.Del):
            targets.append(n.target)
        elif isinstance(n, (cst.FunctionDef, cst.ClassDef)):
            if n.name.value in roots:
                return True
        elif isinstance(n, (cst.Global, cst.Nonlocal)):
            if any(item.name.value in roots for item in n.names):
                return True
        elif isinstance(n, cst.ImportAlias):
            if n.asname is None and str(dotted(n.name)).partition(".")[0] in roots:
                return True
        elif isinstance(n, cst.Call) and mutable:
            if names_in(n) & mutable:
                return True
        for target in targets:
            for part in walk(target):
                if isinstance(part, cst.Name) and part.value in roots:
                    return True
    return False


def rebinds(node: cst.CSTNode, name: str) -> bool:
    """Whether running ``node`` may bind ``name`` again (``_writes``)."""
    return _writes(node, frozenset({name}), frozenset())


def correlated_ifs(body: Sequence[cst.CSTNode]
                   ) -> dict[int, tuple[int, frozenset[cst.If]]]:
    """``if`` statements of one block that test the same simple condition (``test_key``)
    with nothing between them that may change it: {the first one's index: (the last
    one's index, those ``if`` statements)}. All take the same branch on any one path."""
    keyed: list[tuple[int, str, frozenset[str], frozenset[str]]] = []
    for i, stmt in enumerate(body):
        if isinstance(stmt, cst.If):
            found = test_key(stmt.test)
            if found is not None and found[1]:
                keyed.append((i, *found))
    if len(keyed) < 2 or len({k for _, k, _, _ in keyed}) == len(keyed):
        return {}
    out: dict[int, tuple[int, frozenset[cst.If]]] = {}
    covered = -1
    for n, (i, key, roots, mutable) in enumerate(keyed):
        if i <= covered:
            continue
        same = [body[i]]
        scanned = i  # body[i:scanned] may not change the test
        for j, other, _, _ in keyed[n + 1:]:
            if other != key:
                continue
            if any(_writes(body[k], roots, mutable) for k in range(scanned, j)):
                break
            same.append(body[j])
            scanned = j
        if len(same) > 1:
            out[i] = (scanned, frozenset(s for s in same if isinstance(s, cst.If)))
            covered = scanned
    return out
