"""Builds optimizer steps with the hyper-parameters baked in."""
import jax
import jax.numpy as jnp


def make_step(lr, momentum=0.9):
    def step(params, velocity, grads):
        velocity = jax.tree_util.tree_map(lambda v, g: momentum * v + g, velocity, grads)
        params = jax.tree_util.tree_map(lambda p, v: p - lr * v, params, velocity)
        return params, velocity

    return jax.jit(step)


def make_loss():
    def loss(params, x):
        return jnp.sum(jnp.tanh(x @ params["w"]) ** 2)

    return jax.jit(jax.value_and_grad(loss))
