import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def f(a, b):
    return (a @ b).max(axis=0)


def table(sizes=(256, 512), reps=3):
    rows = {}
    for n in sizes:
        rng = np.random.default_rng(n)
        a = jnp.asarray(rng.standard_normal((n, n), dtype=np.float32))
        b = jnp.asarray(rng.standard_normal((n, n), dtype=np.float32))
        f(a, b).block_until_ready()

        start = time.perf_counter()
        for _ in range(reps):
            y = f(a, b)
        y.block_until_ready()
        per_call = (time.perf_counter() - start) / reps

        outs = []
        start = time.perf_counter()
        for _ in range(reps):
            outs.append(f(a, b + 1.0))
        outs[0].block_until_ready()
        first_only = time.perf_counter() - start

        outs = []
        start = time.perf_counter()
        for r in range(reps):
            outs.append(f(a * r, b))
        [o.block_until_ready() for o in outs]
        all_ = time.perf_counter() - start
        rows[n] = (per_call, first_only, all_)
    return rows


if __name__ == "__main__":
    for k, v in table().items():
        print(k, ["%.5f" % t for t in v])
