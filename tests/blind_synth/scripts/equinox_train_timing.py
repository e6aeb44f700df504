"""Train an equinox MLP with filter_jit and report per-step time.

python equinox_train_timing.py --steps 200 --width 256
"""
import argparse
import time

import equinox as eqx
import jax
import jax.numpy as jnp
import numpy as np
import optax


def make_data(key, n, din):
    kx, kw = jax.random.split(key)
    x = jax.random.normal(kx, (n, din))
    w = jax.random.normal(kw, (din, 1))
    return x, jnp.sin(x @ w)


@eqx.filter_value_and_grad
def compute_loss(model, x, y):
    pred = jax.vmap(model)(x)
    return jnp.mean((pred - y) ** 2)


def make_step(optim):
    @eqx.filter_jit
    def step(model, opt_state, x, y):
        loss, grads = compute_loss(model, x, y)
        updates, opt_state = optim.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        model = eqx.apply_updates(model, updates)
        return model, opt_state, loss
    return step


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--width", type=int, default=256)
    ap.add_argument("--depth", type=int, default=3)
    ap.add_argument("--batch", type=int, default=128)
    args = ap.parse_args()

    key = jax.random.PRNGKey(0)
    mkey, dkey = jax.random.split(key)
    x, y = make_data(dkey, 8192, 16)
    model = eqx.nn.MLP(16, 1, args.width, args.depth, key=mkey)
    optim = optax.adam(3e-4)
    opt_state = optim.init(eqx.filter(model, eqx.is_array))
    step = make_step(optim)
    n_batches = x.shape[0] // args.batch

    step_times = []
    for i in range(args.steps):
        j = i % n_batches
        xb, yb = x[j * args.batch:(j + 1) * args.batch], y[j * args.batch:(j + 1) * args.batch]
        t0 = time.perf_counter()
        model, opt_state, loss = step(model, opt_state, xb, yb)
        jax.block_until_ready(model)
        step_times.append(time.perf_counter() - t0)
    print(f"mean step time over {args.steps} steps: {1e3 * np.mean(step_times):.3f} ms")

    # inference throughput with a fresh filter_jit'd predictor
    predict = eqx.filter_jit(lambda m, v: jax.vmap(m)(v))
    predict(model, x[:args.batch]).block_until_ready()
    t0 = time.perf_counter()
    for j in range(n_batches):
        out = predict(model, x[j * args.batch:(j + 1) * args.batch])
    out.block_until_ready()
    dt = time.perf_counter() - t0
    print(f"inference: {x.shape[0] / dt:,.0f} samples/s, final loss {float(loss):.5f}")


if __name__ == "__main__":
    main()
