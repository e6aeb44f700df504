import time

import jax
import jax.numpy as jnp
import numpy as np


def reference_fft_conv(signal, kernel):
    n = len(signal) + len(kernel) - 1
    return np.fft.irfft(np.fft.rfft(signal, n) * np.fft.rfft(kernel, n), n)


if __name__ == "__main__":
    rng = np.random.default_rng(1)
    sig = rng.normal(size=1 << 20)
    ker = rng.normal(size=1024)

    ts = []
    for _ in range(5):
        t0 = time.perf_counter()
        ref = reference_fft_conv(sig, ker)
        ts.append(time.perf_counter() - t0)  # mark:A
    print(f"numpy fft conv: {min(ts) * 1e3:.2f} ms")

    # check against JAX (not timed)
    out = jnp.convolve(jnp.asarray(sig, dtype=jnp.float32), jnp.asarray(ker, dtype=jnp.float32))
    print("max abs err:", float(jnp.max(jnp.abs(out - ref))))
