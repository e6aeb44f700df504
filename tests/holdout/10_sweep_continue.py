from time import perf_counter

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def op(a):
    return jnp.linalg.norm(a @ a, axis=0)


def sweep(sizes=(128, 256, 384, 640)):
    rng = np.random.default_rng(0)
    xs = {n: jnp.asarray(rng.standard_normal((n, n), dtype=np.float32)) for n in sizes}
    for n in sizes:
        op(xs[n]).block_until_ready()

    rec = []
    for n in sizes:
        t0 = perf_counter()
        y = op(xs[n])
        if n > 512:
            continue  # too big, don't record
        jax.block_until_ready(y)
        rec.append((n, perf_counter() - t0))

    rec2 = [0.0] * len(sizes)
    for i, n in enumerate(sizes):
        t0 = perf_counter()
        y = op(xs[n])
        if i % 2:
            np.asarray(y)
        rec2[i] = perf_counter() - t0

    return rec, rec2


if __name__ == "__main__":
    print(sweep())
