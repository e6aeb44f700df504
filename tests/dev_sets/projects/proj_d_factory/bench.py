import datetime
import time

import jax
import jax.numpy as jnp

from .factory import make_loss, make_step


def setup(key, d=2048):
    params = {"w": jax.random.normal(key, (d, d)) * 0.01}
    velocity = jax.tree_util.tree_map(jnp.zeros_like, params)
    x = jax.random.normal(key, (256, d))
    return params, velocity, x


def sweep_learning_rates(params, velocity, grads, lrs=(1e-1, 1e-2, 1e-3)):
    results = {}
    for lr in lrs:
        t0 = time.perf_counter()
        step = make_step(lr)
        p, v = step(params, velocity, grads)  # mark
        jax.block_until_ready((p, v))
        results[lr] = time.perf_counter() - t0
    return results


def steady_state(params, velocity, grads, iters=100):
    step = make_step(1e-2)
    p, v = step(params, velocity, grads)
    jax.block_until_ready(p)
    t0 = time.perf_counter()
    for _ in range(iters):
        p, v = step(p, v, grads)
    jax.block_until_ready((p, v))
    t1 = time.perf_counter()  # mark
    return (t1 - t0) / iters


def rebuild_each_iteration(params, velocity, grads, iters=10):
    jax.block_until_ready(make_step(1e-2)(params, velocity, grads))
    t0 = time.perf_counter()
    for _ in range(iters):
        step = make_step(1e-2)
        params, velocity = step(params, velocity, grads)  # mark
    jax.block_until_ready(params)
    return (time.perf_counter() - t0) / iters


def loss_and_grad(params, x):
    loss_grad = make_loss()
    (loss, grads) = loss_grad(params, x)
    loss.block_until_ready()
    t0 = time.time()
    loss, grads = loss_grad(params, x)
    grads["w"].block_until_ready()
    t1 = time.time()  # mark
    return t1 - t0, loss, grads


def loss_and_grad_wallclock(params, x):
    loss_grad = make_loss()
    jax.block_until_ready(loss_grad(params, x))
    started = datetime.datetime.now()
    loss, grads = loss_grad(params, x)
    finished = datetime.datetime.now()  # mark
    return (finished - started).total_seconds(), loss, grads


def main():
    params, velocity, x = setup(jax.random.PRNGKey(0))
    grads = jax.tree_util.tree_map(jnp.ones_like, params)
    print(sweep_learning_rates(params, velocity, grads))
    print(steady_state(params, velocity, grads))
    print(rebuild_each_iteration(params, velocity, grads))
    print(loss_and_grad(params, x)[0])
    print(loss_and_grad_wallclock(params, x)[0])


if __name__ == "__main__":
    main()
