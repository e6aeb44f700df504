import time

import jax
import jax.numpy as jnp
import numpy as np


def sq_loss(w, x, y):
    return (jnp.dot(x, w) - y) ** 2


per_example_grads = jax.vmap(jax.grad(sq_loss), in_axes=(None, 0, 0))
batched_loss = jax.vmap(sq_loss, in_axes=(None, 0, 0))


def main():
    rng = np.random.default_rng(0)
    X = jnp.asarray(rng.normal(size=(4096, 128)).astype(np.float32))
    Y = jnp.asarray(rng.normal(size=(4096,)).astype(np.float32))
    W = jnp.zeros(128)
    per_example_grads(W, X, Y).block_until_ready()

    t_0 = time.perf_counter()
    G = per_example_grads(W, X, Y)
    elapsed = time.perf_counter() - t_0
    print("per-example grads (unsynced):", elapsed)

    t_0 = time.perf_counter()
    G = jax.device_get(per_example_grads(W, X, Y))
    elapsed = time.perf_counter() - t_0
    print("per-example grads (device_get):", elapsed, G.shape)

    t_0 = time.perf_counter()
    L = batched_loss(W, X, Y).mean()
    print("loss", L, "took", time.perf_counter() - t_0)

    t_0 = time.perf_counter()
    G_np = np.asarray(per_example_grads(W, X, Y))
    G_np.sum()
    elapsed = time.perf_counter() - t_0
    print("np.asarray path:", elapsed)


if __name__ == "__main__":
    main()
