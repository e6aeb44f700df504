import time as clockmod

import jax.numpy as jnp
import numpy


def _inner(a):
    return jnp.einsum("ij,jk->ik", a, a) / a.shape[0]


def _middle(a):
    return _inner(a) + 1.0


def workload(a):
    return _middle(_middle(a))


def host_side(a_np):
    return numpy.linalg.norm(a_np @ a_np.T)


def main():
    a = jnp.ones((512, 512)) * 0.01
    a_np = numpy.ones((512, 512)) * 0.01
    workload(a).block_until_ready()

    t0 = clockmod.perf_counter()
    r = workload(a)
    t1 = clockmod.perf_counter()
    print("transitive unsynced", t1 - t0)

    t0 = clockmod.perf_counter()
    r = workload(a)
    r.block_until_ready()
    t1 = clockmod.perf_counter()
    print("transitive synced", t1 - t0)

    t0 = clockmod.perf_counter()
    s = host_side(a_np)
    t1 = clockmod.perf_counter()
    print("numpy helper", t1 - t0, s)


if __name__ == "__main__":
    main()
