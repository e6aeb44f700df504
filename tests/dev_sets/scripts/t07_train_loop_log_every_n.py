import time

import jax
import jax.numpy as jnp
import numpy as np

LR = 1e-2
LOG_EVERY = 50


def loss_fn(params, x, y):
    pred = x @ params["w"] + params["b"]
    return jnp.mean((pred - y) ** 2)


@jax.jit
def train_step(params, x, y):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    params = jax.tree.map(lambda p, g: p - LR * g, params, grads)
    return params, loss


def main():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(4096, 32)).astype(np.float32)
    Y = X @ rng.normal(size=(32, 1)).astype(np.float32)
    params = {"w": jnp.zeros((32, 1)), "b": jnp.zeros((1,))}

    # warm-up
    params, _ = train_step(params, X[:128], Y[:128])
    jax.block_until_ready(params)

    step_times = []
    for step in range(500):
        idx = rng.integers(0, len(X), size=128)
        xb, yb = X[idx], Y[idx]
        t0 = time.perf_counter()
        params, loss = train_step(params, xb, yb)
        step_times.append(time.perf_counter() - t0)  # mark:A
        if step % LOG_EVERY == 0:
            avg = sum(step_times[-LOG_EVERY:]) / len(step_times[-LOG_EVERY:])
            print(f"step {step} loss {loss:.4f} avg step {avg * 1e3:.2f}ms")


if __name__ == "__main__":
    main()
