import time

import jax
import jax.numpy as jnp
import numpy as np


class Pipeline:
    def __init__(self, n=512):
        self.raw = np.random.default_rng(0).random((n, n), dtype=np.float32)

    def _prepare(self):
        x = jnp.asarray(self.raw)
        return (x - x.mean(axis=0)) / (x.std(axis=0) + 1e-6)

    def _host_stats(self):
        return float(np.median(self.raw)), float(np.percentile(self.raw, 99))

    def _cov(self, x):
        return x.T @ x / x.shape[0]

    def profile(self):
        out = {}

        tt = time.perf_counter()
        xn = self._prepare()
        out["prepare"] = time.perf_counter() - tt

        tt = time.perf_counter()
        med, p99 = self._host_stats()
        out["host_stats"] = time.perf_counter() - tt

        tt = time.perf_counter()
        cov = self._cov(self._prepare())
        cov_host = jax.device_get(cov)
        out["cov"] = time.perf_counter() - tt
        return out, med, p99, cov_host.shape


if __name__ == "__main__":
    print(Pipeline().profile())
