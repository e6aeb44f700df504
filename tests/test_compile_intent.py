"""When JAX105 speaks of a first call (README, "When JAX105 speaks"; ``compiles.measures_speed``
and ``Timers._measures_speed``): only where the region measures speed. The same timing is a
mistake in a benchmark and a run's own cost in an example or a training script."""

from __future__ import annotations

import pytest

from jaxlint import lint_source
from jaxlint.analysis.compiles import measures_speed, only_compile, says_measuring

ONE_SHOT = '''\
import time

import jax
import jax.numpy as jnp


@jax.jit
def sample(params, prompt):
    return jnp.tanh(prompt @ params)


def {func}():
    params = jnp.ones((512, 512))
    prompt = jnp.ones((16, 512))
    start = time.time()
    tokens = sample(params, prompt)
    tokens.block_until_ready()
    elapsed = time.time() - start
    print({figure})


if __name__ == "__main__":
    {func}()
'''


def codes(source: str, path: str) -> list[tuple[int, str]]:
    return [(f.line, f.code) for f in lint_source(source, path)]


def one_shot(func: str = "main", figure: str = 'f"sampled in {elapsed:.1f}s"') -> str:
    return ONE_SHOT.format(func=func, figure=figure)


@pytest.mark.parametrize("path", ["benchmarks/sample.py", "bench_sample.py",
                                  "scripts/speed_test.py", "notebooks/timing.ipynb.py",
                                  "tests/test_sample.py", "SamplerBenchmark.py"])
def test_a_first_call_in_a_file_named_for_measuring_speed_is_reported(path: str) -> None:
    assert codes(one_shot(), path) == [(16, "JAX105")]


@pytest.mark.parametrize("path", ["examples/sample.py", "train.py", "src/pkg/generate.py",
                                  "<string>", "notebooks/time_series.py"])
def test_a_first_call_in_a_run_that_measures_nothing_is_its_cost(path: str) -> None:
    # an example's generation time, a script's run time: compile included, as the user waits
    assert codes(one_shot(), path) == []


@pytest.mark.parametrize("func, figure", [
    ("bench_sample", 'f"sampled in {elapsed:.1f}s"'),        # the function says so
    ("main", 'f"sampling latency: {elapsed:.3f}s"'),         # the words beside the figure
    ("main", 'f"sampled in {elapsed * 1e3:.2f} ms"'),        # a unit for an operation
    ("main", 'f"{16 / elapsed:.1f} tokens/s"'),              # a rate
    ("main", 'f"{elapsed / 16:.3f} s per token"'),           # an average
])
def test_a_region_that_says_it_measures_speed_is_reported(func: str, figure: str) -> None:
    assert codes(one_shot(func, figure), "examples/sample.py") == [(16, "JAX105")]


def test_a_file_that_warms_a_function_up_means_to_leave_compiles_out() -> None:
    source = one_shot().replace("def main():", """def other():
    x = jnp.ones((8, 512))
    sample(jnp.ones((512, 512)), x).block_until_ready()


def main():""")
    assert codes(source, "examples/sample.py") == [(21, "JAX105")]


LOOP = '''\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda w, x: w - 0.1 * jnp.tanh(x @ w))


def run(w, x):
    t0 = time.time()
    for _ in range(100):
        {call}
    {result}.block_until_ready()
    print(f"100 steps: {{time.time() - t0:.2f}}s")


if __name__ == "__main__":
    run(jnp.ones((64, 64)), jnp.ones((8, 64)))
'''


def test_a_loop_repeating_the_same_call_is_a_benchmark() -> None:
    source = LOOP.format(call="out = step(w, x)", result="out")
    assert codes(source, "examples/run.py") == [(12, "JAX105")]


def test_a_loop_feeding_each_round_to_the_next_is_a_run() -> None:
    # a training loop: its total includes the first step's compile, as the user waits
    source = LOOP.format(call="w = step(w, x)", result="w")
    assert codes(source, "examples/run.py") == []


