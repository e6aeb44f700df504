"""Generated notebooks, and everything that must hold when jaxlint lints and fixes them.

Cells are drawn from the forms IPython runs (timed regions split across cells, line and
cell magics, shell escapes, help lines, automagics), written the ways real notebooks write
them (indented, with prompts, CRLF, with and without a final newline, as a string or a list
of lines), with comments that spell jaxlint's old cell markers and sources with odd
characters (U+2028 in a string, form feeds). Used by tests/test_notebook.py (few examples)
and scripts/fuzz.py (many).
"""

from __future__ import annotations

import json
import traceback

from hypothesis import strategies as st

from jaxlint.engine import Settings, SourceError
from jaxlint.notebook import fix_notebook, lint_notebook

SETUPS = (
    "import time\nimport jax\nimport jax.numpy as jnp\nimport numpy as np\n",
    "import time\nimport jax.numpy as jnp\nimport numpy as np\n",  # the fix adds import jax
)
DEFS = "f = jnp.sin\ng = jax.jit(lambda m: m * 2) if 'jax' in dir() else f\nx = jnp.ones(8)\n"
STATEMENTS = (
    "t0 = time.perf_counter()", "y = f(x)", "y = jnp.cos(x) + 1", "y.block_until_ready()",
    "print(time.perf_counter() - t0)", "t1 = time.perf_counter()", "print(t1 - t0)",
    "v = float(y.sum())", "f(x)", "z = np.asarray(y)", "for _ in range(2):\n    y = f(y)",
    "if x is not None:\n    y = f(x)\nelse:\n    y = x", "s = \"a\u2028b\"", "\x0c",
    "doc = '''\n!ls\n%timeit f(x)\nwhat?\n'''", "# jaxlint: cell 1", "# jaxlint: masked 0",
    "y = f(x)  # jaxlint: magic 0", "# jaxlint: cell 99",
)
MAGIC_LINES = (
    "%timeit f(x)", "%timeit -n 3 -r 1 f(x)  # note", "%time y = f(x)", "%time f(x);",
    "!ls", "!!ls -la", "files = !ls", "r = %timeit -o -q f(x)", "%matplotlib inline",
    "f?", "?f", "jnp.sin??", "%env XLA_FLAGS=", "%load_ext autoreload",
)
CELL_MAGICS = (
    "%%timeit\nf(x)", "%%timeit -n 2 w = f(x)\nf(w)", "%%timeit\n# warm\nf(\n    x)  # end\n",
    "%%time\ny = f(x)", "%%time\nf(x)", "%%bash\necho (unbalanced\n", "%%writefile a.py\ndef g(:\n",
    "%%capture\n%timeit f(x)\n", "%%capture out\nt0 = time.perf_counter()\ny = f(x)\n",
    "%%html\n<b>%timeit</b>\n",
)
AUTOMAGIC = ("timeit f(x)", "timeit -n 2 f(x)", "pip install -q optax")


@st.composite
def notebooks(draw: st.DrawFn) -> bytes:
    cells: list[str] = [draw(st.sampled_from(SETUPS)) + DEFS]
    for _ in range(draw(st.integers(1, 6))):
        kind = draw(st.sampled_from(("code", "code", "magic", "cell magic", "automagic")))
        if kind == "cell magic":
            cells.append(draw(st.sampled_from(CELL_MAGICS)))
            continue
        if kind == "automagic":
            cells.append(draw(st.sampled_from(AUTOMAGIC)))
            continue
        pool = STATEMENTS + (MAGIC_LINES if kind == "magic" else ())
        lines = draw(st.lists(st.sampled_from(pool), min_size=1, max_size=6))
        text = "\n".join(lines)
        style = draw(st.sampled_from(("plain", "plain", "indent", "prompt")))
        if style == "indent":
            text = "\n".join("  " + line if line else line for line in text.split("\n"))
        elif style == "prompt":
            text = "\n".join((">>> " if k == 0 else "... ") + line
                             for k, line in enumerate(text.split("\n")))
        cells.append(text)
    out = []
    for k, text in enumerate(cells):
        if draw(st.booleans()):
            text += "\n"
        if draw(st.integers(0, 4)) == 0:
            text = text.replace("\n", "\r\n")
        source: object = text.splitlines(keepends=True) if draw(st.booleans()) else text
        out.append({"cell_type": "code", "execution_count": None, "id": f"c{k}",
                    "metadata": {}, "outputs": [], "source": source})
        if draw(st.integers(0, 3)) == 0:
            out.append({"cell_type": "markdown", "id": f"m{k}", "metadata": {},
                        "source": "# jaxlint: cell 1\n%timeit"})
    nb = {"cells": out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    return (json.dumps(nb, indent=1, ensure_ascii=False) + "\n").encode()


def _sources(data: bytes) -> list[str]:
    return ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
            for c in json.loads(data)["cells"]]


def _subsequence(small: str, big: str) -> bool:
    it = iter(big)
    return all(c in it for c in small)


def check_notebook(data: bytes, unsafe: bool = False) -> list[str]:
    """Every problem jaxlint has with the notebook ``data`` (empty: none). Never raises."""
    settings = Settings()
    try:
        found = lint_notebook(data, "nb.ipynb", settings)
        result = fix_notebook(data, "nb.ipynb", unsafe, settings)
    except SourceError as exc:
        return [f"SourceError on a notebook IPython runs: {exc.message}"]
    except Exception as exc:  # noqa: BLE001 - anything else is the bug we look for
        where = traceback.extract_tb(exc.__traceback__)[-1]
        return [f"crash: {type(exc).__name__}: {exc} (at {where.filename}:{where.lineno})"]
    fixed = result.source
    assert isinstance(fixed, bytes)
    applicable = [f for f in found if f.fixable and (unsafe or not f.unsafe)]
    if fixed == data:
        return [f"fix made no change though {len(applicable)} finding(s) are fixable"
                ] if applicable else []
    problems = []
    everything = "\n".join(_sources(fixed))
    for old, new in zip(_sources(data), _sources(fixed)):
        if _subsequence(old, new):
            continue
        # an unsafe fix may move a line (JAX104), even to a later cell
        missing = [x for x in old.splitlines() if x not in new.splitlines()]
        if not unsafe or not all(x.strip() in everything for x in missing):
            problems.append(f"a fixed cell lost text: {old!r} -> {new!r}")
    try:
        left = lint_notebook(fixed, "nb.ipynb", settings)
        again = fix_notebook(fixed, "nb.ipynb", unsafe, settings).source
    except Exception as exc:  # noqa: BLE001
        return [*problems, f"fixed notebook does not compile: {type(exc).__name__}: {exc}"]
    if any(f.fixable and (unsafe or not f.unsafe) for f in left):
        problems.append(f"fixable findings left: {[f.location for f in left if f.fixable]}")
    if again != fixed:
        problems.append("a second fix changed the notebook again")
    return problems
