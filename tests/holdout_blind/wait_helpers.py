import time

import jax
import jax.numpy as jnp


def wait_all(tree):
    """Block on every array in a pytree."""
    for x in jax.tree_util.tree_leaves(tree):
        x.block_until_ready()
    return tree


def _wait_list(arrs):
    for a in arrs:
        a.block_until_ready()


def check_shapes(tree, expected):
    for leaf, shp in zip(jax.tree_util.tree_leaves(tree), expected):
        assert leaf.shape == shp, (leaf.shape, shp)


@jax.jit
def encoder(params, tokens):
    h = params["emb"][tokens]
    for w in params["layers"]:
        h = h + jax.nn.gelu(h @ w)
    return {"h": h, "pooled": h.mean(1)}


def main():
    key = jax.random.PRNGKey(0)
    params = {
        "emb": jax.random.normal(key, (32000, 512)),
        "layers": [jax.random.normal(key, (512, 512)) * 0.02 for _ in range(8)],
    }
    batch = jax.random.randint(key, (32, 256), 0, 32000)
    wait_all(encoder(params, batch))
    wait_all(encoder(params, batch[:8]))  # micro-batch shape too

    tic = time.perf_counter()
    out = encoder(params, batch)
    wait_all(out)
    print("encoder", time.perf_counter() - tic)

    tic = time.perf_counter()
    outs = [encoder(params, batch[i : i + 8])["pooled"] for i in range(0, 32, 8)]
    _wait_list(outs)
    print("encoder, 4 micro-batches", time.perf_counter() - tic)

    tic = time.perf_counter()
    out = encoder(params, batch)
    check_shapes(out, [(32, 256, 512), (32, 512)])
    print("encoder + shape check", time.perf_counter() - tic)

    tic = time.perf_counter()
    out = encoder(params, batch)
    wait_all(batch)
    print("encoder (again)", time.perf_counter() - tic)


if __name__ == "__main__":
    main()
