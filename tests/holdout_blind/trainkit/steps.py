import jax
import jax.numpy as jnp


def make_train_step(apply_fn, lr):
    def loss_fn(params, x, y):
        logits = apply_fn(params, x)
        return -jnp.mean(jnp.take_along_axis(jax.nn.log_softmax(logits), y[:, None], axis=1))

    @jax.jit
    def train_step(params, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        return jax.tree_util.tree_map(lambda p, g: p - lr * g, params, grads), loss

    return train_step


def make_eval_step(apply_fn):
    return jax.jit(lambda params, x, y: jnp.mean(jnp.argmax(apply_fn(params, x), -1) == y))
