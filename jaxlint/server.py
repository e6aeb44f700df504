"""``jaxlint server``: the linter as a Language Server Protocol server over stdio, for editors.

It lints each Python document as the command line would lint the file at its path (the same
``[tool.jaxlint]`` configuration and project index) and tells the editor about it:

- diagnostics (source ``jaxlint``, code = rule code) when a document is opened, changed or
  saved;
- code actions: each finding's own fix ("Sync `y` before reading the clock"), and "Fix all
  jaxlint findings" (kind ``source.fixAll.jaxlint``), which applies what ``jaxlint --fix``
  would;
- hover: the finding under the cursor, its message and, when the finding carries one, its
  explanation; on a line that reads a clock or runs a harness and has no finding, why not
  (``jaxlint.quiet``: the region's work waited for and by what, or no JAX work seen and the
  calls jaxlint could not see into).

It uses the library (``jaxlint.engine``) in process; it never runs the user's code. Needs
pygls, the ``server`` extra.

Lints run in worker threads, one at a time (the engine and the project index's caches are
shared), never on the thread that reads the editor's messages: a change is linted once the
edits pause (``DEBOUNCE_S``), a version superseded before its turn is never linted, and only
the newest version's diagnostics are published; a request about another document waits
for at most the one lint under way. Lines are counted as the protocol counts them (``\n``,
``\r\n``, ``\r``), not as ``str.splitlines`` does (form feeds, U+2028, ``\x1c``...), and a
document the editor has not opened is never read from disk (a FIFO there would hang).
"""

from __future__ import annotations

import argparse
import asyncio
import difflib
import os
import re
import sys
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING
from urllib.parse import unquote

from lsprotocol import types as lsp
from pygls.lsp.server import LanguageServer
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument
from pygls.workspace.position_codec import ServerTextPosition

from jaxlint import __version__
from jaxlint.codes import CODES
from jaxlint.config import Config, ConfigError, Resolver
from jaxlint.errors import SourceError
from jaxlint.files import Excluder
from jaxlint.finding import Finding
from jaxlint.settings import CLOCK_FUNCTIONS, Settings, for_file
from jaxlint.text_lines import split_lines

if TYPE_CHECKING:
    from jaxlint.chunks import ChunkCache
    from jaxlint.engine import FixPreviews

SOURCE = "jaxlint"
FIX_ALL = lsp.CodeActionKind.SourceFixAll + ".jaxlint"  # "source.fixAll.jaxlint"
FIX_ALL_TITLE = "Fix all jaxlint findings"
# Editors lint on every keystroke; a document that does not parse yet is not a finding of
# ours (the editor's Python support reports syntax), so it clears our diagnostics instead.
_SYNTAX = "cannot parse"


# a line that may read a clock or run a harness: only there does a hover without a finding
# ask why (an analysis of the document, in a worker)
_CLOCKISH = re.compile(r"\b(?:" + "|".join(sorted(CLOCK_FUNCTIONS)) + r")\b|%%?time")
DEBOUNCE_S = 0.25  # a change is linted once the edits pause this long


@dataclass
class _Result:
    """What one text of a document gave: its findings and each fixable finding's own fix
    (made when a code action first asks for it, under the lint lock: ``fixed``)."""

    text: str
    findings: list[Finding]
    # (code, line, col) of a fixable finding -> (what its fix syncs, its index in previews)
    fixes: dict[tuple[str, int, int], tuple[tuple[str, ...], int]]
    problem: str | None = None  # a file-level error (too complex to analyse, ...)
    warnings: tuple[str, ...] = ()  # configurations ignored for safety, as the CLI warns
    # the project's module files the analysis read or looked for (a save of one of them
    # makes this result stale), and folders + PACKAGE_FILES for a helper's callers
    deps: frozenset[str] = field(default_factory=frozenset)
    previews: FixPreviews | None = None

    def fixed(self, key: tuple[str, int, int]) -> str | None:
        """The text with the fix of the finding at ``key`` alone applied (None: it would
        not parse or changes nothing). Call with the lint lock held."""
        if self.previews is None or key not in self.fixes:
            return None
        found = self.previews.fixed(self.fixes[key][1])
        return None if found is None else str(found)


def lsp_lines(text: str) -> list[str]:
    """The lines of ``text`` as the protocol counts them: broken at ``\n``, ``\r\n`` and
    ``\r`` only, each with its line break."""
    return split_lines(text)


class JaxlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("jaxlint", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.results: dict[str, _Result] = {}
        # What the project's other modules export, shared by every document; dropped when
        # a document is saved, since a saved module may export something new.
        self.modules: dict[str, dict[str, object]] = {}
        self.modules_stale = False
        self.warned: set[str] = set()
        self.versions: dict[str, int | None] = {}  # uri -> the newest version received
        # uri -> the trees of its top-level statements as last parsed: an edit parses only
        # the statements it changed (``jaxlint.chunks``); dropped when the document closes
        self.chunks: dict[str, ChunkCache] = {}
        self.lint_lock = threading.Lock()  # one lint (or fix) at a time
        self._results_lock = threading.Lock()
        self.workers = ThreadPoolExecutor(max_workers=2, thread_name_prefix="jaxlint")
        # uri -> (text, line, why it has no finding): the last such hover's answer, so that
        # the editor asking again as the pointer rests costs no second analysis
        self.quiet: dict[str, tuple[str, int, list[str]]] = {}
        self._timers: dict[str, asyncio.TimerHandle] = {}

    def opened(self, uri: str) -> TextDocument | None:
        """The document the editor has opened, or None: pygls would read an unopened one
        from disk, and a request naming a FIFO would hang there."""
        return self.workspace.text_documents.get(unquote(uri))

    def cached(self, uri: str, text: str) -> _Result | None:
        with self._results_lock:
            found = self.results.get(uri)
        return found if found is not None and found.text == text else None

    def result_for(self, uri: str, path: str, text: str) -> _Result:
        """The result for this text of the document (in a worker thread): cached, or
        linted once the lint under way is done."""
        found = self.cached(uri, text)
        if found is not None:
            return found
        with self.lint_lock:
            found = self.cached(uri, text)
            if found is not None:
                return found
            if self.modules_stale:
                self.modules.clear()
                self.modules_stale = False
            # which files exist and what they import are read afresh for each lint: a
            # file made or checked out outside the editor counts at once
            from jaxlint.project import forget_reads

            forget_reads(self.modules)
            chunks = self.chunks.get(uri)
            if chunks is None:
                from jaxlint.chunks import ChunkCache

                chunks = self.chunks[uri] = ChunkCache()
            found = _lint(path, text, self.modules, chunks)
            with self._results_lock:
                self.results[uri] = found
            return found

    def forget(self, uri: str) -> None:
        with self._results_lock:
            self.results.pop(uri, None)
        self.quiet.pop(uri, None)

    def why_quiet(self, uri: str, path: str, text: str, line: int) -> list[str]:
        """Why ``line`` (from 1) of the document has no finding (in a worker thread): the
        answers that name a region or a harness, else nothing."""
        known = self.quiet.get(uri)
        if known is not None and known[:2] == (text, line):
            return known[2]
        with self.lint_lock:
            scope = _scope(path, self.modules)
            why: list[str] = []
            if scope.settings is not None:
                from jaxlint.quiet import NO_REGION, NOT_JAX, SKIPPED_BY_PREFILTER, reasons

                try:
                    why = reasons(text, path, scope.settings, line)
                except SourceError:
                    why = []
                if why and (why[0] in (SKIPPED_BY_PREFILTER, NOT_JAX)
                            or why[0].startswith(NO_REGION)):
                    why = []  # not analysed, or no region ends there: nothing to add
        self.quiet[uri] = (text, line, why)
        return why

    def dependents(self, path: str) -> list[str]:
        """The open documents whose results depend on the file at ``path``."""
        from jaxlint.cache import PACKAGE_FILES

        path = os.path.abspath(path)
        with self._results_lock:
            items = list(self.results.items())
        out = []
        for uri, result in items:
            for dep in result.deps:
                if dep == path or (dep.endswith(PACKAGE_FILES) and path.startswith(
                        dep[: -len(PACKAGE_FILES)] + os.sep)):
                    out.append(uri)
                    break
        return out


def _path_of(uri: str) -> str:
    return to_fs_path(uri) or uri


def _path(doc: TextDocument) -> str:
    return _path_of(doc.uri)


@dataclass
class _Scope:
    """How the command line treats the file at a path: the settings it is analysed with, or
    None when it is left out (an exclude, .gitignore, a notebook) or cannot be (a bad
    configuration, in ``problem``)."""

    settings: Settings | None
    problem: str | None = None
    warnings: tuple[str, ...] = ()


def _scope(path: str, modules: dict[str, dict[str, object]]) -> _Scope:
    # Looked up afresh for each lint (a few stat calls): the server runs for hours, and a
    # pyproject.toml or .gitignore edited meanwhile must count at once.
    warnings: list[str] = []
    resolver = Resolver(warn=warnings.append, known=list(CODES))
    try:
        config: Config = resolver.for_file(path)
        # As the flake8 plugin does (--force-exclude): the editor names the file.
        excluded = Excluder(resolver.for_folder, warn=resolver.warn).excluded(path, False)
    except ConfigError as exc:
        return _Scope(None, f"configuration error: {exc}", tuple(warnings))
    if excluded or path.endswith(".ipynb"):
        return _Scope(None, None, tuple(warnings))
    # the formatter's line length for the lines fixes add, as ``jaxlint --fix`` has it
    config = replace(config, line_length=resolver.line_length(path))
    return _Scope(for_file(path, config, modules), None, tuple(warnings))


def _lint(path: str, text: str, modules: dict[str, dict[str, object]],
          chunks: ChunkCache | None = None) -> _Result:
    from jaxlint.engine import FixPreviews

    scope = _scope(path, modules)
    if scope.settings is None:
        return _Result(text, [], {}, scope.problem, scope.warnings)
    index = scope.settings.index
    try:
        previews = FixPreviews(text, path, replace(scope.settings, chunks=chunks))
    except SourceError as exc:
        if exc.message.startswith(_SYNTAX):
            return _Result(text, [], {}, None, scope.warnings)
        return _Result(text, [], {}, exc.message, scope.warnings)
    deps = frozenset({*getattr(index, "used", ()), *getattr(index, "absent", ())})
    fixes = {_key(f): (plan.synced_exprs, i) for i, (f, plan)
             in enumerate(zip(previews.findings, previews.plans)) if plan is not None}
    # (the previews hold the module's tree: kept only while a fix may be asked for)
    return _Result(text, previews.findings, fixes, None, scope.warnings, deps,
                   previews if fixes else None)


def _key(f: Finding) -> tuple[str, int, int]:
    return f.code, f.line, f.col


# --- positions and edits ------------------------------------------------------------------


def _client(doc: TextDocument, lines: Sequence[str], line: int, col: int) -> lsp.Position:
    return doc.position_codec.position_to_client_units(lines, ServerTextPosition(line, col))


def _range(doc: TextDocument, text: str, f: Finding) -> lsp.Range:
    """From the finding's column to the end of its line, in the client's position units."""
    line = f.line - 1
    lines = lsp_lines(text)
    content = lines[line].rstrip("\r\n") if 0 <= line < len(lines) else ""
    end = len(content.rstrip()) if len(content.rstrip()) > f.col else len(content)
    return lsp.Range(_client(doc, lines, line, f.col), _client(doc, lines, line, end))


def _text_edits(doc: TextDocument, old: str, new: str) -> list[lsp.TextEdit]:
    """The change from ``old`` to ``new`` as whole-line edits (the fix touches few lines;
    replacing the document would move the cursor and lose the editor's folds)."""
    a, b = lsp_lines(old), lsp_lines(new)
    edits = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes():
        if tag == "equal":
            continue
        edits.append(lsp.TextEdit(lsp.Range(_line_start(doc, a, i1), _line_start(doc, a, i2)),
                                  "".join(b[j1:j2])))
    return edits


def _line_start(doc: TextDocument, lines: list[str], i: int) -> lsp.Position:
    """The start of line ``i``, or the end of the text when ``i`` is past its last line
    and that line has no line break (there is no line ``i`` to start then)."""
    if i == len(lines) and lines and lines[-1] == lines[-1].rstrip("\r\n"):
        last = lines[-1]
        return _client(doc, lines, i - 1, len(last))
    return lsp.Position(i, 0)


# --- what the user reads ------------------------------------------------------------------


def _quoted(exprs: Sequence[str]) -> str:
    q = [f"`{e}`" for e in exprs]
    return q[0] if len(q) == 1 else ", ".join(q[:-1]) + " and " + q[-1]


def _first_quoted(message: str) -> str | None:
    match = re.search(r"`([^`]+)`", message)
    return match.group(1) if match else None


def fix_title(f: Finding, synced: Sequence[str]) -> str:
    """What a finding's fix does, in the words of the finding: "Sync `y` before reading the
    clock"."""
    named = _first_quoted(f.message)
    if f.code == "JAX105" and synced:
        title = f"Warm up with {_quoted(synced)} before the clock starts"
    elif f.code == "JAX104" and synced:
        title = f"Sync {_quoted(synced)} and copy to the host after reading the clock"
    elif f.code == "JAX102" and named:
        title = f"Sync each run of `{named}`"
    elif synced:
        title = f"Sync {_quoted(synced)} before reading the clock"
    elif named and f.code == "JAX101":
        title = f"Sync `{named}` before reading the clock"
    else:
        title = f"Apply jaxlint's fix for {f.code}"
    return title + (" (unsafe fix)" if f.unsafe else "")


def _diagnostic(doc: TextDocument, text: str, f: Finding) -> lsp.Diagnostic:
    return lsp.Diagnostic(range=_range(doc, text, f), message=f.message,
                          severity=lsp.DiagnosticSeverity.Warning, code=f.code, source=SOURCE)


def hover_text(f: Finding) -> str:
    """Markdown: the rule, the message and, when the finding has one, its explanation."""
    from jaxlint.rules import rule_name

    parts = [f"**{f.code}** {rule_name(f.code)}", f.message]
    explanation = getattr(f, "explanation", None)
    if explanation:
        # its lines are lines: Markdown joins lines unless each ends with two spaces
        parts.append("  \n".join(line.strip() for line in str(explanation).splitlines()))
    parts.append(f"`jaxlint rule {f.code}` explains the rule.")
    return "\n\n".join(parts)


def quiet_text(why: Sequence[str]) -> str:
    """Markdown: why a line has no finding (``jaxlint --explain`` says the same)."""
    return "\n\n".join(["**jaxlint**: no finding on this line", *why])


# --- the server ---------------------------------------------------------------------------


def build_server() -> JaxlintServer:
    server = JaxlintServer()

    def publish(ls: JaxlintServer, uri: str, version: int | None, result: _Result) -> None:
        """In the message thread: diagnostics for ``result`` if it is still the newest."""
        doc = ls.opened(uri)
        if doc is None or ls.versions.get(uri) != version or doc.source != result.text:
            return  # closed or changed since: the newer text's lint publishes
        for line in result.warnings:
            if line not in ls.warned:  # once, not on every keystroke
                ls.warned.add(line)
                ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning, line))
        diagnostics = [_diagnostic(doc, result.text, f) for f in result.findings]
        if result.problem is not None:
            diagnostics.append(lsp.Diagnostic(
                range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
                message=result.problem, severity=lsp.DiagnosticSeverity.Error, source=SOURCE))
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, version=version, diagnostics=diagnostics))

    def lint_if_newest(ls: JaxlintServer, uri: str, version: int | None, text: str
                       ) -> _Result | None:
        """In a worker: lint, unless a newer version came while this one waited."""
        if ls.versions.get(uri) != version:
            return None
        return ls.result_for(uri, _path_of(uri), text)

    def start(ls: JaxlintServer, uri: str) -> None:
        ls._timers.pop(uri, None)
        doc = ls.opened(uri)
        if doc is None:
            return
        version, text = doc.version, doc.source
        loop = asyncio.get_running_loop()
        future = loop.run_in_executor(ls.workers, lint_if_newest, ls, uri, version, text)

        def done(f: asyncio.Future[_Result | None]) -> None:
            if not f.cancelled() and f.exception() is None and f.result() is not None:
                publish(ls, uri, version, f.result())  # type: ignore[arg-type]
        future.add_done_callback(done)

    def schedule(ls: JaxlintServer, uri: str, delay: float) -> None:
        """Lint the document once ``delay`` has passed with no newer change."""
        doc = ls.opened(uri)
        ls.versions[uri] = doc.version if doc is not None else None
        timer = ls._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        ls._timers[uri] = asyncio.get_running_loop().call_later(delay, start, ls, uri)

    async def result_now(ls: JaxlintServer, uri: str) -> tuple[TextDocument, _Result] | None:
        """For a request: the document and the result for its text now (not from disk)."""
        doc = ls.opened(uri)
        if doc is None:
            return None
        text = doc.source
        found = ls.cached(uri, text)
        if found is None:
            found = await asyncio.get_running_loop().run_in_executor(
                ls.workers, ls.result_for, uri, _path(doc), text)
        return doc, found

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: JaxlintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: JaxlintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        schedule(ls, params.text_document.uri, DEBOUNCE_S)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: JaxlintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        # The saved file may be a module other documents use: they (and it) are linted
        # again, with the project index read afresh; the others keep their results.
        uri = params.text_document.uri
        ls.modules_stale = True
        again = {uri, *ls.dependents(_path_of(uri))}
        for other in again:
            ls.forget(other)
            if ls.opened(other) is not None:
                schedule(ls, other, 0)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: JaxlintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        timer = ls._timers.pop(uri, None)
        if timer is not None:
            timer.cancel()
        ls.versions.pop(uri, None)
        ls.forget(uri)
        ls.chunks.pop(uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL]))
    async def code_action(ls: JaxlintServer, params: lsp.CodeActionParams
                          ) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        found = await result_now(ls, uri)
        if found is None:
            return []
        doc, result = found
        only = params.context.only

        def wanted(kind: str) -> bool:
            return not only or any(kind == k or kind.startswith(k + ".") for k in only)

        actions = []
        if wanted(lsp.CodeActionKind.QuickFix):
            first, last = params.range.start.line + 1, params.range.end.line + 1
            asked = [f for f in result.findings
                     if _key(f) in result.fixes and first <= f.line <= last]
            made = await asyncio.get_running_loop().run_in_executor(
                ls.workers, _fixed_locked, ls, result, [_key(f) for f in asked]) if asked else []
            for f, fixed in zip(asked, made):
                if fixed is None:
                    continue
                synced = result.fixes[_key(f)][0]
                actions.append(lsp.CodeAction(
                    title=fix_title(f, synced), kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[_diagnostic(doc, result.text, f)], is_preferred=not f.unsafe,
                    edit=lsp.WorkspaceEdit(changes={uri: _text_edits(doc, result.text,
                                                                      fixed)})))
        if wanted(FIX_ALL) and any(f.fixable and not f.unsafe for f in result.findings):
            fixed_all = await asyncio.get_running_loop().run_in_executor(
                ls.workers, _fix_all_locked, ls, _path(doc), result.text)
            if fixed_all is not None and fixed_all != result.text:
                actions.append(lsp.CodeAction(
                    title=FIX_ALL_TITLE, kind=FIX_ALL,
                    edit=lsp.WorkspaceEdit(changes={uri: _text_edits(doc, result.text,
                                                                      fixed_all)})))
        return actions

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    async def hover(ls: JaxlintServer, params: lsp.HoverParams) -> lsp.Hover | None:
        found = await result_now(ls, params.text_document.uri)
        if found is None:
            return None
        doc, result = found
        pos = params.position
        for f in result.findings:
            r = _range(doc, result.text, f)
            if r.start.line == pos.line and r.start.character <= pos.character <= \
                    r.end.character:
                return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, hover_text(f)),
                                 range=r)
        lines = split_lines(result.text)
        if pos.line >= len(lines) or _CLOCKISH.search(lines[pos.line]) is None or any(
                _range(doc, result.text, f).start.line == pos.line for f in result.findings):
            return None
        why = await asyncio.get_running_loop().run_in_executor(
            ls.workers, ls.why_quiet, params.text_document.uri, _path(doc), result.text,
            pos.line + 1)
        if not why:
            return None
        return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, quiet_text(why)))

    return server


