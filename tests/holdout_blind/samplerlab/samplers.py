from __future__ import annotations

import abc

import jax
import jax.numpy as jnp


class BaseSampler(abc.ABC):
    def __init__(self, log_prob, dim, seed=0):
        self.log_prob = log_prob
        self.dim = dim
        self.key = jax.random.PRNGKey(seed)

    def _next_key(self):
        self.key, k = jax.random.split(self.key)
        return k

    @abc.abstractmethod
    def sample(self, n: int) -> jnp.ndarray: ...


class LangevinSampler(BaseSampler):
    def __init__(self, log_prob, dim, step_size=1e-2, n_steps=100, seed=0):
        super().__init__(log_prob, dim, seed)
        self.step_size = step_size
        self.n_steps = n_steps
        self._run = jax.jit(self._chain, static_argnums=(2,))

    def _chain(self, key, x0, n_steps):
        grad = jax.vmap(jax.grad(self.log_prob))

        def body(carry, k):
            x = carry
            noise = jax.random.normal(k, x.shape)
            return x + self.step_size * grad(x) + jnp.sqrt(2 * self.step_size) * noise, None

        x, _ = jax.lax.scan(body, x0, jax.random.split(key, n_steps))
        return x

    def sample(self, n):
        x0 = jnp.zeros((n, self.dim))
        return self._run(self._next_key(), x0, self.n_steps)


class IndependentSampler(BaseSampler):
    """Baseline: ignores log_prob, draws from N(0, I)."""

    def sample(self, n):
        return jax.random.normal(self._next_key(), (n, self.dim))
