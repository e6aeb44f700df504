"""Record the timer reads a script makes, keyed by the line that made them.

Verify must work on unmodified scripts, so instead of asking them to use a benchmark API we
wrap the standard timer functions for the duration of the run.  The wrappers are installed on
the ``time`` and ``timeit`` modules *before* the script runs, which also covers scripts that
do ``from time import perf_counter``: that import copies the attribute at import time, and by
then the attribute is already the wrapper.

Only reads made by code in the script file itself are kept (and optionally only on the lines
verify cares about): JAX and other libraries read the clock too, and those reads are not what
the script measured.  The one exception is ``timeit``: ``timeit.timeit(f, number=n)`` on line
18 reads the clock inside timeit's own code, so reads from timeit's frames are attributed to
the script line that called into timeit.  Each such call reads the clock twice (before and
after its loop), which pairs up as a region whose start and stop are that one line.
"""

from __future__ import annotations

import sys
import time
import timeit
from collections.abc import Callable, Collection
from types import FrameType
from typing import Any

# (attribute name, divisor that turns the value into seconds).  The _ns forms return integer
# nanoseconds; the raw value is kept with its divisor because turning time_ns() (~1.7e18) into
# float seconds would round away sub-microsecond differences.
TIMERS: tuple[tuple[str, float], ...] = (
    ("perf_counter", 1.0),
    ("perf_counter_ns", 1e9),
    ("time", 1.0),
    ("time_ns", 1e9),
    ("monotonic", 1.0),
    ("monotonic_ns", 1e9),
    ("process_time", 1.0),
    ("process_time_ns", 1e9),
)


# Code objects of timeit's module and of the `inner` function it compiles from a template.
_TIMEIT_FILES = frozenset({timeit.Timer.timeit.__code__.co_filename, "<timeit-src>"})


class TimerRecorder:
    """Wraps the timer functions; collects ``(line, raw value, divisor)`` per read in one file."""

    def __init__(self, filename: str, lines: Collection[int] | None = None) -> None:
        self.filename = filename
        # A frozenset makes the per-read membership test cheap; None keeps every line.
        self.lines: frozenset[int] | None = frozenset(lines) if lines is not None else None
        self.reads: list[tuple[int, int | float, float]] = []
        self._saved: list[tuple[object, str, Any]] = []

    def _wrap(self, original: Callable[[], Any], scale: float) -> Callable[[], Any]:
        filename = self.filename
        lines = self.lines
        append = self.reads.append
        getframe = sys._getframe
        timeit_files = _TIMEIT_FILES

        def timer() -> Any:
            # Read the clock first so the bookkeeping below is not inside the measurement.
            value = original()
            frame: FrameType | None = getframe(1)
            # Step out of timeit's machinery (never out of anything else: JAX reads the clock
            # while compiling, and those reads must not land on the script line that called it).
            while frame is not None and frame.f_code.co_filename in timeit_files:
                frame = frame.f_back
            if frame is not None and frame.f_code.co_filename == filename:
                lineno = frame.f_lineno
                if lines is None or lineno in lines:
                    append((lineno, value, scale))
            return value

        timer.__name__ = getattr(original, "__name__", "timer")
        timer.__doc__ = getattr(original, "__doc__", None)
        timer.__wrapped__ = original  # type: ignore[attr-defined]
        return timer

    def install(self) -> None:
        """Replace the timer attributes on ``time`` and ``timeit.default_timer``."""
        wrapped: dict[str, Callable[[], Any]] = {}
        for name, scale in TIMERS:
            original = getattr(time, name, None)
            if original is None:  # e.g. a platform without one of the _ns forms
                continue
            wrapped[name] = self._wrap(original, scale)
            self._saved.append((time, name, original))
            setattr(time, name, wrapped[name])
        # timeit.default_timer is perf_counter, bound when timeit was imported (possibly before
        # us), so it needs its own patch; so do the defaults `timer=default_timer` that timeit's
        # functions captured when they were defined.
        original_pc = timeit.default_timer
        wrapped_pc = wrapped.get("perf_counter", original_pc)
        self._saved.append((timeit, "default_timer", original_pc))
        timeit.default_timer = wrapped_pc
        for function in (timeit.Timer.__init__, timeit.timeit, timeit.repeat):
            defaults = function.__defaults__ or ()
            self._saved.append((function, "__defaults__", defaults))
            function.__defaults__ = tuple(wrapped_pc if d is original_pc else d for d in defaults)

    def uninstall(self) -> None:
        for module, name, original in reversed(self._saved):
            setattr(module, name, original)
        self._saved.clear()
