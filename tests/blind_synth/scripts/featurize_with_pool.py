"""Featurize audio clips with a jitted log-mel-ish transform, with and without a thread pool.

python featurize_with_pool.py --clips 64 --samples 16000 --workers 4
"""
import argparse
import time
from multiprocessing.pool import ThreadPool

import jax
import jax.numpy as jnp
import numpy as np


def frame(x, win=400, hop=160):
    n = 1 + (x.shape[0] - win) // hop
    idx = jnp.arange(win)[None, :] + hop * jnp.arange(n)[:, None]
    return x[idx] * jnp.hanning(win)


@jax.jit
def features(x):
    spec = jnp.abs(jnp.fft.rfft(frame(x), axis=-1)) ** 2
    fb = jnp.linspace(0.0, 1.0, spec.shape[-1] * 40).reshape(spec.shape[-1], 40)
    return jnp.log(spec @ fb + 1e-6).mean(axis=0)


def featurize_to_numpy(clip):
    return np.asarray(features(clip))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--clips", type=int, default=64)
    ap.add_argument("--samples", type=int, default=16000)
    ap.add_argument("--workers", type=int, default=4)
    args = ap.parse_args()

    rng = np.random.default_rng(0)
    clips = [rng.standard_normal(args.samples).astype(np.float32) for _ in range(args.clips)]
    featurize_to_numpy(clips[0])

    t0 = time.perf_counter()
    feats = list(map(featurize_to_numpy, clips))
    t_map = time.perf_counter() - t0
    print(f"map + np.asarray : {t_map * 1e3:8.1f} ms for {len(feats)} clips")

    t0 = time.perf_counter()
    with ThreadPool(args.workers) as pool:
        feats = np.stack(list(pool.imap(featurize_to_numpy, clips, chunksize=4)))
    t_pool = time.perf_counter() - t0
    print(f"ThreadPool.imap  : {t_pool * 1e3:8.1f} ms -> {feats.shape}")

    feat_matrix = np.zeros((len(clips), 40), np.float32)
    t0 = time.perf_counter()
    for i, clip in enumerate(clips):
        feat_matrix[i] = features(clip)
    t_rows = time.perf_counter() - t0
    print(f"row-by-row store : {t_rows * 1e3:8.1f} ms")

    t0 = time.perf_counter()
    feats_dev = list(map(features, clips))
    t_dev = time.perf_counter() - t0
    print(f"map, on device   : {t_dev * 1e3:8.1f} ms (kept as jax arrays)")
    stacked = jnp.stack(feats_dev)
    print("feature matrix", stacked.shape, float(stacked.mean()))


if __name__ == "__main__":
    main()
