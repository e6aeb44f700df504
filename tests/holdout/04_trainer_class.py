import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


class Trainer:
    def __init__(self, dim=256, lr=1e-2):
        self.lr = lr
        rng = np.random.default_rng(42)
        self.params = {"w": jnp.asarray(rng.normal(0, 0.01, (dim, dim)), dtype=jnp.float32),
                       "b": jnp.zeros(dim)}
        self.data = jnp.asarray(rng.normal(size=(128, dim)), dtype=jnp.float32)

    @partial(jax.jit, static_argnums=(0,))
    def _step(self, params, x):
        def loss_fn(p):
            y = jnp.tanh(x @ p["w"] + p["b"])
            return jnp.mean(y ** 2)
        loss, g = jax.value_and_grad(loss_fn)(params)
        new = jax.tree_util.tree_map(lambda a, b: a - self.lr * b, params, g)
        return new, loss

    def fit(self, steps=10):
        self.params, loss = self._step(self.params, self.data)  # compile
        tic = time.monotonic()
        for _ in range(steps):
            self.params, loss = self._step(self.params, self.data)
        toc = time.monotonic()
        print("fit: %.5f s/step" % ((toc - tic) / steps))
        return loss

    def fit_synced(self, steps=10):
        tic = time.monotonic()
        for _ in range(steps):
            self.params, loss = self._step(self.params, self.data)
        jax.block_until_ready((self.params, loss))
        toc = time.monotonic()
        print("fit_synced: %.5f s/step" % ((toc - tic) / steps))
        return loss

    def evaluate(self):
        tic = time.monotonic()
        y = jnp.tanh(self.data @ self.params["w"])
        score = float(jnp.mean(y))
        print(f"eval {score:.4f} in {time.monotonic() - tic:.5f}s")


if __name__ == "__main__":
    tr = Trainer()
    tr.fit()
    tr.fit_synced()
    tr.evaluate()
