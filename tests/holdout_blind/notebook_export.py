# ---
# jupyter:
#   jupytext:
#     text_representation:
#       format_name: percent
#   kernelspec:
#     name: python3
# ---

# %% [markdown]
# # Scan vs. Python loop for the RNN cell
# Exported from `rnn_scan.ipynb`.

# %%
import time

import jax
import jax.numpy as jnp
import numpy as np

key = jax.random.PRNGKey(0)
H = 512
Wh = jax.random.normal(key, (H, H)) * 0.05
Wx = jax.random.normal(key, (H, H)) * 0.05
xs = jax.random.normal(key, (1000, 64, H))


# %%
def cell(h, x):
    h = jnp.tanh(h @ Wh + x @ Wx)
    return h, h


@jax.jit
def rnn_scan(xs):
    return jax.lax.scan(cell, jnp.zeros((64, H)), xs)[0]


@jax.jit
def rnn_unrolled(xs):
    h = jnp.zeros((64, H))
    for t in range(100):
        h, _ = cell(h, xs[t])
    return h


# %%
rnn_scan(xs).block_until_ready()
rnn_unrolled(xs).block_until_ready()

# %%
get_ipython().run_line_magic("timeit", "rnn_scan(xs)")

# %%
get_ipython().run_line_magic("timeit", "rnn_scan(xs).block_until_ready()")

# %%
get_ipython().run_cell_magic("timeit", "-n 10 -r 3", "h = rnn_unrolled(xs)\n")

# %%
t0 = time.time()
h = rnn_unrolled(xs)
print("unrolled:", time.time() - t0)

# %%
t0 = time.time()
h = np.asarray(rnn_scan(xs))
print("scan -> host:", time.time() - t0)
