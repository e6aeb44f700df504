"""The random programs of the growth tests (benchmarks/random_programs.py): deterministic,
valid Python, of about the size asked for, the same kind of program at every size."""

from __future__ import annotations

import ast
import sys

import pytest
from helpers import ROOT

sys.path.insert(0, str(ROOT / "benchmarks"))
from random_programs import program, statements  # noqa: E402


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_deterministic_and_compiles(seed: int) -> None:
    text = program(seed, 200)
    assert program(seed, 200) == text
    compile(text, f"program_{seed}.py", "exec")  # parses, and names are used validly
    assert program(seed + 10, 200) != text


@pytest.mark.parametrize("n", [50, 200, 800])
def test_about_n_statements(n: int) -> None:
    for seed in (0, 1):
        count = statements(program(seed, n))
        assert n <= count <= n + 60, (seed, n, count)


def test_four_times_as_long_is_the_same_kind_of_program() -> None:
    small, large = program(3, 300), program(3, 1200)
    assert large.startswith(small)  # the same chunks, drawn on from the same stream

    def mix(text: str) -> dict[str, float]:
        kinds = [type(node).__name__ for node in ast.walk(ast.parse(text))
                 if isinstance(node, ast.stmt)]
        return {k: kinds.count(k) / len(kinds) for k in set(kinds)}

    a, b = mix(program(3, 1200)), mix(program(3, 4800))
    for kind in ("Assign", "Expr", "If", "For", "While", "Try", "With", "FunctionDef"):
        assert kind in a and kind in b
        assert abs(a[kind] - b[kind]) < 0.05, kind
    assert "ClassDef" in b
    assert program(3, 1200).count("time.perf_counter()") > 100
