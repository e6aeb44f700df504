"""Random Python programs from a small grammar, for growth tests that cannot be fitted.

    from random_programs import program
    text = program(seed=0, n=400)   # a program of about 400 statements

The hand-written shapes of ``growth.py`` each exercise one thing; a change can make them
linear and leave a mix of them quadratic. These programs mix assignments, calls of jitted
functions, clock reads (``time.perf_counter()``) under random names, ``if``/``for``/
``while``/``try``/``with``, nested functions, classes and calls between functions.

A program is a sequence of top-level chunks, each drawn from the same distribution, until
the program holds ``n`` statements (every ``ast.stmt``, compound ones included): ``program(
seed, 4 * n)`` is the same kind of program as ``program(seed, n)``, four times as long (it
begins with it). The output is deterministic per ``(seed, n)``, parses and compiles.
"""

from __future__ import annotations

import ast
import random
import sys

HEADER = [
    "import time",
    "import jax",
    "import jax.numpy as jnp",
    "",
    "f = jax.jit(lambda a: a @ a)",
    "g = jax.jit(lambda a: a + 1.0)",
    "x = jnp.ones((64, 64))",
    "times = []",
    "",
]
_TIMER_WORDS = ["t", "t0", "start", "tic", "begin", "t_start", "s", "clock"]
_RESULT_WORDS = ["y", "out", "res", "z", "loss", "acc", "h"]
_MAX_DEPTH = 3


