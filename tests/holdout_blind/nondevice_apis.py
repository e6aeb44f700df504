"""Startup cost breakdown: how long does each phase of bring-up take?"""
import time

import jax
import jax.numpy as jnp


def f(x):
    for _ in range(10):
        x = jnp.sin(x) @ x
    return x


def main():
    phases = {}

    t = time.perf_counter()
    jax.config.update("jax_enable_x64", False)
    jax.config.update("jax_default_matmul_precision", "bfloat16")
    phases["config"] = time.perf_counter() - t

    t = time.perf_counter()
    devs = jax.devices()
    phases["device_discovery"] = time.perf_counter() - t

    x = jnp.ones((2048, 2048))

    t = time.perf_counter()
    compiled = jax.jit(f).lower(x).compile()
    phases["compile_seconds"] = time.perf_counter() - t

    hparams = {"lr": 3e-4, "wd": 0.1, "betas": (0.9, 0.95)}
    t = time.perf_counter()
    scaled = jax.tree_util.tree_map(lambda v: v * 0.5, hparams)
    phases["tree_map_hparams"] = time.perf_counter() - t

    t = time.perf_counter()
    y = compiled(x)
    phases["first_execution"] = time.perf_counter() - t

    for k, v in phases.items():
        print(f"{k:20s} {v:.4f}s")
    print(len(devs), scaled, y.shape)


if __name__ == "__main__":
    main()
