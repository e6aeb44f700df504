"""Every line:col jaxlint reports comes from ``jaxlint.positions``, which replays libcst's
code generation more cheaply than libcst's PositionProvider: it must place every node where
the provider does, on every fixture, holdout script and jaxlint module (and on odd layouts:
CR line ends, tabs, continuation lines, decorators with comments, no final newline)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import libcst as cst
import pytest
from fixture_support import FIXTURES, ROOT
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.engine import lint_source
from jaxlint.positions import Positions, starts, statement_lines

FILES = sorted(FIXTURES.rglob("*.py")) + sorted((ROOT / "tests" / "holdout").glob("*.py")) + \
    sorted((ROOT / "jaxlint").rglob("*.py"))

ODD = {
    "cr_line_ends": "import time\rimport jax.numpy as jnp\rt0 = time.time()\r"
                    "y = jnp.ones(3) @ jnp.ones(3)\rprint(time.time() - t0)\r",
    "crlf_and_tabs": "import time\r\nif True:\r\n\tt0 = time.time()\r\n\t# c\r\n"
                     "\ty = (1 +\r\n\t     2)\r\n\tprint(time.time() - t0)\r\n",
    "continuations": "import time\nimport jax.numpy as jnp\nt0 = \\\n    time.time()\n"
                     "y = jnp.ones(3) \\\n    @ jnp.ones(3); z = y\nprint(time.time() \\\n- t0)\n",
    "decorators": "import jax\n# lead\n\n@jax.jit  # why\n# between\n@ jax.named_call\n\n"
                  "def f(x):\n    '''doc'''\n    return x\nclass A:\n    @property\n"
                  "    def g(self): return 1\n",
    "no_final_newline": "import time\nt0 = time.time()\nprint(time.time() - t0)",
    "multiline_strings": 'x = """a\nb\r\nc"""\ny = f"""{x!r:>{10}}\n"""; z = (x,\n y)\n',
    "empty": "",
    "only_comments": "# one\n\n# two\n",
}


def _provider(module: cst.Module) -> dict[cst.CSTNode, tuple[int, int]]:
    ranges = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)
    return {node: (r.start.line, r.start.column) for node, r in ranges.items()}


def _sources() -> list[object]:
    """Every file as a test case; jaxlint's own modules (the largest, 60% of the time) in
    the full suite only: the fast tier keeps the fixtures, the holdout and the odd layouts."""
    out: list[object] = []
    for p in FILES:
        name = str(p.relative_to(ROOT))
        marks = [pytest.mark.slow] if name.startswith("jaxlint") else []
        out.append(pytest.param(name, p.read_bytes(), marks=marks, id=name))
    out += [pytest.param(name, text.encode(), id=name) for name, text in ODD.items()]
    return out


@pytest.mark.parametrize(("name", "data"), _sources())
def test_every_node_starts_where_libcst_says(name: str, data: bytes) -> None:
    try:
        module = cst.parse_module(data)
    except cst.ParserSyntaxError:
        pytest.skip("not parseable (a fixture of a parse error)")
    assert starts(module) == _provider(module)


def _placed_alike(name: str, data: bytes,
                  hints: Callable[[cst.Module], list[cst.CSTNode]]) -> tuple[cst.Module, str]:
    """Ask ``Positions`` (given ``hints(module)``) for every node, from the end as a region
    late in a file is asked for: each must start where the whole module's generation says."""
    try:
        module = cst.parse_module(data)
    except cst.ParserSyntaxError:
        pytest.skip("not parseable (a fixture of a parse error)")
    text = data.decode(module.encoding)
    whole = starts(module)
    lazy = Positions(module, text, hints=hints(module))
    for node in reversed(list(whole)):
        assert lazy[node] == whole[node], name
    assert dict(lazy) == whole
    return module, text


@pytest.mark.parametrize(("name", "data"), _sources())
def test_one_statement_at_a_time_places_every_node_alike(name: str, data: bytes) -> None:
    """``Positions`` generates one top-level statement's code at a time, placed by CPython's
    line numbers: every node must start where the whole module's generation says, whichever
    statement is asked for first."""
    module, text = _placed_alike(name, data, lambda m: m.body[-1:] if m.body else [])
    stranger = cst.parse_expression("f(x)")  # a node of another tree (a timed string's)
    assert stranger not in Positions(module, text)


@pytest.mark.parametrize(("name", "data"), _sources())
def test_the_innermost_statement_alone_places_every_node_alike(name: str, data: bytes
                                                                ) -> None:
    """With every statement named as holding timing (as the analysis names the statements
    of its regions), a node is placed by generating only the innermost statement of a block
    around it, at the line and indent CPython gives it: every node must start where the
    whole module's generation says."""
    _placed_alike(name, data, lambda m: list(m.body))


