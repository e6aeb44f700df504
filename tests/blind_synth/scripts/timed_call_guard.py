"""Generic `timed_call` used by our kernels dashboard, exercised on a few ops.

python timed_call_guard.py --n 2048 --reps 10
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


def timed_call(fn, *args, reps=10):
    """Median seconds per call.  Blocks if the result is a JAX array."""
    fn(*args)
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = fn(*args)
        if isinstance(out, jax.Array):
            out.block_until_ready()
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples))


def timed_call_tree(fn, *args, reps=10):
    fn(*args)
    samples = []
    for _ in range(reps):
        t0 = time.perf_counter()
        out = jax.block_until_ready(fn(*args))
        samples.append(time.perf_counter() - t0)
    return float(np.median(samples))


@jax.jit
def qr_solve(a, b):
    q, r = jnp.linalg.qr(a)
    return jax.scipy.linalg.solve_triangular(r, q.T @ b)


@jax.jit
def eigh_top(a):
    w, v = jnp.linalg.eigh(a @ a.T)
    return w[-8:], v[:, -8:]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=10)
    args = ap.parse_args()

    a = jax.random.normal(jax.random.PRNGKey(0), (args.n, args.n))
    b = jax.random.normal(jax.random.PRNGKey(1), (args.n, 4))
    a_np, b_np = np.asarray(a), np.asarray(b)

    rows = [
        ("qr_solve (jax)", timed_call(qr_solve, a, b, reps=args.reps)),
        ("lstsq (numpy)", timed_call(lambda m, v: np.linalg.lstsq(m, v, rcond=None)[0], a_np, b_np, reps=args.reps)),
        ("eigh_top (jax)", timed_call(eigh_top, a, reps=args.reps)),
        ("eigh_top (jax, tree)", timed_call_tree(eigh_top, a, reps=args.reps)),
    ]
    for name, t in rows:
        print(f"{name:22s} {t * 1e3:9.2f} ms")


if __name__ == "__main__":
    main()
