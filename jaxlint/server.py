"""``jaxlint server``: the linter as a Language Server Protocol server over stdio, for editors.

It lints each Python document as the command line would lint the file at its path (the same
``[tool.jaxlint]`` configuration and project index) and tells the editor about it:

- diagnostics (source ``jaxlint``, code = rule code) when a document is opened, changed or
  saved;
- code actions: each finding's own fix ("Sync `y` before reading the clock"), and "Fix all
  jaxlint findings" (kind ``source.fixAll.jaxlint``), which applies what ``jaxlint --fix``
  would;
- hover: the finding under the cursor, its message and, when the finding carries one, its
  explanation.

It uses the library (``jaxlint.engine``) in process; it never runs the user's code. Needs
pygls, the ``server`` extra.
"""

from __future__ import annotations

import argparse
import difflib
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace

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
from jaxlint.settings import Settings, for_file

SOURCE = "jaxlint"
FIX_ALL = lsp.CodeActionKind.SourceFixAll + ".jaxlint"  # "source.fixAll.jaxlint"
FIX_ALL_TITLE = "Fix all jaxlint findings"
# Editors lint on every keystroke; a document that does not parse yet is not a finding of
# ours (the editor's Python support reports syntax), so it clears our diagnostics instead.
_SYNTAX = "cannot parse"


@dataclass
class _Result:
    """What one text of a document gave: its findings and each fixable finding's own fix."""

    text: str
    findings: list[Finding]
    # (code, line, col) of a finding -> (what its fix syncs, the text with its fix alone)
    fixes: dict[tuple[str, int, int], tuple[tuple[str, ...], str]]
    problem: str | None = None  # a file-level error (too complex to analyse, ...)
    warnings: tuple[str, ...] = ()  # configurations ignored for safety, as the CLI warns


class JaxlintServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__("jaxlint", __version__,
                         text_document_sync_kind=lsp.TextDocumentSyncKind.Full)
        self.results: dict[str, _Result] = {}
        # What the project's other modules export, shared by every document; dropped when
        # any document is saved, since a saved module may export something new.
        self.modules: dict[str, dict[str, object]] = {}
        self.warned: set[str] = set()

    def result(self, doc: TextDocument) -> _Result:
        text = doc.source
        cached = self.results.get(doc.uri)
        if cached is None or cached.text != text:
            cached = self.results[doc.uri] = _lint(doc, text, self.modules)
        return cached


def _path(doc: TextDocument) -> str:
    return to_fs_path(doc.uri) or doc.uri


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
        excluded = Excluder(resolver.for_folder).excluded(path, False)
    except ConfigError as exc:
        return _Scope(None, f"configuration error: {exc}", tuple(warnings))
    if excluded or path.endswith(".ipynb"):
        return _Scope(None, None, tuple(warnings))
    # the formatter's line length for the lines fixes add, as ``jaxlint --fix`` has it
    config = replace(config, line_length=resolver.line_length(path))
    return _Scope(for_file(path, config, modules), None, tuple(warnings))


def _lint(doc: TextDocument, text: str, modules: dict[str, dict[str, object]]) -> _Result:
    from jaxlint.engine import fix_each

    path = _path(doc)
    scope = _scope(path, modules)
    if scope.settings is None:
        return _Result(text, [], {}, scope.problem, scope.warnings)
    try:
        findings, fixes = fix_each(text, path, scope.settings)
    except SourceError as exc:
        if exc.message.startswith(_SYNTAX):
            return _Result(text, [], {}, None, scope.warnings)
        return _Result(text, [], {}, exc.message, scope.warnings)
    return _Result(text, findings,
                   {_key(f.finding): (f.plan.synced_exprs, str(f.source)) for f in fixes},
                   None, scope.warnings)


def _key(f: Finding) -> tuple[str, int, int]:
    return f.code, f.line, f.col


# --- positions and edits ------------------------------------------------------------------


def _range(doc: TextDocument, f: Finding) -> lsp.Range:
    """From the finding's column to the end of its line, in the client's position units."""
    line = f.line - 1
    lines = doc.lines
    content = lines[line].rstrip("\r\n") if 0 <= line < len(lines) else ""
    end = len(content.rstrip()) if len(content.rstrip()) > f.col else len(content)
    start = doc.position_to_client_units(ServerTextPosition(line, f.col))
    stop = doc.position_to_client_units(ServerTextPosition(line, end))
    return lsp.Range(start, stop)


