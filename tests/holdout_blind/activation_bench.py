# Quick and dirty: which activation is cheapest on this box?
import time

import jax
import jax.numpy as jnp
import numpy as np


def gelu_tanh(x):
    return 0.5 * x * (1.0 + jnp.tanh(0.7978845608 * (x + 0.044715 * x**3)))


def swish(x):
    return x * jax.nn.sigmoid(x)


def relu_sq(x):
    return jnp.square(jax.nn.relu(x))


CANDIDATES = [
    ("gelu_tanh", jax.jit(gelu_tanh)),
    ("swish", jax.jit(swish)),
    ("relu2", jax.jit(relu_sq)),
]

RAW = {"gelu": gelu_tanh, "swish": swish, "relu2": relu_sq}


def bench_list(x, n_iter=50):
    for _, fn in CANDIDATES:
        fn(x).block_until_ready()
    rows = []
    for name, fn in CANDIDATES:
        t_start = time.perf_counter()
        for _ in range(n_iter):
            y = fn(x)
        t_end = time.perf_counter()
        y.block_until_ready()
        rows.append((name, (t_end - t_start) / n_iter))
    return rows


def bench_list_per_call(x, n_iter=50):
    table = {}
    for name, fn in CANDIDATES:
        fn(x).block_until_ready()  # compile
        times = []
        for _ in range(n_iter):
            t0 = time.perf_counter()
            fn(x).block_until_ready()
            times.append(time.perf_counter() - t0)
        table[name] = float(np.median(times))
    return table


def bench_dict(x, reps=20):
    jitted = {k: jax.jit(f) for k, f in RAW.items()}
    for f in jitted.values():
        f(x).block_until_ready()
    out = {}
    for key, f in jitted.items():
        begin = time.perf_counter()
        for _ in range(reps):
            z = f(x)
        x.block_until_ready()
        out[key] = (time.perf_counter() - begin) / reps
    return out


if __name__ == "__main__":
    x = jax.random.normal(jax.random.PRNGKey(0), (4096, 4096))
    print(bench_list(x))
    print(bench_list_per_call(x))
    print(bench_dict(x))
