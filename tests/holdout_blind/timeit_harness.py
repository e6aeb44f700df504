import timeit

import jax
import jax.numpy as jnp

f = jax.jit(lambda x: jnp.cumsum(jnp.sort(x, axis=-1), axis=-1))
g = jax.jit(lambda x: jnp.linalg.qr(x)[0])


def main():
    x = jax.random.normal(jax.random.PRNGKey(0), (1024, 1024))
    f(x).block_until_ready()
    g(x).block_until_ready()

    t_f = timeit.timeit(lambda: f(x), number=100) / 100
    t_f_sync = timeit.timeit(lambda: f(x).block_until_ready(), number=100) / 100
    reps = timeit.repeat(lambda: jax.block_until_ready(g(x)), repeat=5, number=10)
    t_g = timeit.Timer(lambda: g(x)).timeit(number=50) / 50
    t_str = min(timeit.repeat("f(x)", globals={"f": f, "x": x}, repeat=3, number=20)) / 20

    print(f"sort+cumsum: {t_f * 1e6:.1f} us (no sync) / {t_f_sync * 1e6:.1f} us")
    print(f"qr: {min(reps) / 10 * 1e3:.2f} ms  timer: {t_g * 1e3:.2f} ms  str: {t_str * 1e6:.1f} us")


if __name__ == "__main__":
    main()
