import time

import jax
import jax.numpy as jnp
from jax import lax


@jax.jit
def power_iteration(a, v0):
    def body(v, _):
        v = a @ v
        return v / jnp.linalg.norm(v), None

    v, _ = lax.scan(body, v0, None, length=200)
    return v @ a @ v


@jax.jit
def collatz_steps(n):
    def cond(c):
        return c[0] != 1

    def body(c):
        x, k = c
        return jnp.where(x % 2 == 0, x // 2, 3 * x + 1), k + 1

    return lax.while_loop(cond, body, (n, 0))[1]


def main():
    a = jax.random.normal(jax.random.PRNGKey(0), (2048, 2048))
    a = a + a.T
    v0 = jnp.ones((2048,)) / jnp.sqrt(2048.0)
    power_iteration(a, v0).block_until_ready()
    collatz_steps(27).block_until_ready()

    t0 = time.perf_counter()
    lam = power_iteration(a, v0)
    v0.block_until_ready()
    t_pi = time.perf_counter() - t0

    t0 = time.perf_counter()
    lam = power_iteration(a, v0).item()
    t_pi2 = time.perf_counter() - t0

    t0 = time.perf_counter()
    ks = [collatz_steps(n) for n in range(2, 200)]
    ks = [int(k) for k in ks]
    t_collatz = time.perf_counter() - t0
    print(t_pi, t_pi2, lam, t_collatz, max(ks))


if __name__ == "__main__":
    main()
