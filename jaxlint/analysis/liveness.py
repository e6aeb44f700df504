"""Which names a scope may still read after a statement: the liveness of timer readings.

A start reading held by a name can start a region only while some later code may read that
name. Sequential regions whose readings have names of their own (``t0``, ``t1``, ... as in
a notebook exported to a script) keep every earlier reading bound to the end of the file;
without this, every stop read would record all the work since the first ``t0``, and the
cost of a file would grow with the square of its regions.

The answer is textual and conservative. A name is dead after statement ``s`` of a scope
(a module or a function body) when no occurrence of it (read, write or attribute of that
spelling) comes at or after ``s`` in the scope's text, none is in a loop of the scope that
contains ``s`` (a later round reads it again), none is in a nested function, lambda or
class method (called later), the scope does not declare it ``global`` or ``nonlocal``, and
the scope never spells ``locals``, ``vars``, ``globals``, ``eval`` or ``exec``. Anything
else is live, as are names this module cannot place (an attribute path, a statement of
another scope).
"""

from __future__ import annotations

from collections.abc import Sequence

import libcst as cst

from jaxlint.analysis.syntax import children

# Names that read a scope's variables by string: a scope that spells one keeps all alive.
_OPAQUE = frozenset({"locals", "vars", "globals", "eval", "exec"})
_NESTED = (cst.FunctionDef, cst.Lambda)
_LOOPS = (cst.For, cst.While)


class ScopeText:
    """One scope's statements and name occurrences in text order (one walk of the scope)."""

    __slots__ = ("_at", "_death", "_last", "_pinned", "opaque")

    def __init__(self, scope: cst.CSTNode) -> None:
        self._at: dict[int, int] = {}  # id(statement or block) -> its preorder position
        self._last: dict[str, int] = {}  # name -> position of its last occurrence
        self._pinned: set[str] = set()  # names read by nested scopes or declared global
        self.opaque = False
        body = scope.body if isinstance(scope, (cst.Module, cst.FunctionDef)) else scope
        # (first position, last position, names occurring inside) of each loop
        loops: list[tuple[int, int, set[str]]] = []
        self._walk(body, loops)
        # name -> the last position at which it may still be read: its last occurrence, or
        # the end of the last loop it occurs in, if later (a later round reads it again).
        # Found once per scope, so that a read asks one comparison per name, not a search
        # of the scope's loops: a name is dead at a statement exactly when its death comes
        # before the statement (a loop holding the name and ending after the statement
        # either contains it or holds an occurrence after it).
        self._death: dict[str, int] = dict(self._last)
        death = self._death
        for _first, last, names in loops:
            for name in names:
                if death[name] < last:
                    death[name] = last

    def _walk(self, roots: cst.CSTNode | Sequence[cst.CSTNode],
              loops: list[tuple[int, int, set[str]]]) -> None:
        n = 0
        # (node, nested), or None at the end of a loop's nodes; a node inside a nested
        # function only pins the names it spells
        todo: list[tuple[cst.CSTNode, bool] | None] = []
        nodes = [roots] if isinstance(roots, cst.CSTNode) else list(roots)
        todo.extend((node, False) for node in reversed(nodes))
        open_loops: list[tuple[int, set[str]]] = []
        while todo:
            item = todo.pop()
            if item is None:  # every position of the innermost open loop is now known
                first, names = open_loops.pop()
                loops.append((first, n, names))
                if open_loops:
                    open_loops[-1][1].update(names)
                continue
            node, nested = item
            n += 1
            if isinstance(node, cst.Name):
                name = node.value
                if name in _OPAQUE:
                    self.opaque = True
                if nested:
                    self._pinned.add(name)
                else:
                    self._last[name] = n
                    if open_loops:
                        open_loops[-1][1].add(name)
                continue
            if not nested:
                if isinstance(node, (cst.BaseStatement, cst.BaseSmallStatement, cst.BaseSuite)):
                    self._at[id(node)] = n
                if isinstance(node, (cst.Global, cst.Nonlocal)):
                    self._pinned.update(alias.name.value for alias in node.names)
            inner = nested or isinstance(node, _NESTED)
            if isinstance(node, _LOOPS) and not inner:
                open_loops.append((n, set()))
                todo.append(None)
            todo.extend((child, inner) for child in reversed(children(node)))

    def position(self, stmt: cst.CSTNode) -> int | None:
        """Where ``stmt`` is in the scope's text, or None: no name can be known dead there
        (a statement of another scope, or a scope that reads its names by string)."""
        return None if self.opaque else self._at.get(id(stmt))

    def dead(self, at: int, name: str) -> bool:
        """Whether no code of the scope can read ``name`` once the statement at position
        ``at`` (``position``) has begun."""
        return self._death.get(name, 0) < at and name not in self._pinned


def only_subtracted(module: cst.Module) -> frozenset[str]:
    """The names a module uses only to subtract from (``... - t0``), besides binding them
    (``t0 = ...``, sole target) and printing them (``print(t0, t1)``): a clock reading
    stored under such a name can start regions but never end one, since its value is
    never the left side of a difference nor given to code that could make it so. One walk
    of the module; every other occurrence of a name (an argument, an alias, an f-string,
    an attribute or keyword spelled the same, a ``del``) rules the name out, and a module
    spelling ``locals``, ``vars``, ``globals``, ``eval`` or ``exec`` has none."""
    allowed: set[int] = set()  # id of each Name occurrence in an allowed place
    seen: set[str] = set()
    ruled_out: set[str] = set()
    todo: list[cst.CSTNode] = [module]
    while todo:
        node = todo.pop()
        if isinstance(node, cst.Name):
            seen.add(node.value)
            if id(node) not in allowed:
                ruled_out.add(node.value)
            continue
        if isinstance(node, cst.Assign) and len(node.targets) == 1:
            allowed.add(id(node.targets[0].target))
        elif isinstance(node, cst.BinaryOperation) and isinstance(node.operator, cst.Subtract):
            allowed.add(id(node.right))
        elif (isinstance(node, cst.Call) and isinstance(node.func, cst.Name)
              and node.func.value == "print"):
            allowed.update(id(arg.value) for arg in node.args
                           if not arg.star and arg.keyword is None)
        todo.extend(children(node))
    if seen & _OPAQUE:
        return frozenset()
    return frozenset(seen - ruled_out)
