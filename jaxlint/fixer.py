"""Apply sync plans to a module in one pass, touching nothing but the inserted code.

A plan inserts ``jax.block_until_ready(<names>)`` before the statement that stops the clock,
at its indentation (inside the same line when that statement follows a ``;``), and wraps
expression statements whose result would otherwise be dropped. ``import jax`` is added with
libcst's ``AddImportsVisitor`` when the module does not bind ``jax`` already.

A line the fix makes longer than the project's line length is laid out as ruff format lays
it out: the sync's argument on a line of its own inside the call's brackets, and, when a
tuple of names still does not fit, one name a line with a trailing comma.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from jaxlint.analysis import (
    FixPlan,
    InsertBind,
    InsertSync,
    MoveAfter,
    ReplaceExpr,
    WrapExpr,
    WrapSync,
)
from jaxlint.analysis.syntax import walk
from jaxlint.bindings import Bindings, walk_statements


def _sync_call(arg: cst.BaseExpression, jax: str = "jax") -> cst.Call:
    return cst.Call(
        func=cst.Attribute(value=cst.Name(jax), attr=cst.Name("block_until_ready")),
        args=[cst.Arg(value=arg)],
    )


def _sync_expr(exprs: Sequence[str], jax: str = "jax", room: int | None = None) -> cst.Expr:
    """``jax.block_until_ready(<exprs>)`` as a statement, laid out to fit in ``room``
    characters (the line length less the indentation; None: on one line)."""
    text = exprs[0] if len(exprs) == 1 else "(" + ", ".join(exprs) + ")"
    call = f"{jax}.block_until_ready({text})"
    if room is not None and len(call) > room:
        if len(exprs) > 1 and len(text) + len(_STEP) > room:
            names = "".join(f"{_STEP * 2}{e},\n" for e in exprs)
            call = f"{jax}.block_until_ready(\n{_STEP}(\n{names}{_STEP})\n)"
        else:
            call = f"{jax}.block_until_ready(\n{_STEP}{text}\n)"
    return cst.Expr(value=cst.parse_expression(call))


_STEP = " " * 4  # ruff format's indent width
_EMPTY = cst.Module(body=[])
# Statements whose value is all the brackets on their line: a sync wrapped around it is
# the outermost pair, the one ruff format splits.
_OUTERMOST = (cst.Expr, cst.Assign, cst.AnnAssign, cst.AugAssign, cst.Return)


def _split(call: cst.Call) -> cst.Call:
    """``call`` (of one argument) with its argument on a line of its own."""
    template = cst.parse_expression(f"f(\n{_STEP}x\n)")
    assert isinstance(template, cst.Call)
    return call.with_changes(
        whitespace_before_args=template.whitespace_before_args,
        args=[call.args[0].with_changes(whitespace_after_arg=template.args[0].whitespace_after_arg,
                                        comma=cst.MaybeSentinel.DEFAULT)])


class _Applier(cst.CSTTransformer):
    def __init__(self, plans: Iterable[FixPlan], jax: str = "jax",
                 line_length: int | None = None) -> None:
        super().__init__()
        self.jax = jax  # the name inserted code calls jax by
        self.line_length = line_length
        self.indents: list[str] = []  # the indentation of each block we are in
        self.default_indent = _STEP
        self.made: set[cst.CSTNode] = set()  # the syncs wrapped around existing code
        self.pending = False  # one made since the last statement line was left
        # statement -> the syncs to insert before it: (alone, expressions) each
        self.inserts: dict[cst.CSTNode, list[tuple[bool, list[str]]]] = {}
        self.binds: dict[cst.CSTNode, list[tuple[str, str]]] = {}  # statement -> (name, code)
        self.wraps: set[cst.CSTNode] = set()
        self.wrap_exprs: set[cst.CSTNode] = set()
        self.replace: dict[cst.CSTNode, str] = {}
        self.moves: dict[cst.CSTNode, cst.CSTNode] = {}  # line -> statement to follow
        self.appends: dict[cst.CSTNode, list[str]] = {}  # block -> syncs after its last line
        self.updated: dict[cst.CSTNode, cst.CSTNode] = {}
        self.emitted: dict[cst.CSTNode, int] = {}  # statement -> how many lines it became
        for plan in plans:
            for edit in plan.edits:
                if isinstance(edit, InsertSync):
                    self._add_insert(edit)
                elif isinstance(edit, WrapSync):
                    self.wraps.add(edit.stmt)
                elif isinstance(edit, WrapExpr):
                    self.wrap_exprs.add(edit.expr)
                elif isinstance(edit, ReplaceExpr):
                    self.replace[edit.expr] = edit.code
                elif isinstance(edit, MoveAfter):
                    self.moves[edit.line] = edit.after

    def _add_insert(self, edit: InsertSync) -> None:
        if isinstance(edit, InsertBind):
            binds = self.binds.setdefault(edit.before, [])
            if (edit.name, edit.code) not in binds:
                binds.append((edit.name, edit.code))
        if edit.at_end:
            exprs = self.appends.setdefault(edit.before, [])
            exprs.extend(e for e in edit.exprs if e not in exprs)
            return
        groups = self.inserts.setdefault(edit.before, [])
        if edit.alone:
            if (True, list(edit.exprs)) not in groups:
                groups.append((True, list(edit.exprs)))
            return
        for alone, exprs in groups:
            if not alone:
                exprs.extend(e for e in edit.exprs if e not in exprs)
                return
        groups.append((False, list(edit.exprs)))

    # the indentation of the statement being left (the blocks around it)
    def visit_Module(self, node: cst.Module) -> bool:
        self.default_indent = node.default_indent  # a block's, when it keeps no indent
        return True

    def visit_IndentedBlock(self, node: cst.IndentedBlock) -> bool:
        self.indents.append(node.indent if node.indent is not None else self.default_indent)
        return True

    def _room(self) -> int | None:
        """Columns left on a line of the current block."""
        if self.line_length is None:
            return None
        return self.line_length - len("".join(self.indents).expandtabs(4))

    def _syncs(self, node: cst.CSTNode, own_lines: bool = False
               ) -> list[cst.BaseSmallStatement]:
        # Warm-up calls (alone) come first: they belong before the other inserted syncs; a
        # bound name (InsertBind) comes before everything, since the syncs may name it.
        # Only a sync on a line of its own is laid out to fit (not one joined by ``;``).
        groups = sorted(self.inserts.get(node, []), key=lambda g: not g[0])
        binds: list[cst.BaseSmallStatement] = [
            cst.Assign(targets=[cst.AssignTarget(target=cst.Name(name))],
                       value=cst.parse_expression(code))
            for name, code in self.binds.get(node, [])]
        room = self._room() if own_lines else None
        return binds + [_sync_expr(exprs, self.jax, room) for _, exprs in groups]

    def _fit(self, line: cst.SimpleStatementLine) -> cst.SimpleStatementLine:
        """``line`` with the argument of the sync it wraps around its value on a line of its
        own, if the fix made it longer than the line length (a statement on one line)."""
        room = self._room()
        if room is None or not self.pending:
            return line
        self.pending = False
        if len(line.body) != 1:
            return line
        small = line.body[0]
        value = getattr(small, "value", None)
        if value not in self.made or not isinstance(small, _OUTERMOST):
            # The sync is inside other brackets (``timeit(lambda: sync(f(x)), number=n)``),
            # which ruff format would split first: that is the user's code to lay out.
            return line
        code = _EMPTY.code_for_node(line.with_changes(leading_lines=())).rstrip("\n")
        if "\n" in code or len(code.expandtabs(4)) <= room:
            return line
        assert isinstance(value, cst.Call)
        return line.with_changes(body=[small.with_changes(value=_split(value))])

    def on_leave(  # type: ignore[override]
        self, original_node: cst.CSTNode, updated_node: cst.CSTNode
    ) -> cst.CSTNode | cst.RemovalSentinel | cst.FlattenSentinel[cst.CSTNode]:
        result = super().on_leave(original_node, updated_node)
        if original_node in self.replace and isinstance(result, cst.BaseExpression):
            # (the new code's own parentheses kept inside the old ones: ``(a, b)`` for an
            # argument stays a tuple, not two arguments)
            made = cst.parse_expression(self.replace[original_node])
            return made.with_changes(lpar=[*result.lpar, *made.lpar],
                                     rpar=[*made.rpar, *result.rpar])
        if original_node in self.wrap_exprs and isinstance(result, cst.BaseExpression):
            made = _sync_call(result, self.jax)
            self.made.add(made)
            self.pending = True
            return made
        if isinstance(original_node, cst.IndentedBlock):
            self.indents.pop()
        return result

    # wrapping: ``f(x)`` -> ``jax.block_until_ready(f(x))``
    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.Expr:
        if original_node in self.wraps:
            made = _sync_call(updated_node.value, self.jax)
            self.made.add(made)
            self.pending = True
            return updated_node.with_changes(value=made)
        return updated_node

    # inserting before a simple statement
    def _small_body(self, original: Sequence[cst.BaseSmallStatement],
                    updated: Sequence[cst.BaseSmallStatement],
                    skip_first: bool) -> list[cst.BaseSmallStatement]:
        body: list[cst.BaseSmallStatement] = []
        for i, (orig, new) in enumerate(zip(original, updated)):
            if not (i == 0 and skip_first):
                body.extend(self._syncs(orig))
            body.append(new)
        return body

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if any(s in self.inserts for s in original_node.body):
            updated_node = updated_node.with_changes(
                body=self._small_body(original_node.body, updated_node.body, skip_first=True)
            )
        return self._compound(original_node, self._fit(updated_node), original_node.body[0])

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        if not any(s in self.inserts for s in original_node.body):
            return updated_node
        return updated_node.with_changes(
            body=self._small_body(original_node.body, updated_node.body, skip_first=False)
        )

    def _reorder(self, body: Sequence[cst.BaseStatement]) -> list[cst.BaseStatement]:
        out = list(body)
        for line, after in self.moves.items():
            moved, anchor = self.updated.get(line), self.updated.get(after)
            if isinstance(moved, cst.BaseStatement) and isinstance(anchor, cst.BaseStatement) \
                    and moved in out and anchor in out:
                out.remove(moved)
                out.insert(out.index(anchor) + 1, moved)
        return out

    def leave_IndentedBlock(self, original_node: cst.IndentedBlock,
                            updated_node: cst.IndentedBlock) -> cst.IndentedBlock:
        if original_node in self.appends:
            # (the block's own indentation is still on self.indents: on_leave pops it)
            line = cst.SimpleStatementLine(body=[_sync_expr(self.appends[original_node],
                                                            self.jax, self._room())])
            updated_node = updated_node.with_changes(body=[*updated_node.body, line])
        if not self.moves:
            return updated_node
        return updated_node.with_changes(body=self._reorder(updated_node.body))

    def leave_Module(self, original_node: cst.Module, updated_node: cst.Module) -> cst.Module:
        if not self.moves:
            return updated_node
        return updated_node.with_changes(body=self._reorder(updated_node.body))

    # inserting before a compound statement whose header reads the clock
    def _compound(self, original: cst.BaseStatement, updated: cst.BaseStatement,
                  key: cst.CSTNode | None = None
                  ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        self.updated[original] = updated
        syncs = self._syncs(original if key is None else key, own_lines=True)
        if not syncs:
            return updated
        # The syncs join the stop's paragraph: blank lines and comments above stay above.
        leading = getattr(updated, "leading_lines", ())
        lines = [cst.SimpleStatementLine(body=[s]) for s in syncs]
        lines[0] = lines[0].with_changes(leading_lines=leading)
        stmt = updated.with_changes(leading_lines=())
        self.updated[original] = stmt
        self.emitted[original] = len(lines) + 1
        return cst.FlattenSentinel([*lines, stmt])

    def leave_If(self, original_node: cst.If, updated_node: cst.If
                 ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        return self._compound(original_node, updated_node)

    def leave_For(self, original_node: cst.For, updated_node: cst.For
                  ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        return self._compound(original_node, updated_node)

    def leave_With(self, original_node: cst.With, updated_node: cst.With
                   ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        return self._compound(original_node, updated_node)

    def leave_Match(self, original_node: cst.Match, updated_node: cst.Match
                    ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        return self._compound(original_node, updated_node)

    def leave_FunctionDef(self, original_node: cst.FunctionDef, updated_node: cst.FunctionDef
                          ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        return self._compound(original_node, updated_node)

    def leave_ClassDef(self, original_node: cst.ClassDef, updated_node: cst.ClassDef
                       ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        return self._compound(original_node, updated_node)


def _imports_jax(node: cst.CSTNode | None) -> bool:
    """Whether ``node`` (the statement a scope records a binding of ``jax`` at) is an
    ``import jax`` or ``import jax.sub``, which bind the name to the package."""
    if not isinstance(node, cst.Import):
        return False
    for alias in node.names:
        name: cst.BaseExpression = alias.name
        while isinstance(name, cst.Attribute):
            name = name.value
        if isinstance(name, cst.Name) and name.value == "jax":
            asname = alias.asname.name if alias.asname else None
            if asname is None or (isinstance(asname, cst.Name) and asname.value == "jax"
                                  and isinstance(alias.name, cst.Name)):
                return True
    return False


class _Names(cst.CSTVisitor):
    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)


_GUARD_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "Exception", "BaseException"})


def _root(name: cst.BaseExpression) -> str | None:
    while isinstance(name, cst.Attribute):
        name = name.value
    return name.value if isinstance(name, cst.Name) else None


def _imports_from_jax(stmt: cst.CSTNode) -> bool:
    """``import jax...`` or ``from jax... import ...`` on this line."""
    if not isinstance(stmt, cst.SimpleStatementLine):
        return False
    for small in stmt.body:
        if isinstance(small, cst.Import) and any(_root(a.name) == "jax" for a in small.names):
            return True
        if isinstance(small, cst.ImportFrom) and not small.relative \
                and small.module is not None and _root(small.module) == "jax":
            return True
    return False


def _jax_guard(module: cst.Module) -> cst.Try | None:
    """The module-level ``try:`` that imports from jax and handles the ImportError (the
    script runs without jax): ``import jax`` belongs inside it, not above it."""
    for stmt in module.body:
        if not (isinstance(stmt, cst.Try) and isinstance(stmt.body, cst.IndentedBlock)):
            continue
        if not any(_imports_from_jax(s) for s in stmt.body.body):
            continue
        for handler in stmt.handlers:
            if handler.type is None:
                return stmt
            types = handler.type.elements if isinstance(handler.type, cst.Tuple) \
                else [handler.type]
            for t in types:
                value = t.value if isinstance(t, cst.Element) else t
                if isinstance(value, cst.Name) and value.value in _GUARD_ERRORS:
                    return stmt
    return None


def _guard_fallbacks(guard: cst.Try | None) -> set[cst.CSTNode]:
    """Names bound in the guard's handlers (``jax = None``): the fallback when jax is
    missing, when the timed JAX work cannot run either; not a shadowing."""
    names = _Nodes()
    if guard is not None:
        for handler in guard.handlers:
            handler.visit(names)
    return names.nodes


class _Nodes(cst.CSTVisitor):
    def __init__(self) -> None:
        self.nodes: set[cst.CSTNode] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.nodes.add(node)


# The word ``jax`` in a module's text, and what makes one occurrence surely no binding of
# the name to anything but the package: an attribute follows (``jax.jit``, ``import
# jax.numpy``, ``from jax.lax import scan``), or the line is ``import jax...`` or ``from jax
# import ...`` (not continued from the line above).
_JAX_WORD = re.compile(r"(?<![\w.])jax(?!\w)")
_ATTRIBUTE_AFTER = re.compile(r"[ \t]*\.")
_IMPORT_BEFORE = re.compile(r"[ \t]*(import|from)[ \t]+")


def _only_jax_imports(text: str) -> bool:
    """Whether every occurrence of the word ``jax`` in ``text`` is one that binds nothing
    but the jax package (see above): then no scope binds the name to anything else. A
    ``False`` says only that the text must be read as code (``jax`` in a comment, a
    string, a parameter)."""
    for match in _JAX_WORD.finditer(text):
        start, end = match.span()
        if _ATTRIBUTE_AFTER.match(text, end):
            continue
        line = text.rfind("\n", 0, start) + 1
        before = text.rfind("\n", 0, max(line - 1, 0)) + 1
        continued = line > 0 and text[before:line - 1].rstrip("\r").endswith("\\")
        prefix = _IMPORT_BEFORE.fullmatch(text, line, start)
        if prefix is None or continued:
            return False
    return True


def _only_jax_imports_in_code(text: str) -> bool:
    """``_only_jax_imports`` on the code alone, read by Python's tokenizer: the word in a
    comment or a string is no name (a URL to jax's issues in a comment, an f-string's
    text). Each name ``jax`` must be followed by an attribute, or be the first name after
    an ``import`` or ``from`` that begins its line. Any doubt (a token error) is a
    ``False``."""
    try:
        tokens = [t for t in tokenize.generate_tokens(io.StringIO(text).readline)
                  if t.type not in _NOISE]
    except (tokenize.TokenError, SyntaxError, ValueError):
        return False
    for i, tok in enumerate(tokens):
        if tok.type != tokenize.NAME or tok.string != "jax":
            continue
        after = tokens[i + 1] if i + 1 < len(tokens) else None
        if after is not None and after.type == tokenize.OP and after.string == ".":
            continue
        keyword = tokens[i - 1] if i > 0 else None
        first = tokens[i - 2] if i > 1 else None
        if keyword is None or keyword.string not in ("import", "from") \
                or keyword.type != tokenize.NAME \
                or (first is not None and first.type not in _LINE_ENDS):
            return False
    return True


_NOISE = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.ENCODING})
_LINE_ENDS = frozenset({tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT})


def _jax_name(module: cst.Module, guard: cst.Try | None, text: str | None = None) -> str:
    """The name inserted code may call jax by: ``jax`` unless some scope of the module binds
    that name to anything but the jax package (a variable, a parameter, ``from x import
    jax``), else a fresh alias that nothing in the module uses. ``text``: the module's
    source, when known: most modules are answered from it without libcst's scope analysis,
    which cost a third of a fix."""
    if text is not None and (_only_jax_imports(text) or _only_jax_imports_in_code(text)):
        return "jax"
    from libcst.metadata import MetadataWrapper, ScopeProvider

    wrapper = MetadataWrapper(module, unsafe_skip_copy=True)
    scopes = {s for s in wrapper.resolve(ScopeProvider).values() if s is not None}
    fallbacks = _guard_fallbacks(guard)
    nodes = [getattr(a, "node", None) for scope in scopes for a in scope.assignments["jax"]]
    if all(_imports_jax(node) or node in fallbacks for node in nodes):
        return "jax"
    names = _Names()
    module.visit(names)
    alias = "_jax"
    while alias in names.names:
        alias = "_" + alias
    return alias


def _first_import_block_end(module: cst.Module) -> int:
    """Where libcst's AddImportsVisitor puts an import: after the first block of import
    lines at the top (after a docstring)."""
    body = module.body
    i = 0
    if body and isinstance(body[0], cst.SimpleStatementLine) and len(body[0].body) == 1 \
            and isinstance(body[0].body[0], cst.Expr) \
            and isinstance(body[0].body[0].value, (cst.SimpleString, cst.ConcatenatedString)):
        i = 1
    end = i
    for stmt in body[i:]:
        if isinstance(stmt, cst.SimpleStatementLine) and len(stmt.body) == 1 \
                and isinstance(stmt.body[0], (cst.Import, cst.ImportFrom)):
            end += 1
        else:
            break
    return end


def _edit_nodes(plans: Sequence[FixPlan]) -> list[tuple[cst.CSTNode, bool]]:
    """Where the plans put code that names jax: (node, whether at the end of a block)."""
    out: list[tuple[cst.CSTNode, bool]] = []
    for plan in plans:
        for edit in plan.edits:
            if isinstance(edit, InsertSync):
                out.append((edit.before, edit.at_end))
            elif isinstance(edit, (WrapSync, WrapExpr, ReplaceExpr)):
                out.append((edit.stmt if isinstance(edit, WrapSync) else edit.expr, False))
    return out


def _needs_import(module: cst.Module, plans: Sequence[FixPlan], bindings: Bindings,
                  jax: str) -> bool:
    """Whether ``jax`` may be unbound where some inserted code runs: not bound on every
    path to it (``import jax`` only under ``if TYPE_CHECKING:``, or after it). Code in an
    expression (a lambda's body, a harness's string) runs later: it needs ``jax`` bound
    by the end of the module."""
    for node, at_end in _edit_nodes(plans):
        if isinstance(node, (cst.BaseStatement, cst.BaseSmallStatement, cst.BaseSuite)):
            if not bindings.bound(node, (jax,), at_end):
                return True
        elif not bindings.bound_at_module_end(jax):
            return True
    return False


def _import_index(module: cst.Module, plans: Sequence[FixPlan], bindings: Bindings
                  ) -> int | None:
    """Where ``import jax`` goes among the module's statements so that it runs after the
    module's own environment set-up (``os.environ["JAX_ENABLE_X64"] = "1"`` before the
    first jax import decides how jax starts): right before the first statement that
    imports from jax, or that holds inserted code running as the module runs, whichever
    comes first; with neither, after the module's last import line. None: where libcst's
    AddImportsVisitor puts it (the end of the first import block) is no earlier than that."""
    body: list[cst.CSTNode] = list(module.body)
    first_jax = next((i for i, stmt in enumerate(body)
                      if any(_imports_from_jax(s) or _imports_jax_small(s)
                             for s in walk_statements([stmt]))), None)
    position = {id(stmt): i for i, stmt in enumerate(body)}
    uses = [position[id(top)] for node, _ in _edit_nodes(plans)
            if (top := bindings.top_level(node)) is not None and bindings.runs_at_import(node)]
    candidates = [i for i in (first_jax, min(uses, default=None)) if i is not None]
    if candidates:
        place = min(candidates)
    else:
        imports = [i + 1 for i, stmt in enumerate(body) if isinstance(
            stmt, cst.SimpleStatementLine) and all(
            isinstance(s, (cst.Import, cst.ImportFrom)) for s in stmt.body)]
        if not imports:
            return None
        place = max(imports)
    return None if place <= _first_import_block_end(module) else place


def _imports_jax_small(stmt: cst.CSTNode) -> bool:
    """A small statement ``import jax...`` or ``from jax... import ...``."""
    if isinstance(stmt, cst.Import):
        return any(_root(a.name) == "jax" for a in stmt.names)
    return isinstance(stmt, cst.ImportFrom) and not stmt.relative \
        and stmt.module is not None and _root(stmt.module) == "jax"


def _add_import(module: cst.Module, guard: cst.Try | None, asname: str | None,
                place: tuple[cst.Module, int, _Applier] | None = None) -> cst.Module:
    """``import jax`` (as ``asname``): inside the jax import guard if the module has one,
    right before its first jax import; else at ``place`` (the original module, the index
    of the statement it goes before there, and the transformer that made ``module``), or
    where libcst's AddImportsVisitor puts it."""
    if guard is not None and guard in module.body:
        assert isinstance(guard.body, cst.IndentedBlock)
        first = next(i for i, s in enumerate(guard.body.body) if _imports_from_jax(s))
        line = cst.parse_statement(f"import jax as {asname}\n" if asname else "import jax\n")
        body = list(guard.body.body)
        body.insert(first, line)
        new_guard = guard.with_changes(body=guard.body.with_changes(body=body))
        return module.with_changes(
            body=[new_guard if s is guard else s for s in module.body])
    if place is not None:
        original, index, applier = place
        # the statements before it, as the transformer wrote them (some became several)
        at = sum(applier.emitted.get(s, 1) for s in original.body[:index])
        body = list(module.body)
        line = cst.parse_statement(f"import jax as {asname}\n" if asname else "import jax\n")
        if at < len(body):
            # the comment and blank lines above that statement go above the import
            line = line.with_changes(leading_lines=getattr(body[at], "leading_lines", ()))
            body[at] = body[at].with_changes(leading_lines=())
        body.insert(at, line)
        return module.with_changes(body=body)
    context = CodemodContext()
    AddImportsVisitor.add_needed_import(context, "jax", asname=asname)
    return AddImportsVisitor(context).transform_module(module)


