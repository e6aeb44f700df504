"""The PyTorch twin of jax_trainer.JaxTrainer (same callback protocol)."""
import time

import torch


class TorchTrainer:
    def __init__(self, model, loss_fn, optimizer, callbacks=()):
        self.model = model
        self.loss_fn = loss_fn
        self.opt = optimizer
        self.callbacks = list(callbacks)

    def fit(self, batches):
        self.model.train()
        for cb in self.callbacks:
            cb.on_train_begin(self)
        for step, (x, y) in enumerate(batches, start=1):
            for cb in self.callbacks:
                cb.on_step_begin(step)
            self.opt.zero_grad(set_to_none=True)
            loss = self.loss_fn(self.model(x), y)
            loss.backward()
            self.opt.step()
            for cb in self.callbacks:
                cb.on_step_end(step, {"loss": loss.detach()})
        for cb in self.callbacks:
            cb.on_train_end(self)

    @torch.no_grad()
    def evaluate(self, batches):
        self.model.eval()
        total, n = 0.0, 0
        t0 = time.perf_counter()
        for x, y in batches:
            total += self.loss_fn(self.model(x), y).item() * len(x)
            n += len(x)
        return total / n, time.perf_counter() - t0
