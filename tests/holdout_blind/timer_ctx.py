import time

import jax
import jax.numpy as jnp


class Timer:
    """with Timer("name", stats): ...  -> stats["name"] = seconds"""

    def __init__(self, name="", sink=None):
        self.name = name
        self.sink = sink
        self.elapsed = None

    def __enter__(self):
        self.start = time.perf_counter()
        return self

    def __exit__(self, exc_type, exc, tb):
        self.elapsed = time.perf_counter() - self.start
        if self.sink is not None:
            self.sink[self.name] = self.elapsed
        return False


@jax.jit
def mm(a, b):
    return a @ b


def main(n=4096):
    ka, kb = jax.random.split(jax.random.PRNGKey(0))
    a = jax.random.normal(ka, (n, n), dtype=jnp.bfloat16)
    b = jax.random.normal(kb, (n, n), dtype=jnp.bfloat16)
    mm(a, b).block_until_ready()

    stats = {}
    with Timer("matmul", stats):
        c = mm(a, b)

    with Timer("matmul_sync", stats):
        c = mm(a, b)
        c.block_until_ready()

    with Timer("chain", stats) as t:
        d = mm(c, b)
    d.block_until_ready()

    flops = 2 * n**3
    for k, v in stats.items():
        print(f"{k:12s} {v * 1e3:7.2f} ms  {flops / v / 1e12:6.1f} TFLOP/s")
    print("chain", t.elapsed)


if __name__ == "__main__":
    main()
