import time

import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x, y):
    return jnp.mean((jnp.tanh(x @ w) - y) ** 2)


def per_example(w, x, y):
    return jax.grad(loss)(w, x[None], y[None])


def main():
    rng = np.random.default_rng(0)
    x_np = rng.standard_normal((4096, 512)).astype(np.float32)
    y_np = rng.standard_normal((4096, 64)).astype(np.float32)
    w = jnp.zeros((512, 64))

    grad_fn = jax.grad(loss)
    batched = jax.vmap(per_example, in_axes=(None, 0, 0))
    x, y = jnp.asarray(x_np), jnp.asarray(y_np)
    jax.block_until_ready((grad_fn(w, x, y), batched(w, x[:8], y[:8])))

    t0 = time.perf_counter()
    g = grad_fn(w, x, y)
    t_grad = time.perf_counter() - t0

    t0 = time.perf_counter()
    pe = batched(w, x[:8], y[:8])
    pe = jax.block_until_ready(pe)
    t_vmap = time.perf_counter() - t0

    t0 = time.perf_counter()
    x_dev = jax.device_put(x_np)
    t_h2d = time.perf_counter() - t0

    t0 = time.perf_counter()
    y_dev = jax.device_put(y_np).block_until_ready()
    t_h2d_sync = time.perf_counter() - t0

    print(f"grad {t_grad:.4f}  vmap {t_vmap:.4f}  h2d {t_h2d:.4f} / {t_h2d_sync:.4f}")
    return g, x_dev, y_dev


if __name__ == "__main__":
    main()
