import time
from functools import partial

import jax
import jax.numpy as jnp


@partial(jax.jit, static_argnums=(0, 1))
def _dense(m, n, phase):
    w = jnp.cos(jnp.arange(m * n, dtype=jnp.float32) * phase).reshape(m, n)
    return {"w": w / jnp.sqrt(m), "b": jnp.zeros(n)}


def init(seed, sizes):
    return [_dense(m, n, seed + i + 1.7)
            for i, (m, n) in enumerate(zip(sizes[:-1], sizes[1:]))]


def forward(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    last = params[-1]
    return x @ last["w"] + last["b"]


@jax.jit
def sgd(params, x, y):
    def loss(p):
        return jnp.mean((forward(p, x) - y) ** 2)
    l, g = jax.value_and_grad(loss)(params)
    return jax.tree_util.tree_map(lambda p, d: p - 1e-3 * d, params, g), l


def main():
    seed = 0
    sizes = [64, 192, 1]
    T0 = time.perf_counter()
    params = init(seed, sizes)
    T1 = time.perf_counter()
    params = jax.block_until_ready(params)
    x = jnp.linspace(-2.0, 2.0, 512 * 64).reshape(512, 64)
    y = jnp.sin(x[:, :1])
    sgd(params, x, y)[1].block_until_ready()

    T2 = time.perf_counter()
    for _ in range(15):
        params, l = sgd(params, x, y)
    jax.block_until_ready((params, l))
    T3 = time.perf_counter()
    host = jax.device_get({"loss": l, "params": params})
    T4 = time.perf_counter()
    print("init", T1 - T0, "train", T3 - T2, "fetch", T4 - T3, host["loss"])


if __name__ == "__main__":
    main()
