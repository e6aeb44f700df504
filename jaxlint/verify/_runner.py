"""Child-process entry point: run one script with its timer reads recorded.

Run as ``python .../jaxlint/verify/_runner.py SCRIPT --out FILE [--lines 3,7] [--path-dir DIR]``
(``python -m jaxlint.verify._runner`` works too).  The parent (``jaxlint.verify.execute``)
starts one of these per run, so every run gets a fresh interpreter: a cold JAX, its own
compilation, and nothing left over from an earlier repeat.

The parent runs this file by path rather than with ``-m`` because ``-m`` first imports the
``jaxlint`` package, i.e. the linter and libcst: ~1.4 s per run, and a child whose loaded
modules differ from the user's own ``python script.py``.  Run by path, it needs only the
standard library and ``instrument.py`` next to it.

The result goes to ``--out`` as JSON rather than to stdout, because stdout belongs to the
script.  The exit status is 0 when the script finished and 1 when it raised or exited non-zero.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import runpy
import sys
import traceback
from typing import Any


def _load_recorder() -> type[Any]:
    """The TimerRecorder class, without importing the jaxlint package when run by path."""
    if __package__:
        from jaxlint.verify.instrument import TimerRecorder

        return TimerRecorder
    import importlib.util

    # Load instrument.py under a private name: putting this directory on sys.path would let
    # it shadow a user module called "instrument".
    spec = importlib.util.spec_from_file_location(
        "_jaxlint_verify_instrument", os.path.join(os.path.dirname(__file__), "instrument.py")
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    recorder: type[Any] = module.TimerRecorder
    return recorder


def _parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m jaxlint.verify._runner")
    parser.add_argument("script")
    parser.add_argument("--out", required=True, help="where to write the JSON result")
    parser.add_argument("--lines", default=None, help="comma-separated lines whose reads to keep")
    parser.add_argument("--starts", default=None, help="comma-separated lines that start regions")
    parser.add_argument("--stops", default=None, help="comma-separated lines that stop regions")
    parser.add_argument("--same", default=None,
                        help="comma-separated lines that start and stop one region")
    parser.add_argument("--no-check", action="store_true",
                        help="do not look for pending JAX work at the stops")
    parser.add_argument(
        "--path-dir",
        default=None,
        help="directory for sys.path[0] (the original script's, when running a fixed copy)",
    )
    return parser.parse_args(argv)


def _numbers(text: str | None) -> list[int] | None:
    return [int(n) for n in text.split(",") if n] if text is not None else None


def _describe_error(exc: BaseException, script: str) -> str:
    """One line naming the exception and the script line it came from."""
    where = ""
    for frame in reversed(traceback.extract_tb(exc.__traceback__)):
        if os.path.abspath(frame.filename) == script:
            where = f" (line {frame.lineno})"
            break
    text = str(exc).strip().splitlines()
    message = f"{type(exc).__name__}: {text[0]}" if text else type(exc).__name__
    return message + where


def _device_info() -> dict[str, Any] | None:
    """The device the script's JAX ran on, only if the script imported JAX.

    Importing JAX here for a script that never used it would cost seconds and report a device
    the script did not touch, so a script without JAX reports no device.
    """
    jax = sys.modules.get("jax")
    if jax is None:
        return None
    try:
        device = jax.devices()[0]
        jaxlib = sys.modules.get("jaxlib")
        return {
            "kind": str(device.device_kind),
            "platform": str(device.platform),
            "jax_version": str(jax.__version__),
            "jaxlib_version": str(getattr(jaxlib, "__version__", None)),
            "python": sys.version.split()[0],
            "host": platform.node(),
            "count": len(jax.devices()),
        }
    except Exception as exc:  # a broken backend must not hide the script's own result
        return {"kind": None, "platform": None, "jax_version": None, "error": repr(exc)}


def main(argv: list[str] | None = None) -> int:
    args = _parse(sys.argv[1:] if argv is None else argv)
    script = os.path.abspath(args.script)
    # "--lines ''" means no lines of interest (a clean file's run), not "every line".
    lines = _numbers(args.lines)

    # Look like `python SCRIPT`: argv[0] is the script, sys.path[0] is its directory.
    sys.argv = [script]
    sys.path[0] = os.path.abspath(args.path_dir) if args.path_dir else os.path.dirname(script)

    recorder = _load_recorder()(script, lines, _numbers(args.starts), _numbers(args.stops),
                                check=not args.no_check, same=_numbers(args.same) or ())
    error: str | None = None
    recorder.install()
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        if exc.code not in (None, 0):
            error = f"exited with status {exc.code!r}"
    except BaseException as exc:  # noqa: BLE001 - any failure of user code is a result
        error = _describe_error(exc, script)
        traceback.print_exc()  # the parent keeps the tail of stderr for the report
    finally:
        recorder.uninstall()
        recorder.finish()
    sys.stdout.flush()

    result = {
        "script": script,
        "reads": recorder.reads,
        "checks": recorder.checks,
        "costs": recorder.costs,
        "error": error,
        "device": _device_info(),
    }
    tmp = args.out + ".tmp"
    with open(tmp, "w", encoding="utf-8") as fh:
        json.dump(result, fh)
    os.replace(tmp, args.out)  # the parent never sees a half-written file
    return 0 if error is None else 1


if __name__ == "__main__":
    sys.exit(main())
