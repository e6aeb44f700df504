"""Train state as a frozen dataclass registered as a pytree."""
import dataclasses
import functools
import time

import jax
import jax.numpy as jnp


@functools.partial(jax.tree_util.register_dataclass,
                   data_fields=["params", "momentum", "step"], meta_fields=["lr"])
@dataclasses.dataclass(frozen=True)
class TrainState:
    params: dict
    momentum: dict
    step: jnp.ndarray
    lr: float = 0.01

    def apply_gradients(self, grads):
        momentum = jax.tree_util.tree_map(lambda m, g: 0.9 * m + g, self.momentum, grads)
        params = jax.tree_util.tree_map(lambda p, m: p - self.lr * m, self.params, momentum)
        return dataclasses.replace(self, params=params, momentum=momentum, step=self.step + 1)


def model(params, x):
    for w in params["layers"]:
        x = jnp.tanh(x @ w)
    return x @ params["head"]


@jax.jit
def train_step(state: TrainState, x, y):
    def loss_fn(p):
        return jnp.mean((model(p, x) - y) ** 2)

    loss, grads = jax.value_and_grad(loss_fn)(state.params)
    return state.apply_gradients(grads), loss


def create_state(key, width=1024, depth=4, lr=0.01):
    keys = jax.random.split(key, depth + 1)
    params = {
        "layers": [jax.random.normal(k, (width, width)) / jnp.sqrt(width) for k in keys[:-1]],
        "head": jax.random.normal(keys[-1], (width, 1)) / jnp.sqrt(width),
    }
    zeros = jax.tree_util.tree_map(jnp.zeros_like, params)
    return TrainState(params=params, momentum=zeros, step=jnp.zeros((), jnp.int32), lr=lr)


def time_steps(state, x, y, n=50):
    state, loss = train_step(state, x, y)
    jax.block_until_ready(state)
    t0 = time.perf_counter()
    for _ in range(n):
        state, loss = train_step(state, x, y)
    jax.block_until_ready(state)
    t1 = time.perf_counter()  # mark
    return state, (t1 - t0) / n


def time_steps_old_ref(state, x, y, n=50):
    state, loss = train_step(state, x, y)
    jax.block_until_ready(state)
    initial = state
    t0 = time.perf_counter()
    for _ in range(n):
        state, loss = train_step(state, x, y)
    jax.block_until_ready(initial)
    t1 = time.perf_counter()  # mark
    return state, (t1 - t0) / n


def time_new_lr(state, x, y):
    state, loss = train_step(state, x, y)
    jax.block_until_ready(state)
    faster = dataclasses.replace(state, lr=0.05)
    t0 = time.perf_counter()
    faster, loss = train_step(faster, x, y)  # mark
    jax.block_until_ready((faster, loss))
    t1 = time.perf_counter()
    return faster, t1 - t0


if __name__ == "__main__":
    key = jax.random.PRNGKey(0)
    st = create_state(key)
    x = jax.random.normal(key, (512, 1024))
    y = jnp.sum(x, axis=1, keepdims=True) / 32.0
    st, per_step = time_steps(st, x, y)
    print("per step", per_step)
    st, per_step = time_steps_old_ref(st, x, y)
    print("per step (old)", per_step)
    print("new lr", time_new_lr(st, x, y)[1])
