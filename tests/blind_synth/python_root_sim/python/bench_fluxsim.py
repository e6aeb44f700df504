#!/usr/bin/env python
"""Benchmark the fluxsim advection kernel.  Run from the python/ directory:

    cd python && python bench_fluxsim.py --grid 1024 --steps 200
"""
import argparse

import jax

import fluxsim
from fluxsim import bench, clock


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--grid", type=int, default=1024)
    ap.add_argument("--steps", type=int, default=200)
    ap.add_argument("--cfl", type=float, default=0.4)
    ap.add_argument("--repeats", type=int, default=10)
    args = ap.parse_args()
    print(f"fluxsim {fluxsim.__version__} on {jax.default_backend()}")

    t_med, m = bench.bench_steps(args.grid, args.steps, args.cfl, args.repeats)
    print(f"median {t_med * 1e3:9.2f} ms for {args.steps} steps (mass {m:.3f})")

    t_nw = bench.bench_steps_nowait(args.grid, args.steps, args.cfl, args.repeats)
    print(f"no-wait {t_nw * 1e3:8.2f} ms per call")

    synced, unsynced = bench.bench_stopwatch(args.grid, args.steps, args.cfl, args.repeats)
    print(f"stopwatch: stop(u) {synced * 1e3:8.2f} ms   stop() {unsynced * 1e3:8.2f} ms")

    t_snap, nbytes = bench.bench_snapshot(args.grid, args.steps, args.cfl)
    print(f"{args.steps} steps on the {2 * args.grid}^2 grid: {t_snap * 1e3:8.2f} ms ({nbytes / 2**20:.0f} MiB field)")

    # end-to-end: build grid, compile for a new step count, run, read back
    t0 = clock.now()
    u0 = fluxsim.make_grid(args.grid, kind="disk")
    u = fluxsim.advect_steps(u0, args.cfl, n_steps=args.steps * 2)
    total_mass = float(fluxsim.solver.mass(u))
    print(f"end-to-end run incl. compile: {clock.elapsed(t0):.2f} s, mass {total_mass:.2f}")


if __name__ == "__main__":
    main()
