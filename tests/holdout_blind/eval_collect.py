import time

import jax
import jax.numpy as jnp
import numpy as np


@jax.jit
def predict(params, x):
    return jnp.argmax(jnp.tanh(x @ params[0]) @ params[1], axis=-1)


def evaluate(params, loader):
    t_start = time.monotonic()
    preds = []
    for x in loader:
        preds.append(predict(params, x))
    t_eval = time.monotonic() - t_start
    preds = np.concatenate([np.asarray(p) for p in preds])
    return preds, t_eval


def evaluate_host(params, loader):
    t_start = time.monotonic()
    preds = []
    for x in loader:
        preds.append(np.asarray(predict(params, x)))
    t_eval = time.monotonic() - t_start
    return np.concatenate(preds), t_eval


def evaluate_device_get(params, loader):
    t_start = time.monotonic()
    preds = [predict(params, x) for x in loader]
    preds = jax.device_get(preds)
    t_eval = time.monotonic() - t_start
    return np.concatenate(preds), t_eval


if __name__ == "__main__":
    k = jax.random.PRNGKey(0)
    params = (jax.random.normal(k, (784, 256)), jax.random.normal(k, (256, 10)))
    loader = [jax.random.normal(jax.random.fold_in(k, i), (512, 784)) for i in range(20)]
    predict(params, loader[0]).block_until_ready()
    for fn in (evaluate, evaluate_host, evaluate_device_get):
        print(fn.__name__, fn(params, loader)[1])
