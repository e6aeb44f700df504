import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def encode(x):
    return jnp.fft.fft2(x)


@jax.jit
def decode(z):
    return jnp.real(jnp.fft.ifft2(z))


def roundtrip(x):
    t0 = time.perf_counter()
    z = encode(x)
    z.block_until_ready()
    t1 = time.perf_counter()
    r = decode(z)
    t2 = time.perf_counter()
    err = float(jnp.abs(r - x).max())
    t3 = time.perf_counter()
    return {"enc": t1 - t0, "dec": t2 - t1, "err": t3 - t2, "max_err": err}


if __name__ == "__main__":
    img = jnp.asarray(np.random.default_rng(0).standard_normal((512, 512), dtype=np.float32))
    roundtrip(img)
    print(roundtrip(img))
