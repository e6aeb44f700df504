import time

import jax
import jax.numpy as jnp

from .data import device_batches
from .metrics import block, fetch
from .timing import timed


def init(key, dim=128):
    return {"w": jax.random.normal(key, (dim, 2)) * 0.01, "b": jnp.zeros((2,))}


def logits_fn(params, x):
    return x @ params["w"] + params["b"]


@jax.jit
def train_step(params, x, y):
    def loss(p):
        logp = jax.nn.log_softmax(logits_fn(p, x))
        return -jnp.mean(logp[jnp.arange(y.shape[0]), y])

    l, g = jax.value_and_grad(loss)(params)
    return jax.tree_util.tree_map(lambda p, gg: p - 0.1 * gg, params, g), l


@jax.jit
def eval_step(params, x, y):
    pred = jnp.argmax(logits_fn(params, x), axis=-1)
    return {"correct": jnp.sum(pred == y), "count": y.shape[0]}


@timed
def run_epoch(params, num_batches):
    for x, y in device_batches(num_batches):
        params, _ = train_step(params, x, y)
    return block(params)


@timed
def eval_epoch(params, num_batches):
    totals = {"correct": jnp.zeros((), jnp.int32), "count": 0}
    for x, y in device_batches(num_batches, seed=1):
        m = eval_step(params, x, y)
        totals = {"correct": totals["correct"] + m["correct"], "count": totals["count"] + m["count"]}
    return fetch(totals)


@timed
def eval_epoch_lazy(params, num_batches):
    correct = jnp.zeros((), jnp.int32)
    for x, y in device_batches(num_batches, seed=2):
        correct = correct + eval_step(params, x, y)["correct"]
    return correct


def main():
    params = init(jax.random.PRNGKey(0))
    for x, y in device_batches(1):
        block(train_step(params, x, y))
        block(eval_step(params, x, y))

    params, secs = run_epoch(params, 50)  # mark
    print(f"train epoch {secs:.3f}s")

    totals, secs = eval_epoch(params, 20)  # mark
    print(f"eval acc {totals['correct'] / totals['count']:.3f} in {secs:.3f}s")

    correct, secs = eval_epoch_lazy(params, 20)  # mark
    print(f"eval (lazy) in {secs:.3f}s")

    t0 = time.perf_counter_ns()
    for x, y in device_batches(50, seed=3):
        params, loss = train_step(params, x, y)
    t1 = time.perf_counter_ns()  # mark
    print(f"manual epoch {(t1 - t0) / 1e9:.3f}s, last loss {loss}")


if __name__ == "__main__":
    main()
