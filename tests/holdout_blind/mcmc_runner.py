import time

import jax
import jax.numpy as jnp


class GaussianProposal:
    """Random-walk proposal; keeps its own PRNG state."""

    def __init__(self, key, scale=0.5):
        self.key = key
        self.scale = scale

    def draw(self, n):
        self.key, sub = jax.random.split(self.key)
        return self.scale * jax.random.normal(sub, (n,))


class MCMCRunner:
    def __init__(self, seed=0, scale=0.5):
        self.proposal = GaussianProposal(jax.random.PRNGKey(seed), scale)
        self.round_times = []

    def run(self, n_rounds=10, n=1_000_000):
        self.proposal.draw(n).block_until_ready()  # warm the kernels
        for _ in range(n_rounds):
            t0 = time.perf_counter()
            samples = self.proposal.draw(n)
            accept = jnp.mean(samples > 0.0)
            self.round_times.append(time.perf_counter() - t0)
        return accept

    def run_checked(self, n_rounds=10, n=1_000_000):
        self.proposal.draw(n).block_until_ready()
        rates = []
        for _ in range(n_rounds):
            t0 = time.perf_counter()
            samples = self.proposal.draw(n)
            rate = float(jnp.mean(samples > 0.0))
            self.round_times.append(time.perf_counter() - t0)
            rates.append(rate)
        return rates


if __name__ == "__main__":
    r = MCMCRunner()
    r.run()
    r.run_checked()
    print(sum(r.round_times) / len(r.round_times))
