import time

import jax
import jax.numpy as jnp


class Model:
    def __init__(self, key, d_in=128, d_hidden=512, d_out=10):
        k1, k2 = jax.random.split(key)
        self.params = {
            "w1": jax.random.normal(k1, (d_in, d_hidden)) * 0.05,
            "w2": jax.random.normal(k2, (d_hidden, d_out)) * 0.05,
        }
        self.apply = jax.jit(self._apply)

    @staticmethod
    def _apply(params, x):
        return jax.nn.relu(x @ params["w1"]) @ params["w2"]


class Evaluator:
    def __init__(self, model, batch):
        self.model = model
        self.batch = batch
        self.model.apply(self.model.params, batch).block_until_ready()

    def timed_eval(self):
        t0 = time.time()
        logits = self.model.apply(self.model.params, self.batch)
        preds = jax.device_get(logits).argmax(-1)
        elapsed = time.time() - t0  # mark:A
        return preds, elapsed


if __name__ == "__main__":
    model = Model(jax.random.PRNGKey(0))
    ev = Evaluator(model, jnp.ones((2048, 128)))
    preds, secs = ev.timed_eval()
    print(preds[:10], f"{secs:.4f}s")
