import time

import jax
import jax.numpy as jnp


def loss(params, x):
    return jnp.mean((x @ params["w"]) ** 2) + 1e-4 * jnp.sum(params["w"] ** 2)


grad_fn = jax.jit(jax.grad(loss))


@jax.jit
def apply_updates(params, grads, lr=0.1):
    return jax.tree.map(lambda p, g: p - lr * g, params, grads)


def train(params, x, steps=100):
    g = grad_fn(params, x)
    jax.block_until_ready(apply_updates(params, g))
    step_times = []
    for _ in range(steps):
        t = time.perf_counter()
        grads = grad_fn(params, x)
        new_params = apply_updates(params, grads)
        jax.block_until_ready(params)
        step_times.append(time.perf_counter() - t)  # mark:A
        params = new_params
    return params, step_times


if __name__ == "__main__":
    params = {"w": jnp.ones((512, 512)) * 0.01}
    x = jax.random.normal(jax.random.PRNGKey(0), (1024, 512))
    params, times = train(params, x)
    print(f"mean step {sum(times) / len(times) * 1e3:.3f} ms")
