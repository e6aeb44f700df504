"""Quick matmul throughput check (tanh(A @ B))."""
import time as tm

import jax
from jax import numpy as jnp
import numpy as np


@jax.jit
def mm(a, b):
    return jnp.tanh(a @ b)


def main():
    rng = np.random.default_rng(3)
    A = jnp.asarray(rng.standard_normal((512, 512), dtype=np.float32))
    B = jnp.asarray(rng.standard_normal((512, 512), dtype=np.float32))
    mm(A, B).block_until_ready()  # warm-up / compile

    s = tm.perf_counter()
    C = mm(A, B)
    e = tm.perf_counter()
    print(f"naive: {(e - s) * 1e3:.2f} ms")

    s = tm.perf_counter()
    C = mm(A, B)
    C.block_until_ready()
    e = tm.perf_counter()
    print(f"synced: {(e - s) * 1e3:.2f} ms", C.shape)


if __name__ == "__main__":
    main()
