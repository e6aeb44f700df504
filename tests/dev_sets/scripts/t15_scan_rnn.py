import time

import jax
import jax.numpy as jnp


def rnn_cell(h, x, w_h, w_x):
    h = jnp.tanh(h @ w_h + x @ w_x)
    return h, h


@jax.jit
def run_rnn(h0, xs, w_h, w_x):
    def body(h, x):
        return rnn_cell(h, x, w_h, w_x)
    return jax.lax.scan(body, h0, xs)


def main():
    k = jax.random.split(jax.random.PRNGKey(0), 3)
    T, B, D = 512, 64, 256
    xs = jax.random.normal(k[0], (T, B, D))
    w_h = jax.random.normal(k[1], (D, D)) * 0.05
    w_x = jax.random.normal(k[2], (D, D)) * 0.05
    h0 = jnp.zeros((B, D))

    jax.block_until_ready(run_rnn(h0, xs, w_h, w_x))

    t0 = time.perf_counter()
    h_final, hs = run_rnn(h0, xs, w_h, w_x)
    h0.block_until_ready()
    dt = time.perf_counter() - t0  # mark:A
    print(f"scan over {T} steps: {dt * 1e3:.2f} ms", hs.shape)


if __name__ == "__main__":
    main()
