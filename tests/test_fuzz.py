"""Property-based tests: the linter never crashes on valid Python and its fixes never break code.

1. On valid Python generated from the grammar (hypothesmith), ``lint_source`` raises nothing
   but ``SourceError`` and ``fix_source`` returns code that still compiles.
2. On generated timing-shaped programs (timer styles, JAX calls, syncs, loops, branches, at
   module level or in a function), every applied fix removes its finding: the fixed program
   compiles, has no fixable finding left, agrees with a fresh lint, and a second fix is a
   no-op; the same with ``unsafe_fixes``.

Example counts are modest so this file runs in well under a minute; ``scripts/fuzz.py`` runs
the same checks with many more examples. ``JAXLINT_FUZZ_SCALE`` multiplies the counts here.
"""

from __future__ import annotations

import os
import traceback
import warnings

import pytest

hypothesis = pytest.importorskip("hypothesis")
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from jaxlint import Finding, fix_source, lint_source  # noqa: E402
from jaxlint.engine import SourceError  # noqa: E402

SCALE = float(os.environ.get("JAXLINT_FUZZ_SCALE", "1"))
RELAXED = dict(deadline=None, database=None, derandomize=True,
               suppress_health_check=list(HealthCheck))

# ----------------------------------------------------------------------------- checks


def compiles(src: str) -> bool:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            compile(src, "<fuzz>", "exec", dont_inherit=True)
    except (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError):
        return False
    return True


def _crash(what: str, exc: BaseException) -> str:
    tb = traceback.extract_tb(exc.__traceback__)
    where = next((f"{f.filename.rsplit('/jaxlint/', 1)[-1]}:{f.lineno}" for f in reversed(tb)
                  if "/jaxlint/" in f.filename), "?")
    return f"crash in {what}: {type(exc).__name__}: {exc} (at {where})"


def check_program(src: str, unsafe: bool = False) -> list[str]:
    """Every problem jaxlint has with ``src`` (empty: none). Never raises."""
    problems: list[str] = []
    valid = compiles(src)
    try:
        findings = lint_source(src)
    except SourceError:
        return problems if not valid else ["SourceError on code that compiles"]
    except Exception as exc:  # noqa: BLE001 - anything else is the bug we look for
        return [_crash("lint_source", exc)]
    try:
        result = fix_source(src, unsafe_fixes=unsafe)
    except Exception as exc:  # noqa: BLE001
        return [_crash("fix_source", exc)]
    fixed = result.source
    assert isinstance(fixed, str)
    if fixed == src:
        applicable = [f for f in findings if f.fixable and (unsafe or not f.unsafe)]
        if applicable:
            problems.append(f"fix made no change though {len(applicable)} finding(s) are "
                            f"fixable: {[f.code for f in applicable]}")
        return problems
    if valid and not compiles(fixed):
        problems.append("fixed program does not compile")
        return problems
    try:
        again = lint_source(fixed)
        second = fix_source(fixed, unsafe_fixes=unsafe)
    except Exception as exc:  # noqa: BLE001
        return [_crash("re-lint of the fixed program", exc)]
    left = [f"{f.code}@{f.line}" for f in again if f.fixable and (unsafe or not f.unsafe)]
    if left:
        problems.append(f"fixable findings left after the fix: {left}")
    if second.source != fixed:
        problems.append("second fix changed the program again")
    if sorted(map(_key, again)) != sorted(map(_key, result.remaining)):
        problems.append("fix_source's `remaining` disagrees with a fresh lint of its output")
    return problems


def _key(f: Finding) -> tuple[object, ...]:
    return (f.code, f.line, f.col)


def check_valid_python(src: str) -> list[str]:
    """For any compiling program: lint and fix do not crash and the fix still compiles."""
    try:
        lint_source(src)
        fixed = fix_source(src, unsafe_fixes=True).source
    except SourceError:
        return []  # a clear error for what libcst cannot read; the CLI reports it
    except Exception as exc:  # noqa: BLE001
        return [_crash("lint/fix", exc)]
    assert isinstance(fixed, str)
    if not compiles(fixed):
        return ["fixed program does not compile"]
    return []


