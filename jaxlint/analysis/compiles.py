"""When a call compiles, and when a timed region means to include the compile.

Two policies live here, each with its reason (README, "How it works: policies"):

**Which function objects share a compile.** ``jax.jit`` keeps compiled programs per wrapped
function and static arguments: ``jax.jit(f)`` made twice around the same ``f`` compiles once.
The same ``f`` is a library function (by qualified name) or a function made once (a
module-level ``def`` or ``lambda``); a nested ``def``, a lambda made in a function, a bound
method (``self.apply``) or a ``functools.partial`` is a new object each time it is made, and
its jitted wrapper compiles again. A factory memoised by ``functools.lru_cache`` /
``functools.cache`` gives back the same function for the same arguments.

**When JAX105 speaks.** The first call of a jitted function inside a region is reported when
the function was made before the region's start read and the region times calls of it. A
region is taken to include the compile on purpose when

- it contains the making of the function (``jax.jit(...)``, a factory's call, the ``def``
  of a decorated function, after the start read): it times the whole of a run, compile
  included, as a total does;
- its reads, the statement after the stop read, a message printed just before the start,
  the comments on their lines or the words a later statement prints beside the figure name
  the compile or the first call ("compile", "first call", "cold", "warm-up", "incl. jit");
  a compiling call that one region names so is meant in every region that contains it
  (``Timers.regions``: its author knows the call compiles);
- its figures are collected over the rounds of a loop and the first rounds are dropped
  (any slice with a lower bound, ``pop(0)``, ``del times[:k]``) or kept out by a guard on
  the loop's counter (``if i >= n_warmup:``), or summarised by their minimum;
- it is a progress log read on every round of a loop (its first figure alone carries the
  compile, as every training log's does), or the total of such a logged run (the same start
  read again after the loop): see ``Timers.regions``;
- it is not a measurement of speed (``measures_speed``, ``Timers._measures_speed``): a first
  call is reported only in code whose purpose is to measure speed, as its path, function or
  class says (``benchmarks/``, ``bench_*.py``, ``def bench_rbf()``, ``class ConvBench``,
  tests), or the words beside its figure (``FIGURE_WORDS``: a latency, a rate, ``ms``), or
  a warm-up elsewhere in the file (``WARMS_UP``), or where the figure is one of many
  per-call figures (an average or a rate, a list of round times, a loop repeating the same
  call with the same arguments). Anywhere
  else (a training script's run time, an example's generation time, a simulation's wall
  time) a region around a first call times a run whose compile is part of it, as the labels
  of unseen code and the issue's fresh repositories both read it. A call that compiles on
  every call (a function made anew each time) is judged the same way, except in a region
  read on every round of a loop, where each figure carries a compile (a sweep over
  settings, each timed); calls that compile again after a warm-up (a new shape) or a
  cleared cache (``jax.clear_caches()``) are reported wherever they are: the code knows
  the compile and means to leave it out.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis.syntax import children, dotted, int_literal, walk
from jaxlint.analysis.values import Func, JaxCallable, Ref, Site, Value

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis

# Words that name compilation (or a cold first run) in the statements and comments of a
# region's reads: the region times it on purpose (``compile_time = time.time() - t0``,
# ``print("first call (incl. compile)")``, ``# cold run``).
# Not "jit time": beside "numpy time" or "eager time" it names the time of the jitted version
# (``print("jax jit time:", t2 - t1)`` after 1,000 calls), not the time it takes to jit;
# it names the compile only in a region that forces one (``jax.clear_caches()`` before the
# call: ``JIT_TIME``).
COMPILE_WORDS = re.compile(
    r"compil|first[\s_-]*(call|step|run|iter|batch|epoch)|warm[\s_-]*up|"
    r"trac(e|ing)[\s_-]*time|\bcold\b|\bstag(e|ing)[\s_-]*time", re.IGNORECASE)
NAMED_AFTER = re.compile(
    r"compil|first[\s_-]*(call|step|run|iter|batch|epoch)|"
    r"trac(e|ing)[\s_-]*time|\bcold\b|\bstag(e|ing)[\s_-]*time", re.IGNORECASE)
JIT_TIME = re.compile(r"jit[\s_-]*time", re.IGNORECASE)
# ("staging time": JAX's and TensorFlow's word for tracing and compiling a function; not
# "compiled", which says what ran, "Second run (compiled)", "compiled version", unless
# it says how long compiling took, "compiled in")
ONLY_COMPILE = re.compile(r"compil(?!ed\b(?!\s+in\b))|trac(e|ing)[\s_-]*time|"
                          r"\bstag(e|ing)[\s_-]*time", re.IGNORECASE)
# ... unless the words say the compile comes on top of the run ("first call (incl.
# compile)", "including compilation", "with compile", "+ compile", "compiling and
# solving", "compile + run")
PLUS_COMPILE = re.compile(r"(incl\w*|with|plus|\+|and)\W{0,3}\s*(the\s+)?compil|"
                          r"compil\w*\s*(and|plus|\+|&)\s*\w", re.IGNORECASE)

# ... and words that say the compile is left out (``# don't count compilation``).
EXCLUDES_COMPILE = re.compile(
    r"(\b(do\s*n[o']?t|not|no|without|exclud\w*|skip\w*|ignor\w*|after|past)\W+(\w+\W+){0,3}"
    r"(compil|jit|warm))|(compil\w*\s+(excluded|done|over|finished))", re.IGNORECASE)

MEMOISERS = frozenset({"functools.lru_cache", "functools.cache"})

# The words of a path (a folder's or the file's name) or of the function a region is in,
# split at ``/ _ - .`` and at a change to upper case, that say the code's purpose is to
# measure speed.
MEASURING_WORDS = re.compile(
    r"bench\w*|perf|performance|speed\w*|timing\w*|timers?|timeit|profil\w*|latency|"
    r"throughput|tests?|testing", re.IGNORECASE)
_WORDS = re.compile(r"[A-Z]?[a-z0-9]+|[A-Z]+(?![a-z])")


# ... and the words beside a figure that say it measures an operation's speed: a latency, a
# rate, a time per call, or a unit too small for a run's wall time (``f"{dt * 1e3:.2f} ms"``).
FIGURE_WORDS = re.compile(
    r"\b(latency|throughput|speed\w*|bench\w*|timing|per[\s_-]*(call|step|iter\w*|batch|"
    r"token|sample|run)|ms|msec|millisec\w*|us|usec|\u00b5s|microsec\w*|ns)\b",
    re.IGNORECASE)


# ... and the code of a file that warms a function up: it knows the first call compiles and
# means to leave it out (a call whose result is waited for and dropped, an ahead-of-time
# compile, a call of a ``warmup`` function or a line commented as one), so a first call it
# times is an oversight, not a run's cost.
WARMS_UP = re.compile(
    r"\bwarm_?up\w*\s*\(|^[ \t]*[^#\s\"'].*#[ \t]*warm[\s_-]?up|"
    r"\.lower\([^()\n]*\)\s*\.compile\(\)|"
    r"^[ \t]*(?:jax\.)?block_until_ready\(\s*[\w.]+\(|"
    r"^[ \t]*[\w.]+\([^\n]*\)\.block_until_ready\(\)[ \t]*(?:#.*)?$",
    re.IGNORECASE | re.MULTILINE)


def says_measuring(name: str) -> bool:
    """Whether a name (a file's, a folder's, a function's) has a word that says its code
    measures speed: ``bench_rbf``, ``SpeedTest``, ``time_profile``, ``test_ops``."""
    return any(MEASURING_WORDS.fullmatch(w)
               for part in re.split(r"[_\-. ]+", name) for w in _WORDS.findall(part))


def measures_speed(path: str | None) -> bool:
    """Whether the file at ``path`` is code whose purpose is to measure speed (a benchmark,
    a timing script or notebook, a test): ``benchmarks/run.py``, ``bench_attention.py``,
    ``SpeedTest.py``, ``timing.ipynb``, ``tests/test_ops.py``. A training script, an example
    or a library module is not, and neither is a path not known (text from an editor)."""
    return any(says_measuring(part) for part in re.split(r"[/\\]", path or ""))


def only_compile(text: str) -> bool:
    """Whether ``text`` names compilation alone (``compile_time``), not a run with it."""
    return ONLY_COMPILE.search(PLUS_COMPILE.sub(" ", text)) is not None


def comments_of(line: cst.CSTNode | None, above: bool = False) -> str:
    """The comment at the end of a statement line, and with ``above`` the comment lines
    just before it."""
    out = []
    if isinstance(line, (cst.SimpleStatementLine, cst.BaseCompoundStatement)):
        if above:
            out += [ln.comment.value for ln in line.leading_lines if ln.comment is not None]
        trailing = getattr(line, "trailing_whitespace", None)
        if trailing is not None and trailing.comment is not None:
            out.append(trailing.comment.value)
    return " ".join(out)


def drops_first_rounds(text: str, lists: set[str]) -> bool:
    """Whether the code ``text`` uses the figures collected in ``lists`` without their first
    rounds (``times[1:]``, ``times[n_warmup:]``, ``times.pop(0)``, ``del times[:3]``), or
    only through their minimum (``min(times)``: a compile makes a round slower, never
    faster)."""
    for name in lists:
        n = re.escape(name)
        if re.search(rf"(?<![\w.]){n}\s*\[\s*(?!0\s*:)(?!:)[^\]:]+:", text):
            return True
        if re.search(rf"(?<![\w.]){n}\.pop\(\s*0\s*\)|\bdel\s+{n}\s*\[", text):
            return True
        if re.search(rf"(?<![\w.])(?:np\.|numpy\.|jnp\.)?(?:min|amin|nanmin)\(\s*{n}\s*[,)]",
                     text):
            return True
    return False


def skips_first_rounds(test: cst.BaseExpression, counter: str | None) -> bool:
    """Whether ``test`` (an ``if`` around a region's stop read, in a loop) holds only after
    the first rounds of the loop: ``i >= n_warmup``, ``step > 0``, ``i != 0``, ``k < i``."""
    if counter is None or not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    comp = test.comparisons[0]
    left, right, op = dotted(test.left), dotted(comp.comparator), comp.operator
    if left == counter:
        bound = comp.comparator
    elif right == counter:
        bound = test.left
        flipped = {cst.LessThan: cst.GreaterThan, cst.LessThanEqual: cst.GreaterThanEqual}
        op = next((new() for old, new in flipped.items() if isinstance(op, old)), op)
    else:
        return False
    value = int_literal(bound)
    if isinstance(op, cst.GreaterThan):
        return value is None or value >= 0
    if isinstance(op, cst.GreaterThanEqual):
        return value is None or value >= 1
    if isinstance(op, cst.NotEqual):
        return value == 0
    return False


class Compiles:
    """The compile part of ``FlowAnalysis`` (see the module docstring)."""

    def _jit_origin(self: FlowAnalysis, node: Site, fn: Value, jitted: bool,
                    static: tuple[tuple[int, ...], tuple[str, ...]]) -> Site:
        """The origin that identifies the function ``jax.jit(fn)`` (made at ``node``) makes:
        one shared by every wrapper of the same function object with the same static
        arguments, which share compiled programs; ``node`` itself for a function made anew
        each time (a nested ``def``, a lambda made in a function, a method)."""
        key: object
        wrapped = node.args[0].value if isinstance(node, cst.Call) and node.args else None
        if isinstance(wrapped, (cst.Call, cst.Lambda)):
            key = None  # ``jax.jit(partial(f, n=3))``, ``jax.jit(vmap(f))``: a new object
        elif isinstance(fn, Ref):
            key = ("ref", fn.name)
        elif isinstance(fn, Func) and fn.closure is None and fn.owner is None:
            key = ("func", fn)
        elif isinstance(fn, JaxCallable) and fn.jitted and fn.origin is not None and (
                isinstance(wrapped, cst.Name) and fn.origin in self._module_frame.created):
            # ``jax.jit(step)`` of a jitted function made once, by module code: each wrapper
            # wraps the same object, and jit keeps its programs per object wrapped
            key = ("jitted", fn.origin)
        else:
            key = None
        if key is None:
            self.made_at[node] = self._now
            return node
        key = (key, jitted, static)
        origin = self._shared_jits.get(key)
        if origin is None:
            # (a node already standing for another function, as a helper's ``jax.jit(fn)``
            # for each ``fn`` it is given, gets a node of its own)
            taken = node in self._shared_origins
            origin = cst.Name("jit") if taken else node
            self._shared_jits[key] = origin
            self._shared_origins.add(origin)
        self.shared_sites.setdefault(origin, set()).add(node)
        self.made_at[origin] = self._now
        return origin

    def compile_meant(self: FlowAnalysis, tick: int, start: int, read: Site,
                      averaged: bool = True) -> bool:
        """Whether the compiling call whose event is at ``tick``, in a region started at
        ``start`` by ``read``, is not one JAX105 speaks of: the function was made inside
        the region, and not in a loop the region contains whose rounds the figure is
        ``averaged`` over (a total that contains its making; one made anew on each of the
        rounds a per-round figure is divided into compiles on each); the call is
        not in a loop and the same function is timed warm elsewhere in the same scope (a
        cold/warm pair: the cold figure is shown on purpose); or it is wrapped at several
        places and the frame did not know what the module called before (another wrapper
        may have compiled it: judged only where the script's own order of calls is known)."""
        event = self.compile_events.get(tick)
        if event is None:
            return False
        origin, made, judged, scope, in_loop, made_loops = event
        if made > start and (not averaged or made_loops <= set(
                self.context_of.get(read, ((), ()))[0])):
            return True
        if not in_loop and (origin, scope) in self.warm_timed:
            return True  # a cold run beside a warm one of the same function
        return not judged and len(self.shared_sites.get(origin, ())) > 1

    def is_memoised(self: FlowAnalysis, decorators: list[Value]) -> bool:
        """Whether a ``def``'s decorators memoise it (``@functools.lru_cache(maxsize=None)``)."""
        return any(isinstance(d, Ref) and d.name in MEMOISERS for d in decorators)

    def memo_origin(self: FlowAnalysis, factory: cst.CSTNode, call: cst.Call) -> Site:
        """The origin of what a memoised factory gives for this call's arguments: the same
        as for an earlier call with the same argument code."""
        key = (factory, tuple(self.module.code_for_node(a.value) for a in call.args))
        origin = self._memo_origins.get(key)
        if origin is None:
            origin = self._memo_origins[key] = cst.Name("memoised")
            self._shared_origins.add(origin)
        return origin

    def named_compile(self: FlowAnalysis, texts: list[str], after: str | None,
                      forced: bool = False) -> tuple[bool, bool]:
        """(the region names the compile or a first run, it names the compile alone), from
        the texts of its reads (statements and comments) and the statement after its stop.
        ``forced``: the region compiles on purpose (its calls follow ``jax.clear_caches()``),
        where "jit time" names the compile too."""
        named = any(COMPILE_WORDS.search(t) for t in texts)
        only = any(only_compile(t) for t in texts)
        if after is not None:
            named = named or NAMED_AFTER.search(after) is not None
            only = only or only_compile(after)
        if forced and not only:
            only = any(JIT_TIME.search(t) for t in [*texts, after or ""])
            named = named or only
        return named, only


def divides(stmt: cst.CSTNode, read: cst.CSTNode | None = None,
            names: frozenset[str] = frozenset(), rate: bool = False) -> bool:
    """Whether ``stmt`` divides the elapsed time of the clock read ``read`` (or a name in
    ``names`` holding it) by something: a per-round average
    (``(time.perf_counter() - t0) / iters``, ``dt / n_steps``; not by a number written out,
    which changes the unit: ``dt / 3600``); with ``rate``, also something by it
    (``n_steps / (time.time() - start)``: steps per second)."""
    return any(
        isinstance(node, cst.BinaryOperation)
        and isinstance(node.operator, (cst.Divide, cst.FloorDivide))
        and ((_holds(node.left, read, names) and not _number(node.right))
             or (rate and _holds(node.right, read, names)))
        for node in walk(stmt))


def _number(node: cst.BaseExpression) -> bool:
    """A number written out (``3600``, ``1e6``, ``60.0``): dividing by it changes the unit
    (``(tock - tick) / 60`` in minutes), it does not average over rounds."""
    return isinstance(node, (cst.Integer, cst.Float)) or (
        isinstance(node, cst.UnaryOperation) and isinstance(node.expression, (cst.Integer,
                                                                               cst.Float)))


def _holds(node: cst.CSTNode, target: cst.CSTNode | None, names: frozenset[str]) -> bool:
    todo = [node]
    while todo:
        n = todo.pop()
        if n is target or (isinstance(n, cst.Name) and n.value in names):
            return True
        todo.extend(children(n))
    return False
