import jax


def fetch(tree):
    return jax.device_get(tree)


def block(tree):
    jax.tree_util.tree_map(lambda a: a.block_until_ready(), tree)
    return tree
