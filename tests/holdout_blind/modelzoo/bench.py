import time

import jax
import jax.numpy as jnp

from modelzoo.model import MLP, ResidualMLP
from modelzoo.utils import Timer


def main():
    key = jax.random.PRNGKey(0)
    x = jax.random.normal(key, (4096, 1024))
    y = jax.random.randint(key, (4096,), 0, 10)

    model = MLP(key, [1024, 4096, 4096, 10])
    model(x).block_until_ready()
    model.loss(x, y).block_until_ready()

    with Timer("mlp forward"):
        logits = model(x)

    with Timer("mlp forward (synced)"):
        logits = model(x)
        jax.block_until_ready(logits)

    with Timer("mlp loss"):
        loss = model.loss(x, y)
        print("loss =", loss)

    res = ResidualMLP(key, [1024, 1024, 1024, 10])
    chunks = jnp.split(x, 8)
    res.forward_many(chunks[:1])[0].block_until_ready()
    t0 = time.perf_counter()
    ys = res.forward_many(chunks)
    for out in ys:
        out.block_until_ready()
    print(f"residual, 8 chunks: {(time.perf_counter() - t0) * 1e3:.2f} ms")

    t0 = time.perf_counter()
    ys = res.forward_many(chunks)
    ys[0].block_until_ready()
    print(f"residual, 8 chunks (quick): {(time.perf_counter() - t0) * 1e3:.2f} ms")


if __name__ == "__main__":
    main()
