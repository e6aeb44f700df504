import functools
import logging
import time

import jax
import jax.numpy as jnp
import numpy as np

logger = logging.getLogger("bench")


def timed(fn):
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        t0 = time.perf_counter()
        result = fn(*args, **kwargs)
        dt = time.perf_counter() - t0
        logger.info("%s took %.3f ms", fn.__name__, dt * 1e3)
        return result

    return wrapper


@jax.jit
def mlp(params, x):
    for w in params:
        x = jax.nn.gelu(x @ w)
    return x


@timed
def forward(params, x):
    return mlp(params, x)


@timed
def forward_blocking(params, x):
    return jax.block_until_ready(mlp(params, x))


@timed
def load_batch(path):
    with np.load(path) as f:
        return f["x"], f["y"]


def main():
    logging.basicConfig(level=logging.INFO)
    key = jax.random.PRNGKey(0)
    params = [jax.random.normal(key, (1024, 1024)) * 0.02 for _ in range(6)]
    x, _ = load_batch("batch0.npz")
    x = jnp.asarray(x)
    mlp(params, x).block_until_ready()  # compile outside the timed calls
    for _ in range(5):
        forward(params, x)
        forward_blocking(params, x)


if __name__ == "__main__":
    main()