def test_a_node_deep_in_a_function_generates_only_its_statement() -> None:
    source = ("import time\n\ndef main(xs):\n    total = 0\n"
              + "".join(f"    v{i} = {i} + total\n" for i in range(50))
              + "    for x in xs:\n        if x:\n            pass\n        else:\n"
              "            t0 = time.perf_counter()  # the one asked for\n"
              "    return total\n")
    module = cst.parse_module(source)
    main = module.body[1]
    assert isinstance(main, cst.FunctionDef)
    loop = main.body.body[-2]
    assert isinstance(loop, cst.For)
    inner_if = loop.body.body[0]
    assert isinstance(inner_if, cst.If) and inner_if.orelse is not None
    read = inner_if.orelse.body.body[0]
    lazy = Positions(module, source, hints=[main])
    assert lazy[read] == starts(module)[read] == (59, 12)
    # only that line's statement was generated: the 50 assignments before it are unplaced
    early = main.body.body[1]
    assert early not in lazy._found


def test_a_statement_s_own_line_is_placed_without_its_block() -> None:
    """A ``def``, a loop's iterable, a test: what lies before a statement's block is placed
    by generating its line alone, not the whole function or training loop below it."""
    source = ("import time\n\n@jax.jit\ndef main(xs):\n"
              + "".join(f"    v{i} = {i}\n" for i in range(50))
              + "    for x in batches(xs):\n"
              + "".join(f"        w{i} = {i}\n" for i in range(50))
              + "    return 0\n")
    module = cst.parse_module(source)
    main = module.body[1]
    assert isinstance(main, cst.FunctionDef)
    loop = main.body.body[-2]
    assert isinstance(loop, cst.For) and isinstance(loop.iter, cst.Call)
    whole = starts(module)
    lazy = Positions(module, source, hints=[main])
    assert lazy[main] == whole[main] == (4, 0)  # (a def starts at `def`)
    assert lazy[main.decorators[0]] == whole[main.decorators[0]]
    assert lazy[loop.iter] == whole[loop.iter] == (55, 13)
    assert lazy[loop] == whole[loop]
    # neither the function's body nor the loop's was generated
    assert main.body.body[0] not in lazy._found
    assert loop.body.body[0] not in lazy._found
    # and what is in them is placed as before when asked for
    assert lazy[loop.body.body[7]] == whole[loop.body.body[7]] == (63, 8)


def test_a_node_of_one_statement_generates_no_other_named_one() -> None:
    """With two statements named as holding timing, a node of the second is placed without
    generating the first (which is no more than a statement named before it)."""
    source = ("def first():\n" + "".join(f"    a{i} = {i}\n" for i in range(50))
              + "\n\ndef second(t):\n    t0 = t.perf_counter()\n"
              "    return t.perf_counter() - t0\n")
    module = cst.parse_module(source)
    first, second = module.body
    assert isinstance(first, cst.FunctionDef) and isinstance(second, cst.FunctionDef)
    start, stop = second.body.body
    whole = starts(module)
    lazy = Positions(module, source, hints=[first, second])
    assert lazy[start] == whole[start] == (55, 4)
    assert lazy[stop] == whole[stop] == (56, 4)  # (``second`` known by now)
    assert first.body.body[0] not in lazy._found


def test_statements_are_placed_by_cpython_only_where_it_can_tell() -> None:
    """Layouts whose line breaks CPython may count otherwise, and syntax it cannot parse,
    fall back to generating the whole module."""
    source = "x = 1\n\ndef f():\n    return 2\n"
    assert statement_lines(cst.parse_module(source), source) == [1, 2]
    for odd in ("x = 1\ry = 2\r", "x = 1\n\x0cy = 2\n", "def f[T](x: T) -> T:\n    return x\n"):
        try:
            module = cst.parse_module(odd)
        except cst.ParserSyntaxError:
            continue
        assert statement_lines(module, odd) is None, odd


def test_a_finding_on_an_indented_continued_line_keeps_its_column() -> None:
    """What a user sees: the reported line:col points at the clock read."""
    source = ("import time\nimport jax.numpy as jnp\n\ndef bench(x):\n    t0 = time.time()\n"
              "    y = jnp.dot(x, x)\n    print('took', \\\n          time.time() - t0)\n"
              "    return y\n")
    [finding] = lint_source(source)
    assert (finding.code, finding.line, finding.col) == ("JAX101", 8, 10)


def test_the_same_start_is_listed_inner_first(tmp_path: Path) -> None:
    """Two pieces of work that start at the same place are explained in reading order,
    whatever order the analysis kept them in (it used to depend on memory addresses)."""
    source = ("import time\nimport jax.numpy as jnp\n\ndef bench(b):\n    t0 = time.time()\n"
              "    y = jnp.stack(b).T\n    print(time.time() - t0)\n    return y\n")
    [finding] = lint_source(source)
    assert finding.explanation is not None
    lines = [ln for ln in finding.explanation.splitlines() if ln.startswith("  line 6")]
    assert [ln.split("`")[1] for ln in lines] == ["jnp.stack(b)", "jnp.stack(b).T"]
