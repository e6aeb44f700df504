"""Request engine: jitted logits, optional post-processing, polling."""
import time

import jax
import jax.numpy as jnp


class Engine:
    def __init__(self, model, params, top_k=3):
        self.params = params
        self.top_k = top_k
        self._logits = jax.jit(model.apply)

    def submit(self, tokens):
        """Dispatch and return immediately (async)."""
        return self._logits(self.params, tokens)

    def run_sync(self, tokens):
        return jax.block_until_ready(self._logits(self.params, tokens))

    def run_and_postprocess(self, tokens):
        logits = self._logits(self.params, tokens)
        logits.block_until_ready()
        probs = jax.nn.softmax(logits, axis=-1)
        return jax.lax.top_k(probs, self.top_k)

    def poll(self, result, interval_s=0.0005):
        while not result.is_ready():
            time.sleep(interval_s)
        return result

    def warmup(self, tokens):
        jax.block_until_ready(self.run_and_postprocess(tokens))
