"""Train a small MLP on synthetic regression data with optax; logs steps/s.

python train_mlp_progress.py --steps 2000 --log-every 100
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np
import optax


def init_params(key, sizes):
    params = []
    for k, (din, dout) in zip(jax.random.split(key, len(sizes) - 1), zip(sizes[:-1], sizes[1:])):
        w = jax.random.normal(k, (din, dout)) * jnp.sqrt(2.0 / din)
        params.append({"w": w, "b": jnp.zeros(dout)})
    return params


def forward(params, x):
    for layer in params[:-1]:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    last = params[-1]
    return x @ last["w"] + last["b"]


def loss_fn(params, x, y):
    return jnp.mean((forward(params, x) - y) ** 2)


def make_step(opt):
    @jax.jit
    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = opt.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss
    return step


def batches(rng, n_batches, batch, din):
    w_true = rng.standard_normal((din, 1)).astype(np.float32)
    for _ in range(n_batches):
        x = rng.standard_normal((batch, din)).astype(np.float32)
        yield x, x @ w_true + 0.1 * rng.standard_normal((batch, 1)).astype(np.float32)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--steps", type=int, default=2000)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--din", type=int, default=64)
    ap.add_argument("--hidden", type=int, default=512)
    ap.add_argument("--log-every", type=int, default=100)
    ap.add_argument("--lr", type=float, default=1e-3)
    args = ap.parse_args()

    params = init_params(jax.random.PRNGKey(0), [args.din, args.hidden, args.hidden, 1])
    opt = optax.adam(args.lr)
    opt_state = opt.init(params)
    step = make_step(opt)
    rng = np.random.default_rng(0)

    t_start = time.time()
    t_last = time.time()
    for i, (x, y) in enumerate(batches(rng, args.steps, args.batch, args.din), start=1):
        params, opt_state, loss = step(params, opt_state, x, y)
        if i % args.log_every == 0:
            loss_val = float(loss)
            now = time.time()
            rate = args.log_every / (now - t_last)
            print(f"step {i:6d}  loss {loss_val:.5f}  {rate:8.1f} steps/s")
            t_last = now
    final = float(loss_fn(params, x, y))
    total = time.time() - t_start
    print(f"done: {args.steps} steps in {total:.1f}s (total, incl. compile), final loss {final:.5f}")

    x_eval = jnp.asarray(rng.standard_normal((4096, args.din)).astype(np.float32))
    forward(params, x_eval).block_until_ready()
    t0 = time.time()
    preds = forward(params, x_eval)
    eval_s = time.time() - t0
    print(f"eval forward on {x_eval.shape[0]} samples: {eval_s * 1e3:.2f} ms, mean pred {float(preds.mean()):.4f}")


if __name__ == "__main__":
    main()
