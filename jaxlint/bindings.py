"""Which names are bound, at run time, on every path to a statement: what a fix may name.

A fix inserts code (``jax.block_until_ready(y)``) that runs where it is put. Every name it
uses must then be bound on every path that reaches that place, or the fixed program raises
``NameError`` or ``UnboundLocalError`` where the original ran. This is asked here, of the
syntax alone and on all paths, apart from the flow analysis: that analysis judges findings
with policies (a loop over an unknown iterable is taken to run), and a fix must hold on the
paths those policies set aside too. The answer is git-like in its caution: when in doubt, a
name is not bound, and the fix is withheld (the finding stays).

Bound on every path, statement by statement (a dataflow over the statements of one scope):
assignments, ``for`` and ``with`` targets, imports, ``def`` and ``class``, ``except ... as``
(and unbound again after the handler, as Python deletes it), ``del`` (unbound), walrus
targets outside short-circuits and comprehensions, ``match`` captures. A branch binds what
both sides bind; a loop body runs zero times unless it cannot (a non-empty literal, a
``range`` of a positive constant, ``while True``); ``return``, ``raise``, ``break`` and
``continue`` end a path; a handler may start anywhere in its ``try`` body. A ``with`` body
is taken to run to its end (a context manager that swallows the exception is not seen).

Names not local to a function are looked up where Python looks them up: an enclosing
function's (bound there where the nested ``def`` runs) or the module's, which must be bound
on every path through the whole module (the function may be called at its end), or a
builtin.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field

import libcst as cst

from jaxlint.analysis.syntax import children as code_parts

State = frozenset[str] | None  # None: no path reaches here (any name is "bound")
BUILTINS = frozenset(dir(builtins))
_SCOPES = (cst.FunctionDef, cst.ClassDef)
_PARTS = (cst.BaseStatement, cst.BaseSmallStatement, cst.BaseSuite, cst.Else,
          cst.ExceptHandler, cst.ExceptStarHandler, cst.Finally, cst.MatchCase, cst.If)


def _join(*states: State) -> State:
    out: State = None
    for s in states:
        if s is None:
            continue
        out = s if out is None else out & s
    return out


def target_names(node: cst.CSTNode) -> set[str]:
    """The names an assignment target binds (``a``, ``a, *b``, not ``a.x`` or ``a[0]``)."""
    if isinstance(node, cst.Name):
        return {node.value}
    if isinstance(node, (cst.Tuple, cst.List)):
        out: set[str] = set()
        for e in node.elements:
            out |= target_names(e.value)
        return out
    if isinstance(node, cst.StarredElement):
        return target_names(node.value)
    return set()


def _import_names(node: cst.Import | cst.ImportFrom) -> set[str]:
    out: set[str] = set()
    if isinstance(node.names, cst.ImportStar):
        return out
    for alias in node.names:
        if alias.asname is not None:
            out |= target_names(alias.asname.name)
        else:
            name: cst.BaseExpression = alias.name
            while isinstance(name, cst.Attribute):
                name = name.value
            if isinstance(name, cst.Name):
                out.add(name.value)
    return out


def _walrus(node: cst.CSTNode | None) -> set[str]:
    """Walrus targets that are bound whenever ``node`` is evaluated: not those under a
    short-circuit, a conditional expression, a lambda or a comprehension."""
    out: set[str] = set()
    todo = [node] if node is not None else []
    while todo:
        n = todo.pop()
        if isinstance(n, cst.NamedExpr):
            out |= target_names(n.target)
        elif isinstance(n, cst.BooleanOperation):
            todo.append(n.left)  # the right side may not run
            continue
        elif isinstance(n, cst.IfExp):
            todo.append(n.test)
            continue
        elif isinstance(n, (cst.Lambda, cst.ListComp, cst.SetComp, cst.DictComp,
                            cst.GeneratorExp)):
            continue
        todo.extend(code_parts(n))
    return out


# The nodes ``_Locals.on_visit`` does something with; any other is only gone through. (By
# the node's type, looked up once: a false ``isinstance`` against libcst's classes goes
# through ``ABCMeta.__instancecheck__``, and most nodes are none of these.)
_BINDERS = (cst.FunctionDef, cst.ClassDef, cst.Lambda, cst.ListComp, cst.SetComp,
            cst.DictComp, cst.GeneratorExp, cst.AssignTarget, cst.AnnAssign, cst.AugAssign,
            cst.For, cst.CompFor, cst.AsName, cst.Import, cst.ImportFrom, cst.NamedExpr,
            cst.Del, cst.Global, cst.Nonlocal, cst.MatchAs, cst.MatchStar, cst.MatchMapping,
            cst.Param)
_PLAIN: dict[type, bool] = {}


class _Locals:
    """Every name a scope binds anywhere (so is local to it), and its ``global`` and
    ``nonlocal`` declarations; nested scopes are not entered."""

    def __init__(self, root: cst.CSTNode) -> None:
        self.root = root
        self.names: set[str] = set()
        self.globals: set[str] = set()
        self.nonlocals: set[str] = set()

    def walk(self, top: cst.CSTNode) -> None:
        """Visit ``top`` and the code inside it (``on_visit`` says where to go down), with
        the code's own parts: libcst's ``visit`` rebuilds every node it passes."""
        todo = [top]
        while todo:
            node = todo.pop()
            if self.on_visit(node):
                todo.extend(code_parts(node))

    def on_visit(self, node: cst.CSTNode) -> bool:
        plain = _PLAIN.get(type(node))
        if plain is None:
            plain = _PLAIN[type(node)] = not issubclass(type(node), _BINDERS)
        if plain:
            return True  # (most nodes: a name, a call, an operator; see ``_BINDERS``)
        if node is not self.root and isinstance(node, (*_SCOPES, cst.Lambda)):
            if isinstance(node, _SCOPES):
                self.names.add(node.name.value)
                for d in node.decorators:
                    self.walk(d)
            return False
        if isinstance(node, (cst.ListComp, cst.SetComp, cst.DictComp, cst.GeneratorExp)):
            # only a walrus inside binds here
            todo: list[cst.CSTNode] = [node]
            while todo:
                n = todo.pop()
                if isinstance(n, cst.NamedExpr):
                    self.names.update(target_names(n.target))
                todo.extend(code_parts(n))
            return False
        if isinstance(node, (cst.AssignTarget,)):
            self.names |= target_names(node.target)
        elif isinstance(node, (cst.AnnAssign, cst.AugAssign)):
            self.names |= target_names(node.target)
        elif isinstance(node, (cst.For, cst.CompFor)):
            self.names |= target_names(node.target)
        elif isinstance(node, cst.AsName):
            self.names |= target_names(node.name)
        elif isinstance(node, (cst.Import, cst.ImportFrom)):
            self.names |= _import_names(node)
        elif isinstance(node, cst.NamedExpr):
            self.names |= target_names(node.target)
        elif isinstance(node, cst.Del):
            self.names |= target_names(node.target)
        elif isinstance(node, cst.Global):
            self.globals |= {n.name.value for n in node.names}
        elif isinstance(node, cst.Nonlocal):
            self.nonlocals |= {n.name.value for n in node.names}
        elif isinstance(node, cst.MatchAs) and node.name is not None:
            self.names |= target_names(node.name)
        elif isinstance(node, cst.MatchStar) and node.name is not None:
            self.names |= target_names(node.name)
        elif isinstance(node, cst.MatchMapping) and node.rest is not None:
            self.names |= target_names(node.rest)
        elif isinstance(node, cst.Param):
            self.names |= target_names(node.name)
        return True


def _always_runs(node: cst.For) -> bool:
    """A ``for`` loop whose body surely runs: over a non-empty literal or ``range(N)`` of a
    positive constant."""
    it = node.iter
    if isinstance(it, (cst.Tuple, cst.List, cst.Set)) and it.elements \
            and not any(isinstance(e, cst.StarredElement) for e in it.elements):
        return True
    if isinstance(it, cst.SimpleString):
        return len(it.evaluated_value or "") > 0
    if isinstance(it, cst.Call) and isinstance(it.func, cst.Name) and it.func.value == "range" \
            and len(it.args) == 1 and isinstance(it.args[0].value, cst.Integer):
        return int(it.args[0].value.value.replace("_", ""), 0) > 0
    return False


def _always_true(test: cst.BaseExpression) -> bool:
    if isinstance(test, cst.Name) and test.value == "True":
        return True
    return isinstance(test, cst.Integer) and int(test.value.replace("_", ""), 0) != 0


def _pattern_names(node: cst.CSTNode) -> set[str]:
    out: set[str] = set()

    class Captures(cst.CSTVisitor):
        def visit_MatchAs(self, n: cst.MatchAs) -> None:
            if n.name is not None:
                out.update(target_names(n.name))

        def visit_MatchStar(self, n: cst.MatchStar) -> None:
            if n.name is not None:
                out.update(target_names(n.name))

        def visit_MatchMapping(self, n: cst.MatchMapping) -> None:
            if n.rest is not None:
                out.update(target_names(n.rest))

    node.visit(Captures())
    return out


def _deleted(node: cst.CSTNode) -> set[str]:
    out: set[str] = set()

    class Dels(cst.CSTVisitor):
        def visit_Del(self, n: cst.Del) -> None:
            out.update(target_names(n.target))

        def visit_FunctionDef(self, n: cst.FunctionDef) -> bool:
            return False

        def visit_ClassDef(self, n: cst.ClassDef) -> bool:
            return False

    node.visit(Dels())
    return out


@dataclass
class _Loop:
    breaks: list[State] = field(default_factory=list)
    continues: list[State] = field(default_factory=list)


@dataclass
class _Asked:
    """The questions a ``Bindings`` will be asked: the names at each statement (``before``)
    and at the end of each indented block (``end``)."""

    before: dict[cst.CSTNode, frozenset[str]] = field(default_factory=dict)
    end: dict[cst.CSTNode, frozenset[str]] = field(default_factory=dict)


class _Scope:
    """The states of one scope's statements: ``before[node]`` on entry to each statement
    (small ones too), ``end[block]`` at the end of each indented block."""

    def __init__(self, body: Sequence[cst.CSTNode], entry: frozenset[str],
                 relevant: frozenset[str] | None = None, walrus: bool = True,
                 asked: _Asked | None = None) -> None:
        # Only the names asked about are tracked: a module of 100,000 assignments would
        # otherwise copy a set of 100,000 names at each of them.
        self.relevant = relevant
        # With the questions known (``asked``: the names asked at each statement and at the
        # end of each block), only their answers are kept: a module that binds a new name
        # for each of N fixes kept N sets of up to N names (1 GB at N = 6,000). The
        # ``def`` and ``class`` statements keep every tracked name (a nested function's
        # free names are asked of its enclosing function at its ``def``).
        self._asked = asked
        # (a walk of every expression for ``:=`` costs more than the rest: skipped when
        # the module's text has none)
        self._walrus: Callable[[cst.CSTNode | None], set[str]] = \
            _walrus if walrus else (lambda node: set())
        self.before: dict[cst.CSTNode, State] = {}
        self.end: dict[cst.CSTNode, State] = {}
        self._loops: list[_Loop] = []
        self._record = True
        self.exit = self._block(body, self._kept(entry))

    def _kept(self, names: Iterable[str]) -> frozenset[str]:
        relevant = self.relevant
        return frozenset(names) if relevant is None else frozenset(
            n for n in names if n in relevant)

    def _add(self, state: State, names: Iterable[str]) -> State:
        if state is None:
            return None
        new = self._kept(names) - state
        return state | new if new else state

    def _remove(self, state: State, names: Iterable[str]) -> State:
        if state is None:
            return None
        gone = self._kept(names) & state
        return state - gone if gone else state

    def _note(self, node: cst.CSTNode, state: State) -> None:
        if self._record:
            if self._asked is not None and not isinstance(node, _SCOPES):
                names = self._asked.before.get(node)
                if names is None:
                    return
                if state is not None:
                    state = state & names
            self.before[node] = _join(state, self.before[node]) if node in self.before \
                else state

    def _block(self, body: Sequence[cst.CSTNode], state: State) -> State:
        for stmt in body:
            if isinstance(stmt, cst.BaseSmallStatement):  # a one-line suite's
                state = self._small(stmt, state)
            else:
                state = self._stmt(stmt, state)
        return state

    def _suite(self, suite: cst.BaseSuite, state: State) -> State:
        out = self._block(suite.body, state)
        if isinstance(suite, cst.IndentedBlock) and self._record:
            kept = out
            if self._asked is not None:
                names = self._asked.end.get(suite)
                if names is None:
                    return out
                if kept is not None:
                    kept = kept & names
            self.end[suite] = kept
        return out

    def _small(self, small: cst.BaseSmallStatement, state: State) -> State:
        self._note(small, state)
        if isinstance(small, cst.Assign):
            state = self._add(state, self._walrus(small.value))
            for t in small.targets:
                state = self._add(state, target_names(t.target))
            return state
        if isinstance(small, cst.AnnAssign):
            if small.value is None:
                return state
            return self._add(state, self._walrus(small.value) | target_names(small.target))
        if isinstance(small, cst.AugAssign):
            return self._add(state, self._walrus(small.value) | target_names(small.target))
        if isinstance(small, (cst.Import, cst.ImportFrom)):
            return self._add(state, _import_names(small))
        if isinstance(small, cst.Del):
            return self._remove(state, target_names(small.target))
        if isinstance(small, (cst.Return, cst.Raise)):
            return None
        if isinstance(small, cst.Break):
            if self._loops:
                self._loops[-1].breaks.append(state)
            return None
        if isinstance(small, cst.Continue):
            if self._loops:
                self._loops[-1].continues.append(state)
            return None
        if isinstance(small, cst.Expr):
            return self._add(state, self._walrus(small.value))
        return state

    def _stmt(self, stmt: cst.CSTNode, state: State) -> State:
        self._note(stmt, state)
        if isinstance(stmt, cst.SimpleStatementLine):
            for small in stmt.body:
                state = self._small(small, state)
            return state
        if isinstance(stmt, _SCOPES):
            for d in stmt.decorators:
                state = self._add(state, self._walrus(d.decorator))
            return self._add(state, {stmt.name.value})
        if isinstance(stmt, cst.If):
            state = self._add(state, self._walrus(stmt.test))
            then = self._suite(stmt.body, state)
            other = state
            if isinstance(stmt.orelse, cst.If):
                other = self._stmt(stmt.orelse, state)
            elif isinstance(stmt.orelse, cst.Else):
                other = self._suite(stmt.orelse.body, state)
            return _join(then, other)
        if isinstance(stmt, cst.For):
            return self._for(stmt, self._add(state, self._walrus(stmt.iter)))
        if isinstance(stmt, cst.While):
            return self._while(stmt, state)
        if isinstance(stmt, (cst.Try, cst.TryStar)):
            return self._try(stmt, state)
        if isinstance(stmt, cst.With):
            for item in stmt.items:
                state = self._add(state, self._walrus(item.item))
                if item.asname is not None:
                    state = self._add(state, target_names(item.asname.name))
            return self._suite(stmt.body, state)
        if isinstance(stmt, cst.Match):
            state = self._add(state, self._walrus(stmt.subject))
            ends: list[State] = []
            exhaustive = False
            for case in stmt.cases:
                inner = self._add(state, _pattern_names(case.pattern))
                if case.guard is not None:
                    inner = self._add(inner, self._walrus(case.guard))
                elif isinstance(case.pattern, cst.MatchAs) and case.pattern.pattern is None:
                    exhaustive = True  # ``case _`` or ``case x``
                ends.append(self._suite(case.body, inner))
            return _join(*ends, *(() if exhaustive else (state,)))
        return state

    def _loop(self, body: cst.BaseSuite, head: State, targets: set[str]
              ) -> tuple[State, _Loop]:
        """Run a loop body to a fixed point from ``head`` (the state before the loop); the
        state at the head after any number of rounds, and the rounds' breaks."""
        entry = head
        for _ in range(8):
            loop = _Loop()
            self._loops.append(loop)
            try:
                end = self._suite(body, self._add(entry, targets))
            finally:
                self._loops.pop()
            again = _join(head, end, *loop.continues)
            if again == entry:
                break
            entry = again
        return _join(end, *loop.continues), loop

    def _for(self, stmt: cst.For, state: State) -> State:
        rounds, loop = self._loop(stmt.body, state, target_names(stmt.target))
        # the iterator runs out: before any round, unless the body surely runs, or after one
        done = rounds if _always_runs(stmt) else _join(state, rounds)
        if stmt.orelse is not None:
            done = self._suite(stmt.orelse.body, done)
        return _join(done, *loop.breaks)

    def _while(self, stmt: cst.While, state: State) -> State:
        state = self._add(state, self._walrus(stmt.test))
        rounds, loop = self._loop(stmt.body, state, set())
        done: State = None if _always_true(stmt.test) else _join(state, rounds)
        if stmt.orelse is not None and done is not None:
            done = self._suite(stmt.orelse.body, done)
        return _join(done, *loop.breaks)

    def _try(self, stmt: cst.Try | cst.TryStar, state: State) -> State:
        body_end = self._suite(stmt.body, state)
        # an exception may come before any statement of the body has bound anything
        raised = self._remove(state, _deleted(stmt.body))
        ends = []
        for handler in stmt.handlers:
            inner = raised
            if handler.name is not None:
                inner = self._add(inner, target_names(handler.name.name))
            out = self._suite(handler.body, inner)
            if handler.name is not None:  # Python deletes it when the handler ends
                out = self._remove(out, target_names(handler.name.name))
            ends.append(out)
        done = body_end
        if stmt.orelse is not None:
            done = self._suite(stmt.orelse.body, done)
        normal = _join(done, *ends)
        if stmt.finalbody is None:
            return normal
        # ``finally`` runs after any of them, a return or an exception too
        self._suite(stmt.finalbody.body, _join(normal, raised))
        if normal is None:
            return None
        self._record = False  # again, from the normal end alone: what follows the try
        try:
            return self._suite(stmt.finalbody.body, normal)
        finally:
            self._record = True