# ----------------------------------------------------------------------------- timing programs
TIMERS = [  # (import line, clock read)
    ("import time", "time.perf_counter()"),
    ("import time", "time.time()"),
    ("import time", "time.monotonic()"),
    ("import time", "time.perf_counter_ns()"),
    ("import time as tm", "tm.perf_counter()"),
    ("from time import perf_counter", "perf_counter()"),
    ("from time import perf_counter as pc", "pc()"),
    ("from timeit import default_timer as timer", "timer()"),
    ("import timeit", "timeit.default_timer()"),
]
JAX_IMPORTS = [  # (import lines, name bound to the jax module or None, jit expression)
    ("import jax\nimport jax.numpy as jnp", "jax", "jax.jit"),
    ("import jax.numpy as jnp\nfrom jax import jit", None, "jit"),
    ("from jax import numpy as jnp\nimport jax", "jax", "jax.jit"),
    ("import jax as jx\nimport jax.numpy as jnp", "jx", "jx.jit"),
    ("import jax.numpy as jnp\nimport jax.random", "jax", "jax.jit"),
]


class _Ctx:
    def __init__(self, jax_name: str | None, timer: str) -> None:
        self.jax = jax_name
        self.timer = timer
        self.counter = 0
        self.defined: list[str] = ["x"]

    def fresh(self) -> str:
        self.counter += 1
        return f"y{self.counter}"


@st.composite
def _work(draw: st.DrawFn, ctx: _Ctx) -> list[str]:
    kind = draw(st.sampled_from(["dot", "jit", "helper", "chain", "matmul", "bare", "numpy",
                                 "random", "method"]))
    if kind == "bare":
        return [draw(st.sampled_from(["step(x)", "f(x)", "helper(x)"]))]
    if kind == "numpy":
        return [f"n{ctx.counter} = np.ones(3).sum()"]
    name = ctx.fresh()
    src = draw(st.sampled_from(ctx.defined))
    expr = {
        "dot": f"jnp.dot({src}, {src})",
        "jit": f"f({src})",
        "helper": f"helper({src})",
        "chain": f"jnp.sin({src}) + 1",
        "matmul": f"{src} @ {src}",
        "random": "jnp.ones((8, 8)) * 2",
        "method": f"{src}.sum()",
    }[kind]
    ctx.defined.append(name)
    if draw(st.booleans()) and kind in ("dot", "jit"):
        other = ctx.fresh()
        ctx.defined.append(other)
        return [f"{name}, {other} = {expr}, jnp.tanh({src})"]
    return [f"{name} = {expr}"]


@st.composite
def _sync(draw: st.DrawFn, ctx: _Ctx) -> list[str]:
    v = draw(st.sampled_from(ctx.defined))
    forms = [f"{v}.block_until_ready()", f"np.asarray({v})", f"float({v}.sum())",
             f"_ = {v}.block_until_ready()", f"print({v}.shape)"]
    if ctx.jax:
        forms += [f"{ctx.jax}.block_until_ready({v})",
                  f"{ctx.jax}.tree_util.tree_map(lambda a: a.block_until_ready(), {v})"]
    return [draw(st.sampled_from(forms))]


@st.composite
def _block(draw: st.DrawFn, ctx: _Ctx, depth: int) -> list[str]:
    lines: list[str] = []
    kinds = ["work", "work", "sync", "plain"] + (["for", "if"] if depth < 2 else [])
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(kinds))
        if kind == "work":
            lines += draw(_work(ctx))
        elif kind == "sync":
            lines += draw(_sync(ctx))
        elif kind == "plain":
            lines.append(draw(st.sampled_from(["n = 3", "pass", "log = []", "k = n + 1"])))
        elif kind == "for":
            header = draw(st.sampled_from(["for _ in range(3):", "for i in range(n):",
                                           "while n > 0:"]))
            body = draw(_block(ctx, depth + 1))
            if header.startswith("while"):
                body.append("n -= 1")
            lines += [header] + ["    " + b for b in body]
        else:
            lines += ["if n > 1:"] + ["    " + b for b in draw(_block(ctx, depth + 1))]
            if draw(st.booleans()):
                lines += ["else:"] + ["    " + b for b in draw(_block(ctx, depth + 1))]
    return lines


@st.composite
def _region(draw: st.DrawFn, ctx: _Ctx) -> list[str]:
    t = ctx.timer
    start = draw(st.sampled_from(["t0", "start", "tic"]))
    lines = [f"{start} = {t}"] + draw(_block(ctx, 0))
    stop = draw(st.sampled_from(["assign", "print", "stored", "fstring", "accumulate"]))
    if stop == "assign":
        lines += [f"elapsed = {t} - {start}", "print(elapsed)"]
    elif stop == "print":
        lines += [f"print({t} - {start})"]
    elif stop == "stored":
        lines += [f"t1 = {t}"] + (["n = 2"] if draw(st.booleans()) else []) + \
                 [f"print(t1 - {start})"]
    elif stop == "fstring":
        lines += [f'print(f"took {{{t} - {start}:.3f}} s")']
    else:
        lines = ["total = 0.0"] + lines + [f"total += {t} - {start}"]
    return lines


