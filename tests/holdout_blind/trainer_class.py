"""Minimal trainer used by the ablation scripts. step_fn is injected so the
same loop works for the jitted and the pmapped variants."""
import logging
import time

import jax
import jax.numpy as jnp

log = logging.getLogger(__name__)


class Trainer:
    def __init__(self, step_fn, state, log_every=50):
        self.step_fn = step_fn
        self.state = state
        self.log_every = log_every
        self.history = []

    def train_epoch(self, batches):
        first, *rest = batches
        # first batch triggers tracing/compilation, keep it out of the epoch time
        self.state, _ = self.step_fn(self.state, first)
        n_examples = 0
        t_epoch = time.time()
        for batch in rest:
            self.state, loss = self.step_fn(self.state, batch)
            n_examples += batch[0].shape[0]
        epoch_time = time.time() - t_epoch
        self.history.append({"examples_per_sec": n_examples / epoch_time})
        log.info("epoch done: %.1f ex/s", n_examples / epoch_time)

    def benchmark(self, batch, iters=100):
        self.state, _ = self.step_fn(self.state, batch)
        jax.block_until_ready(self.state)
        t = time.time()
        for _ in range(iters):
            self.state, loss = self.step_fn(self.state, batch)
        jax.block_until_ready((self.state, loss))
        dt = time.time() - t
        return iters / dt


def _update(state, batch):
    x, y = batch
    w = state["w"]

    def loss_fn(w):
        return jnp.mean((x @ w - y) ** 2)

    loss, g = jax.value_and_grad(loss_fn)(w)
    return {"w": w - 1e-3 * g}, loss


def main():
    key = jax.random.PRNGKey(42)
    xs = jax.random.normal(key, (20, 256, 128))
    ys = xs.sum(-1)
    batches = [(xs[i], ys[i]) for i in range(20)]
    trainer = Trainer(jax.jit(_update), {"w": jnp.zeros((128,))})
    trainer.train_epoch(batches)
    print(trainer.benchmark(batches[0]))


if __name__ == "__main__":
    main()
