"""airspeed-velocity benchmarks for dense linear algebra in JAX vs NumPy.

Run with `asv run --python=same`, or `python -m asv_bench.bench_linalg` for a smoke test.
"""
import jax
import jax.numpy as jnp
import numpy as np


def _spd(n, seed=0):
    a = np.random.default_rng(seed).standard_normal((n, n)).astype(np.float32)
    return a @ a.T + n * np.eye(n, dtype=np.float32)


class Cholesky:
    params = [128, 512, 1024]
    param_names = ["n"]

    def setup(self, n):
        self.a = jnp.asarray(_spd(n))
        self.a_np = _spd(n)
        self.chol = jax.jit(jnp.linalg.cholesky)
        self.chol(self.a).block_until_ready()

    def time_jax(self, n):
        self.chol(self.a).block_until_ready()

    def time_jax_dispatch(self, n):
        self.chol(self.a)

    def time_numpy(self, n):
        np.linalg.cholesky(self.a_np)


class Solve:
    params = ([256, 1024], [1, 16])
    param_names = ["n", "nrhs"]

    def setup(self, n, nrhs):
        self.a = jnp.asarray(_spd(n))
        self.b = jnp.ones((n, nrhs), jnp.float32)
        self.solve = jax.jit(jnp.linalg.solve)
        jax.block_until_ready(self.solve(self.a, self.b))

    def time_solve(self, n, nrhs):
        x = self.solve(self.a, self.b)
        float(x[0, 0])

    def time_solve_and_residual(self, n, nrhs):
        x = self.solve(self.a, self.b)
        r = self.a @ x - self.b
        return r

    def track_residual(self, n, nrhs):
        x = self.solve(self.a, self.b)
        return float(jnp.linalg.norm(self.a @ x - self.b))


if __name__ == "__main__":
    for cls in (Cholesky, Solve):
        params = cls.params if isinstance(cls.params, tuple) else (cls.params,)
        first = tuple(p[0] for p in params)
        bench = cls()
        bench.setup(*first)
        for name in sorted(dir(bench)):
            if name.startswith(("time_", "track_")):
                out = getattr(bench, name)(*first)
                shown = out if out is None or isinstance(out, float) else type(out).__name__
                print(f"{cls.__name__}.{name}{first}: ok -> {shown}")
