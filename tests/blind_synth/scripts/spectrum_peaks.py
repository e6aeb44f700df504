"""Find the dominant frequency of noisy sensor traces with a jitted Welch-style PSD.

python spectrum_peaks.py --traces 256 --samples 65536 --fs 1000
"""
import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np


def make_traces(n, samples, fs, seed=0):
    rng = np.random.default_rng(seed)
    t = np.arange(samples) / fs
    f0 = rng.uniform(5, 200, size=(n, 1))
    return (np.sin(2 * np.pi * f0 * t) + rng.standard_normal((n, samples))).astype(np.float32), f0[:, 0]


@jax.jit
def welch_psd(x, seg=1024):
    n_seg = x.shape[-1] // seg
    segs = x[..., : n_seg * seg].reshape(*x.shape[:-1], n_seg, seg)
    win = jnp.hanning(seg)
    spec = jnp.abs(jnp.fft.rfft(segs * win, axis=-1)) ** 2
    return spec.mean(axis=-2)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--traces", type=int, default=256)
    ap.add_argument("--samples", type=int, default=65536)
    ap.add_argument("--fs", type=float, default=1000.0)
    args = ap.parse_args()

    x_np, f_true = make_traces(args.traces, args.samples, args.fs)
    x = jnp.asarray(x_np)
    freqs = jnp.fft.rfftfreq(1024, d=1.0 / args.fs)
    peak_idx = jnp.argmax(welch_psd(x), axis=-1)
    float(freqs[peak_idx].mean())

    t0 = time.perf_counter()
    psd = welch_psd(x)
    peaks = freqs[jnp.argmax(psd, axis=-1)]
    print("mean peak %.2f Hz (true %.2f Hz), PSD took %.2f ms"
          % (peaks.mean(), f_true.mean(), (time.perf_counter() - t0) * 1e3))

    t0 = time.perf_counter()
    psd = welch_psd(x)
    peaks = freqs[jnp.argmax(psd, axis=-1)].tolist()
    elapsed = time.perf_counter() - t0
    err = np.abs(np.asarray(peaks) - f_true)
    print(f"PSD + peak pick: {elapsed * 1e3:.2f} ms, median |error| {np.median(err):.2f} Hz")

    t0 = time.perf_counter()
    segs = x_np[:, : (args.samples // 1024) * 1024].reshape(args.traces, -1, 1024)
    spec_np = (np.abs(np.fft.rfft(segs * np.hanning(1024), axis=-1)) ** 2).mean(axis=1)
    t_np = time.perf_counter() - t0
    print(f"numpy reference: {t_np * 1e3:.2f} ms")
    np.testing.assert_allclose(spec_np, np.asarray(psd), rtol=2e-3, atol=1e-2)


if __name__ == "__main__":
    main()
