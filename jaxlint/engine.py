"""Parse once, analyse once, let every enabled rule report, and apply fixes in one pass."""

from __future__ import annotations

import ast
import os
import re
import warnings
import weakref
from collections import Counter, OrderedDict
from collections.abc import Callable, Collection, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.flow import FlowAnalysis, TooComplex
from jaxlint.analysis.names import NO_EXTRAS
from jaxlint.analysis.plans import FixPlan
from jaxlint.analysis.values import Value
from jaxlint.errors import SourceError, check_nesting, encoding_problem
from jaxlint.finding import Finding
from jaxlint.noqa import NoqaIndex, file_is_skipped
from jaxlint.positions import Positions
from jaxlint.rules import RULES, FileContext
from jaxlint.settings import Settings, might_matter

if TYPE_CHECKING:
    from jaxlint.chunks import ChunkCache
    from jaxlint.fixer import Prepared

Source = str | bytes

MAX_FIX_ROUNDS = 4
TOO_DEEP_TO_ANALYSE = "too deeply nested to analyse"
TOO_COMPLEX = "too complex to analyse"

__all__ = ["FixResult", "OneFix", "Settings", "SourceError", "fix_each", "fix_source",
           "lint_source", "might_matter"]


@dataclass
class FixResult:
    """``fixed``: findings the fixes removed (``fixed_codes``: how many of each code);
    ``held_back``: unsafe fixes not applied."""

    source: Source
    fixed: int = 0
    remaining: list[Finding] = field(default_factory=list)
    held_back: int = 0
    fixed_codes: dict[str, int] = field(default_factory=dict)


def enabled(code: str, select: Collection[str] | None, ignore: Collection[str] | None) -> bool:
    """A code is on when some selector is its prefix and no ignore is (flake8's and ruff's rule)."""
    if select and not code.startswith(tuple(select)):
        return False
    return not (ignore and code.startswith(tuple(ignore)))


def parse(source: Source, chunks: ChunkCache | None = None) -> cst.Module:
    """libcst's tree of ``source``; with ``chunks`` (text only), made of the top-level
    statements' trees kept from earlier versions of the text where they did not change."""
    check_nesting(source)  # libcst's native parser crashes on very deep nesting
    try:
        if chunks is not None and isinstance(source, str):
            return chunks.parse(source)
        return cst.parse_module(source)
    except cst.ParserSyntaxError as exc:
        # Python's own message and position read better than the parser's; use them if any.
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarnings about the user's code
                compile(source, "<source>", "exec", ast.PyCF_ONLY_AST, dont_inherit=True)
        except SyntaxError as py:
            raise SourceError(f"cannot parse: {py.msg}", py.lineno or 1,
                              max((py.offset or 1) - 1, 0)) from None
        except (ValueError, UnicodeDecodeError, RecursionError, MemoryError):
            pass
        raise SourceError(f"cannot parse: {exc.message}", exc.raw_line, exc.raw_column) from None
    except (UnicodeError, LookupError) as exc:  # a codec that fails (punycode) or is unknown
        raise SourceError(f"cannot decode: {_one_line(str(exc))}") from None
    except SyntaxError as exc:  # from the encoding declaration (tokenize.detect_encoding)
        raise SourceError(f"cannot decode: {encoding_problem(source, exc)}") from None


def _analyse(
    source: Source, path: str, settings: Settings
) -> tuple[cst.Module | None, list[tuple[Finding, FixPlan | None]]]:
    if settings.prefilter and not might_matter(source, settings.extras,
                                               project=settings.index is not None):
        return None, []
    carries = getattr(settings.index, "carries_jax", None)
    if settings.skip_non_jax and carries is not None:
        # A module that is no JAX code and that no JAX value can reach (``carries_jax``);
        # not a notebook's JSON, whose code is in strings.
        data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
        if data.lstrip()[:1] != b"{" and not carries(path, data):
            return None, []
    module = parse(source, settings.chunks)
    # The text as parsed (libcst round-trips it exactly); decoding is far cheaper than
    # generating it back from the tree with ``module.code``.
    text = source if isinstance(source, str) else source.decode(module.encoding)
    noqa = NoqaIndex(text)
    if settings.honour_noqa and file_is_skipped(noqa.lines):
        return module, []
    with _analysis_limits():
        return module, _report(module, text, noqa, path, settings)


