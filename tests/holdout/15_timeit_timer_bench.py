import timeit

import jax
from jax import numpy as jnp


def make_data(n):
    return jnp.arange(n * n, dtype=jnp.float32).reshape(n, n) / (n * n)


@jax.jit
def gram(m):
    return m.T @ m


class Bench:
    def __init__(self, n):
        self.n = n
        self.m = make_data(n)
        gram(self.m).block_until_ready()

    def run_bad(self, reps=3):
        out = []
        for _ in range(reps):
            st = timeit.default_timer()
            g = gram(self.m)
            out.append(timeit.default_timer() - st)
        return out

    def run_good(self, reps=3):
        out = []
        for _ in range(reps):
            st = timeit.default_timer()
            g = gram(self.m)
            g.block_until_ready()
            out.append(timeit.default_timer() - st)
        return out

    def setup_cost(self):
        st = timeit.default_timer()
        m = make_data(self.n)
        m = jax.block_until_ready(m)
        return timeit.default_timer() - st


if __name__ == "__main__":
    b = Bench(512)
    print(b.run_bad(), b.run_good(), b.setup_cost())
