"""Device synchronisation helpers."""
import jax


def sync_tree(tree):
    """Wait until every array in `tree` has been computed; returns `tree`."""
    return jax.block_until_ready(tree)


def tree_nbytes(tree):
    return sum(x.nbytes for x in jax.tree_util.tree_leaves(tree))
