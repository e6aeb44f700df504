import time

import jax
import jax.numpy as jnp
import numpy as np


def heavy(x):
    for _ in range(3):
        x = jnp.sin(x @ x.T) / x.shape[0]
    return x


heavy_jit = jax.jit(heavy)


if __name__ == "__main__":
    x0 = jnp.asarray(np.random.default_rng(7).uniform(size=(512, 512)).astype(np.float32))
    heavy_jit(x0).block_until_ready()

    begin = time.perf_counter()
    r = heavy_jit(x0)
    jax.effects_barrier()
    finish = time.perf_counter()
    print("with effects_barrier:", finish - begin)

    begin = time.perf_counter()
    r = heavy_jit(x0)
    jax.effects_barrier()
    r = jax.block_until_ready(r)
    finish = time.perf_counter()
    print("with block:", finish - begin)

    begin = time.perf_counter()
    r = heavy(x0)
    finish = time.perf_counter()
    print("eager unsynced:", finish - begin, r.shape)