@dataclass
class Prepared:
    """What every fix of ``module`` needs and no plan changes: the name inserted code calls
    jax by, the walk that says where that name is bound, and which of the module's
    statements holds each node. Made once for all the fixes of a module
    (``engine.FixPreviews`` makes each finding's fix alone: a module's scope analysis and a
    rewrite of every statement once per finding were most of an editor's lint of a file
    with several)."""

    module: cst.Module
    jax: str
    bindings: Bindings
    _tops: dict[cst.CSTNode, int] | None = None

    def top_of(self, node: cst.CSTNode) -> int | None:
        """The index in ``module.body`` of the statement that holds ``node``."""
        if self._tops is None:
            self._tops = {n: i for i, stmt in enumerate(self.module.body) for n in walk(stmt)}
        return self._tops.get(node)


def _edited_tops(plans: Sequence[FixPlan], prepared: Prepared) -> set[int] | None:
    """The indices of the module's statements that ``plans`` change (None: some edit is at
    a node no statement holds)."""
    nodes: list[cst.CSTNode] = []
    for plan in plans:
        for edit in plan.edits:
            if isinstance(edit, InsertSync):
                nodes.append(edit.before)
            elif isinstance(edit, WrapSync):
                nodes.append(edit.stmt)
            elif isinstance(edit, (WrapExpr, ReplaceExpr)):
                nodes.append(edit.expr)
            elif isinstance(edit, MoveAfter):
                nodes += (edit.line, edit.after)
            else:
                return None
    tops = {prepared.top_of(node) for node in nodes}
    return None if None in tops else tops  # type: ignore[return-value]