def _fixed_locked(ls: JaxlintServer, result: _Result, keys: list[tuple[str, int, int]]
                  ) -> list[str | None]:
    with ls.lint_lock:
        return [result.fixed(key) for key in keys]


def _fix_all_locked(ls: JaxlintServer, path: str, text: str) -> str | None:
    with ls.lint_lock:
        return _fix_all(path, text, ls.modules)


def _fix_all(path: str, text: str, modules: dict[str, dict[str, object]]) -> str | None:
    """What ``jaxlint --fix`` would write for this document (safe fixes only)."""
    from jaxlint.engine import fix_source

    scope = _scope(path, modules)
    if scope.settings is None:
        return None
    try:
        result = fix_source(text, path, settings=scope.settings)
    except SourceError:
        return None
    return str(result.source)


def main(argv: Sequence[str]) -> int:
    p = argparse.ArgumentParser(
        prog="jaxlint server",
        description="Run a Language Server Protocol server on stdin and stdout, for editors: "
        "diagnostics, fixes as code actions, and hover. It never runs the code it checks.")
    p.add_argument("--stdio", action="store_true",
                   help="talk over stdin and stdout (the default and only transport; "
                   "accepted because editors pass it)")
    p.parse_args(argv)
    build_server().start_io(sys.stdin.buffer, sys.stdout.buffer)
    return 0


if __name__ == "__main__":  # python -m jaxlint.server: never taken for a path named server
    sys.exit(main(sys.argv[1:]))
