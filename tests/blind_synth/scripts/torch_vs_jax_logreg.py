"""Same logistic-regression training loop in PyTorch and in JAX, seconds per epoch.

python torch_vs_jax_logreg.py --n 100000 --d 256 --epochs 5
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np
import torch


def make_data(n, d, seed=0):
    rng = np.random.default_rng(seed)
    w = rng.standard_normal(d)
    x = rng.standard_normal((n, d)).astype(np.float32)
    y = (x @ w + 0.5 * rng.standard_normal(n) > 0).astype(np.float32)
    return x, y


def train_torch(x, y, epochs, batch, lr):
    xt, yt = torch.from_numpy(x), torch.from_numpy(y)
    model = torch.nn.Linear(x.shape[1], 1)
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    for ep in range(epochs):
        t0 = time.perf_counter()
        for i in range(0, len(xt), batch):
            opt.zero_grad()
            logits = model(xt[i:i + batch]).squeeze(-1)
            loss = torch.nn.functional.binary_cross_entropy_with_logits(logits, yt[i:i + batch])
            loss.backward()
            opt.step()
        print(f"  torch epoch {ep}: {time.perf_counter() - t0:.3f}s loss {loss.item():.4f}")


def bce(params, xb, yb):
    logits = xb @ params["w"] + params["b"]
    return jnp.mean(jnp.logaddexp(0.0, logits) - yb * logits)


@jax.jit
def sgd_step(params, xb, yb, lr):
    loss, g = jax.value_and_grad(bce)(params, xb, yb)
    return jax.tree_util.tree_map(lambda p, gp: p - lr * gp, params, g), loss


def train_jax(x, y, epochs, batch, lr):
    params = {"w": jnp.zeros(x.shape[1]), "b": jnp.zeros(())}
    n_full = (len(x) // batch) * batch
    xs = jnp.asarray(x[:n_full]).reshape(-1, batch, x.shape[1])
    ys = jnp.asarray(y[:n_full]).reshape(-1, batch)
    lr = jnp.float32(lr)
    for ep in range(epochs):
        t0 = time.perf_counter()
        for i in range(xs.shape[0]):
            params, loss = sgd_step(params, xs[i], ys[i], lr)
        loss_val = float(loss)
        print(f"  jax   epoch {ep}: {time.perf_counter() - t0:.3f}s loss {loss_val:.4f}")
    return params


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=100_000)
    ap.add_argument("--d", type=int, default=256)
    ap.add_argument("--epochs", type=int, default=5)
    ap.add_argument("--batch", type=int, default=1024)
    ap.add_argument("--lr", type=float, default=0.5)
    args = ap.parse_args()
    torch.manual_seed(0)
    x, y = make_data(args.n, args.d)
    print("PyTorch:")
    train_torch(x, y, args.epochs, args.batch, args.lr)
    print("JAX:")
    train_jax(x, y, args.epochs, args.batch, args.lr)


if __name__ == "__main__":
    main()