def _text_edits(doc: TextDocument, old: str, new: str) -> list[lsp.TextEdit]:
    """The change from ``old`` to ``new`` as whole-line edits (the fix touches few lines;
    replacing the document would move the cursor and lose the editor's folds)."""
    a, b = old.splitlines(keepends=True), new.splitlines(keepends=True)
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
        return doc.position_to_client_units(ServerTextPosition(i - 1, len(last)))
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


def _diagnostic(doc: TextDocument, f: Finding) -> lsp.Diagnostic:
    return lsp.Diagnostic(range=_range(doc, f), message=f.message,
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


# --- the server ---------------------------------------------------------------------------


def build_server() -> JaxlintServer:
    server = JaxlintServer()

    def publish(ls: JaxlintServer, uri: str) -> None:
        doc = ls.workspace.get_text_document(uri)
        result = ls.result(doc)
        for line in result.warnings:
            if line not in ls.warned:  # once, not on every keystroke
                ls.warned.add(line)
                ls.window_log_message(lsp.LogMessageParams(lsp.MessageType.Warning, line))
        diagnostics = [_diagnostic(doc, f) for f in result.findings]
        if result.problem is not None:
            diagnostics.append(lsp.Diagnostic(
                range=lsp.Range(lsp.Position(0, 0), lsp.Position(0, 0)),
                message=result.problem, severity=lsp.DiagnosticSeverity.Error, source=SOURCE))
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=uri, version=doc.version, diagnostics=diagnostics))

    @server.feature(lsp.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: JaxlintServer, params: lsp.DidOpenTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: JaxlintServer, params: lsp.DidChangeTextDocumentParams) -> None:
        publish(ls, params.text_document.uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: JaxlintServer, params: lsp.DidSaveTextDocumentParams) -> None:
        ls.modules.clear()
        ls.results.clear()
        for uri in list(ls.workspace.text_documents):
            publish(ls, uri)

    @server.feature(lsp.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: JaxlintServer, params: lsp.DidCloseTextDocumentParams) -> None:
        ls.results.pop(params.text_document.uri, None)
        ls.text_document_publish_diagnostics(lsp.PublishDiagnosticsParams(
            uri=params.text_document.uri, diagnostics=[]))

    @server.feature(lsp.TEXT_DOCUMENT_CODE_ACTION, lsp.CodeActionOptions(
        code_action_kinds=[lsp.CodeActionKind.QuickFix, FIX_ALL]))
    def code_action(ls: JaxlintServer, params: lsp.CodeActionParams
                    ) -> list[lsp.CodeAction]:
        uri = params.text_document.uri
        doc = ls.workspace.get_text_document(uri)
        result = ls.result(doc)
        only = params.context.only

        def wanted(kind: str) -> bool:
            return not only or any(kind == k or kind.startswith(k + ".") for k in only)

        actions = []
        if wanted(lsp.CodeActionKind.QuickFix):
            first, last = params.range.start.line + 1, params.range.end.line + 1
            for f in result.findings:
                if _key(f) not in result.fixes or not first <= f.line <= last:
                    continue
                synced, fixed = result.fixes[_key(f)]
                actions.append(lsp.CodeAction(
                    title=fix_title(f, synced), kind=lsp.CodeActionKind.QuickFix,
                    diagnostics=[_diagnostic(doc, f)], is_preferred=not f.unsafe,
                    edit=lsp.WorkspaceEdit(changes={uri: _text_edits(doc, result.text,
                                                                      fixed)})))
        if wanted(FIX_ALL) and any(f.fixable and not f.unsafe for f in result.findings):
            fixed_all = _fix_all(doc, result.text, ls.modules)
            if fixed_all is not None and fixed_all != result.text:
                actions.append(lsp.CodeAction(
                    title=FIX_ALL_TITLE, kind=FIX_ALL,
                    edit=lsp.WorkspaceEdit(changes={uri: _text_edits(doc, result.text,
                                                                      fixed_all)})))
        return actions

    @server.feature(lsp.TEXT_DOCUMENT_HOVER)
    def hover(ls: JaxlintServer, params: lsp.HoverParams) -> lsp.Hover | None:
        doc = ls.workspace.get_text_document(params.text_document.uri)
        pos = params.position
        for f in ls.result(doc).findings:
            r = _range(doc, f)
            if r.start.line == pos.line and r.start.character <= pos.character <= \
                    r.end.character:
                return lsp.Hover(lsp.MarkupContent(lsp.MarkupKind.Markdown, hover_text(f)),
                                 range=r)
        return None

    return server


def _fix_all(doc: TextDocument, text: str, modules: dict[str, dict[str, object]]
             ) -> str | None:
    """What ``jaxlint --fix`` would write for this document (safe fixes only)."""
    from jaxlint.engine import fix_source

    path = _path(doc)
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
