from time import perf_counter as pc

from jax import jit, device_put
import jax.numpy as jnp
import numpy as np


@jit
def layer(w, h):
    return jnp.maximum(w @ h, 0.0)


def run(depth=4, reps=5):
    rng = np.random.default_rng(0)
    ws = [device_put(rng.standard_normal((256, 256), dtype=np.float32) * 0.05) for _ in range(depth)]
    h0 = device_put(rng.standard_normal((256, 64), dtype=np.float32))
    layer(ws[0], h0).block_until_ready()

    total_bad = 0.0
    for _ in range(reps):
        t0 = pc()
        h = h0
        for w in ws:
            h = layer(w, h)
        total_bad += pc() - t0

    total_ok = 0.0
    for _ in range(reps):
        t0 = pc()
        h = h0
        for w in ws:
            h = layer(w, h)
        h.block_until_ready()
        total_ok += pc() - t0

    print(f"unsynced {total_bad / reps:.6f}s  synced {total_ok / reps:.6f}s")


if __name__ == "__main__":
    run()
