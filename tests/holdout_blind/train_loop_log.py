import logging
import time

import jax
import jax.numpy as jnp

logging.basicConfig(level=logging.INFO, format="%(asctime)s %(message)s")


@jax.jit
def train_step(state, batch):
    x, y = batch

    def loss_fn(w):
        return jnp.mean((jnp.tanh(x @ w) - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(state["w"])
    return {"w": state["w"] - 0.05 * g, "step": state["step"] + 1}, {"loss": loss}


def train(state, data_iter, first_step, num_steps, log_every=100):
    t_window = None
    for step in range(first_step, num_steps):
        batch = next(data_iter)
        if step == first_step:
            t_compile = time.perf_counter()
        state, metrics = train_step(state, batch)
        if step == first_step:
            jax.block_until_ready(state)
            compile_s = time.perf_counter() - t_compile
            logging.info("first step (incl. compile): %.1fs", compile_s)
            t_window = time.perf_counter()
        elif (step + 1) % log_every == 0:
            loss = float(metrics["loss"])
            dt = time.perf_counter() - t_window
            logging.info("step %d loss %.4f  %.1f steps/s", step, loss, log_every / dt)
            t_window = time.perf_counter()
    return state


def train_quick(state, loader, batch_size, log_every=50):
    for step, batch in enumerate(loader):
        state, metrics = train_step(state, batch)
        if step == 0:
            t_last = time.time()  # don't count compilation
            continue
        if step % log_every == 0:
            elapsed = time.time() - t_last
            print(f"step {step}: {log_every * batch_size / elapsed:.0f} samples/s")
            t_last = time.time()
    return state


if __name__ == "__main__":
    k = jax.random.PRNGKey(0)
    x = jax.random.normal(k, (256, 128))

    def data():
        while True:
            yield x, x[:, :1]

    st = {"w": jnp.zeros((128, 1)), "step": 0}
    st = train(st, data(), 0, 1000)
    it = data()
    train_quick(st, (next(it) for _ in range(500)), 256)
