"""What a rule is: a small class that looks at the analysed file and reports."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import ClassVar

import libcst as cst

from jaxlint.analysis import FixPlan, FlowAnalysis


@dataclass(frozen=True)
class Report:
    """A rule's finding before it has a path and a position: the node it is about and,
    when the rule can fix it, the fix."""

    node: cst.CSTNode
    message: str
    plan: FixPlan | None = None
    region: tuple[cst.CSTNode, ...] = ()


class FileContext:
    """What rules get: the parsed module, the flow analysis and helpers to show code."""

    def __init__(self, module: cst.Module, flow: FlowAnalysis,
                 line_of: Mapping[cst.CSTNode, tuple[int, int]]) -> None:
        self.module = module
        self.flow = flow
        self.line_of = line_of

    def line(self, node: cst.CSTNode) -> int:
        return self.line_of.get(node, (0, 0))[0]

    def code(self, node: cst.CSTNode, limit: int = 60) -> str:
        text = " ".join(self.module.code_for_node(node).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."


def sync_call_text(exprs: tuple[str, ...]) -> str:
    """``jax.block_until_ready(y)`` / ``jax.block_until_ready((a, b))`` as the fix writes it."""
    inner = exprs[0] if len(exprs) == 1 else "(" + ", ".join(exprs) + ")"
    return f"jax.block_until_ready({inner})"


def still_computing(exprs: tuple[str, ...]) -> str:
    quoted = [f"`{e}`" for e in exprs]
    if len(quoted) == 1:
        return f"{quoted[0]} is still being computed"
    return ", ".join(quoted[:-1]) + " and " + quoted[-1] + " are still being computed"


class Rule:
    """One mistake. The docstring is the rule's documentation, in ruff's sections:
    What it does / Why is this bad? / Example / Use instead / Fix safety."""

    CODE: ClassVar[str]
    MESSAGE: ClassVar[str]

    def check(self, ctx: FileContext) -> Iterator[Report]:
        raise NotImplementedError
