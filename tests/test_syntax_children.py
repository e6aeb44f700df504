"""The analysis walks libcst's trees with ``syntax.children``, which reads a node's code parts
off its fields instead of rebuilding the node as libcst's ``children`` does. It must give
the same parts in the same (written) order, less layout and punctuation: the interpreter
evaluates an unknown expression's parts in that order, and liveness numbers statements and
names by it."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from jaxlint.analysis.syntax import children, names_in, walk

ROOT = Path(__file__).resolve().parent.parent

LAYOUT = (cst.SimpleWhitespace, cst.ParenthesizedWhitespace, cst.TrailingWhitespace,
          cst.EmptyLine, cst.Newline, cst.Comment, cst.Comma, cst.Dot, cst.Colon,
          cst.AssignEqual, cst.Semicolon, cst.LeftParen, cst.RightParen,
          cst.LeftSquareBracket, cst.RightSquareBracket, cst.LeftCurlyBrace,
          cst.RightCurlyBrace)

# Every kind of statement and expression whose fields are declared in another order than
# they are written, and the common ones.
EVERY_CONSTRUCT = '''
"""Module docstring."""  # a comment
from __future__ import annotations
import os.path as osp, sys
from . import sibling
from ..pkg.mod import (a as b, c,)
from m import *

@decorator(arg, key=value)
@other
async def f(p, /, q: int = 1, *args: str, k, kw=2, **kwargs) -> list[int]:
    """Doc."""
    global g
    x: int = yield from gen()
    y = await thing(x) if cond else (lambda z, *, w=3: z + w)(x)
    async for item in aiter_(): pass
    async with ctx() as (u, v), other(): pass
    return [i async for i in it if i] + [j for j in range(3) for k in j if k if not k]


class C(Base, metaclass=Meta):
    attr: dict[str, int] = {"k": 1, **extra}

    def method(self, *, key=None) -> None:
        nonlocal_thing = {i: j for i, j in pairs}
        self.value[1:2, ::3, ...] = (*star, last)
        del self.attr, other[0]


def plain(a, b=lambda: 0):
    try:
        raise ValueError("x") from err
    except (TypeError, ValueError) as exc:
        print(f"{exc!r:>{width}} {a=}", sep="")
    else:
        assert a, "message"
    finally:
        x = a if b else -a
    try:
        pass
    except* KeyError:
        pass
    while (n := len(a)) > 0: a = a[1:]; continue
    else: pass
    for i, (j, k) in enumerate(pairs):
        break
    else:
        pass
    with open(p) as fh, lock:
        a += fh.read() or not b and c
    match command.split():
        case [action, *rest] if rest:
            pass
        case {"key": value, **others}:
            pass
        case Point(x=0, y=yy) | Other() as whole:
            pass
        case _:
            pass
    if a < b <= c is not None:
        pass
    elif a in b:
        pass
    else:
        pass
    return {1, 2}, (x for x in y), ~a ** -b @ c
'''


def _code_children(node: cst.CSTNode) -> list[int]:
    return [id(c) for c in node.children if not isinstance(c, LAYOUT)]


def _check(module: cst.Module) -> int:
    count = 0
    todo: list[cst.CSTNode] = [module]
    while todo:
        node = todo.pop()
        count += 1
        assert [id(c) for c in children(node)] == _code_children(node), (
            type(node).__name__, [type(c).__name__ for c in children(node)],
            [type(c).__name__ for c in node.children if not isinstance(c, LAYOUT)])
        todo.extend(node.children)
    return count


def test_every_construct_in_written_order() -> None:
    assert _check(cst.parse_module(EVERY_CONSTRUCT)) > 500


@pytest.mark.parametrize("path", ["fixtures/JAX101/seed.py",
                                  "tests/blind_synth/scripts/attention_variants_bench.py"])
def test_real_scripts(path: str) -> None:
    assert _check(cst.parse_module((ROOT / path).read_bytes())) > 100


def test_walk_skips_below_the_types_asked_only() -> None:
    module = cst.parse_module("def f(a):\n    def g(b):\n        return b\n    return a\n")
    outer = module.body[0]
    assert isinstance(outer, cst.FunctionDef)
    returns = [n for n in walk(outer, skip=(cst.FunctionDef,)) if isinstance(n, cst.Return)]
    assert len(returns) == 1  # g's return is below a skipped def; f itself is walked
    assert names_in(outer) == {"f", "a", "g", "b"}
