import time

import jax
import jax.numpy as jnp


def predict(params, x):
    h = jnp.tanh(x @ params["w1"])
    return h @ params["w2"]


def loss_fn(params, x, y):
    return jnp.mean((predict(params, x) - y) ** 2)


@jax.jit
def update(params, x, y, lr=0.05):
    loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
    new_params = jax.tree.map(lambda p, g: p - lr * g, params, grads)
    return new_params, loss


if __name__ == "__main__":
    k1, k2, k3 = jax.random.split(jax.random.PRNGKey(0), 3)
    params = {"w1": jax.random.normal(k1, (64, 256)) * 0.1,
              "w2": jax.random.normal(k2, (256, 1)) * 0.1}
    x = jax.random.normal(k3, (1024, 64))
    y = jnp.sin(x[:, :1])

    params, loss = update(params, x, y)
    loss.block_until_ready()

    t_start = time.perf_counter()
    for i in range(100):
        params, loss = update(params, x, y)
    # loss is an output of the same jitted call that produced params
    loss.block_until_ready()
    total = time.perf_counter() - t_start  # mark:A
    print(f"{100 / total:.1f} steps/s, final loss {float(loss):.5f}")
