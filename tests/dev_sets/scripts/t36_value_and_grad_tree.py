import time

import jax
import jax.numpy as jnp


def init_params(key, sizes):
    params = []
    for k, (m, n) in zip(jax.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        params.append({"w": jax.random.normal(k, (m, n)) / jnp.sqrt(m), "b": jnp.zeros(n)})
    return params


def loss_fn(params, x, y):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    logits = x @ params[-1]["w"] + params[-1]["b"]
    return -jnp.mean(jnp.sum(jax.nn.log_softmax(logits) * y, axis=-1))


grad_step = jax.jit(jax.value_and_grad(loss_fn))


def profile(params, x, y, n=20):
    jax.block_until_ready(grad_step(params, x, y))
    out = []
    for _ in range(n):
        t0 = time.perf_counter()
        loss, grads = grad_step(params, x, y)
        jax.block_until_ready((loss, grads))
        out.append(time.perf_counter() - t0)  # mark:A
    return out


if __name__ == "__main__":
    params = init_params(jax.random.PRNGKey(0), [784, 512, 512, 10])
    x = jnp.ones((512, 784))
    y = jax.nn.one_hot(jnp.arange(512) % 10, 10)
    ts = profile(params, x, y)
    print(f"fwd+bwd: min {min(ts) * 1e3:.2f} ms")