def _transform(module: cst.Module, applier: _Applier, tops: set[int] | None) -> cst.Module:
    """``module`` rewritten by ``applier``: only the statements in ``tops`` (libcst rebuilds
    every node a transformer passes; the others stay as they are), or all of them."""
    if tops is None:
        return module.visit(applier)
    applier.visit_Module(module)
    body: list[cst.BaseStatement] = []
    for i, stmt in enumerate(module.body):
        if i not in tops:
            body.append(stmt)
            continue
        result = stmt.visit(applier)
        if isinstance(result, cst.FlattenSentinel):
            body.extend(result.nodes)
        elif not isinstance(result, cst.RemovalSentinel):
            body.append(result)
    if applier.moves:
        body = applier._reorder(body)
    return module.with_changes(body=body)


def prepare(module: cst.Module, text: str | None = None) -> Prepared:
    """``Prepared`` for ``module`` (``text``: the source it was parsed from, if at hand)."""
    jax = _jax_name(module, _jax_guard(module), text)
    # (``jax := ...`` in the module is not ours: the walk skips looking for it)
    return Prepared(module, jax, Bindings(module, (jax,), walrus=False))


def apply_plans(module: cst.Module, plans: Sequence[FixPlan],
                line_length: int | None = None, text: str | None = None,
                prepared: Prepared | None = None) -> cst.Module:
    """``module`` with ``plans`` applied; with ``line_length``, a line they make longer
    than that is laid out over several (see the module's docstring). ``text``: the source
    ``module`` was parsed from, if at hand (it spares work, never changes the result).
    ``prepared``: ``prepare(module, text)``, when several calls share it."""
    if not plans:
        return module
    if prepared is None:
        prepared = prepare(module, text)
    assert prepared.module is module, "prepared for another module"
    jax, bindings = prepared.jax, prepared.bindings
    if jax != "jax":
        # Replaced code (timeit statements, lambdas) names jax in text; with the name
        # shadowed that fix is refused (the finding stays, reported as not fixable).
        plans = [p for p in plans if not any(isinstance(e, ReplaceExpr) for e in p.edits)]
        if not plans:
            return module
    applier = _Applier(plans, jax, line_length)
    fixed = _transform(module, applier, _edited_tops(plans, prepared))
    guard = _jax_guard(fixed)  # the same statement, as the transformer returned it
    if jax != "jax" or _needs_import(module, plans, bindings, jax):
        index = _import_index(module, plans, bindings)
        place = None if index is None else (module, index, applier)
        return _add_import(fixed, guard, None if jax == "jax" else jax, place)
    return fixed
