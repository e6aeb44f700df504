"""What the engine needs besides the source, and the cheap test run before parsing anything.

This module imports nothing heavy, so the command line can reject files that cannot hold a
finding without importing libcst at all.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import Any

from jaxlint.analysis.names import (
    HARNESS_TIMERS,
    HARNESSES,
    JAX_LIBRARIES,
    LIBRARY_TIMERS,
    NO_EXTRAS,
    TIMERS,
    Extras,
)


@dataclass(frozen=True)
class Settings:
    """Which rules, the project's own names, what other modules of the project export
    (a mapping of qualified name to abstract value), and this file's module name."""

    select: Collection[str] | None = None
    ignore: Collection[str] | None = None
    extras: Extras = NO_EXTRAS
    index: Mapping[str, Any] | None = None
    module_name: str | None = None
    honour_noqa: bool = True
    prefilter: bool = True  # off only to prove the prefilter never hides a finding
    # With the project index: a module that is no JAX code and that no JAX value can reach
    # is not analysed (``ProjectIndex.carries_jax``); off only to prove that this hides
    # no finding.
    skip_non_jax: bool = True
    # How the user wrote the code that starts at these places (line, column) of a module
    # made from something else: a notebook's magics, which the module holds as calls.
    shown: Mapping[tuple[int, int], str] | None = None
    # The project's line length (ruff's or black's): a fix's new line longer than this is
    # written over several lines, as ruff format would.
    line_length: int = 88
    # A ``jaxlint.chunks.ChunkCache``: the text is parsed again only in the top-level
    # statements that changed since it was last parsed (the editor server's, one per
    # document); None: the whole text is parsed.
    chunks: Any = None


def _compile() -> tuple[tuple[re.Pattern[bytes], ...], tuple[re.Pattern[bytes], ...],
                        re.Pattern[bytes]]:
    # Whitespace as it can appear in a .py file or inside a notebook's JSON strings
    # (``\t``, ``\n`` escapes), including line continuations.
    ws = rb"(?:[ \t\r\n\\]|\\[tnr])"
    # Each pattern starts with a literal, which re finds fast; one alternation of them is
    # four times slower (measured on the corpus).
    imports = (
        re.compile(rb"import" + ws + rb"+(?:[\w.]+(?:" + ws + rb"+as" + ws + rb"+\w+)?"
                   + ws + rb"*," + ws + rb"*)*(?:time|timeit|datetime)\b"),  # import os, time as t
        re.compile(rb"from" + ws + rb"+(?:time|timeit|datetime)\b"),  # from time import ...
    )
    time_function = (
        re.compile(rb"\." + ws + rb"*time\b"),  # time.time, _time.time
        re.compile(rb"from" + ws + rb"+time" + ws + rb"+import"),  # from time import time
    )
    # pytest-benchmark's fixture is a parameter named ``benchmark``: ``def test(benchmark)``,
    # ``(self, benchmark: BenchmarkFixture)``; not ``run_benchmark`` or ``utils.benchmark(``.
    benchmark = re.compile(rb"[(,]" + ws + rb"*benchmark" + ws + rb"*[,):=]")
    return imports, time_function, benchmark


_IMPORTS_CLOCK, _TIME_FUNCTION, _BENCHMARK = _compile()
# ``with utils.Timer("step"):``, ``with timed("eval"):``, ``with profile.Profile("setup"):``:
# a timer (or a profiling block that times) another module of the project defines (followed
# through the project index), so this file need not import a clock.
_TIMER_NAME = (rb"(?:[Tt]im(?:er|ed|ing|eit)|[Cc]lock|[Ss]topwatch|[Cc]hrono|[Pp]rofil)"
               rb"\w*\s*\(")