def _one_line(text: str) -> str:
    return " ".join(text.split())


@contextmanager
def _one_file() -> Iterator[None]:
    """Whatever goes wrong with one file is that file's error (a SourceError), never the
    end of a run over many: a codec that raises something unexpected, a bug in jaxlint met
    by one file. KeyboardInterrupt and SystemExit are not one file's problem and pass."""
    try:
        yield
    except SourceError:
        raise
    except RecursionError:
        raise SourceError(TOO_DEEP_TO_ANALYSE, None) from None
    except MemoryError:
        raise SourceError(f"{TOO_COMPLEX} (out of memory)", None) from None
    except Exception as exc:  # noqa: BLE001 - any other failure is this file's error line
        raise SourceError(
            f"internal error ({type(exc).__name__}: {_one_line(str(exc))}); "
            "please report it", None) from None


@contextmanager
def _analysis_limits() -> Iterator[None]:
    """Whatever stops the analysis of one file becomes that file's one error line, whichever
    front end asked (CLI, flake8, the API): source nested deeper than the interpretation
    recurses (a few hundred levels), a file beyond the analysis budget, memory running out."""
    try:
        yield
    except RecursionError:
        raise SourceError(TOO_DEEP_TO_ANALYSE, None) from None
    except TooComplex as exc:
        raise SourceError(f"{TOO_COMPLEX} ({exc})", None) from None
    except MemoryError:
        raise SourceError(f"{TOO_COMPLEX} (out of memory)", None) from None


def calls_in(source: bytes, wanted: set[str], index: object, module_name: str | None
             ) -> dict[str, list[list[tuple[str | None, str, Value]]]]:
    """The arguments of every call of the qualified names ``wanted`` in ``source`` (a
    caller of a timing helper), as its analysis with the project index sees them."""
    with _one_file():
        module = parse(source)
        text = source.decode(module.encoding)
        with _analysis_limits():
            extras = getattr(index, "extras", NO_EXTRAS)
            flow = FlowAnalysis(module, extras, index, module_name,  # type: ignore[arg-type]
                                text)
            flow.capture = {q: [] for q in wanted}
            try:
                flow.run()
            finally:
                _charge(PARSE_STEPS_PER_BYTE * len(source) + flow.steps)
            return {q: calls for q, calls in flow.capture.items() if calls}


def _follow_callers(flow: FlowAnalysis, path: str, settings: Settings) -> None:
    """A timing helper module that never names jax (its functions time a call of a
    parameter, or are timing decorators) is judged with what its callers in the project
    pass. A module that names jax is judged on its own: its callers are not searched (the
    cost of a large package's training loops, whose progress callbacks are parameters,
    would be paid on every run; and, measured on the corpus, a JAX module's decorators and
    helpers judged by their callers found one more mistake and flagged three correct
    timings, whose decorated functions end in host copies the index cannot follow)."""
    calls_of = getattr(settings.index, "calls_of", None)
    if calls_of is None or flow.imports_jax() or not os.path.isfile(path):
        return
    helpers = flow.timing_helpers()
    if not helpers:
        return
    by_name = calls_of(path, sorted(helpers))
    if by_name:
        flow.follow_callers(helpers, by_name)


def _report(module: cst.Module, text: str, noqa: NoqaIndex, path: str, settings: Settings
            ) -> list[tuple[Finding, FixPlan | None]]:
    flow = FlowAnalysis(module, settings.extras, settings.index, settings.module_name, text,
                        path, settings.chunks.tree_of(text) if settings.chunks else None)
    with charging(flow):
        flow.run()
        _follow_callers(flow, path, settings)
        return _reports(module, text, flow, noqa, path, settings)