@st.composite
def timing_programs(draw: st.DrawFn) -> str:
    """A small benchmark script made of randomly arranged timing-shaped pieces."""
    timer_import, timer = draw(st.sampled_from(TIMERS))
    jax_imports, jax_name, jit = draw(st.sampled_from(JAX_IMPORTS))
    ctx = _Ctx(jax_name, timer)
    imports = [timer_import, "import numpy as np", *jax_imports.split("\n")]
    if draw(st.booleans()):
        imports = draw(st.permutations(imports))
    head = list(imports) + ["", ""]
    if draw(st.booleans()):
        head += [f"@{jit}", "def f(a):", "    return jnp.tanh(a @ a)", "", ""]
    else:
        head += [f"f = {jit}(lambda a: jnp.tanh(a @ a))", ""]
    head += [f"step = {jit}(lambda a: a * 2)", "",
             "def helper(a):", "    return jnp.sin(a) * 2", "", "",
             "x = jnp.ones((64, 64))", "n = 3", ""]
    regions: list[str] = []
    for _ in range(draw(st.integers(1, 2))):
        r = draw(_region(ctx))
        if draw(st.integers(0, 3)) == 0:  # the whole region inside a loop
            r = ["for rep in range(2):"] + ["    " + line for line in r]
        regions += r
    place = draw(st.sampled_from(["module", "function", "main", "method"]))
    if place == "module":
        body = regions
    elif place == "function":
        body = ["def bench(x, n):"] + ["    " + line for line in regions] + \
               ["    return n", "", "", "bench(x, n)"]
    elif place == "main":
        body = ['if __name__ == "__main__":'] + ["    " + line for line in regions]
    else:
        body = ["class Bench:", "    def run(self, x, n):"] + \
               ["        " + line for line in regions] + \
               ["        return n", "", "", "Bench().run(x, n)"]
    return "\n".join(head + body) + "\n"


# ----------------------------------------------------------------------------- tests
@settings(max_examples=int(50 * SCALE), **RELAXED)  # type: ignore[arg-type]
@given(timing_programs())
@pytest.mark.slow
def test_timing_programs_safe_fixes(src: str) -> None:
    assert compiles(src), src
    problems = check_program(src)
    assert problems == [], "\n".join(problems) + "\n--- program:\n" + src


@settings(max_examples=int(20 * SCALE), **RELAXED)  # type: ignore[arg-type]
@given(timing_programs())
@pytest.mark.slow
def test_timing_programs_unsafe_fixes(src: str) -> None:
    problems = check_program(src, unsafe=True)
    assert problems == [], "\n".join(problems) + "\n--- program:\n" + src


def test_the_generator_finds_fixable_mistakes() -> None:
    """The generator is worth running: it makes programs with fixable findings."""
    from hypothesis import find

    src = find(timing_programs(), lambda s: any(f.fixable for f in lint_source(s)),
               settings=settings(max_examples=200, **RELAXED))  # type: ignore[arg-type]
    assert "block_until_ready" in str(fix_source(src).source)


HEADER = "import time\nimport jax\nimport jax.numpy as jnp\nt0 = time.perf_counter()\n"
FOOTER = "\ny = jnp.ones(3)\nprint(time.perf_counter() - t0)\n"


def _wrap(src: str) -> str:
    """Put generated code inside a timed region so the analysis has work to do."""
    return HEADER + src + FOOTER


hypothesmith = pytest.importorskip("hypothesmith")


# deferred: building the grammar's strategy takes 2.5 s, which every test process would
# otherwise pay while collecting, whether it runs this test or not
@settings(max_examples=int(40 * SCALE), **RELAXED)  # type: ignore[arg-type]
@given(st.deferred(hypothesmith.from_grammar))
@pytest.mark.slow  # over 5 s with the grammar's strategy built
def test_grammar_programs(src: str) -> None:
    for candidate in (src, _wrap(src)):
        if compiles(candidate):
            problems = check_valid_python(candidate)
            assert problems == [], "\n".join(problems) + "\n--- program:\n" + candidate


@pytest.mark.filterwarnings("ignore::SyntaxWarning")  # hypothesmith compiles what it makes
@settings(max_examples=int(25 * SCALE), **RELAXED)  # type: ignore[arg-type]
@given(hypothesmith.from_node())
@pytest.mark.slow
def test_node_programs(src: str) -> None:
    for candidate in (src, _wrap(src)):
        if compiles(candidate):
            problems = check_valid_python(candidate)
            assert problems == [], "\n".join(problems) + "\n--- program:\n" + candidate