def test_calls_that_compile_again_are_reported_wherever_they_are() -> None:
    source = '''\
import time

import jax
import jax.numpy as jnp

f = jax.jit(lambda v: v * 2)


def run(x):
    print(f(x))
    jax.clear_caches()
    t0 = time.time()
    y = f(x)
    y.block_until_ready()
    print(f"took {time.time() - t0:.2f}s")


if __name__ == "__main__":
    run(jnp.ones(8))
'''
    assert codes(source, "examples/run.py") == [(13, "JAX105")]


@pytest.mark.parametrize("name, expected", [
    ("bench_rbf", True), ("SpeedTest", True), ("time_profile", True), ("test_ops", True),
    ("ConvBench", True), ("run_benchmarks", True), ("latency", True), ("timers", True),
    ("train", False), ("generate", False), ("time_series", False), ("perfect", False),
    ("contest", False), ("latest", False), ("attest", False), ("main", False),
])
def test_the_words_that_say_measuring(name: str, expected: bool) -> None:
    assert says_measuring(name) is expected


def test_a_path_is_read_folder_by_folder_and_none_measures_nothing() -> None:
    assert measures_speed("repo/benchmarks/run.py")
    assert measures_speed("C:\\work\\perf\\run.py")
    assert not measures_speed("repo/examples/run.py")
    assert not measures_speed(None)
    assert not measures_speed("")


GUARDED_SUM = '''\
import time

import jax
import jax.numpy as jnp

step = jax.jit(lambda x: jnp.tanh(x @ x.T))


def bench(num_iter=10, num_warmup=3):
    x = jnp.ones((256, 256))
    total = first = 0.0
    for i in range(num_iter):
        tic = time.perf_counter()
        step(x).block_until_ready()
        dur = time.perf_counter() - tic
        if i >= num_warmup:
            total += dur
{other}
    print(f"latency: {{total / (num_iter - num_warmup) * 1e3:.2f}} ms")


if __name__ == "__main__":
    bench()
'''


def test_rounds_left_out_where_the_figure_is_summed_leave_the_compile_out() -> None:
    assert codes(GUARDED_SUM.format(other=""), "benchmarks/step.py") == []


def test_an_else_that_sums_the_first_rounds_too_keeps_them_in() -> None:
    other = "        else:\n            first += dur"
    assert codes(GUARDED_SUM.format(other=other), "benchmarks/step.py") == [(14, "JAX105")]


TRAINING_TOTAL = '''\
import time

import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    return params - 0.1 * batch.mean()


@jax.jit
def evaluate(params):
    return (params * 2).sum()


params, held = jnp.ones(8), jnp.ones(8)
data = [jnp.ones((64, 8))] * 1000
eval_every = 100
started = time.perf_counter()
for step, batch in enumerate(data):
    params = train_step(params, batch)
    {evaluation}
jax.block_until_ready(params)
elapsed = time.perf_counter() - started
print(f"Total training loop time: {{elapsed}} s")
'''


@pytest.mark.parametrize("evaluation, found", [
    # an evaluation every ``eval_every`` steps: not a call repeated on every round
    ("if step % eval_every == 0:\n        print(float(evaluate(held)))", []),
    # the same call on every round, with the same arguments: a benchmark's loop
    ("print(float(evaluate(held)))", [(22, "JAX105"), (23, "JAX105")]),
])
def test_a_periodic_evaluation_is_not_a_repeated_call(evaluation: str,
                                                      found: list[tuple[int, str]]) -> None:
    """A training run's total is not a measurement of speed because an evaluation inside
    its loop takes the same arguments each time it runs (flax's gemma example): the call a
    benchmark repeats runs on every round."""
    source = TRAINING_TOTAL.format(evaluation=evaluation)
    assert codes(source, "examples/train.py") == found


@pytest.mark.parametrize("words, alone", [
    ("compile time", True),
    ("compilation", True),
    ("compile_time_s", True),
    ("compiled_time", True),
    ("jit compiled in 2.1 s", True),
    ("tracing time", True),
    # "compiled" says what ran, not that the figure is the compile
    ("Second run (compiled)", False),
    ("time of the compiled version", False),
    ("JIT-compiled function", False),
    # the compile on top of the run
    ("First run (with compilation)", False),
    ("first call (incl. compile)", False),
    ("Compiling and solving took", False),
    ("compile + run", False),
])
def test_the_words_that_name_the_compile_alone(words: str, alone: bool) -> None:
    assert only_compile(words) is alone