class _Gen:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.lines: list[str] = []
        self.k = 0  # the counter that makes names fresh
        self.jitted = ["f", "g"]  # callables taking one array, returning one
        self.helpers: list[str] = []  # plain functions taking one array, returning one
        self.classes: list[str] = []  # classes whose instances have .step(a)

    def fresh(self, words: list[str]) -> str:
        self.k += 1
        return f"{self.rng.choice(words)}{self.k}"

    def emit(self, depth: int, text: str) -> None:
        self.lines.append("    " * depth + text)

    def callee(self) -> str:
        pool = self.jitted + self.helpers
        return self.rng.choice(pool)

    # ---------------------------------------------------------------- statements
    def block(self, depth: int, arrays: list[str], budget: int) -> None:
        """``budget`` chunks at indentation ``depth``; ``arrays`` are the names (arrays)
        in scope there, extended with those the block binds."""
        for _ in range(max(1, budget)):
            self.chunk(depth, arrays)

    def chunk(self, depth: int, arrays: list[str]) -> None:
        rng = self.rng
        choices = ["assign", "call", "region", "region", "sync", "print"]
        if depth < _MAX_DEPTH:
            choices += ["if", "for", "while", "try", "with", "region_block"]
            if depth == 0:
                choices += ["def", "class"]
        what = rng.choice(choices)
        getattr(self, "_" + what)(depth, arrays)

    def _assign(self, depth: int, arrays: list[str]) -> None:
        name = self.fresh(_RESULT_WORDS)
        src = self.rng.choice(arrays)
        if self.rng.random() < 0.3:
            self.emit(depth, f"{name} = {src} * {self.rng.randint(1, 9)}")
        else:
            self.emit(depth, f"{name} = {self.callee()}({src})")
        arrays.append(name)

    def _call(self, depth: int, arrays: list[str]) -> None:
        src = self.rng.choice(arrays)
        if self.classes and self.rng.random() < 0.3:
            obj = self.fresh(["m", "model", "obj"])
            self.emit(depth, f"{obj} = {self.rng.choice(self.classes)}()")
            name = self.fresh(_RESULT_WORDS)
            self.emit(depth, f"{name} = {obj}.step({src})")
            arrays.append(name)
        else:
            self.emit(depth, f"{self.callee()}({src})")

    def _sync(self, depth: int, arrays: list[str]) -> None:
        src = self.rng.choice(arrays)
        form = self.rng.choice(["jax.block_until_ready({})", "{}.block_until_ready()",
                                "print(float({}.sum()))"])
        self.emit(depth, form.format(src))

    def _print(self, depth: int, arrays: list[str]) -> None:
        self.emit(depth, f"print({self.rng.choice(arrays)}.shape)")

    def _region(self, depth: int, arrays: list[str]) -> None:
        """A timed region: a start read under a random name, some work, maybe a sync, a
        stop read in one of a few forms."""
        rng = self.rng
        t = self.fresh(_TIMER_WORDS) if rng.random() < 0.8 else rng.choice(_TIMER_WORDS)
        self.emit(depth, f"{t} = time.perf_counter()")
        for _ in range(rng.randint(1, 3)):
            self._assign(depth, arrays)
        if rng.random() < 0.5:
            self._sync(depth, arrays)
        form = rng.choice(["{e} = time.perf_counter() - {t}",
                           "print(time.perf_counter() - {t})",
                           "times.append(time.perf_counter() - {t})"])
        self.emit(depth, form.format(e=self.fresh(["e", "elapsed", "dt"]), t=t))

    def _region_block(self, depth: int, arrays: list[str]) -> None:
        """A start read, a compound statement of work, a stop read."""
        t = self.fresh(_TIMER_WORDS)
        self.emit(depth, f"{t} = time.perf_counter()")
        self.rng.choice([self._if, self._for, self._while, self._try, self._with])(
            depth, arrays)
        self.emit(depth, f"print('took', time.perf_counter() - {t})")

    def _if(self, depth: int, arrays: list[str]) -> None:
        self.emit(depth, f"if {self.rng.choice(arrays)}.shape[0] > {self.rng.randint(0, 99)}:")
        self.block(depth + 1, list(arrays), self.rng.randint(1, 3))
        if self.rng.random() < 0.5:
            self.emit(depth, "else:")
            self.block(depth + 1, list(arrays), self.rng.randint(1, 2))

    def _for(self, depth: int, arrays: list[str]) -> None:
        counter = self.fresh(["i", "step", "k"])
        self.emit(depth, f"for {counter} in range({self.rng.randint(2, 9)}):")
        self.block(depth + 1, list(arrays), self.rng.randint(1, 3))

    def _while(self, depth: int, arrays: list[str]) -> None:
        n = self.fresh(["n", "count"])
        self.emit(depth, f"{n} = 0")
        self.emit(depth, f"while {n} < {self.rng.randint(2, 5)}:")
        self.emit(depth + 1, f"{n} += 1")
        self.block(depth + 1, list(arrays), self.rng.randint(1, 2))

    def _try(self, depth: int, arrays: list[str]) -> None:
        self.emit(depth, "try:")
        self.block(depth + 1, list(arrays), self.rng.randint(1, 2))
        self.emit(depth, "except ValueError:")
        self.block(depth + 1, list(arrays), 1)
        if self.rng.random() < 0.3:
            self.emit(depth, "finally:")
            self.emit(depth + 1, "pass")

    def _with(self, depth: int, arrays: list[str]) -> None:
        ctx = self.rng.choice(["jax.default_matmul_precision('float32')",
                               "jax.disable_jit(False)"])
        self.emit(depth, f"with {ctx}:")
        self.block(depth + 1, list(arrays), self.rng.randint(1, 2))

    def _def(self, depth: int, arrays: list[str]) -> None:
        """A function of one array; maybe with a nested function, maybe calling earlier
        functions; maybe jitted; maybe called at once."""
        rng = self.rng
        name = self.fresh(["run", "step", "helper", "work"])
        jit = rng.random() < 0.3
        if jit:
            self.emit(depth, "@jax.jit")
        self.emit(depth, f"def {name}(a):")
        inner = ["a", "x"]
        if not jit and rng.random() < 0.3:
            nested = self.fresh(["inner", "body"])
            self.emit(depth + 1, f"def {nested}(b):")
            self.emit(depth + 2, f"return {self.callee()}(b)")
            out = self.fresh(_RESULT_WORDS)
            self.emit(depth + 1, f"{out} = {nested}(a)")
            inner.append(out)
        if jit:
            self.emit(depth + 1, "b = a * 2")
            self.emit(depth + 1, "return b @ a")
        else:
            self.block(depth + 1, inner, rng.randint(1, 4))
            self.emit(depth + 1, f"return {rng.choice(inner)}")
        (self.jitted if jit else self.helpers).append(name)
        if rng.random() < 0.6:
            self._region_call(depth, arrays, name)

    def _region_call(self, depth: int, arrays: list[str], fn: str) -> None:
        t = self.fresh(_TIMER_WORDS)
        out = self.fresh(_RESULT_WORDS)
        self.emit(depth, f"{t} = time.perf_counter()")
        self.emit(depth, f"{out} = {fn}({self.rng.choice(arrays)})")
        self.emit(depth, f"{self.fresh(['e', 'dt'])} = time.perf_counter() - {t}")
        arrays.append(out)

    def _class(self, depth: int, arrays: list[str]) -> None:
        name = self.fresh(["Model", "Layer", "Runner"])
        self.emit(depth, f"class {name}:")
        self.emit(depth + 1, "def __init__(self):")
        self.emit(depth + 2, "self.w = jnp.ones((64, 64))")
        self.emit(depth + 2, "self.t0 = time.perf_counter()")
        self.emit(depth + 1, "def step(self, a):")
        self.emit(depth + 2, f"out = {self.callee()}(a) @ self.w")
        if self.rng.random() < 0.5:
            self.emit(depth + 2, "print(time.perf_counter() - self.t0)")
        self.emit(depth + 2, "return out")
        self.classes.append(name)


def statements(text: str) -> int:
    """The number of statements (``ast.stmt``, compound ones included) of ``text``."""
    return sum(isinstance(node, ast.stmt) for node in ast.walk(ast.parse(text)))


def program(seed: int, n: int) -> str:
    """A random program of about ``n`` statements (at least ``n``; a few more: the last
    chunk is finished), deterministic per ``(seed, n)``."""
    gen = _Gen(seed)
    gen.lines = list(HEADER)
    arrays = ["x"]
    count = statements("\n".join(HEADER))
    while count < n:
        start = len(gen.lines)
        gen.chunk(0, arrays)
        count += statements("\n".join(gen.lines[start:]))
    return "\n".join(gen.lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(program(int(sys.argv[1]), int(sys.argv[2])))
