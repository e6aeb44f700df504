"""Framework-agnostic training callbacks (used by both the JAX and the PyTorch trainer)."""
import time


class Callback:
    def on_train_begin(self, trainer):
        pass

    def on_train_end(self, trainer):
        pass

    def on_step_begin(self, step):
        pass

    def on_step_end(self, step, metrics):
        pass


class ThroughputLogger(Callback):
    """Logs steps/s every `every` steps and the total training time."""

    def __init__(self, every=50, batch_size=None):
        self.every = every
        self.batch_size = batch_size
        self.step_times = []

    def on_train_begin(self, trainer):
        self._train_t0 = time.perf_counter()

    def on_step_begin(self, step):
        self._t0 = time.perf_counter()

    def on_step_end(self, step, metrics):
        dt = time.perf_counter() - self._t0
        self.step_times.append(dt)
        if step % self.every == 0:
            loss = float(metrics["loss"])
            extra = f" {self.batch_size / dt:,.0f} ex/s" if self.batch_size else ""
            print(f"step {step:5d} loss {loss:.4f} {dt * 1e3:7.2f} ms/step{extra}")

    def on_train_end(self, trainer):
        self.total = time.perf_counter() - self._train_t0
        print(f"training took {self.total:.2f}s ({len(self.step_times)} steps)")
