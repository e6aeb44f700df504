import time

import jax
import jax.numpy as jnp

LOG_EVERY = 20


def objective(params, x, y):
    return jnp.mean((x @ params["w"] + params["b"] - y) ** 2)


loss_and_grad = jax.jit(jax.value_and_grad(objective))


@jax.jit
def sgd(params, grads):
    return jax.tree.map(lambda p, g: p - 0.01 * g, params, grads)


if __name__ == "__main__":
    x = jax.random.normal(jax.random.PRNGKey(0), (8192, 1024))
    y = jnp.ones((8192, 1))
    params = {"w": jnp.zeros((1024, 1)), "b": jnp.zeros(1)}
    l, g = loss_and_grad(params, x, y)
    jax.block_until_ready(sgd(params, g))

    for step in range(200):
        t0 = time.perf_counter()
        loss, grads = loss_and_grad(params, x, y)
        params = sgd(params, grads)
        loss.block_until_ready()
        dt = time.perf_counter() - t0  # mark:A
        if step % LOG_EVERY == 0:
            print(f"step {step:4d} loss={float(loss):.4f} step_time={dt * 1e3:.2f}ms")