def _reports(module: cst.Module, text: str, flow: FlowAnalysis, noqa: NoqaIndex, path: str,
             settings: Settings) -> list[tuple[Finding, FixPlan | None]]:
    select, ignore, honour_noqa = settings.select, settings.ignore, settings.honour_noqa
    # placed when asked, the statements where timing happened first
    positions = Positions(module, text, flow.tops, flow.cpython_tree, flow.top_of)
    ctx = FileContext(module, flow, positions, settings.shown)
    found: list[tuple[str, str, int, int, tuple[int, int] | None, FixPlan | None,
                      str | None]] = []
    seen: set[tuple[str, int, int]] = set()
    for code, rule in RULES.items():
        if not enabled(code, select, ignore):
            continue
        for report in rule().check(ctx):
            if report.node not in positions:
                # A node of a statement string a harness runs (``timeit.timeit("y = f(x)")``
                # or a notebook's ``%time``) inside a timed region: not a place in the file.
                continue
            line, col = positions[report.node]
            if (code, line, col) in seen or (honour_noqa and noqa.suppresses(line, code)):
                continue
            seen.add((code, line, col))
            lines = sorted(positions[n][0] for n in report.region if n in positions)
            region = (lines[0], lines[-1]) if lines else None
            found.append((code, report.message, line, col, region, report.plan,
                          report.explanation))
    # A region whose sync cannot wait has one finding: JAX107 says why its work is left
    # running, in place of JAX101 (when both are on).
    ineffective = {f[4] for f in found if f[0] == "JAX107"}
    if ineffective:
        found = [f for f in found if not (f[0] == "JAX101" and f[4] in ineffective)]
    # The names the fixes read, each asked whether it is bound on every path to its fix
    # (one walk of the module for all of them, tracking those names only).
    uses = {id(plan): plan_names(plan) for *_, first, _ in found if first is not None
            for plan in (first, *first.fallbacks)}
    bindings = None
    if uses:
        from jaxlint.bindings import Bindings

        asked = [q for use in uses.values() if use is not None for q in use]
        bindings = Bindings(module, walrus=":=" in text, asked=asked)
    out: list[tuple[Finding, FixPlan | None]] = []
    for code, message, line, col, region, plan, explanation in found:
        if plan is not None:
            assert bindings is not None
            runnable = None
            for candidate in (plan, *plan.fallbacks):
                use = uses[id(candidate)]
                if use is not None and all(bindings.bound(node, names, at_end)
                                           for node, at_end, names in use):
                    runnable = candidate
                    break
            plan = runnable  # None: the finding stays, without a fix that could not run
        finding = Finding(code, message, line, col, plan is not None, region, path,
                          unsafe=plan is not None and plan.unsafe, explanation=explanation)
        out.append((finding, plan))
    out.sort(key=lambda fp: fp[0].sort_key())
    return out


def plan_names(plan: FixPlan) -> list[tuple[cst.CSTNode, bool, set[str]]] | None:
    """Where the plan's inserted code runs (a statement, or the end of a block) and the
    names it reads there, ``jax`` aside (the fixer imports it where it is missing); None
    when that cannot be told. Wraps and replacements only re-read what the code read."""
    from jaxlint.analysis.plans import InsertBind, InsertSync, ReplaceExpr
    from jaxlint.bindings import free_names

    out = []
    for edit in plan.edits:
        if isinstance(edit, ReplaceExpr) and edit.reads_at is not None:
            found = free_names(edit.code)
            if found is None:
                return None
            out.append((edit.reads_at, False, found - {"jax"}))
            continue
        if not isinstance(edit, InsertSync):
            continue
        names: set[str] = set()
        for code in (*edit.exprs, *((edit.code,) if isinstance(edit, InsertBind) else ())):
            found = free_names(code)
            if found is None:
                return None
            names |= found
        if isinstance(edit, InsertBind):
            names.discard(edit.name)  # bound by the fix itself, right there
        names.discard("jax")
        out.append((edit.before, edit.at_end, names))
    return out


def lint_source(
    source: Source,
    path: str = "<string>",
    select: Collection[str] | None = None,
    ignore: Collection[str] | None = None,
    honour_noqa: bool = True,
    settings: Settings | None = None,
) -> list[Finding]:
    """Every finding in ``source`` (text or bytes), sorted by position.

    ``honour_noqa=False`` keeps findings on ``# noqa`` lines (flake8 filters them itself).
    ``settings`` (from the CLI: configuration, project index) replaces the other options.
    """
    if settings is None:
        settings = Settings(select, ignore, honour_noqa=honour_noqa)
    with _one_file():
        return [f for f, _ in _analyse(source, path, settings)[1]]


