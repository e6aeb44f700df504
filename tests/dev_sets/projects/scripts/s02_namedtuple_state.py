"""Adam-like optimizer on a NamedTuple state, timed in CPU time and wall time."""
import time
from typing import NamedTuple

import jax
import jax.numpy as jnp


class OptState(NamedTuple):
    params: jnp.ndarray
    mu: jnp.ndarray
    nu: jnp.ndarray
    count: jnp.ndarray


def rosenbrock(p):
    return jnp.sum(100.0 * (p[1:] - p[:-1] ** 2) ** 2 + (1 - p[:-1]) ** 2)


@jax.jit
def adam_step(state: OptState, lr=1e-3, b1=0.9, b2=0.999, eps=1e-8):
    g = jax.grad(rosenbrock)(state.params)
    count = state.count + 1
    mu = b1 * state.mu + (1 - b1) * g
    nu = b2 * state.nu + (1 - b2) * g * g
    mu_hat = mu / (1 - b1 ** count)
    nu_hat = nu / (1 - b2 ** count)
    params = state.params - lr * mu_hat / (jnp.sqrt(nu_hat) + eps)
    return OptState(params, mu, nu, count)


def init(n):
    p = jnp.zeros((n,))
    return OptState(p, jnp.zeros_like(p), jnp.zeros_like(p), jnp.zeros((), jnp.int32))


def cpu_time_per_step(state, iters=1000):
    jax.block_until_ready(adam_step(state))
    c0 = time.process_time()
    for _ in range(iters):
        state = adam_step(state)
    c1 = time.process_time()  # mark
    return (c1 - c0) / iters, state


def cpu_time_per_step_synced(state, iters=1000):
    jax.block_until_ready(adam_step(state))
    c0 = time.process_time()
    for _ in range(iters):
        state = adam_step(state)
    jax.block_until_ready(state)
    c1 = time.process_time()  # mark
    return (c1 - c0) / iters, state


def wall_time_per_step(state, iters=1000):
    jax.block_until_ready(adam_step(state))
    t0 = time.perf_counter()
    for _ in range(iters):
        state = adam_step(state)
    state.params.block_until_ready()
    t1 = time.perf_counter()  # mark
    return (t1 - t0) / iters, state


def wall_time_lr(state, lr):
    jax.block_until_ready(adam_step(state, lr))
    t0 = time.perf_counter()
    new_state = adam_step(state, lr)
    jax.block_until_ready(state)
    t1 = time.perf_counter()  # mark
    return t1 - t0, new_state


if __name__ == "__main__":
    s = init(100_000)
    print(cpu_time_per_step(s)[0])
    print(cpu_time_per_step_synced(s)[0])
    print(wall_time_per_step(s)[0])
    print(wall_time_lr(s, 3e-4)[0])
