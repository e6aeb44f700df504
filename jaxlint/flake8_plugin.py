"""flake8 front end: flake8's lines in, (line, col, "CODE message", type) out.

flake8 hands a plugin one file at a time, so the plugin sees exactly what the CLI sees for
that file. flake8 applies ``# noqa`` and ``--select``/``--ignore`` itself.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from typing import Any

from jaxlint import __version__
from jaxlint.errors import SourceError
from jaxlint.settings import might_matter


class Plugin:
    name = "jaxlint"
    version = __version__

    def __init__(self, tree: ast.AST, lines: list[str], filename: str = "<stdin>") -> None:
        # ``tree`` is required by flake8 to run us once per file; we analyse the source text
        # with libcst, which keeps what ast drops.
        self.lines = lines
        self.filename = filename

    def run(self) -> Iterator[tuple[int, int, str, type[Any]]]:
        source = "".join(self.lines)
        if not might_matter(source):
            return  # and the engine (libcst, 0.4 s to import) is never imported
        from jaxlint.engine import lint_source

        try:
            findings = lint_source(source, self.filename, honour_noqa=False)
        except SourceError:
            return  # flake8 reports syntax errors itself (E999)
        for f in findings:
            yield f.line, f.col, f"{f.code} {f.message}", type(self)