_WITH_TIMER = re.compile(rb"with\s+(?:\w+\.)*\w*?" + _TIMER_NAME)
# a call of another module's clock helper (``clock.now()``, ``timing.elapsed(t0)``)
# (Each pattern below starts with a literal or a set of literal words where it can: Python's
# ``re`` then skips ahead to them, and does not try the whole pattern at every byte. Written
# ``\w\.(?:now|...)``, this one took a third of the prefilter's time on notebooks with outputs.)
_HELPER_CLOCK = re.compile(rb"\.(?<=\w\.)(?:now|elapsed|tic|toc|lap|since)\s*\(")
# an object of another module's start/stop timer class (``timer = Timer()`` ...
# ``timer.stop(label)``: ``FlowAnalysis._start_stop``)
_MADE_TIMER = re.compile(rb"=\s*(?:\w+\.)*\w*?" + _TIMER_NAME)
_STOP_CALL = re.compile(rb"\.(?<=\w\.)(?:stop|end|finish)\s*\(")
# an asv benchmark method (``def time_solve(self, n):``)
_ASV_METHOD = re.compile(rb"^[ \t]+def time_\w*\(\s*self\b", re.MULTILINE)
# ``%timeit`` / ``%%time`` as a notebook exported to a script calls them
_EXPORTED_MAGIC = re.compile(rb"run_(?:line|cell)_magic\(\s*[\"']time(?:it)?[\"']")
# ``timeit stmt`` / ``time stmt`` at the start of a notebook's JSON source string (a one-line
# cell is one string), after any blank lines and indentation
_AUTOMAGIC = re.compile(rb'"(?:[ \t]|\\[nrt])*time(?:it)?(?:[ \t]|\\t)')
# Names a timer read must spell out, whatever the import style (``time.time`` and
# ``from time import time`` are matched by _TIME_FUNCTION).
_CLOCK_NAMES = (b"perf_counter", b"monotonic", b"process_time", b"thread_time", b"time_ns",
                b"default_timer", b"timeit", b"now(", b"utcnow", b"today(")
# ``time.perf_counter()`` spelt whole: a clock read even where nothing imports ``time``
_UNIMPORTED_CLOCK = re.compile(
    rb"(?<![\w.])time\.(?:perf_counter|monotonic|process_time|time)(?:_ns)?\s*\(")
# Modules of the library timers used in ``with`` (``names.LIBRARY_TIMERS``).
_LIBRARY_TIMER_MODULES = tuple(sorted({n.split(".")[-2].encode() for n in LIBRARY_TIMERS}))
# A file doing JAX work names jax or a library built on it (or the project's own names).
_JAX_NAMES = (b"jax", b"flax", b"optax", b"equinox", b"haiku", b"chex", b"diffrax")


# What makes a module JAX code when its bytes hold it: jax itself spelt anywhere (a library
# switched to JAX is switched by the literal "jax"), or an import of a library the analysis
# takes for JAX (``names.JAX_LIBRARIES``; some, as numpyro, never spell "jax"; names as
# short as ``ott`` are matched only as what an import statement names).
_JAX_LIBRARY_IMPORT = re.compile(
    rb"^[ \t]*(?:import|from)[ \t]+(?:" + b"|".join(sorted(
        {re.escape(lib.split(".", 1)[0].encode()) for lib in JAX_LIBRARIES})) + rb")\b",
    re.MULTILINE)


def names_jax(source: str | bytes, extras: Extras = NO_EXTRAS) -> bool:
    """Whether ``source``'s bytes spell jax, import a JAX library, or spell one of the
    project's own work or sync names (``[tool.jaxlint]``): what a module needs to be JAX
    code on its own. Never false for such a module; true for some that are not (a name in
    a comment)."""
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    return _spells_jax(data, extras) or _JAX_LIBRARY_IMPORT.search(data) is not None


def _spells_jax(data: bytes, extras: Extras) -> bool:
    """Whether the bytes spell jax, a JAX library of ``_JAX_NAMES`` or an own name."""
    own = [n.rsplit(".", 1)[-1].encode() for n in (*extras.work, *extras.syncs)]
    return any(n in data for n in (*_JAX_NAMES, *own))


