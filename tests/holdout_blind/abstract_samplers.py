"""Compare sampler backends. Both implement BaseSampler so the bench harness
does not care which one it gets."""
import abc
import time

import jax
import numpy as np


class BaseSampler(abc.ABC):
    @abc.abstractmethod
    def draw(self, n: int):
        """Return an (n, 3) array of samples."""


class JaxNormalSampler(BaseSampler):
    def __init__(self, seed: int):
        self.key = jax.random.PRNGKey(seed)

    def draw(self, n: int):
        self.key, k = jax.random.split(self.key)
        return jax.random.normal(k, (n, 3))


class NumpyNormalSampler(BaseSampler):
    def __init__(self, seed: int):
        self.rng = np.random.default_rng(seed)

    def draw(self, n: int):
        return self.rng.standard_normal((n, 3))


class SamplerBench:
    sampler: BaseSampler

    def __init__(self, sampler: BaseSampler):
        self.sampler = sampler

    def time_draws(self, n: int, reps: int = 10) -> float:
        self.sampler.draw(n)
        t0 = time.perf_counter()
        for _ in range(reps):
            x = self.sampler.draw(n)
        dt = time.perf_counter() - t0
        return dt / reps

    def time_draws_to_host(self, n: int, reps: int = 10) -> float:
        np.asarray(self.sampler.draw(n))
        t0 = time.perf_counter()
        for _ in range(reps):
            x = np.asarray(self.sampler.draw(n))
        dt = time.perf_counter() - t0
        return dt / reps


def time_numpy_only(sampler: NumpyNormalSampler, n: int) -> float:
    t0 = time.perf_counter()
    sampler.draw(n)
    return time.perf_counter() - t0


if __name__ == "__main__":
    for s in (JaxNormalSampler(0), NumpyNormalSampler(0)):
        b = SamplerBench(s)
        print(type(s).__name__, b.time_draws(1 << 20), b.time_draws_to_host(1 << 20))
    print("numpy single", time_numpy_only(NumpyNormalSampler(1), 1 << 20))
