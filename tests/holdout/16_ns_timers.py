import time
from time import perf_counter_ns, monotonic_ns

import jax
import jax.numpy as jnp


@jax.jit
def poly(x):
    return 3 * x ** 3 - 2 * x ** 2 + x - 7


def main():
    x = jnp.linspace(-1, 1, 2_000_000)
    poly(x).block_until_ready()

    t0 = perf_counter_ns()
    y = poly(x)
    elapsed_ms = (perf_counter_ns() - t0) / 1e6
    print(f"{elapsed_ms:.3f} ms (unsynced)")

    t0 = perf_counter_ns()
    y = poly(x).block_until_ready()
    elapsed_ms = (perf_counter_ns() - t0) / 1e6
    print(f"{elapsed_ms:.3f} ms")

    begin_ns = time.time_ns()
    y = poly(poly(x))
    end_ns = time.time_ns()
    print("time_ns", (end_ns - begin_ns) // 1000, "us")

    m0 = monotonic_ns()
    y = poly(poly(x))
    top = int(jnp.argmax(y))
    m1 = monotonic_ns()
    print("monotonic_ns", m1 - m0, top)


if __name__ == "__main__":
    main()
