import random
import time

import jax
from jax import random as jr
import jax.numpy as jnp


def shuffle_py(n):
    xs = list(range(n))
    random.shuffle(xs)
    return xs


def main():
    t0 = time.perf_counter()
    order = shuffle_py(200_000)
    print("stdlib shuffle", time.perf_counter() - t0)

    t0 = time.perf_counter()
    u = [random.random() for _ in range(50_000)]
    t1 = time.perf_counter()
    print("stdlib random", t1 - t0, len(u))

    key = jr.PRNGKey(0)
    t0 = time.perf_counter()
    subkeys = jr.split(key, 4096)
    t1 = time.perf_counter()
    print("jax split", t1 - t0)

    t0 = time.perf_counter()
    subkeys = jr.split(key, 4096)
    subkeys = jax.block_until_ready(subkeys)
    t1 = time.perf_counter()
    print("jax split (synced)", t1 - t0, order[:1], subkeys.shape)


if __name__ == "__main__":
    main()
