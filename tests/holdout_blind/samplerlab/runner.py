import jax.numpy as jnp
import numpy as np

from .samplers import BaseSampler, IndependentSampler, LangevinSampler
from .timing import measure, timed


class Runner:
    sampler: BaseSampler

    def __init__(self, sampler: BaseSampler):
        self.sampler = sampler

    @timed
    def sample_batch(self, n):
        return self.sampler.sample(n)

    @timed
    def sample_batch_host(self, n):
        return np.asarray(self.sampler.sample(n))

    def best_time(self, n):
        return measure(self.sampler.sample, n)


def log_prob(x):
    return -0.5 * jnp.sum(x**2) - jnp.sum(jnp.cos(3 * x))


def main():
    for sampler in (LangevinSampler(log_prob, 16), IndependentSampler(log_prob, 16)):
        r = Runner(sampler)
        r.sampler.sample(4096)  # compile
        r.sample_batch(4096)
        print(type(sampler).__name__, "async", Runner.sample_batch.last)
        r.sample_batch_host(4096)
        print(type(sampler).__name__, "host", Runner.sample_batch_host.last)
        print(type(sampler).__name__, "best", r.best_time(4096))


if __name__ == "__main__":
    main()
