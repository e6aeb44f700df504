"""Linear regression training loop with coarse timing."""
import jax
import jax.numpy as jnp

from .utils import Timer, timed


def loss_fn(w, x, y):
    pred = x @ w
    return jnp.mean((pred - y) ** 2)


@jax.jit
def sgd_step(w, x, y):
    loss, g = jax.value_and_grad(loss_fn)(w, x, y)
    return w - 0.01 * g, loss


def make_data(key, n=4096, d=256):
    kx, kw, kn = jax.random.split(key, 3)
    x = jax.random.normal(kx, (n, d))
    true_w = jax.random.normal(kw, (d, 1))
    y = x @ true_w + 0.1 * jax.random.normal(kn, (n, 1))
    return x, y


def run(num_steps=200):
    x, y = make_data(jax.random.PRNGKey(0))
    w = jnp.zeros((x.shape[1], 1))

    # compile once before measuring anything
    w, loss = sgd_step(w, x, y)
    jax.block_until_ready(w)

    with Timer("train-loop") as t_loop:  # mark
        for _ in range(num_steps):
            w, loss = sgd_step(w, x, y)
    print(f"{num_steps} steps dispatched in {t_loop.elapsed:.4f}s")

    with Timer("train-loop-synced") as t_sync:  # mark
        for _ in range(num_steps):
            w, loss = sgd_step(w, x, y)
        jax.block_until_ready((w, loss))
    print(f"{num_steps} steps in {t_sync.elapsed:.4f}s, {t_sync.elapsed / num_steps * 1e3:.3f} ms/step")

    with Timer("train-loop-report") as t_rep:  # mark
        for _ in range(num_steps):
            w, loss = sgd_step(w, x, y)
        final_loss = float(loss)
    print(f"final loss {final_loss:.5f} after {t_rep.elapsed:.4f}s")

    with Timer("per-step-synced") as t_each:  # mark
        for _ in range(num_steps):
            w, loss = sgd_step(w, x, y)
            w.block_until_ready()
    print(f"per-step synced: {t_each.elapsed / num_steps * 1e3:.3f} ms/step")

    @timed
    def single_step(w):
        return sgd_step(w, x, y)

    @timed
    def single_step_blocking(w):
        out = sgd_step(w, x, y)
        return jax.block_until_ready(out)

    w, loss = single_step(w)  # mark
    print("single step", single_step.last_elapsed)

    w, loss = single_step_blocking(w)  # mark
    print("single step (blocking)", single_step_blocking.last_elapsed)

    return w


if __name__ == "__main__":
    run()