# The clock functions' and harnesses' own names (``perf_counter``, ``time``, ``now``,
# ``timeit``), and the methods and builtins that turn a reading into text, which no region
# can subtract
_CLOCK_FUNCTIONS = frozenset(q.rsplit(".", 1)[1] for q in (*TIMERS, *HARNESSES, *HARNESS_TIMERS))
CLOCK_FUNCTIONS = _CLOCK_FUNCTIONS  # (what ``project`` asks of a module's functions)
_CLOCK_MODULES = frozenset(q.split(".", 1)[0] for q in (*TIMERS, *HARNESSES, *HARNESS_TIMERS))
# ``t0 = time.perf_counter()``, ``- time.time()``, ``datetime.now() -``: a reading kept or
# subtracted, which needs no parse to tell
_READING = (rb"(?:\b(?:perf_counter|monotonic|process_time|thread_time)(?:_ns)?|"
            rb"\btime\.time(?:_ns)?|\bdefault_timer|\.(?:utc)?now)\(\s*\)")
_READING_AT = re.compile(_READING)
_READING_WORD = re.compile(rb"perf_counter|monotonic|process_time|thread_time|time\.time|"
                           rb"default_timer|\.now|\.utcnow")  # (where a reading can start)
_SUBTRACTED = re.compile(rb"\s*-")
_DOTTED_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.")
_SPACE_BYTES = frozenset(b" \t\n\r\f\v")


def _plain_reading(data: bytes) -> bool:
    """Whether the bytes bind or subtract a clock reading: a reading (``_READING``) after
    ``=`` or ``-`` and a dotted name (``= time.perf_counter()``, ``- t.time.time()``), or
    followed by ``-``. The same answer as the pattern ``[=-]\\s*[\\w.]*?R|R\\s*-`` of a
    reading ``R``, found from where a reading can start rather than at every byte."""
    found = _READING_WORD.search(data)
    while found is not None:
        start = found.start()
        reading = _READING_AT.match(data, start)
        if reading is not None:
            if _SUBTRACTED.match(data, reading.end()) is not None:
                return True
            i = start
            while i and data[i - 1] in _DOTTED_BYTES:
                i -= 1
            while i and data[i - 1] in _SPACE_BYTES:
                i -= 1
            if i and data[i - 1] in b"=-":
                return True
        found = _READING_WORD.search(data, start + 1)
    return False


_AS_TEXT_METHODS = frozenset({"strftime", "isoformat", "ctime"})
_AS_TEXT_CALLS = frozenset({"str", "repr"})


_HARNESS_FUNCTIONS = frozenset({"timeit", "repeat", "Timer"})


