#!/usr/bin/env python3
"""What an editor waits for after an edit: the language server's lint of a file whose
imports are already summarised.

    python benchmarks/editor_latency.py ROOT:FILE [ROOT:FILE ...] [--edits 5]

For each FILE (relative to its repository's folder ROOT), in this one process: the settings
the server makes for it (``jaxlint.server``'s ``_scope``, less the exclusion check: the
benchmark corpus lies in this repository's git-ignored cache, which the server would leave
alone), a first lint (it summarises what the file imports, kept in the server's ``modules``
dict), then ``--edits`` lints of the buffer with one more comment line each (a new text
each time, so no result is reused; at its end, or with ``--where middle`` before its middle
line, inside whatever statement holds it), with the server's per-document cache of parsed
top-level statements (``jaxlint.chunks``), each timed as the server runs it: the findings
(``engine.FixPreviews``; the server makes a finding's fix when a code action asks for it),
or, with ``--previews`` (and with a jaxlint older than ``FixPreviews``), the findings and a
preview of every fix (``engine.fix_each``). Prints one JSON object per file: the first
lint's CPU time and each edit's, in seconds.

``timing_heavy.py`` runs it for the training scripts of the timing-heavy set; it can be run
alone on any file.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import replace
from pathlib import Path


def lint_once(path: str, text: str, modules: dict, previews: bool = False,
              chunks: object = None) -> tuple[float, int]:
    from jaxlint import engine
    from jaxlint.codes import CODES
    from jaxlint.config import Resolver
    from jaxlint.errors import SourceError
    from jaxlint.settings import for_file

    start = time.process_time()
    resolver = Resolver(warn=lambda message: None, known=list(CODES))
    config = resolver.for_file(path)
    config = replace(config, line_length=resolver.line_length(path))
    settings = for_file(path, config, modules)
    if chunks is not None:
        settings = replace(settings, chunks=chunks)  # the server's, kept per document
    try:
        if previews or not hasattr(engine, "FixPreviews"):
            findings, _ = engine.fix_each(text, path, settings)
        else:
            findings = engine.FixPreviews(text, path, settings).findings
        count = len(findings)
    except SourceError:
        count = -1
    return time.process_time() - start, count


def edited(text: str, i: int, where: str) -> str:
    """The text with its ``i``-th edit: a comment line after its end, or before its middle
    line."""
    if where == "end":
        return f"{text}\n# edit {i}\n"
    lines = text.splitlines(keepends=True)
    middle = len(lines) // 2
    return "".join([*lines[:middle], f"# edit {i}\n", *lines[middle:]])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="+", metavar="ROOT:FILE")
    ap.add_argument("--edits", type=int, default=5)
    ap.add_argument("--previews", action="store_true",
                    help="also make every finding's fix at each lint (fix_each)")
    ap.add_argument("--where", choices=("end", "middle"), default="end",
                    help="where each edit adds its comment line: after the last line, or "
                         "before the middle line (inside whatever statement holds it)")
    args = ap.parse_args(argv)
    import jaxlint.engine  # noqa: F401  (imported before the clock: the server has it loaded)
    import jaxlint.fixer  # noqa: F401

    specs = [(spec, Path(spec.partition(":")[0]).resolve(), spec.partition(":")[2])
             for spec in args.files]
    for spec, root, rel in specs:
        if not rel or not (root / rel).is_file():
            ap.error(f"{spec}: not ROOT:FILE naming a file (FILE relative to ROOT)")
    for spec, root, rel in specs:
        os.chdir(root)  # the server runs in the workspace's folder
        path = str(Path(rel).resolve())
        text = Path(path).read_text(encoding="utf-8", errors="surrogateescape")
        modules: dict = {}  # the server's summaries of imported modules, kept between lints
        try:  # as the server does (a jaxlint older than jaxlint.chunks parses whole texts)
            from jaxlint.chunks import ChunkCache
            chunks: object = ChunkCache()
        except ImportError:
            chunks = None
        first, found = lint_once(path, text, modules, args.previews, chunks)
        edits = [lint_once(path, edited(text, i, args.where), modules, args.previews,
                           chunks)[0] for i in range(args.edits)]
        print(json.dumps({"file": spec, "findings": found, "first": first, "edits": edits}),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
