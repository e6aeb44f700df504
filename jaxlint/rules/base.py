"""What a rule is: a small class that looks at the analysed file and reports."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import ClassVar

import libcst as cst

from jaxlint.analysis import FlowAnalysis, SyncPlan


@dataclass(frozen=True)
class Report:
    """A rule's finding before it has a path and a position: the node it is about and,
    when the rule can fix it, the fix."""

    node: cst.CSTNode
    message: str
    plan: SyncPlan | None = None
    region: tuple[cst.CSTNode, ...] = ()


class FileContext:
    """What rules get: the parsed module, the flow analysis and helpers to show code."""

    def __init__(self, module: cst.Module, flow: FlowAnalysis,
                 line_of: dict[cst.CSTNode, tuple[int, int]]) -> None:
        self.module = module
        self.flow = flow
        self.line_of = line_of

    def code(self, node: cst.CSTNode, limit: int = 60) -> str:
        text = " ".join(self.module.code_for_node(node).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."


class Rule:
    """One mistake. The docstring is the rule's documentation, in ruff's sections:
    What it does / Why is this bad? / Example / Use instead / Fix safety."""

    CODE: ClassVar[str]
    MESSAGE: ClassVar[str]

    def check(self, ctx: FileContext) -> Iterator[Report]:
        raise NotImplementedError
