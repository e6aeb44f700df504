import logging
import os
import time

import jax
import jax.numpy as jnp

logger = logging.getLogger(__name__)


def wait_for_checkpoint(path, timeout=600.0, poll=5.0):
    t0 = time.time()
    while not os.path.exists(os.path.join(path, "COMMIT")):
        if time.time() - t0 > timeout:
            raise TimeoutError(f"checkpoint {path} not committed after {timeout}s")
        time.sleep(poll)


@jax.jit
def step(w, x):
    return w - 1e-3 * jax.grad(lambda w: jnp.sum(jnp.tanh(x @ w) ** 2))(w)


def train_for_budget(w, x, budget_s=60.0):
    """Train until the time budget is used up (preemptible queue)."""
    n = 0
    deadline = time.monotonic() + budget_s
    while time.monotonic() < deadline:
        w = step(w, x)
        n += 1
    return w, n


def train_fixed(w, x, n_steps=1000):
    w = step(w, x)
    t0 = time.time()
    for _ in range(n_steps):
        w = step(w, x)
    train_secs = time.time() - t0
    logger.info("trained %d steps in %.1fs (%.1f it/s)", n_steps, train_secs, n_steps / train_secs)
    return w


if __name__ == "__main__":
    wait_for_checkpoint("/tmp/ckpt")
    w0 = jnp.zeros((256, 256))
    xx = jnp.ones((128, 256))
    w1, steps = train_for_budget(w0, xx)
    train_fixed(w1, xx)
