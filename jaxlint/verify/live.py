"""The runtime check of ``jaxlint verify --detect`` in a process that keeps running: a notebook
kernel (``jaxlint.ipython``) or a test session (``jaxlint.pytest_plugin``).

``verify --detect`` runs one script in a child process with its timers instrumented
(``instrument.TimerRecorder``) and judges the checks when the script ends
(``detect.runtime_findings``). Here the same recorder is installed in the process itself, for
as long as the front end is active, keeping the reads of the frames ``owns`` says are the
user's (a session's cells and what they define, a suite's test modules); the front end takes
what was checked after each unit of work (a cell, a test) and turns it into findings the
same way, file by file.

Some reads are made by a harness on the user's behalf: IPython's ``%timeit`` template and
``%time`` magic, pytest-benchmark's runner. They are owned too (the front end says so), and
their checks are placed on the line of the user's code that ran the harness (the nearest
owned frame of a file that ``is_place`` accepts), without the names of the harness's locals
that held the arrays.

Nothing here imports JAX: the recorder looks it up in ``sys.modules`` at each read.
"""

from __future__ import annotations

import statistics
from collections import deque
from collections.abc import Callable, Iterable
from types import FrameType
from typing import Any

from jaxlint.verify.instrument import TimerRecorder

COSTS_KEPT = 100_000  # per-read costs kept for the median (a long session reads a lot)


class LiveCheck:
    """A ``TimerRecorder`` for a running process: ``install`` / ``uninstall`` around the
    time it is active, ``take`` after each unit of work."""

    def __init__(self, owns: Callable[[FrameType], bool]) -> None:
        self.recorder = TimerRecorder("", owns=owns)
        self.costs: deque[float] = deque(maxlen=COSTS_KEPT)
        self.reads = 0  # clock reads checked, in all
        self.installed = False

    def install(self) -> None:
        if not self.installed:
            self.recorder.install()
            self.installed = True

    def uninstall(self) -> None:
        if self.installed:
            self.recorder.finish()
            self.recorder.uninstall()
            self.installed = False

    def take(self, timeout: float | None = None) -> list[dict[str, Any]]:
        """The checks made since the last call, once the work they found is timed."""
        if not self.installed:
            return []
        checks, costs = self.recorder.take(timeout)
        self.costs.extend(costs)
        self.reads += len(costs)
        return checks

    def cost_s(self) -> float | None:
        """The check's median cost per clock read, in seconds (None before any read)."""
        return statistics.median(self.costs) if self.costs else None


def placed(checks: Iterable[dict[str, Any]], is_place: Callable[[str], bool]
           ) -> dict[str, list[dict[str, Any]]]:
    """The checks by the file the user's timing is in. A check made in a harness's frame
    (a file ``is_place`` rejects) moves to the nearest owned frame of a file it accepts, as
    a region of that one line; one with no such frame is dropped."""
    out: dict[str, list[dict[str, Any]]] = {}
    for check in checks:
        if is_place(str(check.get("file"))):
            out.setdefault(str(check["file"]), []).append(check)
            continue
        where = next(((f, n) for f, n in zip(check.get("outer_files") or (),
                                            check.get("outer") or ()) if is_place(f)), None)
        if where is None:
            continue
        moved = dict(check, file=where[0], line=where[1], start_line=where[1], col=None,
                     arrays=[[shape, dtype, None] for shape, dtype, _ in check["arrays"]])
        if "start_arrays" in check:  # the harness's locals held them, not the user's
            moved.update(start_col=None, start_arrays=[
                [shape, dtype, None] for shape, dtype, _ in check["start_arrays"]])
        out.setdefault(where[0], []).append(moved)
    return out
