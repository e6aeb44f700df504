"""Benchmarks that rely on the helpers in sync.py / host.py."""
import time

import jax
import jax.numpy as jnp

from .host import summarize, to_numpy
from .ops import attention, update
from .sync import sync_tree


def make_state(key, n_layers=4, d=1024):
    keys = jax.random.split(key, n_layers)
    return {f"layer{i}": jax.random.normal(k, (d, d)) for i, k in enumerate(keys)}


def bench_update(state, grads, iters=20):
    sync_tree(update(state, grads))
    t0 = time.perf_counter()
    for _ in range(iters):
        state = update(state, grads)
    sync_tree(state)
    t1 = time.perf_counter()  # mark
    return (t1 - t0) / iters, state


def bench_update_numpy(state, grads, iters=20):
    sync_tree(update(state, grads))
    t0 = time.perf_counter()
    for _ in range(iters):
        state = update(state, grads)
    host_w = to_numpy(state["layer0"])
    t1 = time.perf_counter()  # mark
    return (t1 - t0) / iters, host_w


def bench_update_previous(state, grads):
    sync_tree(update(state, grads))
    before = state
    t0 = time.perf_counter()
    state = update(state, grads)
    sync_tree(before)
    t1 = time.perf_counter()  # mark
    return t1 - t0, state


def bench_attention_many(q, k, v, iters=50):
    sync_tree(attention(q, k, v))
    outs = []
    t0 = time.perf_counter()
    for _ in range(iters):
        outs.append(attention(q, k, v))
    sync_tree(outs[-1])
    t1 = time.perf_counter()  # mark
    return (t1 - t0) / iters


def bench_attention_monotonic(q, k, v):
    sync_tree(attention(q, k, v))
    t0 = time.monotonic()
    out = attention(q, k, v)
    t1 = time.monotonic()  # mark
    stats = summarize(out)
    return t1 - t0, stats


def bench_attention_stats(q, k, v):
    sync_tree(attention(q, k, v))
    t0 = time.monotonic()
    out = attention(q, k, v)
    stats = summarize(out)
    t1 = time.monotonic()  # mark
    return t1 - t0, stats


def bench_attention_pair(q, k, v):
    sync_tree(attention(q, k, v))
    t0 = time.perf_counter()
    outs = {"self": attention(q, q, q), "cross": attention(q, k, v)}
    sync_tree(outs)
    t1 = time.perf_counter()  # mark
    return t1 - t0, outs


def main():
    key = jax.random.PRNGKey(0)
    state = make_state(key)
    grads = jax.tree_util.tree_map(jnp.ones_like, state)
    print(bench_update(state, grads)[0])
    print(bench_update_numpy(state, grads)[0])
    print(bench_update_previous(state, grads)[0])
    q = jax.random.normal(key, (8, 512, 64))
    print(bench_attention_many(q, q, q))
    print(bench_attention_monotonic(q, q, q))
    print(bench_attention_stats(q, q, q))
    print(bench_attention_pair(q, q, q)[0])


if __name__ == "__main__":
    main()
