"""Compare NumPy and JAX on the same workload."""
import time

import numpy as np
import jax
import jax.numpy as jnp


def numpy_version(a):
    return np.tanh(a @ a.T).sum(axis=1)


@jax.jit
def jax_version(a):
    return jnp.tanh(a @ a.T).sum(axis=1)


def compare(n=512, reps=3):
    a_np = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    a_jx = jnp.asarray(a_np)
    jax_version(a_jx).block_until_ready()

    t_np = []
    for _ in range(reps):
        s = time.perf_counter()
        r_np = numpy_version(a_np)
        t_np.append(time.perf_counter() - s)

    t_jx = []
    for _ in range(reps):
        s = time.perf_counter()
        r_jx = jax_version(a_jx)
        t_jx.append(time.perf_counter() - s)
    np.testing.assert_allclose(r_np, np.asarray(r_jx), rtol=1e-3, atol=1e-2)

    t_both = []
    for _ in range(reps):
        s = time.perf_counter()
        r_jx = np.asarray(jax_version(a_jx))
        t_both.append(time.perf_counter() - s)
    print("numpy", min(t_np), "jax(unsynced)", min(t_jx), "jax->host", min(t_both))

    s = time.perf_counter()
    check = np.allclose(r_np, r_jx, rtol=1e-3, atol=1e-2)
    print("allclose", check, time.perf_counter() - s)


if __name__ == "__main__":
    compare()
