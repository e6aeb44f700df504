import time
import jax
import jax.numpy as jnp
import numpy as np

N = 768
mat = jax.device_put(np.random.default_rng(2024).standard_normal((N, N), dtype=np.float32))
vec = jnp.ones((N,))

start = time.time()
for _ in range(20):
    vec = mat @ vec
    vec = vec / jnp.linalg.norm(vec)
print("power iteration (no sync):", time.time() - start)

start = time.time()
for _ in range(20):
    vec = mat @ vec
    vec = vec / jnp.linalg.norm(vec)
lam = vec @ (mat @ vec)
print(f"lambda ~ {lam:.4f}")
print("power iteration:", time.time() - start)

start = time.time()
time.sleep(0.05)
print("sleep:", time.time() - start)
