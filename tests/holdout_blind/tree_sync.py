import time

import jax
import jax.numpy as jnp


def init_mlp(key, sizes):
    keys = jax.random.split(key, len(sizes) - 1)
    return [
        {"w": jax.random.normal(k, (a, b)) * 0.02, "b": jnp.zeros((b,))}
        for k, a, b in zip(keys, sizes[:-1], sizes[1:])
    ]


def apply(params, x):
    for layer in params:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
    return x


@jax.jit
def sgd(params, x, y):
    grads = jax.grad(lambda p: jnp.mean((apply(p, x) - y) ** 2))(params)
    return jax.tree_util.tree_map(lambda p, g: p - 0.01 * g, params, grads)


@jax.jit
def features(params, x):
    hs = []
    for layer in params:
        x = jax.nn.relu(x @ layer["w"] + layer["b"])
        hs.append(x)
    return {"hidden": hs, "out": x}


def main():
    key = jax.random.PRNGKey(0)
    params = init_mlp(key, [512, 2048, 2048, 512])
    x = jax.random.normal(key, (1024, 512))
    y = jnp.zeros((1024, 512))
    jax.block_until_ready(sgd(params, x, y))
    jax.block_until_ready(features(params, x))

    t0 = time.perf_counter()
    new_params = sgd(params, x, y)
    for leaf in jax.tree_util.tree_leaves(new_params):
        leaf.block_until_ready()
    print("sgd step", time.perf_counter() - t0)

    t0 = time.perf_counter()
    feats = features(params, x)
    for leaf in jax.tree.leaves(feats):
        leaf.block_until_ready()
    print("features", time.perf_counter() - t0)

    t0 = time.perf_counter()
    new_params = sgd(params, x, y)
    for leaf in jax.tree_util.tree_leaves(params):
        leaf.block_until_ready()
    print("sgd step (v2)", time.perf_counter() - t0)

    t0 = time.perf_counter()
    feats = features(new_params, x)
    n_act = sum(leaf.size for leaf in jax.tree_util.tree_leaves(feats))
    print("features (v2)", time.perf_counter() - t0, n_act)


if __name__ == "__main__":
    main()
