"""Benchmarks built on the timeit module."""
import statistics
import timeit

import jax
import jax.numpy as jnp


@jax.jit
def softmax_xent(logits, labels):
    return -jnp.sum(jax.nn.log_softmax(logits) * labels, axis=-1).mean()


def inputs(key, n=8192, c=1000):
    k1, k2 = jax.random.split(key)
    logits = jax.random.normal(k1, (n, c))
    labels = jax.nn.one_hot(jax.random.randint(k2, (n,), 0, c), c)
    return logits, labels


def bench_timer(logits, labels, number=200):
    softmax_xent(logits, labels).block_until_ready()
    t = timeit.Timer(lambda: softmax_xent(logits, labels))
    return t.timeit(number=number) / number  # mark


def bench_repeat(logits, labels, number=50, repeat=7):
    softmax_xent(logits, labels).block_until_ready()
    runs = timeit.repeat(  # mark
        lambda: jax.block_until_ready(softmax_xent(logits, labels)),
        number=number,
        repeat=repeat,
    )
    return statistics.median(runs) / number


def bench_stmt_string(logits, labels, number=100):
    softmax_xent(logits, labels).block_until_ready()
    total = timeit.timeit(  # mark
        "softmax_xent(logits, labels).block_until_ready()",
        globals={"softmax_xent": softmax_xent, "logits": logits, "labels": labels},
        number=number,
    )
    return total / number


def bench_default_timer(logits, labels, number=100):
    softmax_xent(logits, labels).block_until_ready()
    start = timeit.default_timer()
    for _ in range(number):
        loss = softmax_xent(logits, labels)
    stop = timeit.default_timer()  # mark
    return (stop - start) / number, loss


def bench_default_timer_synced(logits, labels, number=100):
    softmax_xent(logits, labels).block_until_ready()
    start = timeit.default_timer()
    for _ in range(number):
        loss = softmax_xent(logits, labels)
    jax.block_until_ready(loss)
    stop = timeit.default_timer()  # mark
    return (stop - start) / number


def bench_grad(logits, labels, number=20):
    grad_fn = jax.jit(jax.grad(softmax_xent))
    t = timeit.timeit(lambda: grad_fn(logits, labels).block_until_ready(), number=number)  # mark
    return t / number


if __name__ == "__main__":
    lg, lb = inputs(jax.random.PRNGKey(0))
    print(bench_timer(lg, lb))
    print(bench_repeat(lg, lb))
    print(bench_stmt_string(lg, lb))
    print(bench_default_timer(lg, lb)[0])
    print(bench_default_timer_synced(lg, lb))
    print(bench_grad(lg, lb))
