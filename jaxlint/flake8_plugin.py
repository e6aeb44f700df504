"""flake8 front end: flake8's lines in, (line, col, "CODE message", type) out.

The plugin analyses each file as the command line does: with the ``[tool.jaxlint]`` the file
uses (the nearest one above it), the project index (what the modules it imports from the
project do), and the configuration's excludes and ``.gitignore`` (as ``--force-exclude``:
flake8 names the files). flake8 then applies ``# noqa`` and its own ``--select``,
``--ignore``, ``--extend-ignore`` and ``per-file-ignores`` on top.
"""

from __future__ import annotations

import ast
import os
import sys
from collections.abc import Iterator
from typing import Any

from jaxlint import __version__
from jaxlint.codes import CODES
from jaxlint.config import Resolver
from jaxlint.errors import SourceError
from jaxlint.files import Excluder
from jaxlint.settings import for_file, might_matter

_STDIN_NAMES = ("stdin", "-", "<stdin>")


class _Project:
    """What one flake8 process learns once and uses for every file it is given: the
    configurations by folder, the .gitignore files, the analysed project modules."""

    def __init__(self) -> None:
        self.resolver = Resolver(warn=lambda line: print(line, file=sys.stderr),
                                 known=list(CODES))
        self.excluder = Excluder(self.resolver.for_folder, warn=self.resolver.warn)
        self.modules: dict[str, dict[str, Any]] = {}


_PROJECT: dict[str, _Project] = {}  # by current folder: flake8's workers are per run


def _project() -> _Project:
    cwd = os.getcwd()
    if cwd not in _PROJECT:
        _PROJECT[cwd] = _Project()
    return _PROJECT[cwd]


class Plugin:
    name = "jaxlint"
    version = __version__

    def __init__(self, tree: ast.AST, lines: list[str], filename: str = "<stdin>") -> None:
        # ``tree`` is required by flake8 to run us once per file; we analyse the source text
        # with libcst, which keeps what ast drops.
        self.lines = lines
        self.filename = filename
        # Here, not in run(): flake8 turns an exception raised while making the plugin (a
        # ConfigError) into one line naming the file and the reason, and exits 1.
        self.project = _project()
        if filename in _STDIN_NAMES:
            self.config = self.project.resolver.for_folder(".")
            self.excluded = False
        else:
            self.config = self.project.resolver.for_file(filename)
            self.excluded = self.project.excluder.excluded(filename, False)

    def run(self) -> Iterator[tuple[int, int, str, type[Any]]]:
        if self.excluded:
            return
        path, config = self.filename, self.config
        source = "".join(self.lines)
        if not might_matter(source, config.extras, project=True):
            return  # and the engine (libcst, 0.4 s to import) is never imported
        from jaxlint.engine import lint_source

        settings = for_file(path, config, self.project.modules, honour_noqa=False)
        try:
            findings = lint_source(source, path, settings=settings)
        except SourceError:
            return  # flake8 reports syntax errors itself (E999)
        for f in findings:
            yield f.line, f.col, f"{f.code} {f.message}", type(self)
