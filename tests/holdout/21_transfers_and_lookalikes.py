import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def scores(w, x):
    return jax.nn.log_softmax(x @ w, axis=-1)


def main():
    rng = np.random.default_rng(9)
    w = jnp.asarray(rng.standard_normal((256, 10), dtype=np.float32))
    x = jnp.asarray(rng.standard_normal((4096, 256), dtype=np.float32))
    scores(w, x).block_until_ready()

    a = time.perf_counter()
    s = scores(w, x)
    best = int(s[0].argmax())
    b = time.perf_counter()
    print("int", b - a, best)

    a = time.perf_counter()
    s = scores(w, x)
    s_host = np.array(s)
    b = time.perf_counter()
    print("np.array", b - a, s_host.shape)

    a = time.perf_counter()
    s = scores(w, x)
    s2 = s.copy()
    b = time.perf_counter()
    print("copy", b - a, s2.shape)

    a = time.perf_counter()
    s = scores(w, x)
    s.block_until_ready
    b = time.perf_counter()
    print("forgot parens", b - a)

    a = time.perf_counter()
    s = scores(w, x)
    first = s[0, 0].item()
    b = time.perf_counter()
    print("item", b - a, first)


if __name__ == "__main__":
    main()
