"""``%timeit``'s options, as IPython's getopt reads them: for notebooks (``jaxlint.notebook``)
and for a notebook exported to a script (``run_line_magic("timeit", "-n 3 f(x)")``, read by
the harness analysis). No libcst here: the notebook reader imports this before its prefilter
has decided that a notebook is worth parsing."""

from __future__ import annotations

import re

_WORD = re.compile(r"\S*")

# The call a notebook's ``%timeit`` / ``%time`` stands as in the module the analysis reads
# (``jaxlint.notebook``); the harness analysis knows it by this name.
NOTEBOOK_TIMEIT = "__jaxlint_timeit__"
# the keyword that marks a notebook's ``%time``/``%%time`` among those calls: one run
ONCE = "__jaxlint_once__"


def timeit_options_end(text: str, pos: int) -> int | None:
    """Where ``%timeit``'s statement starts after its options (getopt ``n:r:tcp:qo``), or
    None if IPython would refuse them."""
    found = timeit_options(text, pos)
    return found[0] if found is not None else None


def timeit_options(text: str, pos: int) -> tuple[int, frozenset[str]] | None:
    """``timeit_options_end`` and the option letters given (``-n 10 -r3`` -> ``{"n", "r"}``),
    or None if IPython would refuse them."""
    letters: set[str] = set()
    while True:
        pos = len(text) - len(text[pos:].lstrip(" \t"))
        if not text.startswith("-", pos) or text.startswith("- ", pos) or text[pos:] == "-":
            return pos, frozenset(letters)
        end = _word_end(text, pos)
        word = text[pos:end]
        if word == "--":
            return len(text) - len(text[end:].lstrip(" \t")), frozenset(letters)
        k, pos = 1, end
        while k < len(word):
            if word[k] in "tcqo":
                letters.add(word[k])
                k += 1
                continue
            if word[k] not in "nrp":
                return None
            letters.add(word[k])
            if k + 1 == len(word):  # the argument is the next word
                start = len(text) - len(text[end:].lstrip(" \t"))
                if start >= len(text):
                    return None
                pos = _word_end(text, start)
            break


def _word_end(text: str, pos: int) -> int:
    m = _WORD.match(text, pos)
    assert m is not None
    return m.end()
