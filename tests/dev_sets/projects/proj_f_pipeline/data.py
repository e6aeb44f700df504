import jax
import numpy as np


def host_batches(num_batches, batch_size=512, dim=128, seed=0):
    rng = np.random.default_rng(seed)
    for _ in range(num_batches):
        x = rng.standard_normal((batch_size, dim), dtype=np.float32)
        y = (x.sum(axis=1) > 0).astype(np.int32)
        yield x, y


def device_batches(num_batches, **kwargs):
    for x, y in host_batches(num_batches, **kwargs):
        yield jax.device_put(x), jax.device_put(y)
