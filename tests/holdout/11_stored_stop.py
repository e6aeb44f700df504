from timeit import default_timer as timer

import jax
import jax.numpy as jnp
import numpy as onp


def pipeline(x):
    z = jnp.fft.rfft(x, axis=-1)
    return jnp.abs(z).sum(axis=0)


fast_pipeline = jax.jit(pipeline)


def profile_once(x):
    marks = {}
    t_begin = timer()
    y = fast_pipeline(x)
    t_done = timer()
    z = onp.asarray(y)
    marks["pipeline"] = t_done - t_begin

    t_begin = timer()
    y = fast_pipeline(x)
    z = onp.asarray(y)
    t_done = timer()
    marks["pipeline+copy"] = t_done - t_begin
    return marks, z.shape


if __name__ == "__main__":
    sig = jnp.asarray(onp.random.default_rng(5).standard_normal((64, 8192), dtype=onp.float32))
    fast_pipeline(sig).block_until_ready()
    print(profile_once(sig))
