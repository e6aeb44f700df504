import time

import jax
import jax.numpy as jnp


class InferenceBenchmark:
    def __init__(self, apply_fn, params, batch_size=512, dim=256):
        self.apply_fn = jax.jit(apply_fn)
        self.params = params
        self.inputs = jnp.ones((batch_size, dim))

    def warmup(self):
        out = self.apply_fn(self.params, self.inputs)
        out.block_until_ready()

    def run(self, iters=50):
        start = time.perf_counter()
        for _ in range(iters):
            out = self.apply_fn(self.params, self.inputs)
        out.block_until_ready()
        elapsed = time.perf_counter() - start  # mark:A
        return elapsed / iters


def apply(params, x):
    for w in params:
        x = jnp.tanh(x @ w)
    return x


if __name__ == "__main__":
    keys = jax.random.split(jax.random.PRNGKey(0), 4)
    params = [jax.random.normal(k, (256, 256)) * 0.06 for k in keys]
    bench = InferenceBenchmark(apply, params)
    bench.warmup()
    print(f"{bench.run() * 1e6:.1f} us/iter")
