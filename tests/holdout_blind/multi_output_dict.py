import time

import jax
import jax.numpy as jnp
import numpy as np


def loss(w, x):
    return jnp.mean(jnp.tanh(x @ w) ** 2)


fwd = jax.jit(loss)
grad_fn = jax.jit(jax.grad(loss))
hvp = jax.jit(lambda w, x, v: jax.jvp(jax.grad(loss), (w, x), (v, jnp.zeros_like(x)))[1])


def bench(w, x, v):
    for f, args in ((fwd, (w, x)), (grad_fn, (w, x)), (hvp, (w, x, v))):
        jax.block_until_ready(f(*args))
    timings = {}

    t0 = time.perf_counter()
    outs = {"loss": fwd(w, x), "grad": grad_fn(w, x), "hvp": hvp(w, x, v)}
    outs["loss"].block_until_ready()
    timings["all_three"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    outs = {"loss": fwd(w, x), "grad": grad_fn(w, x), "hvp": hvp(w, x, v)}
    jax.block_until_ready(outs)
    timings["all_three_synced"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    outs = {"grad": grad_fn(w, x), "hvp": hvp(w, x, v)}
    host = {k: np.asarray(a) for k, a in outs.items()}
    timings["grad_hvp_to_host"] = time.perf_counter() - t0
    return timings, host


if __name__ == "__main__":
    k = jax.random.PRNGKey(0)
    w = jax.random.normal(k, (1024, 1024)) * 0.03
    x = jax.random.normal(k, (2048, 1024))
    print(bench(w, x, jnp.ones_like(w))[0])
