import time
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np


def make_step(scale):
    def step(x):
        return jnp.tanh(scale * x @ x.T) @ x
    return jax.jit(step)


@partial(jax.jit, static_argnames=("reps",))
def repeat(x, reps=3):
    for _ in range(reps):
        x = jnp.cos(x) @ x / x.shape[0]
    return x


def main():
    x = jnp.asarray(np.random.default_rng(0).standard_normal((384, 384), dtype=np.float32))
    stepper = make_step(0.1)
    stepper(x).block_until_ready()
    repeat(x, reps=4).block_until_ready()

    t_0 = time.perf_counter()
    y = stepper(x)
    t_1 = time.perf_counter()
    print("factory", t_1 - t_0)

    t_0 = time.perf_counter()
    y = repeat(x, reps=4)
    t_1 = time.perf_counter()
    print("partial-jit", t_1 - t_0)

    t_0 = time.perf_counter()
    y = repeat(stepper(x), reps=4)
    jax.block_until_ready(y)
    t_1 = time.perf_counter()
    print("both", t_1 - t_0)

    inline = jax.jit(lambda a: (a * a).sum(axis=1))
    inline(x).block_until_ready()
    t_0 = time.perf_counter()
    z = inline(x)
    t_1 = time.perf_counter()
    print("inline", t_1 - t_0, z.shape)


if __name__ == "__main__":
    main()
