"""Streaming step timings, consumed by the live plot in dashboard.py."""
import time

import jax
import jax.numpy as jnp


def timed_steps(step_fn, state, batches):
    for batch in batches:
        t0 = time.perf_counter()
        state = step_fn(state, batch)
        yield state, time.perf_counter() - t0


def timed_steps_synced(step_fn, state, batches):
    for batch in batches:
        t0 = time.perf_counter()
        state = step_fn(state, batch)
        jax.block_until_ready(state)
        yield state, time.perf_counter() - t0


def epochs(n_epochs):
    for epoch in range(n_epochs):
        t = time.time()
        yield epoch
        print(f"epoch {epoch}: {time.time() - t:.1f}s")


@jax.jit
def update(w, batch):
    x, y = batch
    g = jax.grad(lambda w: jnp.mean((x @ w - y) ** 2))(w)
    return w - 1e-3 * g


def main():
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (512, 64))
    batches = [(x, x.sum(-1))] * 100
    w = jnp.zeros((64,))
    w = update(w, batches[0]).block_until_ready()

    for w, dt in timed_steps(update, w, batches):
        print(f"{dt * 1e6:.0f} us")
    for w, dt in timed_steps_synced(update, w, batches):
        print(f"{dt * 1e6:.0f} us (synced)")

    for epoch in epochs(3):
        for b in batches:
            w = update(w, b)


if __name__ == "__main__":
    main()
