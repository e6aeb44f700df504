"""timeit-based micro benchmarks of a few elementwise/reduction kernels.

python timeit_kernels.py --n 4000000 --number 50
"""
import argparse
import timeit

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def gelu_tanh(x):
    return 0.5 * x * (1 + jnp.tanh(0.7978845608 * (x + 0.044715 * x ** 3)))


@jax.jit
def logsumexp(x):
    m = jnp.max(x)
    return m + jnp.log(jnp.sum(jnp.exp(x - m)))


@jax.jit
def normalize(x):
    return (x - x.mean()) / (x.std() + 1e-5)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=4_000_000)
    ap.add_argument("--number", type=int, default=50)
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()

    x = jax.random.normal(jax.random.PRNGKey(0), (args.n,))
    x_np = np.asarray(x)
    gelu_tanh(x).block_until_ready()
    logsumexp(x).block_until_ready()

    t = timeit.timeit(lambda: gelu_tanh(x).block_until_ready(), number=args.number)
    print(f"gelu_tanh  {t / args.number * 1e6:9.1f} us")

    ts = timeit.repeat(lambda: logsumexp(x), number=args.number, repeat=args.repeat)
    print(f"logsumexp  {min(ts) / args.number * 1e6:9.1f} us (best of {args.repeat})")

    t = timeit.timeit("normalize(x).block_until_ready()", globals={"normalize": normalize, "x": x}, number=args.number)
    print(f"normalize  {t / args.number * 1e6:9.1f} us")

    t = timeit.timeit(lambda: np.tanh(x_np), number=args.number)
    print(f"np.tanh    {t / args.number * 1e6:9.1f} us (numpy reference)")

    timer = timeit.Timer("float(logsumexp(x))", globals={"logsumexp": logsumexp, "x": x})
    best = min(timer.repeat(repeat=args.repeat, number=args.number))
    print(f"logsumexp+float {best / args.number * 1e6:9.1f} us")


if __name__ == "__main__":
    main()
