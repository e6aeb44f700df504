import time

import jax
import jax.numpy as jnp


def predict(params, x):
    return jax.nn.sigmoid(x @ params["w"] + params["b"])


predict_jit = jax.jit(predict)
predict_batch = jax.jit(jax.vmap(predict, in_axes=(None, 0)))


def warmup(params, x):
    predict_jit(params, x).block_until_ready()


def benchmark(params, xs):
    t0 = time.perf_counter()
    ys = predict_batch(params, xs)  # mark:C
    ys.block_until_ready()
    return time.perf_counter() - t0


if __name__ == "__main__":
    params = {"w": jnp.ones((100, 1)) * 0.01, "b": jnp.zeros(1)}
    xs = jnp.ones((64, 1000, 100))
    warmup(params, xs[0])
    print(f"batched predict: {benchmark(params, xs) * 1e3:.2f} ms")
