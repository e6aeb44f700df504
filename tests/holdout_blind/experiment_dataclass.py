from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, NamedTuple

import jax
import jax.numpy as jnp


@dataclass
class Experiment:
    name: str
    step_fn: Callable
    eval_fn: Callable
    n_steps: int = 100
    log: list = field(default_factory=list)


def loss_fn(w, batch):
    x, y = batch
    return jnp.mean((x @ w - y) ** 2)


def sgd_step(w, batch):
    return w - 0.01 * jax.grad(loss_fn)(w, batch)


def build(name="linreg") -> Experiment:
    return Experiment(name=name, step_fn=jax.jit(sgd_step), eval_fn=jax.jit(loss_fn))


def run(exp: Experiment, w, batch):
    w = exp.step_fn(w, batch)  # trace + compile
    w.block_until_ready()
    t0 = time.perf_counter()
    for _ in range(exp.n_steps):
        w = exp.step_fn(w, batch)
    elapsed = time.perf_counter() - t0
    exp.log.append({"steps_per_sec": exp.n_steps / elapsed})
    return w


def run_eval(exp: Experiment, w, batch):
    exp.eval_fn(w, batch).block_until_ready()
    t0 = time.perf_counter()
    loss = exp.eval_fn(w, batch)
    loss_val = float(loss)
    elapsed = time.perf_counter() - t0
    exp.log.append({"eval_s": elapsed, "loss": loss_val})
    return loss_val


class ModelFns(NamedTuple):
    forward: Callable
    backward: Callable


def make_fns() -> ModelFns:
    fwd = jax.jit(lambda w, x: jnp.tanh(x @ w))
    bwd = jax.jit(jax.grad(lambda w, x: jnp.sum(jnp.tanh(x @ w))))
    return ModelFns(forward=fwd, backward=bwd)


def time_backward(fns: ModelFns, w, x, iters=20):
    fns.forward(w, x).block_until_ready()
    fns.backward(w, x).block_until_ready()
    s = time.perf_counter()
    for _ in range(iters):
        g = fns.backward(w, x)
    e = time.perf_counter()
    return (e - s) / iters


def time_forward(fns: ModelFns, w, x, iters=20):
    warm = fns.forward(w, x)
    jax.block_until_ready(warm)
    s = time.perf_counter()
    for _ in range(iters):
        y = fns.forward(w, x)
    y = jax.block_until_ready(y)
    e = time.perf_counter()
    return (e - s) / iters


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (1024, 256))
    y = x @ jnp.ones((256,))
    exp = build()
    w = run(exp, jnp.zeros((256,)), (x, y))
    run_eval(exp, w, (x, y))
    print(exp.log)
    fns = make_fns()
    W = jnp.eye(256)
    print("bwd", time_backward(fns, W, x), "fwd", time_forward(fns, W, x))
