import timeit

import jax
import jax.numpy as jnp


def rotary(x, theta=10000.0):
    d = x.shape[-1] // 2
    freqs = theta ** (-jnp.arange(d) / d)
    ang = jnp.arange(x.shape[-2])[:, None] * freqs[None, :]
    x1, x2 = x[..., :d], x[..., d:]
    return jnp.concatenate([x1 * jnp.cos(ang) - x2 * jnp.sin(ang),
                            x1 * jnp.sin(ang) + x2 * jnp.cos(ang)], axis=-1)


rotary_jit = jax.jit(rotary)

if __name__ == "__main__":
    q = jnp.ones((16, 2048, 128))
    rotary_jit(q).block_until_ready()
    number = 50
    total = timeit.timeit(lambda: rotary_jit(q).block_until_ready(), number=number)  # mark:A
    print(f"{total / number * 1e3:.3f} ms")
