import time
from functools import partial

import jax
import jax.numpy as jnp


def mse(params, batch):
    x, y = batch
    pred = x @ params["w"] + params["b"]
    return jnp.mean((pred - y) ** 2)


def huber(params, batch, delta=1.0):
    x, y = batch
    r = jnp.abs(x @ params["w"] + params["b"] - y)
    return jnp.mean(jnp.where(r < delta, 0.5 * r**2, delta * (r - 0.5 * delta)))


def make_step(loss_fn, lr):
    @jax.jit
    def step(params, batch):
        loss, grads = jax.value_and_grad(loss_fn)(params, batch)
        params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
        return params, loss

    return step


def init(key, d):
    return {"w": jax.random.normal(key, (d,)) * 0.01, "b": jnp.zeros(())}


def main(d=512, n=4096, iters=100):
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (n, d))
    y = x[:, 0] * 3.0
    batch = (x, y)
    params = init(key, d)

    step = make_step(mse, lr=1e-2)
    params, loss = step(params, batch)
    jax.block_until_ready(params)

    # --- steady-state step time --------------------------------------------
    t0 = time.perf_counter()
    for _ in range(iters):
        params, loss = step(params, batch)
    t1 = time.perf_counter()
    print(f"mse: {(t1 - t0) / iters * 1e3:.3f} ms/step  loss={loss}")

    # --- same thing, waiting for the device --------------------------------
    t0 = time.perf_counter()
    for _ in range(iters):
        params, loss = step(params, batch)
    params, loss = jax.block_until_ready((params, loss))
    t1 = time.perf_counter()
    print(f"mse (synced): {(t1 - t0) / iters * 1e3:.3f} ms/step")

    # --- huber: single step latency ----------------------------------------
    step_huber = make_step(partial(huber, delta=0.5), lr=1e-3)
    t0 = time.perf_counter()
    params, loss = step_huber(params, batch)
    jax.block_until_ready(params)
    step_ms = (time.perf_counter() - t0) * 1e3
    print(f"huber step: {step_ms:.2f} ms")


if __name__ == "__main__":
    main()
