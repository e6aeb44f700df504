import time

import jax
import jax.numpy as jnp

ndev = jax.local_device_count()


@jax.pmap
def shard_energy(x):
    return jnp.sum(jnp.tanh(x) ** 2)


def block(x):
    return jnp.sin(x @ x.T) @ x


block_remat = jax.checkpoint(block)
grad_block = jax.grad(lambda x: block_remat(x).sum())


def go():
    xs = jnp.ones((ndev, 200_000)) * 0.3
    shard_energy(xs).block_until_ready()

    t_s = time.perf_counter()
    e = shard_energy(xs)
    t_e = time.perf_counter()
    print("pmap unsynced", t_e - t_s)

    t_s = time.perf_counter()
    e = shard_energy(xs)
    vals = e.tolist()
    t_e = time.perf_counter()
    print("pmap tolist", t_e - t_s, vals)

    m = jnp.eye(256) * 0.5
    grad_block(m).block_until_ready()
    t_s = time.perf_counter()
    g = grad_block(m)
    t_e = time.perf_counter()
    print("remat grad unsynced", t_e - t_s)

    t_s = time.perf_counter()
    g = grad_block(m)
    gsum = g.sum().item()
    t_e = time.perf_counter()
    print("remat grad item", t_e - t_s, gsum)


go()
