"""Timing alongside jax.profiler traces."""
import time

import jax
import jax.numpy as jnp


@jax.jit
def layer_norm_mlp(x, w1, w2):
    mu = x.mean(-1, keepdims=True)
    var = x.var(-1, keepdims=True)
    h = (x - mu) / jnp.sqrt(var + 1e-5)
    return jax.nn.gelu(h @ w1) @ w2


def setup(key, n=4096, d=1024, hidden=4096):
    k1, k2, k3 = jax.random.split(key, 3)
    return (jax.random.normal(k1, (n, d)),
            jax.random.normal(k2, (d, hidden)) * 0.02,
            jax.random.normal(k3, (hidden, d)) * 0.02)


def profile_steps(x, w1, w2, logdir="/tmp/jax-trace", steps=10):
    layer_norm_mlp(x, w1, w2).block_until_ready()
    durations = []
    with jax.profiler.trace(logdir):
        for i in range(steps):
            with jax.profiler.StepTraceAnnotation("mlp", step_num=i):
                t0 = time.perf_counter()
                y = layer_norm_mlp(x, w1, w2)
                y.block_until_ready()
                durations.append(time.perf_counter() - t0)  # mark
    return durations


def annotate_only(x, w1, w2, steps=10):
    layer_norm_mlp(x, w1, w2).block_until_ready()
    durations = []
    for i in range(steps):
        with jax.profiler.TraceAnnotation(f"mlp-{i}"):
            t0 = time.perf_counter()
            y = layer_norm_mlp(x, w1, w2)
            durations.append(time.perf_counter() - t0)  # mark
    jax.block_until_ready(y)
    return durations


def traced_total(x, w1, w2, logdir="/tmp/jax-trace-total", steps=10):
    jax.block_until_ready(layer_norm_mlp(x, w1, w2))
    jax.profiler.start_trace(logdir)
    try:
        t0 = time.perf_counter()
        y = x
        for _ in range(steps):
            y = layer_norm_mlp(y, w1, w2)
        jax.block_until_ready(y)
        total = time.perf_counter() - t0  # mark
    finally:
        jax.profiler.stop_trace()
    return total


if __name__ == "__main__":
    args = setup(jax.random.PRNGKey(0))
    print(profile_steps(*args))
    print(annotate_only(*args))
    print(traced_total(*args))
