import contextlib
import time

import jax
import jax.numpy as jnp
import numpy as np


@contextlib.contextmanager
def section(name, store):
    t0 = time.perf_counter()
    yield
    store.setdefault(name, []).append(time.perf_counter() - t0)


@contextlib.contextmanager
def stopwatch():
    info = {}
    start = time.perf_counter_ns()
    try:
        yield info
    finally:
        info["ms"] = (time.perf_counter_ns() - start) / 1e6


@jax.jit
def conv(x, k):
    return jax.lax.conv_general_dilated(x, k, (1, 1), "SAME")


fft2 = jax.jit(jnp.fft.fft2)


def run(x, kernel, img):
    conv(x, kernel).block_until_ready()
    fft2(img).block_until_ready()
    store = {}

    with section("conv", store):
        y = conv(x, kernel)

    with section("conv+sync", store):
        y = conv(x, kernel).block_until_ready()

    with stopwatch() as sw:
        spec = fft2(img)
        spec_host = np.asarray(spec)

    with stopwatch() as sw2:
        spec = fft2(img)
        power = jnp.abs(spec) ** 2
        total = power.sum()

    print(store, sw["ms"], sw2["ms"], spec_host.shape, total)


if __name__ == "__main__":
    k = jax.random.PRNGKey(0)
    run(
        jax.random.normal(k, (8, 64, 128, 128)),
        jax.random.normal(k, (64, 64, 3, 3)),
        jax.random.normal(k, (2048, 2048)),
    )