# A project module's analysis (its tree and FlowAnalysis, some 80 bytes of memory for each
# byte of source) is what Exports works out new names from. Only the analyses of the modules
# most recently asked for a new name are kept, up to LIVE_SOURCE bytes of their source (at
# least one): a process that kept every module it met held them all until the run ended.
# A module whose analysis was dropped keeps its answers, and is analysed again from the
# same source if asked for another name.
#
# A file that asks, in turn, for names of more modules than that keeps making their
# analyses again (four modules of 96 kB and 160 calls: 183 s). So once one analysis had to
# be made again, twice as much is kept until that file is done (some 16 MB more), and each
# analysis made again, with the work of every name worked out, is charged to the step budget
# of the file being linted (see ``charging``): a file can make the index work without end no
# more than it can make its own analysis do so.
LIVE_SOURCE = 200_000
AGAIN_SOURCE_FACTOR = 2  # how much more is kept once an analysis had to be made again
PARSE_STEPS_PER_BYTE = 2  # parsing and running a module, in analysis steps (~1 s / 100 kB)
_live: OrderedDict[int, weakref.ref[Exports]] = OrderedDict()  # by id(), the last used last
_again = [False]  # whether some analysis was made again in this process
_charged: list[FlowAnalysis] = []  # the analysis of the file being linted, innermost last


@contextmanager
def charging(flow: FlowAnalysis) -> Iterator[None]:
    """While ``flow`` (a linted file's analysis) runs and is reported, the project index's
    work on its behalf counts against its step budget."""
    _charged.append(flow)
    try:
        yield
    finally:
        _charged.pop()
        if not _charged and _again[0]:
            # the next file starts with the usual room: what was kept for this one goes
            _again[0] = False
            _trim()


def _charge(steps: int) -> None:
    """Count ``steps`` of index work against the linted file's budget; past it, the file
    is too complex to analyse (raised here, or at its analysis' next step if something on
    the way takes the exception for the module's own)."""
    if not _charged or steps <= 0:
        return
    flow = _charged[-1]
    flow.steps += steps
    if flow.steps > flow.max_steps:
        raise TooComplex(f"more than {flow.max_steps:,} analysis steps, with the project "
                         "modules it uses")


def _keep(exports: Exports) -> None:
    """``exports`` was just used: its analysis is the last one dropped."""
    _live.pop(id(exports), None)
    _live[id(exports)] = exports.ref
    _trim()


def _trim() -> None:
    """Drop the analyses used longest ago past the room there is now."""
    kept = [e for e in (r() for r in _live.values()) if e is not None]
    total = sum(e.size for e in kept)
    limit = LIVE_SOURCE * (AGAIN_SOURCE_FACTOR if _again[0] else 1)
    for old in kept[:-1]:
        if total <= limit:
            break
        total -= old.size
        old.drop()


