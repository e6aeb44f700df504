"""Apply sync plans to a module in one pass, touching nothing but the inserted code.

A plan inserts ``jax.block_until_ready(<names>)`` before the statement that stops the clock,
at its indentation (inside the same line when that statement follows a ``;``), and wraps
expression statements whose result would otherwise be dropped. ``import jax`` is added with
libcst's ``AddImportsVisitor`` when the module does not bind ``jax`` already.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import libcst as cst
from libcst.codemod import CodemodContext
from libcst.codemod.visitors import AddImportsVisitor

from jaxlint.analysis import SyncPlan


def _sync_call(arg: cst.BaseExpression) -> cst.Call:
    return cst.Call(
        func=cst.Attribute(value=cst.Name("jax"), attr=cst.Name("block_until_ready")),
        args=[cst.Arg(value=arg)],
    )


def _sync_expr(names: Sequence[str]) -> cst.Expr:
    text = names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"
    return cst.Expr(value=_sync_call(cst.parse_expression(text)))


class _Applier(cst.CSTTransformer):
    def __init__(self, plans: Iterable[SyncPlan]) -> None:
        super().__init__()
        self.inserts: dict[cst.CSTNode, list[str]] = {}
        self.wraps: set[cst.CSTNode] = set()
        for plan in plans:
            if plan.names:
                have = self.inserts.setdefault(plan.before.node, [])
                have.extend(n for n in plan.names if n not in have)
            self.wraps.update(plan.wraps)

    # wrapping: ``f(x)`` -> ``jax.block_until_ready(f(x))``
    def leave_Expr(self, original_node: cst.Expr, updated_node: cst.Expr) -> cst.Expr:
        if original_node in self.wraps:
            return updated_node.with_changes(value=_sync_call(updated_node.value))
        return updated_node

    # inserting before a simple statement
    def _small_body(self, original: Sequence[cst.BaseSmallStatement],
                    updated: Sequence[cst.BaseSmallStatement],
                    skip_first: bool) -> list[cst.BaseSmallStatement]:
        body: list[cst.BaseSmallStatement] = []
        for i, (orig, new) in enumerate(zip(original, updated)):
            if orig in self.inserts and not (i == 0 and skip_first):
                body.append(_sync_expr(self.inserts[orig]))
            body.append(new)
        return body

    def leave_SimpleStatementLine(
        self, original_node: cst.SimpleStatementLine, updated_node: cst.SimpleStatementLine
    ) -> cst.SimpleStatementLine | cst.FlattenSentinel[cst.BaseStatement]:
        if not any(s in self.inserts for s in original_node.body):
            return updated_node
        first = original_node.body[0] in self.inserts
        updated_node = updated_node.with_changes(
            body=self._small_body(original_node.body, updated_node.body, skip_first=True)
        )
        if first:
            return self._before(self.inserts[original_node.body[0]], updated_node)
        return updated_node

    def leave_SimpleStatementSuite(
        self, original_node: cst.SimpleStatementSuite, updated_node: cst.SimpleStatementSuite
    ) -> cst.SimpleStatementSuite:
        if not any(s in self.inserts for s in original_node.body):
            return updated_node
        return updated_node.with_changes(
            body=self._small_body(original_node.body, updated_node.body, skip_first=False)
        )

    # inserting before a compound statement whose header reads the clock
    @staticmethod
    def _before(names: list[str], stmt: cst.BaseStatement) -> cst.FlattenSentinel[
        cst.BaseStatement
    ]:
        # The sync joins the stop's paragraph: blank lines and comments above stay above it.
        leading = getattr(stmt, "leading_lines", ())
        sync = cst.SimpleStatementLine(body=[_sync_expr(names)], leading_lines=leading)
        return cst.FlattenSentinel([sync, stmt.with_changes(leading_lines=())])

    def _compound(self, original: cst.BaseStatement, updated: cst.BaseStatement
                  ) -> cst.BaseStatement | cst.FlattenSentinel[cst.BaseStatement]:
        if original in self.inserts:
            return self._before(self.inserts[original], updated)
        return updated

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


def _binds_jax(module: cst.Module) -> bool:
    """Whether a module-level import binds the name ``jax`` to the jax package."""

    def imports(body: Sequence[cst.CSTNode]) -> Iterable[cst.Import]:
        for stmt in body:
            if isinstance(stmt, cst.SimpleStatementLine):
                yield from (s for s in stmt.body if isinstance(s, cst.Import))
            elif isinstance(stmt, (cst.If, cst.Try)):
                inner = stmt.body.body if isinstance(stmt.body, cst.IndentedBlock) else []
                yield from imports(inner)

    for imp in imports(module.body):
        for alias in imp.names:
            name = alias.name
            while isinstance(name, cst.Attribute):
                name = name.value
            if isinstance(name, cst.Name) and name.value == "jax":
                if alias.asname is None or (
                    isinstance(alias.asname.name, cst.Name)
                    and alias.asname.name.value == "jax"
                    and isinstance(alias.name, cst.Name)
                ):
                    return True
    return False


def apply_plans(module: cst.Module, plans: Sequence[SyncPlan]) -> cst.Module:
    if not plans:
        return module
    fixed = module.visit(_Applier(plans))
    if not _binds_jax(fixed):
        context = CodemodContext()
        AddImportsVisitor.add_needed_import(context, "jax")
        fixed = AddImportsVisitor(context).transform_module(fixed)
    return fixed
