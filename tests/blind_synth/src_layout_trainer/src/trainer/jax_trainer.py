"""Minimal JAX trainer with a callback interface."""
import time

import jax
import jax.numpy as jnp
import optax


class JaxTrainer:
    def __init__(self, loss_fn, params, optimizer, callbacks=()):
        self.loss_fn = loss_fn
        self.params = params
        self.opt = optimizer
        self.opt_state = optimizer.init(params)
        self.callbacks = list(callbacks)
        self._step = jax.jit(self._train_step)

    def _train_step(self, params, opt_state, batch):
        loss, grads = jax.value_and_grad(self.loss_fn)(params, batch)
        updates, opt_state = self.opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, {"loss": loss}

    def fit(self, batches):
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for step, batch in enumerate(batches, start=1):
            for cb in self.callbacks:
                cb.on_step_begin(step)
            self.params, self.opt_state, metrics = self._step(self.params, self.opt_state, batch)
            for cb in self.callbacks:
                cb.on_step_end(step, metrics)
        jax.block_until_ready(self.params)
        for cb in self.callbacks:
            cb.on_train_end(self)
        return self.params

    def evaluate(self, batches):
        eval_loss = jax.jit(self.loss_fn)
        losses = []
        t0 = time.perf_counter()
        for batch in batches:
            losses.append(eval_loss(self.params, batch))
        mean_loss = float(jnp.mean(jnp.stack(losses)))
        elapsed = time.perf_counter() - t0
        return mean_loss, elapsed
