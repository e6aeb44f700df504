"""python -m benchkit.run_bench"""
import jax.numpy as jnp
import numpy as np

from benchkit import kernels
from benchkit.bench_utils import time_it, time_it_blocking, wall


def preprocess(raw):
    x = raw.astype(np.float32)
    return (x - x.mean()) / (x.std() + 1e-6)


def main():
    raw = np.random.default_rng(0).integers(0, 255, (8192, 4096), dtype=np.uint8)
    host_x, t_pre = wall(preprocess, raw)
    x = jnp.asarray(host_x)
    g, b = jnp.ones(4096), jnp.zeros(4096)
    print(f"preprocess {t_pre:.3f}s")
    print(f"layernorm  {time_it(kernels.layernorm, x, g, b) * 1e6:.1f} us")
    print(f"rmsnorm    {time_it_blocking(kernels.rmsnorm, x, g) * 1e6:.1f} us")


if __name__ == "__main__":
    main()
