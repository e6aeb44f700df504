import functools
import time

import jax
import jax.numpy as jnp


@jax.jit
def kmeans_assign(points, centroids):
    d = jnp.sum((points[:, None, :] - centroids[None, :, :]) ** 2, axis=-1)
    return jnp.argmin(d, axis=1), jnp.min(d, axis=1).sum()


@functools.partial(jax.jit, static_argnums=2)
def kmeans_update(points, assign, k):
    onehot = jax.nn.one_hot(assign, k)
    return (onehot.T @ points) / (onehot.sum(0)[:, None] + 1e-9)


def main(k=16):
    pts = jax.random.normal(jax.random.PRNGKey(0), (50_000, 2))
    cents = pts[:k]
    a, _ = kmeans_assign(pts, cents)
    kmeans_update(pts, a, k).block_until_ready()

    # 1) assignment step
    t0 = time.perf_counter()
    assign, inertia = kmeans_assign(pts, cents)
    jax.block_until_ready((assign, inertia))
    t_assign = time.perf_counter() - t0  # mark:A

    # 2) inertia as a python number
    t0 = time.perf_counter()
    _, inertia = kmeans_assign(pts, cents)
    inertia_val = inertia.item()
    t_inertia = time.perf_counter() - t0  # mark:B

    # 3) update step, print the new centroids
    t0 = time.perf_counter()
    new_cents = kmeans_update(pts, assign, k)
    print(new_cents)
    t_update = time.perf_counter() - t0  # mark:C

    print(t_assign, t_inertia, t_update, inertia_val)


if __name__ == "__main__":
    main()
