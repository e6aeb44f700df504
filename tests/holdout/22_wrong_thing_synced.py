import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def blur(img):
    k = jnp.ones((5, 5)) / 25.0
    return jax.scipy.signal.convolve2d(img, k, mode="same")


def main():
    img = jnp.asarray(np.random.default_rng(4).random((512, 512), dtype=np.float32))
    blur(img).block_until_ready()

    t0 = time.perf_counter()
    out = blur(img)
    img.block_until_ready()
    t1 = time.perf_counter()
    print("blocked input", t1 - t0)

    t0 = time.perf_counter()
    out = blur(img)
    print(out.shape, out.dtype)
    t1 = time.perf_counter()
    print("printed shape", t1 - t0)

    t0 = time.perf_counter()
    out = blur(img)
    n = len(out)
    print(f"rows={n} size={out.size}")
    t1 = time.perf_counter()
    print("len", t1 - t0)

    t0 = time.perf_counter()
    out = blur(img)
    out.block_until_ready()
    level = jnp.mean(out)
    t1 = time.perf_counter()
    print("mean after sync", t1 - t0, level.shape)

    t0 = time.perf_counter()
    out = blur(img)
    level = jnp.mean(out)
    print(level)
    t1 = time.perf_counter()
    print("print value", t1 - t0)


if __name__ == "__main__":
    main()
