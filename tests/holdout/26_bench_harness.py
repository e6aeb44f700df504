import statistics
import time

import jax
import jax.numpy as jnp


class Harness:
    """Tiny benchmark harness."""

    def __init__(self, name, fn, *args):
        self.name = name
        self.fn = jax.jit(fn)
        self.args = args

    def warm(self):
        jax.block_until_ready(self.fn(*self.args))
        return self

    def measure(self, n=5):
        ts = []
        for _ in range(n):
            t_0 = time.perf_counter()
            res = self.fn(*self.args)
            jax.block_until_ready(res)
            ts.append(time.perf_counter() - t_0)
        return statistics.median(ts)

    def measure_quick(self, n=5):
        t_0 = time.perf_counter()
        for _ in range(n):
            res = self.fn(*self.args)
        per = (time.perf_counter() - t_0) / n
        return per


def outer(u, v):
    return jnp.outer(u, v).sum(0)


def conv(u, v):
    return jnp.convolve(u, v, mode="same")


if __name__ == "__main__":
    u = jnp.linspace(0, 1, 2048)
    v = jnp.linspace(1, 2, 2048)
    for h in (Harness("outer", outer, u, v), Harness("conv", conv, u, v[:64])):
        h.warm()
        print(h.name, h.measure(), h.measure_quick())
