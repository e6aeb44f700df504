import time

import jax
import jax.numpy as jnp
import numpy as np


def predict(p, x):
    return jnp.tanh(x @ p["w1"]) @ p["w2"]


@jax.jit
def evaluate(p, x, y):
    return jnp.mean((predict(p, x) - y) ** 2)


@jax.jit
def update(p, x, y):
    loss, g = jax.value_and_grad(lambda q: jnp.mean((predict(q, x) - y) ** 2))(p)
    return {k: p[k] - 0.05 * g[k] for k in p}, loss


def train(epochs=2, steps=10):
    rng = np.random.default_rng(0)
    p = {"w1": jnp.asarray(rng.normal(0, 0.1, (32, 128)), dtype=jnp.float32),
         "w2": jnp.asarray(rng.normal(0, 0.1, (128, 1)), dtype=jnp.float32)}
    X_np = rng.normal(size=(1024, 32)).astype(np.float32)
    X = jnp.asarray(X_np)
    Y = jnp.asarray(X_np[:, :4].sum(axis=1, keepdims=True))

    step_times = []
    for epoch in range(epochs):
        t_ep = time.time()
        for i in range(steps):
            ts = time.time()
            p, loss = update(p, X, Y)
            if i % 5 == 0:
                print(f"  step {i} loss {loss:.4f}")
            step_times.append(time.time() - ts)
        l = float(evaluate(p, X, Y))
        print(f"epoch {epoch}: loss={l:.4f} ({time.time() - t_ep:.3f}s)")
    return step_times


if __name__ == "__main__":
    train()
