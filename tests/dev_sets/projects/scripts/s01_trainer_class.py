"""Class-based trainer for a small softmax regression model."""
import logging
import time

import jax
import jax.numpy as jnp
import numpy as np

log = logging.getLogger("trainer")


class Trainer:
    def __init__(self, dim=512, classes=10, lr=0.05, log_every=100, seed=0):
        key = jax.random.PRNGKey(seed)
        self.state = {
            "w": jax.random.normal(key, (dim, classes)) * 0.01,
            "b": jnp.zeros((classes,)),
            "step": jnp.zeros((), jnp.int32),
        }
        self.lr = lr
        self.log_every = log_every
        self.train_step = jax.jit(self._train_step)
        self.eval_step = jax.jit(self._eval_step)
        self.history = []

    def _loss(self, params, x, y):
        logits = x @ params["w"] + params["b"]
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    def _train_step(self, state, x, y):
        params = {"w": state["w"], "b": state["b"]}
        loss, grads = jax.value_and_grad(self._loss)(params, x, y)
        return {
            "w": state["w"] - self.lr * grads["w"],
            "b": state["b"] - self.lr * grads["b"],
            "step": state["step"] + 1,
        }, loss

    def _eval_step(self, state, x, y):
        logits = x @ state["w"] + state["b"]
        return jnp.sum(jnp.argmax(logits, axis=-1) == y)

    def warmup(self, x, y):
        state, loss = self.train_step(self.state, x, y)
        jax.block_until_ready(state)
        self.eval_step(self.state, x, y).block_until_ready()

    def fit(self, batches):
        self.warmup(*batches[0])
        start = time.perf_counter()
        for i, (x, y) in enumerate(batches):
            self.state, loss = self.train_step(self.state, x, y)
            if i % self.log_every == 0:
                log.info("step %d loss %.4f", i, float(loss))
        jax.block_until_ready(self.state)
        elapsed = time.perf_counter() - start  # mark
        self.history.append(elapsed)
        return elapsed

    def fit_logged(self, batches):
        self.warmup(*batches[0])
        start = time.perf_counter()
        for i, (x, y) in enumerate(batches):
            self.state, loss = self.train_step(self.state, x, y)
        log.info("done, loss %.4f", float(loss))
        elapsed = time.perf_counter() - start  # mark
        return elapsed

    def evaluate(self, batches):
        start = time.perf_counter()
        correct = 0
        for x, y in batches:
            correct += self.eval_step(self.state, x, y)
        acc = float(correct) / sum(x.shape[0] for x, _ in batches)
        elapsed = time.perf_counter() - start  # mark
        return acc, elapsed


def make_batches(n, bs=256, dim=512, classes=10, seed=0):
    rng = np.random.default_rng(seed)
    return [
        (jnp.asarray(rng.standard_normal((bs, dim), dtype=np.float32)),
         jnp.asarray(rng.integers(0, classes, size=(bs,))))
        for _ in range(n)
    ]


if __name__ == "__main__":
    logging.basicConfig(level=logging.INFO)
    trainer = Trainer()
    train = make_batches(500)
    print("fit", trainer.fit(train))
    print("fit again", trainer.fit_logged(train))
    print("eval", trainer.evaluate(make_batches(20, seed=1)))