class Exports(Mapping[str, Value]):
    """What a module offers other modules of the project, name by name, each worked out
    (``FlowAnalysis.export``) the first time it is asked for. A name asked for while its
    module is already working one out (an import cycle) is not known. ``analyse`` makes
    the module's analysis (again, once it was dropped: see LIVE_SOURCE) from ``size``
    bytes of source."""

    def __init__(self, analyse: Callable[[], FlowAnalysis], size: int = 0) -> None:
        self._analyse = analyse
        self.size = size
        self._flow: FlowAnalysis | None = analyse()
        self._names = tuple(self._flow.globals)
        self._known = frozenset(self._names)
        self._done: dict[str, Value] = {}
        self._busy = False
        key = id(self)
        self.ref = weakref.ref(self, lambda _: _live.pop(key, None))  # gone with the cache
        _keep(self)

    def drop(self) -> None:
        """Let the module's analysis go; its answers so far stay."""
        self._flow = None
        _live.pop(id(self), None)

    def get(self, name: str, default: Value = None) -> Value:  # type: ignore[override]
        if name in self._done:
            value = self._done[name]
        elif self._busy or name.partition(".")[0] not in self._known:
            return default  # (``Logger.print_stats``: a method of an exported class)
        else:
            self._busy = True
            cost = 0
            try:
                with _one_file(), _analysis_limits():
                    flow = self._flow
                    if flow is None:  # dropped: made again, at the linted file's expense
                        _again[0] = True
                        flow = self._flow = self._analyse()
                        cost += PARSE_STEPS_PER_BYTE * self.size + flow.steps
                    _keep(self)
                    before = flow.steps
                    try:
                        value = flow.export(name)
                    finally:
                        cost += flow.steps - before
            except SourceError:
                value = None  # reported when the module itself is linted
            finally:
                self._busy = False
            self._done[name] = value
            _charge(cost)
        return default if value is None else value

    def __getitem__(self, name: str) -> Value:
        value = self.get(name)
        if value is None:
            raise KeyError(name)
        return value

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.get(name) is not None

    def __iter__(self) -> Iterator[str]:
        return (n for n in self._names if self.get(n) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _module_analysis(source: Source, settings: Settings) -> FlowAnalysis:
    module = parse(source)
    # the text as in _analyse: without it the analysis would generate it from the tree
    text = source if isinstance(source, str) else source.decode(module.encoding)
    with _analysis_limits():
        flow = FlowAnalysis(module, settings.extras, settings.index, settings.module_name, text)
        return flow.run(functions=False, imported=True)


def exports_of(source: Source, settings: Settings) -> Exports:
    """What this module offers other modules of the project (see FlowAnalysis.export),
    worked out for any module asked, also one that never names jax: a NumPy helper's host
    copy of what it is given is the caller's wait (README, "A module's functions tell what
    they do to what they are given")."""
    data = source if isinstance(source, bytes) else source.encode("utf-8", "surrogatepass")
    with _one_file():
        return Exports(lambda: _module_analysis(source, settings), len(data))


def _parses_like(original: Source, fixed: Source, path: str) -> bool:
    try:
        cst.parse_module(fixed)
    except Exception:
        return False
    # compile() warns (SyntaxWarning) about the user's code: not ours to print.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            compile(original, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return True  # newer syntax than this Python: libcst's parse is the check we have
        try:
            compile(fixed, path, "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            return False
    return True


def fix_source(
    source: Source,
    path: str = "<string>",
    select: Collection[str] | None = None,
    ignore: Collection[str] | None = None,
    unsafe_fixes: bool = False,
    settings: Settings | None = None,
) -> FixResult:
    """Apply every fix; return the new source (same type as given) and what is left.

    Fixing repeats until nothing fixable remains (a fix can reveal another), so the result
    is a fixed point of a second run. A result that would not parse is never returned.
    Unsafe fixes (they move or add user code) apply only with ``unsafe_fixes``.
    """
    if settings is None:
        settings = Settings(select, ignore)
    with _one_file():
        return _fix(source, path, unsafe_fixes, settings)


def _keep_last_cr(source: Source, candidate: Source) -> Source:
    """libcst drops the line ending of the last line of a file whose lines end in a bare CR
    (old Mac style); the fixed file keeps it."""
    if isinstance(source, bytes) and isinstance(candidate, bytes):
        if source.endswith(b"\r") and not candidate.endswith((b"\r", b"\n")):
            return candidate + b"\r"
    elif isinstance(source, str) and isinstance(candidate, str):
        if source.endswith("\r") and not candidate.endswith(("\r", "\n")):
            return candidate + "\r"
    return candidate


def _finding_key(finding: Finding) -> tuple[str, str]:
    """What identifies a finding across a fix that moves lines: its code and message, less
    the line numbers some messages quote."""
    return finding.code, _LINE_IN_MESSAGE.sub("line", finding.message)


_LINE_IN_MESSAGE = re.compile(r"line \d+")

Analysed = tuple[cst.Module | None, list[tuple[Finding, FixPlan | None]]]


def _fix(source: Source, path: str, unsafe_fixes: bool, settings: Settings) -> FixResult:
    current = source
    module, results = _analyse(current, path, settings)
    initial = len(results)
    initial_codes = Counter(f.code for f, _ in results)
    refused: set[tuple[str, str]] = set()  # findings whose fix did not remove them

    def attempt(chosen: list[tuple[Finding, FixPlan]]) -> tuple[Source, Analysed] | None:
        """The source with ``chosen`` applied and its analysis, if it parses and every
        chosen finding is gone (the fixer re-lints its own output); else None."""
        from jaxlint.fixer import apply_plans

        assert module is not None
        text = current if isinstance(current, str) else current.decode(module.encoding)
        with _analysis_limits():  # libcst's transformer, on the same source
            fixed_module = apply_plans(module, [plan for _, plan in chosen],
                                       settings.line_length, text)
        candidate: Source = (
            fixed_module.bytes if isinstance(source, bytes) else fixed_module.code
        )
        candidate = _keep_last_cr(source, candidate)
        if candidate == current or not _parses_like(source, candidate, path):
            return None
        after = _analyse(candidate, path, settings)
        before = Counter(_finding_key(f) for f, _ in results)
        now = Counter(_finding_key(f) for f, _ in after[1])
        for key, n in Counter(_finding_key(f) for f, _ in chosen).items():
            if now[key] > before[key] - n:
                return None
        return candidate, after

    # Each round either removes what it fixes or is undone; a round that fails is retried
    # one fix at a time, so one fix that does not converge holds back no other.
    for _ in range(MAX_FIX_ROUNDS + initial):
        chosen = [(f, plan) for f, plan in results
                  if plan is not None and (unsafe_fixes or not plan.unsafe)
                  and _finding_key(f) not in refused]
        if module is None or not chosen:
            break
        # Imported in attempt(): the fixer needs libcst.codemod, which alone costs more to
        # import (0.6 s) than most files cost to check.
        done = attempt(chosen)
        if done is None and len(chosen) > 1:
            for one in chosen:
                done = attempt([one])
                if done is not None:
                    break
                refused.add(_finding_key(one[0]))
        if done is None:
            refused.update(_finding_key(f) for f, _ in chosen)
            continue
        current, (module, results) = done
    remaining = [replace(f, fixable=False, unsafe=False) if _finding_key(f) in refused else f
                 for f, _ in results]
    held = sum(1 for f in remaining if f.fixable and f.unsafe) if not unsafe_fixes else 0
    if current is source:
        return FixResult(source, 0, remaining, held)
    fixed_codes = initial_codes - Counter(f.code for f in remaining)
    return FixResult(current, max(initial - len(remaining), 0), remaining, held,
                     dict(sorted(fixed_codes.items())))


def with_path(findings: list[Finding], path: str) -> list[Finding]:
    return [replace(f, path=path) for f in findings]


@dataclass(frozen=True)
class OneFix:
    """One finding's own fix: the whole ``source`` it would produce, alone, and the plan
    (``plan.synced_exprs`` names what it waits for), for front ends that offer fixes one at
    a time (the editor server's code actions)."""

    finding: Finding
    plan: FixPlan
    source: Source


class FixPreviews:
    """Every finding of ``source`` and, asked for one, the source with only its fix applied:
    made when first asked and kept. An editor asks for the fixes of the lines under the
    cursor; making each finding's at every lint rewrote and parsed the module once per
    finding (850 ms after an edit of a training script with 8 findings, 300 of them the
    analysis). A fix whose result would not parse, or that changes nothing, is None, as
    ``fix_source`` leaves it out."""

    def __init__(self, source: Source, path: str = "<string>",
                 settings: Settings | None = None) -> None:
        self.source, self.path = source, path
        self.settings = settings or Settings()
        self.module, results = _analyse(source, path, self.settings)
        self.findings = [f for f, _ in results]
        self.plans = [p if self.module is not None else None for _, p in results]
        self._fixed: dict[int, Source | None] = {}
        self._prepared: Prepared | None = None

    def fixed(self, i: int) -> Source | None:
        """The source with the fix of ``findings[i]`` alone applied, or None."""
        if i in self._fixed:
            return self._fixed[i]
        plan, module = self.plans[i], self.module
        out: Source | None = None
        if plan is not None and module is not None:
            from jaxlint.fixer import apply_plans, prepare

            source = self.source
            text = source if isinstance(source, str) else source.decode(module.encoding)
            with _analysis_limits():
                if self._prepared is None:
                    self._prepared = prepare(module, text)
                fixed = apply_plans(module, [plan], self.settings.line_length, text,
                                    self._prepared)
            candidate: Source = fixed.bytes if isinstance(source, bytes) else fixed.code
            if candidate != source and _parses_like(source, candidate, self.path):
                out = candidate
        self._fixed[i] = out
        return out


def fix_each(source: Source, path: str = "<string>", settings: Settings | None = None
             ) -> tuple[list[Finding], list[OneFix]]:
    """Every finding in ``source`` and, for each fixable one, the source with only its fix
    applied (safe and unsafe alike; ``OneFix.finding.unsafe`` says which). A fix whose
    result would not parse is left out, as ``fix_source`` leaves it out."""
    previews = FixPreviews(source, path, settings)
    out = []
    for i, (finding, plan) in enumerate(zip(previews.findings, previews.plans)):
        fixed = previews.fixed(i) if plan is not None else None
        if plan is not None and fixed is not None:
            out.append(OneFix(finding, plan, fixed))
    return previews.findings, out
