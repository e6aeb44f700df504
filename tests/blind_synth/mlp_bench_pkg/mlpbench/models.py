"""Pure-JAX MLP definitions (no framework)."""
import jax
import jax.numpy as jnp


def init_mlp(key, sizes, scale=1.0):
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for k, din, dout in zip(keys, sizes[:-1], sizes[1:]):
        w = scale * jax.random.normal(k, (din, dout)) / jnp.sqrt(din)
        params.append({"w": w, "b": jnp.zeros(dout)})
    return params


def mlp_forward(params, x):
    for layer in params[:-1]:
        x = jax.nn.gelu(x @ layer["w"] + layer["b"])
    return x @ params[-1]["w"] + params[-1]["b"]


def param_count(params):
    return sum(p.size for p in jax.tree_util.tree_leaves(params))
