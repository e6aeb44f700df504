"""The editor's parse after an edit (``jaxlint.chunks``): only changed top-level statements
are parsed again, and the module is the one a parse of the whole text gives."""

from __future__ import annotations

from pathlib import Path

import libcst as cst
import pytest

from jaxlint.chunks import ChunkCache
from jaxlint.engine import FixPreviews, lint_source
from jaxlint.errors import SourceError
from jaxlint.settings import Settings

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(p for d in ("fixtures", "tests/holdout", "tests/holdout_blind")
                 for p in (ROOT / d).rglob("*.py"))


def same_module(text: str, cache: ChunkCache | None = None) -> cst.Module:
    made = (cache or ChunkCache()).parse(text)
    whole = cst.parse_module(text)
    assert made.deep_equals(whole)
    assert made.code == whole.code
    return made


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_the_module_is_the_whole_parse(path: Path) -> None:
    # first a text nothing is known of (parsed whole, its chunks kept), then an edit of it
    # (parsed chunk by chunk, the edited one anew), then the text again (all kept)
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines(keepends=True)
    edited = "".join([*lines[:len(lines) // 2], "# an edit\n", *lines[len(lines) // 2:]])
    cache = ChunkCache()
    for version in (text, edited, text):
        same_module(version, cache)


EDGES = {
    "crlf": "import jax\r\n\r\ndef f(x):\r\n    return x\r\n\r\ny = f(1)\r\n",
    "no final newline": "import jax\n\n\ndef f():\n    pass\n\n\nx = 1",
    "blank line of spaces ending": "import jax\n\ndef f():\n    pass\n \n",
    "tabs then spaces": "def f():\n\treturn 1\n\n\ndef g():\n    return 2\n",
    "two spaces first": "def f():\n  return 1\n\n\ndef g():\n    return 2\n",
    "indented comment after a block": "def f():\n    x = 1\n    # the end of f\n\ny = 2\n",
    "spaces-only line after a block": "def f():\n    x = 1\n    \n# next\ny = 2\n",
    "comments and decorators": "# header\n\nimport functools\n\n# a cache\n"
                                "@functools.cache\n# between\ndef f():\n    return 1\n",
    "statements on one line": "a = 1; b = 2\nc = 3\nif a: b = 4\nd = 5\n",
    "continuations": "x = (1,\n     2)\ny = 3 + \\\n    4\nz = '''\nline\n'''\n",
    "byte order mark": "\ufeffimport jax\n\nx = 1\n",
    "only comments": "# nothing\n# here\n",
    "footer comments": "x = 1\n\n# trailing\n# lines\n",
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edge_cases_give_the_whole_parse(name: str) -> None:
    cache = ChunkCache()
    for version in (EDGES[name], EDGES[name] + "\nz = 0\n", EDGES[name]):
        same_module(version, cache)


def test_an_edit_parses_only_the_statement_it_changed() -> None:
    text = ("import jax\nimport jax.numpy as jnp\n\n\ndef f(x):\n    return jnp.sin(x)\n\n\n"
            "def g(x):\n    return jnp.cos(x)\n\n\ny = g(f(1.0))\n")
    cache = ChunkCache()
    before = same_module(text, cache)
    after = same_module(text.replace("jnp.cos(x)", "jnp.cos(x) + 1"), cache)
    kept = [a is b for a, b in zip(before.body, after.body)]
    assert kept == [True, True, True, False, True]


def test_a_statement_written_twice_is_two_objects() -> None:
    text = "print('-' * 40)\nx = 1\nprint('-' * 40)\n"
    cache = ChunkCache()
    for _ in range(2):  # (and again from the cache)
        module = same_module(text, cache)
        assert module.body[0] is not module.body[2]


def test_syntax_errors_are_the_whole_parse_errors() -> None:
    text = "import time\n\nimport jax\n\nt0 = time.perf_counter()\n\n\ndef f(:\n    pass\n"
    with pytest.raises(SourceError) as whole:
        lint_source(text)
    with pytest.raises(SourceError) as chunked:
        lint_source(text, settings=Settings(chunks=ChunkCache()))
    assert (chunked.value.message, chunked.value.line) == (whole.value.message,
                                                           whole.value.line)


FINDING_SOURCES = [p for p in SOURCES if p.parent.name.startswith("JAX")]


@pytest.mark.parametrize("path", FINDING_SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_findings_and_fixes_are_the_same_after_edits(path: Path) -> None:
    # The server's lints of a document: one cache for every version of it, so the analysis
    # of a later version runs on statement trees an earlier version's analysis ran on.
    text = path.read_text(encoding="utf-8")
    cache = ChunkCache()
    for version in (text, text + "\n# an edit\n", text):
        whole = FixPreviews(version, str(path), Settings())
        chunked = FixPreviews(version, str(path), Settings(chunks=cache))
        assert chunked.findings == whole.findings
        assert [chunked.fixed(i) for i in range(len(chunked.findings))] == [
            whole.fixed(i) for i in range(len(whole.findings))]


def test_cpython_parses_the_text_once_for_the_cut_and_the_analysis(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the tree the cut was made from is the one the analysis reads (generators, names
    # read late, positions): not parsed a second time on each edit
    import ast

    text = (ROOT / "fixtures/JAX101/decode_joined.py").read_text(encoding="utf-8")
    parse = ast.parse
    whole: list[str] = []

    def counting(source, *args, **kwargs):  # type: ignore[no-untyped-def]
        if source in (text, text + "# an edit\n"):
            whole.append(source)
        return parse(source, *args, **kwargs)

    monkeypatch.setattr(ast, "parse", counting)
    cache = ChunkCache()
    for version in (text, text + "# an edit\n"):
        whole.clear()
        assert FixPreviews(version, "bench.py", Settings(chunks=cache)).findings
        assert whole == [version]
