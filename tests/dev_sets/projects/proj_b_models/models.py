"""Model definitions: a two-layer MLP with jitted forward / train steps."""
from functools import partial

import jax
import jax.numpy as jnp


def init_mlp(key, sizes=(784, 512, 10)):
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for k, (din, dout) in zip(keys, zip(sizes[:-1], sizes[1:])):
        w = jax.random.normal(k, (din, dout)) * jnp.sqrt(2.0 / din)
        params.append({"w": w, "b": jnp.zeros((dout,))})
    return params


def _forward(params, x):
    h = x
    for layer in params[:-1]:
        h = jax.nn.relu(h @ layer["w"] + layer["b"])
    last = params[-1]
    return h @ last["w"] + last["b"]


forward = jax.jit(_forward)


def _xent(params, x, labels):
    logits = _forward(params, x)
    logp = jax.nn.log_softmax(logits)
    return -jnp.mean(jnp.take_along_axis(logp, labels[:, None], axis=1))


@partial(jax.jit, static_argnames=("schedule",))
def train_step(params, x, labels, step, schedule="constant"):
    if schedule == "constant":
        lr = 1e-2
    elif schedule == "cosine":
        lr = 1e-2 * 0.5 * (1 + jnp.cos(jnp.pi * step / 1000.0))
    else:
        lr = 1e-2 / jnp.sqrt(step + 1.0)
    loss, grads = jax.value_and_grad(_xent)(params, x, labels)
    params = jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads)
    return params, loss
