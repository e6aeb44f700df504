"""Benchmark routines for fluxsim (imported by python/bench_fluxsim.py)."""
import jax
import numpy as np

from . import clock
from .solver import advect_steps, make_grid, mass


def bench_steps(n, n_steps, cfl, repeats):
    u0 = make_grid(n)
    float(mass(advect_steps(u0, cfl, n_steps=n_steps)))  # warm-up: compile both
    out = []
    for _ in range(repeats):
        t0 = clock.now()
        u = advect_steps(u0, cfl, n_steps=n_steps)
        m = float(mass(u))
        out.append(clock.elapsed(t0))
    return np.median(out), m


def bench_steps_nowait(n, n_steps, cfl, repeats):
    u0 = make_grid(n)
    advect_steps(u0, cfl, n_steps=n_steps).block_until_ready()
    t0 = clock.now()
    for _ in range(repeats):
        u = advect_steps(u0, cfl, n_steps=n_steps)
    return clock.elapsed(t0) / repeats


def bench_stopwatch(n, n_steps, cfl, repeats):
    u0 = make_grid(n)
    sw = clock.Stopwatch()
    advect_steps(u0, cfl, n_steps=n_steps).block_until_ready()
    for _ in range(repeats):
        sw.start()
        u = advect_steps(u0, cfl, n_steps=n_steps)
        sw.stop(u)
    synced = np.median(sw.laps)
    sw.laps.clear()
    for _ in range(repeats):
        sw.start()
        u = advect_steps(u0, cfl, n_steps=n_steps)
        sw.stop()
    jax.block_until_ready(u)
    return synced, np.median(sw.laps)


def bench_snapshot(n, n_steps, cfl):
    """Run and fetch the final field (what the plotting notebook does)."""
    u0 = make_grid(2 * n)
    advect_steps(u0, cfl, n_steps=n_steps).block_until_ready()
    t0 = clock.now()
    field = np.asarray(advect_steps(u0, cfl, n_steps=n_steps))
    return clock.elapsed(t0), field.nbytes
