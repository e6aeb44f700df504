#!/usr/bin/env bash
# Regenerate a `jaxlint verify` report over fixtures that cover every rule, plus the
# runtime-only examples, and the `--detect` output that goes with it.
#
#   scripts/verify_report.sh docs/verify-cpu.md --backend cpu   # CPU: ~5 min on 2 shared cores
#   scripts/verify_report.sh docs/verify-h200.md --size 4096    # a GPU, with JAX for CUDA
#                                                               # installed for $PYTHON
#
# Runs: 14 fixtures with findings x 2 versions x 3 repeats (the two that raise as written
# run once as written), and 3 scripts without findings once each: 83 fresh Python processes,
# then 4 for --detect. Each pays JAX's start-up (about
# 3 s on the CPU, more where a GPU is initialised), so on a GPU machine the whole script fits
# in one 10-minute command. Extra arguments (--backend, --size) go to both commands.
# --size 4096 makes each fixture's work big enough to time on an H200 (under 1 ms a region
# is reported "too small to tell on this device"); the fixtures read it as N.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:?usage: scripts/verify_report.sh OUT.md [verify options]}"
shift
py="${PYTHON:-python}"

"$py" -m jaxlint verify --repeat 3 --unsafe-fixes --report "$out" "$@" \
    fixtures/JAX101/seed.py \
    fixtures/JAX101/training_loop.py \
    fixtures/JAX102/timeit_lambda.py \
    fixtures/JAX103/sync_input.py \
    fixtures/JAX104/np_asarray.py \
    fixtures/JAX104/asarray_of_call.py \
    fixtures/JAX105/jit_assign_module.py \
    fixtures/JAX106/unsynced_warmup.py \
    fixtures/JAX107/uncalled_method.py \
    fixtures/JAX107/effects_barrier.py \
    fixtures/JAX107/container_method.py \
    fixtures/JAX107/no_argument_sync.py \
    fixtures/JAX107/sync_does_nothing.py \
    fixtures/JAX107/sync_inside_jit.py \
    fixtures/JAX101/seed_ok.py \
    fixtures/runtime/dispatch_by_name.py \
    fixtures/runtime/plugin_kernel.py

# The runtime findings, as a user sees them (exit status 1: there are findings), appended to
# the report.
detect=(fixtures/runtime fixtures/JAX101/seed.py)
{
    echo
    echo "## Runtime findings"
    echo
    echo "\`jaxlint verify --detect $* ${detect[*]}\` (each script run once, as written):"
    echo
    echo '```'
    "$py" -m jaxlint verify --detect -q "$@" "${detect[@]}" || [ $? -eq 1 ]
    echo '```'
    echo
    echo "Lint (\`jaxlint ${detect[*]}\`) reports only the first: the other two reach their"
    echo "work through \`globals()[name]\` and \`importlib.import_module(name)\`, which the"
    echo "static analysis does not follow."
} >> "$out"