def _params(node: cst.FunctionDef) -> set[str]:
    p = node.params
    out = {x.name.value for x in (*p.posonly_params, *p.params, *p.kwonly_params)}
    for star in (p.star_arg, p.star_kwarg):
        if isinstance(star, cst.Param):
            out.add(star.name.value)
    return out


class Bindings:
    """Asked ``bound(node, names)``: whether each name is bound on every path to the
    statement ``node`` (a statement, a small statement, or with ``at_end`` the end of an
    indented block), where the code there would look it up."""

    def __init__(self, module: cst.Module, relevant: Iterable[str] | None = None,
                 walrus: bool = True,
                 asked: Iterable[tuple[cst.CSTNode, bool, Iterable[str]]] | None = None
                 ) -> None:
        """``relevant``: the only names that will be asked about (None: any, or those of
        ``asked``); ``walrus``: whether the module may hold ``:=`` (its text says so);
        ``asked``: every question that will be asked, (node, at_end, names), when they are
        known (only their answers are then kept); a question not in it is answered "not
        bound"."""
        self.module = module
        self._asked: _Asked | None = None
        if asked is not None:
            self._asked = _Asked()
            for node, at_end, names in asked:
                table = self._asked.end if at_end else self._asked.before
                table[node] = table.get(node, frozenset()) | frozenset(names)
            if relevant is None:
                relevant = {n for table in (self._asked.before, self._asked.end)
                            for names in table.values() for n in names}
        self.relevant = None if relevant is None else frozenset(relevant)
        self.walrus = walrus
        self._parents: dict[cst.CSTNode, cst.CSTNode] = {}
        self._scopes: dict[cst.CSTNode, _Scope] = {}
        self._locals: dict[cst.CSTNode, _Locals] = {}
        self._index(module)

    def _index(self, root: cst.CSTNode) -> None:
        """Parents of the statements, blocks and scopes (not of expressions, which are not
        even visited: a module may hold 100,000 statements)."""
        parents = self._parents
        todo: list[cst.CSTNode] = [root]
        while todo:
            node = todo.pop()
            if isinstance(node, (cst.Module, cst.SimpleStatementLine, cst.IndentedBlock,
                                 cst.SimpleStatementSuite)):
                children: Sequence[cst.CSTNode] = node.body
            elif isinstance(node, cst.BaseSmallStatement):
                continue
            else:  # a compound statement or one of its parts: few, and small to list
                children = [c for c in code_parts(node) if isinstance(c, _PARTS)]
            for child in children:
                parents[child] = node
                todo.append(child)

    def scope_of(self, node: cst.CSTNode) -> cst.CSTNode:
        """The function, class or module whose code ``node`` is."""
        at = self._parents.get(node)
        while at is not None and not isinstance(at, (*_SCOPES, cst.Module)):
            at = self._parents.get(at)
        return at if at is not None else self.module

    def _scope(self, scope: cst.CSTNode) -> _Scope:
        found = self._scopes.get(scope)
        if found is None:
            if isinstance(scope, cst.Module):
                found = _Scope(scope.body, frozenset(), self.relevant, self.walrus,
                               self._asked)
            else:
                assert isinstance(scope, _SCOPES)
                entry = frozenset(_params(scope)) if isinstance(scope, cst.FunctionDef) \
                    else frozenset()
                found = _Scope(scope.body.body, entry, self.relevant, self.walrus,
                               self._asked)
            self._scopes[scope] = found
        return found

    def _local_names(self, scope: cst.CSTNode) -> _Locals:
        found = self._locals.get(scope)
        if found is None:
            found = self._locals[scope] = _Locals(scope)
            if isinstance(scope, cst.FunctionDef):
                found.names |= _params(scope)
            body = scope.body if isinstance(scope, _SCOPES) else scope
            found.walk(body)
        return found

    def _state(self, scope: _Scope, node: cst.CSTNode, at_end: bool) -> State:
        table = scope.end if at_end else scope.before
        if node not in table:
            return frozenset()  # not reached by the walk (dead code): bind nothing
        return table[node]

    def module_end(self) -> State:
        return self._scope(self.module).exit

    def bound(self, node: cst.CSTNode, names: Iterable[str], at_end: bool = False) -> bool:
        names = list(names)
        assert self.relevant is None or self.relevant.issuperset(names), names
        scope_node = self.scope_of(node)
        state = self._state(self._scope(scope_node), node, at_end)
        return all(self._bound_in(scope_node, state, name) for name in names)

    def _bound_in(self, scope: cst.CSTNode, state: State, name: str) -> bool:
        if state is None:
            return True  # nothing reaches the statement
        if isinstance(scope, cst.Module):
            return name in state or name in BUILTINS
        local = self._local_names(scope)
        if name in local.globals:
            return self._global(name)
        if name in local.names and name not in local.nonlocals:
            return name in state
        # free here: an enclosing function's (as bound where this scope's ``def`` runs), or
        # the module's; a class body's names are not seen from its methods
        inner = scope
        outer = self.scope_of(scope)
        while not isinstance(outer, cst.Module):
            if isinstance(outer, cst.FunctionDef) and name in self._local_names(outer).names:
                return name in (self._state(self._scope(outer), inner, False) or {name})
            inner, outer = outer, self.scope_of(outer)
        return self._global(name)

    def bound_at_module_end(self, name: str) -> bool:
        """Whether ``name`` is bound on every path through the whole module, or a builtin:
        what code run later (a function, a lambda) finds there."""
        return self._global(name)

    def _global(self, name: str) -> bool:
        end = self.module_end()
        return end is None or name in end or name in BUILTINS

    def top_level(self, node: cst.CSTNode) -> cst.CSTNode | None:
        """The statement of the module's body that holds ``node``."""
        at: cst.CSTNode | None = node
        while at is not None and self._parents.get(at) is not self.module:
            at = self._parents.get(at)
        return at

    def runs_at_import(self, node: cst.CSTNode) -> bool:
        """Whether ``node`` runs as the module runs (not in a function's body)."""
        at = self._parents.get(node)
        while at is not None and not isinstance(at, cst.Module):
            if isinstance(at, cst.FunctionDef):
                return False
            at = self._parents.get(at)
        return True