def reads_a_clock(source: str | bytes) -> bool:
    """Whether the module names a clock function anywhere but in a reading made into text
    at once (``f"{time.time_ns()}-trace.json"``, ``datetime.now().isoformat()``), judged
    from CPython's tree. A timed region pairs two readings by subtracting them, so a file
    whose only clock readings become text holds none; the bytes alone cannot tell
    (``ir.Location.unknown()`` spells ``now(``). True when CPython cannot parse it."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return True
    # One walk: the names bound to a clock module or its ``datetime`` class (``import time
    # as t``) and to a clock function (``from time import perf_counter as clock``); every
    # reference named like a clock function, with the name it hangs off; which of those are
    # called, and which calls are made text at once.
    modules: set[str] = set()
    functions: set[str] = set()
    refs: list[tuple[int, str | None, str]] = []  # (id, base name or None, name)
    called: dict[int, int] = {}  # id of a called reference -> id of its call
    as_text: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute):
            if node.attr in _CLOCK_FUNCTIONS:
                refs.append((id(node), _base_name(node), node.attr))
            elif node.attr in _AS_TEXT_METHODS and isinstance(node.value, ast.Call):
                as_text.add(id(node.value))
        elif isinstance(node, ast.Name):
            refs.append((id(node), None, node.id))
        elif isinstance(node, ast.Call):
            called[id(node.func)] = id(node)
            if isinstance(node.func, ast.Name) and node.func.id in _AS_TEXT_CALLS:
                as_text.update(id(a) for a in node.args if isinstance(a, ast.Call))
        elif isinstance(node, ast.FormattedValue) and isinstance(node.value, ast.Call):
            as_text.add(id(node.value))
        elif isinstance(node, ast.Import):
            modules.update((a.asname or a.name).split(".", 1)[0] for a in node.names
                           if a.name.split(".", 1)[0] in _CLOCK_MODULES)
        elif isinstance(node, ast.ImportFrom) and node.module in _CLOCK_MODULES:
            for a in node.names:
                if a.name in _CLOCK_FUNCTIONS:
                    functions.add(a.asname or a.name)
                elif a.name[:1].isupper() or a.name == "datetime":
                    modules.add(a.asname or a.name)  # ``from datetime import datetime``
    for ref, base, name in refs:
        if base in modules if base is not None else name in functions:
            call = called.get(ref)
            if call is None or call not in as_text or name in _HARNESS_FUNCTIONS:
                # a reading kept, the clock function itself, or a harness (its figure may
                # be formatted at once: ``f"{timeit.timeit(fn, number=10):.3f}"``)
                return True
    return False


def _base_name(node: ast.Attribute) -> str | None:
    """``time`` of ``time.perf_counter``, ``datetime`` of ``datetime.datetime.now``."""
    value = node.value
    while isinstance(value, ast.Attribute):
        value = value.value
    return value.id if isinstance(value, ast.Name) else None


def might_matter(source: str | bytes, extras: Extras = NO_EXTRAS, project: bool = False,
                 parse: bool = True) -> bool:
    """Whether ``source`` can hold a finding, judged from its bytes and, for a file that
    passes on a clock's name alone, CPython's tree (``reads_a_clock``).

    A finding needs a timed region or a harness: a read of a clock from ``time`` or
    ``timeit`` (so the file imports one and spells a clock function's name, or, with the
    project index, binds or subtracts a reading after a star import that may bring the
    clock's module: ``from common import *``, or binds or subtracts ``time.time()`` spelt
    whole where nothing imports a clock: a script exported without its import cell),
    ``timeit``, a
    pytest-benchmark fixture, a ``%time``/``%timeit`` magic, or one of the project's own
    timers. It also needs JAX work: the file names jax or a JAX library, one of the project's
    own work or sync names, or (``project``: with the project index on) any name it imports
    from the project. Never false for a file with a finding (a test checks this on every
    fixture and on the holdout scripts). The bytes' test is about a thousand times cheaper
    than libcst's parse; CPython's parse, for the files it is left to, about ten times.
    ``parse=False``: the bytes' test alone (a file it passes may still be rejected by the
    parse: the command line leaves that to the process that analyses the file).
    """
    data = source.encode("utf-8", "surrogatepass") if isinstance(source, str) else source
    if not project and not _spells_jax(data, extras):
        return False
    # A notebook's %time/%timeit magics (also as automagics, ``timeit f(x)`` alone in a
    # cell) and pytest-benchmark's fixture need no import.
    if b"%time" in data or (b"benchmark" in data and _BENCHMARK.search(data) is not None):
        return True
    if b"def time_" in data and (b"def setup" in data or b"params" in data) and (
            _ASV_METHOD.search(data) is not None):
        return True  # an asv suite: asv times its ``time_*`` methods itself
    if b"_magic(" in data and _EXPORTED_MAGIC.search(data) is not None:
        return True  # ``get_ipython().run_line_magic("timeit", ...)``: a notebook exported
    if b"time" in data and _AUTOMAGIC.search(data) is not None:
        return True
    if any(n.rsplit(".", 1)[-1].encode() in data for n in extras.timers):
        return True
    if project and b"with" in data and _WITH_TIMER.search(data) is not None:
        return True
    if project and b"(" in data and _HELPER_CLOCK.search(data) is not None:
        return True  # ``t0 = clock.now()``, ``utils.elapsed(t0)``: a project's clock helper
    if project and b"(" in data and _STOP_CALL.search(data) is not None and (
            _MADE_TIMER.search(data) is not None):
        return True  # ``timer = Timer()``, ``timer.stop(label)``: a project's timer object
    if any(n in data for n in _LIBRARY_TIMER_MODULES):
        return True  # codetiming.Timer, praxis' py_utils.timeit (names.LIBRARY_TIMERS)
    if project and b"import *" in data and _plain_reading(data):
        return True  # ``from common import *`` bringing ``time``: ``t0 = time.time()``
    if b"time" not in data:
        return False
    if not any(p.search(data) for p in _IMPORTS_CLOCK):
        # ``time.time()`` with no import of ``time`` (a script whose import was left in
        # a notebook cell it was exported without): the name can only be the module
        return (b"time." in data and _UNIMPORTED_CLOCK.search(data) is not None
                and _plain_reading(data))
    if not (any(n in data for n in _CLOCK_NAMES) or any(p.search(data) for p in _TIME_FUNCTION)):
        return False
    # The bytes spell a clock. A reading bound or subtracted (``t0 = time.time()``) settles
    # it; else CPython's parser (a fraction of libcst's) tells whether any reading can be
    # subtracted. Not for a notebook's JSON, whose code is in strings.
    return (not parse or _plain_reading(data)
            or data.lstrip()[:1] == b"{" or reads_a_clock(data))


# A call of something named like a timer (``return utils.Timer(name)``): a factory handing
# out another module's timer. Not a ``def`` of one, nor a name that only ends like one
# (``globaltimer(``).
_TIMER_AT = re.compile(_TIMER_NAME)
_TIMER_WORD = re.compile(rb"tim(?:er|ed|ing|eit)|clock|stopwatch|chrono|profil")  # lowered


def _timer_call(data: bytes) -> bool:
    """Whether the bytes call something named like a timer: ``_TIMER_NAME`` where no letter
    or digit, nor ``def ``, comes before it (underscores may: ``_timer(``, ``make_timer(``).
    Searched for in the lowered bytes, whose words all begin with a letter of a literal
    (an exact-case test follows): ``re`` tries the pattern only there."""
    lowered = data.lower()  # (ASCII only: the positions are the same)
    found = _TIMER_WORD.search(lowered)
    while found is not None:
        i = found.start()
        if (_TIMER_AT.match(data, i) is not None and not data[i - 1:i].isalnum()
                and data[max(0, i - 4):i] != b"def "):
            return True
        found = _TIMER_WORD.search(lowered, i + 1)
    return False


def may_define_timer(source: bytes, extras: Extras = NO_EXTRAS) -> bool:
    """Whether a module's bytes can define a timer (a class or ``@contextmanager`` that
    reads a clock, a library timer's wrapper, a factory of another module's timer). Never
    false for such a module: the project index skips analysing the module of a ``with``
    item that is not timed otherwise when this says no (jax's ``with ir.Context():``)."""
    return (might_matter(source, extras, project=True)
            or _timer_call(source))


def selected(config: Any, select: Collection[str] | None = None,
             extend_select: Collection[str] = ()) -> tuple[str, ...] | None:
    """The codes and prefixes that are on (None: all), resolved as ruff does: ``select``
    (the command line's) replaces the configuration's ``select`` and ``extend-select``;
    ``extend-select`` adds to whichever applies, and adds nothing to all."""
    if select is not None:
        base: tuple[str, ...] = tuple(select)
    elif config.select is not None:
        base = (*config.select, *config.extend_select)
    else:
        return None
    return (*base, *extend_select)


def for_file(path: str, config: Any, modules: dict[str, Any] | None,
             select: Collection[str] | None = None, ignore: Collection[str] = (),
             honour_noqa: bool = True, extend_select: Collection[str] = ()) -> Settings:
    """What every front end analyses ``path`` with: ``config`` (its ``[tool.jaxlint]``, a
    ``jaxlint.config.Config``) with ``select`` replacing, ``extend_select`` and ``ignore``
    adding to its own (see ``selected``), and the project index unless ``modules`` (the
    index's cache of analysed modules) is None.

    Imports the project index (and so libcst) only when called: call it once a file has
    passed ``might_matter``.
    """
    from jaxlint.project import ProjectIndex, import_roots, module_names

    names = module_names(path)
    index = None if modules is None else ProjectIndex(import_roots(path), config.extras, modules)
    return Settings(selected(config, select, extend_select),
                    (*config.ignores_for(path), *ignore), config.extras, index,
                    names[0] if names else None, honour_noqa=honour_noqa,
                    line_length=config.line_length)
