import time

import jax
import jax.numpy as jnp
import numpy as np


def load_batches(n_batches, batch_size, rng):
    batches = []
    for _ in range(n_batches):
        images = rng.integers(0, 256, size=(batch_size, 32, 32, 3), dtype=np.uint8)
        labels = rng.integers(0, 10, size=(batch_size,))
        batches.append((images.astype(np.float32) / 255.0, labels))
    return batches


@jax.jit
def forward(w, x):
    return x.reshape(x.shape[0], -1) @ w


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    t0 = time.perf_counter()
    batches = load_batches(50, 128, rng)
    load_time = time.perf_counter() - t0  # mark:A
    print(f"data loading: {load_time:.3f}s")

    w = jnp.zeros((32 * 32 * 3, 10))
    logits = [forward(w, x) for x, _ in batches]
    print(jax.block_until_ready(logits)[0].shape)
