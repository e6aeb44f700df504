import time

import jax
import jax.numpy as jnp
import numpy as np


def make_fns():
    return {
        "cumsum": jax.jit(lambda v: jnp.cumsum(v)),
        "sort": jax.jit(lambda v: jnp.sort(v)),
        "fft": jax.jit(lambda v: jnp.abs(jnp.fft.fft(v))),
    }


def compare(n=1 << 20):
    v = jax.random.normal(jax.random.PRNGKey(0), (n,))
    fns = make_fns()
    for fn in fns.values():
        fn(v).block_until_ready()

    results = {}
    for name, fn in fns.items():
        t0 = time.perf_counter()
        out = fn(v)
        host = np.asarray(out)
        results[name] = time.perf_counter() - t0  # mark:A
        assert host.shape == (n,)
    return results


if __name__ == "__main__":
    for name, secs in sorted(compare().items(), key=lambda kv: kv[1]):
        print(f"{name:8s} {secs * 1e3:8.3f} ms")
