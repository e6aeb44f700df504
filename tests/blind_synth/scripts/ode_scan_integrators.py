"""Integrate a damped pendulum ensemble with RK4 using lax.scan / fori_loop.

python ode_scan_integrators.py --ensemble 4096 --steps 1000 --repeat 5
"""
import argparse
import functools
import time

import jax
import jax.numpy as jnp
import numpy as np


def pendulum(state, damping=0.1):
    theta, omega = state
    return jnp.stack([omega, -jnp.sin(theta) - damping * omega])


def rk4(f, y, dt):
    k1 = f(y)
    k2 = f(y + 0.5 * dt * k1)
    k3 = f(y + 0.5 * dt * k2)
    k4 = f(y + dt * k3)
    return y + dt / 6 * (k1 + 2 * k2 + 2 * k3 + k4)


def integrate_eager(y0, dt, steps):
    """Eager lax.scan with a body closure built on every call."""
    def body(y, _):
        return rk4(pendulum, y, dt), None
    y, _ = jax.lax.scan(body, y0, None, length=steps)
    return y


@functools.partial(jax.jit, static_argnames="steps")
def integrate_jit(y0, dt, steps):
    def body(i, y):
        return rk4(pendulum, y, dt)
    return jax.lax.fori_loop(0, steps, body, y0)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--ensemble", type=int, default=4096)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--dt", type=float, default=0.01)
    args = ap.parse_args()

    rng = np.random.default_rng(0)
    y0 = jnp.asarray(np.stack([rng.uniform(-3, 3, args.ensemble), np.zeros(args.ensemble)]).astype(np.float32))
    dt = jnp.float32(args.dt)

    integrate_eager(y0, dt, args.steps).block_until_ready()
    eager = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        y_e = integrate_eager(y0, dt, args.steps)
        y_e.block_until_ready()
        eager.append(time.perf_counter() - t0)

    integrate_jit(y0, dt, args.steps).block_until_ready()
    jitted = []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        y_j = integrate_jit(y0, dt, args.steps)
        y_j.block_until_ready()
        jitted.append(time.perf_counter() - t0)

    # a 4x larger ensemble: new shape, so the first few runs are dropped
    y_big = jnp.tile(y0, (1, 4))
    big = []
    for _ in range(args.repeat + 3):
        t0 = time.perf_counter()
        y_b = integrate_jit(y_big, dt, args.steps)
        y_b.block_until_ready()
        big.append(time.perf_counter() - t0)
    print(f"jit fori x4: {1e3 * np.median(big[3:]):9.2f} ms (first {1e3 * big[0]:.1f} ms dropped)")

    energy = lambda y: float(jnp.mean(0.5 * y[1] ** 2 + 1 - jnp.cos(y[0])))
    print(f"eager scan : {1e3 * np.median(eager):9.2f} ms  E={energy(y_e):.5f}")
    print(f"jit fori   : {1e3 * np.median(jitted):9.2f} ms  E={energy(y_j):.5f}")


if __name__ == "__main__":
    main()