def walk_statements(body: Sequence[cst.CSTNode]) -> Iterator[cst.CSTNode]:
    """Every statement run at the level of ``body`` (into blocks, not into functions)."""
    for stmt in body:
        yield stmt
        if isinstance(stmt, cst.SimpleStatementLine):
            yield from stmt.body
        elif isinstance(stmt, cst.FunctionDef):
            continue
        else:
            for child in code_parts(stmt):
                if isinstance(child, cst.BaseSuite):
                    yield from walk_statements(child.body)
                elif isinstance(child, (cst.Else, cst.ExceptHandler, cst.ExceptStarHandler,
                                        cst.Finally, cst.MatchCase, cst.If)):
                    yield from walk_statements([child])


class _Free(cst.CSTVisitor):
    """Names an expression reads (not attribute or keyword names, not inside a lambda or a
    comprehension, whose own names would count as read: when in doubt, read)."""

    def __init__(self) -> None:
        self.names: set[str] = set()

    def visit_Name(self, node: cst.Name) -> None:
        self.names.add(node.value)

    def visit_Attribute(self, node: cst.Attribute) -> bool:
        node.value.visit(self)
        return False

    def visit_Arg(self, node: cst.Arg) -> bool:
        node.value.visit(self)
        return False


def free_names(code: str) -> set[str] | None:
    """The names the expression ``code`` reads; None if it does not parse."""
    try:
        expr = cst.parse_expression(code)
    except Exception:  # noqa: BLE001 - any failure: a fix we cannot check
        return None
    found = _Free()
    expr.visit(found)
    return found.names
