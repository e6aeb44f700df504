"""Why a line has no finding: what ``jaxlint --explain PATH:LINE`` says where nothing is
reported.

A linter that misses a mistake should say where it lost it, so that its user can tell a
timing jaxlint judged correct from one it could not judge. The answer follows the stages
a file goes through, and stops at the first that explains the silence:

1. the prefilter: the file reads no clock jaxlint knows, so it was never analysed;
2. the module is not JAX code (no jax import, and no JAX value reaches it from the project);
3. a finding exists but is not reported (a ``# noqa``, the rules selected, a file-wide
   ``# flake8: noqa``);
4. a timed region or harness is at the line: what the analysis concluded about its work
   (none seen, and the calls it could not see into; waited for, and by what);
5. no region is at the line: where the file's regions end.

It asks the analysis the same question the rules do (``FlowAnalysis.regions``); it only
words the answer. It is for one file at a time: it runs the analysis again, with every
rule on and ``# noqa`` ignored.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace

import libcst as cst
from libcst.metadata import MetadataWrapper, PositionProvider

from jaxlint.analysis import FlowAnalysis, Region
from jaxlint.analysis.names import (
    ARRAY_ATTRIBUTES,
    ARRAY_METHODS,
    CONTAINER_MUTATORS,
    CONTAINER_READERS,
    HOST_PREFIXES,
    JAX_LIBRARIES,
    TRANSFER_METHODS,
)
from jaxlint.analysis.syntax import walk
from jaxlint.engine import (
    _analysis_limits,
    _follow_callers,
    _one_file,
    _reports,
    charging,
    enabled,
    parse,
)
from jaxlint.noqa import NoqaIndex, file_is_skipped
from jaxlint.positions import Positions
from jaxlint.rules.base import FileContext
from jaxlint.settings import Settings, might_matter
from jaxlint.text_lines import split_lines

# Modules whose functions jaxlint knows what to make of (or that do no JAX work): a call of
# one is no call "jaxlint could not see into".
_KNOWN = ("builtins.", "time.", "timeit.", "math.", "os.", "sys.", "functools.",
          "itertools.", "collections.", "random.", "re.", "pathlib.", "typing.",
          "statistics.", "dataclasses.", "copy.", "operator.", "gc.", "warnings.",
          "contextlib.", "datetime.", "jax.", "jaxlib.", *HOST_PREFIXES, *JAX_LIBRARIES)
NO_WORK = "jaxlint sees no JAX work in it that is still running when the clock is read"
_MAX_CALLS = 6  # calls named for a region; the rest are counted
UNSEEN_HEAD = ("Calls in it that jaxlint could not see into (JAX work it misses would be in "
               "them): ")
FOLLOWED_HEAD = "Calls in it that jaxlint followed and found to leave no JAX work running: "
AFTER_HEAD = ("Calls after that work that jaxlint could not see into (if one of them waits for "
              "it, by a sync or a copy to the host, the timing is right): ")

NO_REGION = "No timed region ends at line"  # (the answer where there is no region at all)
SKIPPED_BY_PREFILTER = (
    "jaxlint did not analyse this file: it reads no clock that jaxlint knows "
    "(time.perf_counter(), time.time(), time.monotonic() and their _ns forms, "
    "timeit.default_timer()), runs no timeit, %time/%timeit or benchmark fixture, and uses "
    "no timer of this project's, or it never names jax or a JAX library.")
NOT_JAX = (
    "jaxlint did not analyse this module: it never imports jax or a JAX library, and no "
    "JAX value reaches it from a call that jaxlint can see in this project, so it is taken "
    "not to be JAX code.")


def reasons(source: str | bytes, path: str, settings: Settings, line: int) -> list[str]:
    """Why ``line`` of ``source`` (a module's text: for a notebook, the module its code
    cells make, with ``settings.shown`` set) has no finding, one sentence a line. Lines are
    the module's: a notebook's caller places them in cells."""
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    if settings.prefilter and not might_matter(data, settings.extras,
                                               project=settings.index is not None):
        return [SKIPPED_BY_PREFILTER]
    carries = getattr(settings.index, "carries_jax", None)
    if settings.skip_non_jax and carries is not None and data.lstrip()[:1] != b"{" and (
            not carries(path, data)):
        return [NOT_JAX]
    module, text, flow = _analysed(source, path, settings)
    noqa = NoqaIndex(text)
    every = replace(settings, select=None, ignore=None, honour_noqa=False, prefilter=False)
    with _one_file(), _analysis_limits(), charging(flow):
        found = [f for f, _ in _reports(module, text, flow, noqa, path, every)
                 if f.line == line]
    out = []
    skipped = settings.honour_noqa and file_is_skipped(noqa.lines)
    for f in found:
        if skipped:
            out.append(f"{f.code} ({f.message}) is not reported: the file has a line that "
                       "skips it whole (`# flake8: noqa`).")
        elif settings.honour_noqa and noqa.suppresses(line, f.code):
            out.append(f"{f.code} ({f.message}) is not reported: the `# noqa` comment on "
                       "this line silences it.")
        elif not enabled(f.code, settings.select, settings.ignore):
            out.append(f"{f.code} ({f.message}) is not reported: the rule is not selected "
                       "for this file (select, ignore or per-file-ignores of the "
                       "configuration, or --select/--ignore).")
    if out:
        return out
    with _one_file():
        return _judged(module, text, flow, line, settings.shown)


def _analysed(source: str | bytes, path: str, settings: Settings
              ) -> tuple[cst.Module, str, FlowAnalysis]:
    """The module, its text and its analysis, run with the call log on."""
    with _one_file():  # (a bug met here is one error line, as a lint's is)
        module = parse(source)
        text = source if isinstance(source, str) else source.decode(module.encoding)
        flow = FlowAnalysis(module, settings.extras, settings.index, settings.module_name,
                            text, path)
        flow.call_log = {}
        with _analysis_limits(), charging(flow):
            flow.run()
            _follow_callers(flow, path, settings)
    return module, text, flow


def doubts(source: str | bytes, path: str, settings: Settings, line: int) -> list[str]:
    """For a region ending at ``line`` whose work is reported as still running: the calls
    after that work that jaxlint could not see into. A wait inside one of them (a host copy
    in another package's logger, a sync in a method of an object of an unknown class) would
    make the timing right: where to look when the finding seems wrong."""
    module, text, flow = _analysed(source, path, settings)
    with _one_file():
        return _doubts(module, text, flow, settings.shown, line)


def _doubts(module: cst.Module, text: str, flow: FlowAnalysis,
            shown: Mapping[tuple[int, int], str] | None, line: int) -> list[str]:
    ctx = _context(module, text, flow, shown)
    line_of = _line_of(ctx)
    out: list[str] = []
    for region in flow.regions():
        if line_of(region.stop) != line or not region.unsynced:
            continue
        work = sorted(n for s in region.unsynced if (n := line_of(s)) is not None)
        if work:
            out += _unseen(flow, work[0] + 1, line, line_of, ctx.code, head=AFTER_HEAD)
    return out


def _context(module: cst.Module, text: str, flow: FlowAnalysis,
             shown: Mapping[tuple[int, int], str] | None) -> FileContext:
    """What the rules place and show code with (``engine._reports``): the same positions,
    and a notebook's magics written as the user wrote them."""
    positions = Positions(module, text, flow.tops, flow.cpython_tree, flow.top_of)
    return FileContext(module, flow, positions, shown)


def _line_of(ctx: FileContext) -> Callable[[object], int | None]:
    """A node's line, None for one the module does not hold (a statement string's)."""
    def line_of(node: object) -> int | None:
        return ctx.line(node) or None if isinstance(node, cst.CSTNode) else None

    return line_of


def _judged(module: cst.Module, text: str, flow: FlowAnalysis, line: int,
            shown: Mapping[tuple[int, int], str] | None) -> list[str]:
    """What the analysis concluded about the regions and harnesses at ``line``."""
    ctx = _context(module, text, flow, shown)
    line_of, code = _line_of(ctx), ctx.code

    out: list[str] = []
    regions = flow.regions()
    ends = sorted({n for r in regions if (n := line_of(r.stop)) is not None})
    for region in regions:
        if line_of(region.stop) != line:
            continue
        starts = sorted(n for s in region.starts if (n := line_of(s)) is not None)
        if not starts:
            continue
        span = f"The timed region from line {starts[0]}"
        earlier = ", read in the loop's earlier round" if starts[-1] > line else ""
        if len(starts) > 1:
            span += f" (or {', '.join(map(str, starts[1:]))}{earlier})"
        elif earlier:
            span += f" ({earlier[2:]})"
        span += f" to line {line}"
        verdict = _verdict(flow, region, line_of, code)
        out.append(span + ": " + verdict + ".")
        out += _unseen(flow, min(starts[0], line), max(starts[-1], line), line_of, code,
                       followed=verdict == NO_WORK)
    for call, use in flow.harnesses.items():
        if line_of(call) != line:
            continue
        if use.unsynced or use.recompiles or use.host_only or use.first_compile is not None:
            out.append(f"The benchmark harness `{code(call)}` leaves work for a finding, but "
                       "its rule does not report it here (it is taken to mean what it "
                       "measures).")
        else:
            parsed = flow.harness_code.get(use.stmt)
            # the JAX work seen in what it times: its statement string's, or its line's
            worked = any(site in flow.why for site in walk(parsed)) if parsed else any(
                line_of(site) == line for site in flow.why if site is not call)
            out.append(f"The benchmark harness `{code(call)}`: " + (
                "each run waits for the JAX work it dispatches before it ends." if worked else
                "jaxlint sees no JAX work in what it runs."))
            timed = walk(parsed) if parsed else [
                site for site in flow.compiling_calls if line_of(site) == line]
            compiling = [n for n in timed if n in flow.compiling_calls]
            if compiling:
                first = _code_in(parsed)(compiling[0]) if parsed else code(compiling[0])
                out.append(f"`{first}` compiles in its first timed run (a jitted function's "
                           "first call); jaxlint reports that only where the figure holds "
                           "that run and the code measures speed (`timeit.timeit`, `%timeit "
                           "-n N`; a benchmark's name, a per-call figure, a warm-up elsewhere "
                           "in the file), not in a single `%time` of a cold run.")
            out += _unseen(flow, line, line, line_of, code)
            if parsed is not None:  # a statement string (``%timeit f(x)``): its own calls
                out += _unseen(flow, 1, _line_count(parsed), _lines_in(parsed),
                               _code_in(parsed), at=lambda n: "in the timed statement: ")
    if out:
        return out + _callers(flow, line, line_of)
    inside = sorted((s, n, r) for r in regions if (n := line_of(r.stop)) is not None
                    for s in (line_of(x) for x in r.starts) if s is not None and s <= line < n)
    if inside:
        s, n, region = inside[-1]
        out = [f"This line is inside the timed region from line {s} to line {n}, whose "
               f"findings are placed at the line that reads the clock (line {n}): "
               + (verdict := _verdict(flow, region, line_of, code)) + "."]
        out += _unseen(flow, min(s, n), max(s, n), line_of, code, followed=verdict == NO_WORK)
        return out + _callers(flow, n, line_of)
    where = (f" Timed regions in this file end at line{'s' if len(ends) > 1 else ''} "
             + ", ".join(map(str, ends[:12])) + (", ..." if len(ends) > 12 else "") + "."
             if ends else " jaxlint found no timed region in this file.")
    return [f"{NO_REGION} {line} and no benchmark harness is there: "
            "jaxlint sees no clock read on it that is subtracted from an earlier one." + where]


def _short(text: str) -> str:
    text = " ".join(text.split())
    return text if len(text) <= 60 else text[:57] + "..."


def _line_count(module: cst.Module) -> int:
    return len(split_lines(module.code)) or 1


def _lines_in(module: cst.Module) -> Callable[[object], int | None]:
    """Line numbers of a harness's statement string, parsed on its own (``--explain`` names
    its calls by text, not by a line of the file)."""
    pos = MetadataWrapper(module, unsafe_skip_copy=True).resolve(PositionProvider)

    def line_of(node: object) -> int | None:
        p = pos.get(node)  # type: ignore[call-overload]
        return p.start.line if p is not None else None

    return line_of


def _code_in(module: cst.Module) -> Callable[[cst.CSTNode], str]:
    return lambda node: _short(module.code_for_node(node))


def _callers(flow: FlowAnalysis, stop_line: int, line_of: Callable[[object], int | None]
             ) -> list[str]:
    """A word on a timing helper of a module that never imports jax (``time_it(fn)``
    beside JAX code): it is judged with what its callers pass (``_follow_callers``)."""
    if flow.imports_jax():
        return []
    helpers = flow.timing_helpers()
    for fn in helpers.values():
        node = fn.node
        if isinstance(node, cst.FunctionDef):
            first, last = line_of(node), line_of(node.body.body[-1]) if node.body.body else None
            if first is not None and last is not None and first <= stop_line <= last + 1:
                return [f"`{node.name.value}` times a call of its parameter, in a module that "
                        "never imports jax: it is judged with what its callers in the project "
                        "pass it (none that jaxlint can see passes JAX work it leaves running, "
                        "or --no-index is on)."]
    return []


def _verdict(flow: FlowAnalysis, region: Region, line_of: Callable[[object], int | None],
             code: Callable[[cst.CSTNode], str]) -> str:
    def lines(sites: Iterable[object]) -> str:
        found = sorted({n for s in sites if (n := line_of(s)) is not None})
        return ", ".join(map(str, found))

    if region.unsynced:
        if region.names_compile_only:
            return ("JAX work is still running when the clock is read, but the region is "
                    "named for the compile alone, which is over when the first call returns")
        if region.names_dispatch:
            return ("JAX work is still running when the clock is read, but its figure is "
                    "named for the dispatch, and a region from the same reading times the wait")
        return (f"JAX work from line {lines(region.unsynced)} is still running when the "
                "clock is read, but a sync in the region waits for nothing of it (JAX103 "
                "speaks for it)" if region.idle_syncs else
                f"JAX work from line {lines(region.unsynced)} is still running when the "
                "clock is read, yet no rule reports it here")
    said = []
    if region.syncs:
        said.append(f"its JAX work is waited for before the clock is read, by the sync at "
                    f"line {lines(region.syncs)}")
    if region.host_synced:
        said.append(f"work from line {lines(region.host_synced)} is waited for by a copy to "
                    "the host, which jaxlint takes to be part of what the region measures")
    if region.compiled:
        said.append(f"a first call at line {lines(region.compiled)} compiles in it, which the "
                    "region is taken to mean (a total, a cold run, or a figure named so)")
    if said:
        return "; ".join(said)
    return NO_WORK


# Methods of Python's own values (a list, a dict, a string, a file, a logger) and of
# arrays: a call of one on a value jaxlint does not know is no call it "could not see into".
_PLAIN_METHODS = frozenset({
    *CONTAINER_MUTATORS, *CONTAINER_READERS, *TRANSFER_METHODS, *ARRAY_ATTRIBUTES,
    *ARRAY_METHODS, "format", "join", "split", "rsplit", "strip", "rstrip", "lstrip",
    "replace", "startswith", "endswith", "lower", "upper", "encode", "keys", "count",
    "index", "sort", "remove", "clear", "write", "flush", "close", "read", "readline",
    "info", "debug", "warning", "error", "exception", "put", "put_nowait", "get_nowait",
    "qsize", "empty", "full", "set", "is_set", "wait", "acquire", "release", "__enter__",
    "__exit__", "total_seconds", "isoformat", "strftime"})


def _unseen(flow: FlowAnalysis, first: int, last: int, line_of: Callable[[object], int | None],
            code: Callable[[cst.CSTNode], str], followed: bool = False,
            at: Callable[[int], str] = lambda n: f"line {n}: ", head: str = UNSEEN_HEAD
            ) -> list[str]:
    """The calls between ``first`` and ``last`` whose callee jaxlint could not see into
    (where JAX work it missed would be); with ``followed``, also those it followed into
    and found to leave no JAX work running."""
    assert flow.call_log is not None
    holds = getattr(flow.index, "holds", None)
    unseen: list[tuple[int, str]] = []
    seen: list[tuple[int, str]] = []
    for node, (kind, name) in flow.call_log.items():
        n = line_of(node)
        if n is None or not first <= n <= last or node in flow.why:
            continue
        assert isinstance(node, cst.CSTNode)
        text = code(node)
        if kind == "unknown":
            unseen.append((n, f"`{text}` ({at(n)}jaxlint does not know what it calls)"))
        elif kind == "object" and name not in _PLAIN_METHODS:
            unseen.append((n, f"`{text}` ({at(n)}a method of an object whose class "
                              "jaxlint does not know)"))
        elif kind == "inherited" and name not in _PLAIN_METHODS:
            unseen.append((n, f"`{text}` ({at(n)}a method the object's class inherits from "
                              "a class jaxlint does not know)"))
        elif kind in ("ref", "LibObject") and "." in name and not (
                name + ".").startswith(_KNOWN):
            parts = name.split(".")
            if holds is not None and any(holds(".".join(parts[:k]))
                                         for k in range(len(parts) - 1, 0, -1)):
                if followed:  # summarised from the project's module that defines it
                    seen.append((n, f"`{text}` ({at(n)}`{name}`, of this project)"))
            else:
                unseen.append((n, f"`{text}` ({at(n)}`{name}` is outside this project, "
                                  "and jaxlint reads only the project's own modules)"))
        elif followed and kind in ("Func", "Instance", "Klass"):
            seen.append((n, f"`{text}` ({at(n).rstrip(': ')})"))
    out = []
    for found, heading in ((unseen, head), (seen, FOLLOWED_HEAD)):
        if found:
            found.sort()
            named = [t for _, t in found[:_MAX_CALLS]]
            more = len(found) - len(named)
            out.append(heading + "; ".join(named) + (f"; and {more} more" if more else "") + ".")
    return out
