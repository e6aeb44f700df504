# Exported from benchmarks.ipynb
import timeit

import jax
import jax.numpy as jnp

# %%
key = jax.random.PRNGKey(0)
a = jax.random.normal(key, (3000, 3000))
b = jax.random.normal(jax.random.fold_in(key, 1), (3000, 3000))
matmul = jax.jit(lambda a, b: a @ b)
matmul(a, b).block_until_ready()

# %%
loops, total = timeit.Timer(lambda: matmul(a, b)).autorange()  # mark:A
print(f"{loops} loops, {total / loops * 1e3:.3f} ms per loop")

# %%
try:
    ipy = get_ipython()  # noqa: F821
except NameError:
    ipy = None
if ipy is not None:
    ipy.run_line_magic("timeit", "matmul(a, b)")  # mark:B
