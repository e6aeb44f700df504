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
    when the rule can fix it, the fix; ``explanation``: the evidence, for ``--explain``."""

    node: cst.CSTNode
    message: str
    plan: FixPlan | None = None
    region: tuple[cst.CSTNode, ...] = ()
    explanation: str | None = None


class FileContext:
    """What rules get: the parsed module, the flow analysis and helpers to show code."""

    def __init__(self, module: cst.Module, flow: FlowAnalysis,
                 line_of: Mapping[cst.CSTNode, tuple[int, int]],
                 shown: Mapping[tuple[int, int], str] | None = None) -> None:
        self.module = module
        self.flow = flow
        self.line_of = line_of
        self.shown = shown  # the user's own text for code the module stands in for

    def line(self, node: cst.CSTNode) -> int:
        return self.line_of.get(node, (0, 0))[0]

    def source_order(self, node: cst.CSTNode) -> tuple[int, int, int]:
        """A sort key in reading order. Nodes that start at the same place (``f(x)`` and
        ``f(x).T``) come inner first, whatever order a set held them in."""
        line, col = self.line_of.get(node, (0, 0))
        return line, col, len(self.module.code_for_node(node))

    def code(self, node: cst.CSTNode, limit: int = 60) -> str:
        written = self.shown.get(self.line_of.get(node, (0, 0))) if self.shown else None
        text = " ".join((written or self.module.code_for_node(node)).split())
        return text if len(text) <= limit else text[: limit - 3] + "..."


MAX_EXPLAINED = 6  # work sites listed in an explanation; the rest are counted


def why_work(ctx: FileContext, site: cst.CSTNode) -> str:
    """Why the analysis counts ``site`` as JAX work, in a few words, with where it came from."""
    kind, detail = ctx.flow.why.get(site, ("op", None))
    if kind == "jitted":
        if isinstance(detail, cst.FunctionDef):
            return (f"`{detail.name.value}` is a jitted function (see line "
                    f"{ctx.line(detail)})")
        if isinstance(detail, cst.CSTNode) and ctx.line(detail):
            return (f"it calls the function made by `{ctx.code(detail, 40)}` at line "
                    f"{ctx.line(detail)}")
        return "it calls a jitted function"
    if kind == "api":
        return f"`{detail}` dispatches device work"
    if kind == "helper" and isinstance(detail, (cst.FunctionDef, cst.Lambda)):
        name = detail.name.value if isinstance(detail, cst.FunctionDef) else "lambda"
        return (f"it calls `{name}` (line {ctx.line(detail)}), which dispatches JAX work and "
                "returns without waiting for it")
    if kind == "library":
        return "a JAX library object computes on the JAX values it is given"
    if kind == "made":
        return ("it calls a function that JAX code made from JAX values, which computes on "
                "the JAX values it is given")
    return "an operation on a JAX value dispatches device work"


def explain_sites(ctx: FileContext, sites: frozenset[cst.CSTNode] | set[cst.CSTNode],
                  heading: str) -> list[str]:
    """``heading`` and one line per site (in source order): where and why it is work."""
    placed = sorted((s for s in sites if ctx.line(s)), key=ctx.source_order)
    out = [heading]
    for site in placed[:MAX_EXPLAINED]:
        out.append(f"  line {ctx.line(site)}: `{ctx.code(site, 50)}`: {why_work(ctx, site)}")
    if len(placed) > MAX_EXPLAINED:
        out.append(f"  ... and {len(placed) - MAX_EXPLAINED} more")
    return out


def region_heading(ctx: FileContext, region: object) -> str:
    from jaxlint.analysis import Region

    assert isinstance(region, Region)
    if region.stop in region.starts:
        return (f"The timer at line {ctx.line(region.stop)} reads the clock when its block "
                "starts and again when it ends.")
    starts = sorted(ctx.line(s) for s in region.starts if ctx.line(s))
    start = f"line {starts[0]}" if len(starts) == 1 else (
        "lines " + ", ".join(map(str, starts)) if starts else "an earlier read")
    return f"The clock is started at {start} and read again at line {ctx.line(region.stop)}."


def sync_call_text(exprs: tuple[str, ...]) -> str:
    """``jax.block_until_ready(y)`` / ``jax.block_until_ready((a, b))`` as the fix writes it."""
    inner = exprs[0] if len(exprs) == 1 else "(" + ", ".join(exprs) + ")"
    return f"jax.block_until_ready({inner})"


def still_computing(exprs: tuple[str, ...]) -> str:
    # (``vars(heads)`` is how a fix waits for a plain dataclass's fields: it holds ``heads``)
    quoted = [f"`{e[5:-1] if e.startswith('vars(') and e.endswith(')') else e}`"
              for e in exprs]
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
