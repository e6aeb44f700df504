"""Record the timer reads a script makes, keyed by the line that made them, and what JAX
work was still running at each read that stops a region (and, with ``at_start``, at each
read that only starts one).

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

Pending work (the runtime check).  A kept read has a role: it *starts* a region, *stops* one,
or both (a lap line; every read when no roles are given, as ``verify --detect`` runs).  At a
start, the ids of JAX's live arrays are noted; at a stop, the live arrays whose ids were not
there at the start and whose ``is_ready()`` is False are the region's work still running.
Their shapes and dtypes are kept, with the name of a variable of the timing function that
holds each (JAX does not record which line made an array; the holder is what can be known).
A watcher thread then waits for them and records when they were ready: the work the region
had left.  The script's own thread does not wait: had it blocked, the script would go on
with an idle device, and its later regions (the next epoch of a loop) would measure
something else than they do as written.  (A first version blocked; on the training-loop
fixture the next epochs then measured 3-6 ms instead of 0.5 ms.)

Work pending at the start (``at_start``; on by default when no roles are given, as in
``verify --detect`` and a live session, off in a measured ``verify`` run, which reports
nothing of it).  At a start-only read (one that stops no region), before the clock is read,
the live arrays that are not ready are found: work dispatched before the start and still
running, a warm-up left unsynced.  Arrays a stop found running are left out (they are that
region's work, reported there), and so is everything at a lap read (what runs then is the
region the lap stops).  The arrays, with their holders' names as the start's frame has them,
stay with the open region; the watcher times how long they still take from the start (a
start line's first time only, as for stops).  At the region's stop, those that are ready
count as work the region waited for (the device runs work in order, so the region's own
work ran behind them) and go into the stop's check (``pending_at_start``, ``start_arrays``,
``start_work_left_s``, at most the region's length ``region_s``); those still running were
not waited for (another device's, say) and are left out.  The arrays are let go at the stop,
or when at most ``MAX_HELD`` other open regions hold theirs, so a start that no stop follows
keeps no memory alive.  An array the script already dropped is not seen (a warm-up written
as a bare ``f(x)``: JAX lists only the arrays Python still holds).

None of this lands inside what the script measures, with two documented exceptions (the
last two):

- at a start-only read, the ids are noted (and the pending arrays found) *before* the
  clock is read, and the watcher is handed the work before it too;
- at a stop, the clock is read first and returned unchanged; the check comes after it, and
  the wait is the watcher's;
- a line that starts and stops one region (``timeit.timeit(f, number=n)`` reads the clock
  twice on its line) alternates: its first read is a start, its second a stop, and so on;
- at a read that is both (a lap: one value ends a region and starts the next), the check and
  the new note of ids come after the clock value, so they fall inside the next region.
  Without roles (``--detect``, a live session) every read is a lap unless it stops nothing:
  the first read of a call, or one above its start (a loop that went round), is a start.  Their
  cost is recorded with every read (``costs``) so a report can show it;
- the watcher wakes when the work it waits for is done, for a moment, which may fall inside
  a region: the region the stop's work runs into (measured: a few tens of microseconds),
  or, for work pending at a start, the region itself, while it waits for that work; it is
  done at a region's first time only, so a loop's later rounds are left as written.

Finding the read's line (to know its role) happens before the clock is read, so every
measured region includes one frame lookup (well under a microsecond).

Which reads are kept is by default a question of the file (code in ``filename``); ``owns``
replaces it with a question of the frame, for code that is not one script: a live IPython
session's cells (and the functions they define), a test suite's modules.  Each check then
names the file its read was made in, and a reader takes the checks made so far with
``take()`` (a session per cell, a suite per test).

Start and stop reads pair per thread and per frame (one call of the function that reads the
clock; a file's module-level code counts as one, however it is run), the way the script's own
``t1 - t0`` does: a stop is checked against the last start
read by the same call of the same function.  Without roles, each read is checked against the
previous read of the same frame, unless it sits on an earlier line than that read (a loop
going round again: the stretch from the end of one iteration to the start of the next is not
a timed region).  Known limit: an array freed during the region whose id is reused by a new
one counts as old.
"""

from __future__ import annotations

import queue
import sys
import threading
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
    ("thread_time", 1.0),
    ("thread_time_ns", 1e9),
)

# Code objects of timeit's module and of the `inner` function it compiles from a template.
_TIMEIT_FILES = frozenset({timeit.Timer.timeit.__code__.co_filename, "<timeit-src>"})

MAX_ARRAYS = 8  # pending arrays described per check; the count covers them all
# Open regions that hold the arrays their start found running (until their stop); opening
# one more lets go of the oldest's, so a start read that no stop follows (a function that
# reads the clock once, to log a time) keeps no memory alive for long.
MAX_HELD = 4

_clock = time.perf_counter  # the unwrapped clock, for the check's own bookkeeping


def _live_ids() -> frozenset[int]:
    jax = sys.modules.get("jax")
    if jax is None:  # the script has not imported JAX (yet): no arrays exist
        return frozenset()
    return frozenset(id(a) for a in jax.live_arrays())


def _live_and_pending() -> tuple[frozenset[int], dict[int, Any]]:
    """The ids of JAX's live arrays, and those of them not ready yet (one pass over them)."""
    jax = sys.modules.get("jax")
    if jax is None:
        return frozenset(), {}
    ids: list[int] = []
    pending: dict[int, Any] = {}
    for array in jax.live_arrays():
        ids.append(id(array))
        try:
            ready = array.is_ready()
        except Exception:  # deleted or donated: nothing to wait for
            continue
        if not ready:
            pending[id(array)] = array
    return frozenset(ids), pending


def _describe(arrays: list[Any], names: dict[int, str]) -> list[list[Any]]:
    """``[shape, dtype, holder]`` for the first ``MAX_ARRAYS`` arrays."""
    return [[list(getattr(a, "shape", ())), str(getattr(a, "dtype", "?")), names.get(id(a))]
            for a in arrays[:MAX_ARRAYS]]


def _holders(frame: FrameType, pending: dict[int, Any]) -> dict[int, str]:
    """The name of a local (or module global) of ``frame`` holding each pending array,
    looking one level into tuples, lists and dicts (``w, loss = step(...)``)."""
    names: dict[int, str] = {}
    for scope in (frame.f_locals, frame.f_globals):
        for name, value in list(scope.items()):
            if id(value) in pending:
                names.setdefault(id(value), name)
            elif isinstance(value, (tuple, list)):
                for i, item in enumerate(value[:64]):
                    if id(item) in pending:
                        names.setdefault(id(item), f"{name}[{i}]")
            elif isinstance(value, dict):
                for key, item in list(value.items())[:64]:
                    if id(item) in pending:
                        names.setdefault(id(item), f"{name}[{key!r}]")
    return names


def _pending(since: frozenset[int]) -> dict[int, Any]:
    jax = sys.modules.get("jax")
    if jax is None:
        return {}
    out: dict[int, Any] = {}
    for array in jax.live_arrays():
        if id(array) in since:
            continue
        try:
            ready = array.is_ready()
        except Exception:  # deleted or donated since: nothing to wait for
            continue
        if not ready:
            out[id(array)] = array
    return out


def _watch_loop(items: queue.SimpleQueue[Any]) -> None:
    """The watcher thread: wait for each stop's pending arrays in turn, and record when they
    were ready.  Blocking releases the GIL, so the script runs on meanwhile, as written."""
    while True:
        item = items.get()
        if item is None:
            return
        if isinstance(item, threading.Event):  # ``drain``: everything before it is timed
            item.set()
            continue
        record, arrays, since = item
        try:
            sys.modules["jax"].block_until_ready(arrays)
        except Exception:  # one failed or was donated since: wait for the others one by one
            for array in arrays:
                try:
                    array.block_until_ready()
                except Exception:  # the work failed; the script sees that when it uses it
                    pass
        record["work_left_s"] = _clock() - since


class TimerRecorder:
    """Wraps the timer functions; collects ``(line, raw value, divisor)`` per read in one
    file, and one check per stop read (``checks``, see the module docstring)."""

    def __init__(
        self,
        filename: str,
        lines: Collection[int] | None = None,
        starts: Collection[int] | None = None,
        stops: Collection[int] | None = None,
        check: bool = True,
        same: Collection[int] = (),
        owns: Callable[[FrameType], bool] | None = None,
        at_start: bool | None = None,
    ) -> None:
        self.filename = filename
        # Whose reads are kept, by frame (see the module docstring); None: code in filename.
        self.owns = owns
        # A frozenset makes the per-read membership test cheap; None keeps every line.
        self.lines: frozenset[int] | None = frozenset(lines) if lines is not None else None
        self.starts = frozenset(starts) if starts is not None else None
        self.stops = frozenset(stops) if stops is not None else None
        self.check = check
        # Look for work still running at start-only reads too (see the module docstring): by
        # default when no roles are given (``--detect``, a live session), not in a measured
        # ``verify`` run, which reports nothing of it.
        roles_given = starts is not None or stops is not None
        self.at_start = check and (not roles_given if at_start is None else at_start)
        # Lines that start and stop one region (``timeit.timeit(...)`` reads twice on its
        # line): their reads alternate start, stop, as the pairing in ``stats`` takes them,
        # so the start's note of live arrays can come before its clock value.
        self.same = frozenset(same)
        self._same_reads: dict[int, int] = {}
        self.reads: list[tuple[int, int | float, float]] = []
        self.checks: list[dict[str, Any]] = []
        # per kept read: the check's own time in seconds, not counting the wait for the work
        self.costs: list[float] = []
        # (thread, frame id, code id) -> (index of the start read, its line, live ids then,
        # what the start check found: None when the start was not checked)
        self._open: dict[tuple[object, ...],
                         tuple[int, int, frozenset[int], dict[str, Any] | None]] = {}
        # ids of the arrays a stop found still running: that region's work (its JAX101), not
        # work pending at a later start; forgotten once they are no longer live
        self._left: set[int] = set()
        self._held: dict[int, dict[str, Any]] = {}  # id(start info) -> start info
        self._watched_starts: set[tuple[str, int]] = set()  # (file, start line) timed
        self._unsettled: list[tuple[dict[str, Any], dict[str, Any]]] = []
        self._saved: list[tuple[object, str, Any]] = []
        self._queue: queue.SimpleQueue[Any] | None = None
        # regions whose work left was timed: (file, start line, stop line)
        self._watched: set[tuple[str, int, int]] = set()
        self._watcher: threading.Thread | None = None

    def _role(self, line: int) -> tuple[bool, bool]:
        """(starts a region, stops one) for a read on ``line``."""
        if self.starts is None and self.stops is None:
            return True, True
        if line in self.same:
            count = self._same_reads.get(line, 0)
            self._same_reads[line] = count + 1
            return (True, False) if count % 2 == 0 else (False, True)
        start = self.starts is not None and line in self.starts
        stop = self.stops is not None and line in self.stops
        return (start, stop) if (start or stop) else (False, False)

    def _start_check(self, frame: FrameType, line: int) -> tuple[frozenset[int], dict[str, Any]]:
        """At a start-only read, before its clock: the live arrays not ready yet, less those
        an earlier stop found running (reported at that stop), kept with the open region
        until its stop says which of them the region waited for."""
        began = _clock()
        ids, pending = _live_and_pending()
        self._left &= ids
        for gone in self._left.intersection(pending):
            del pending[gone]
        info: dict[str, Any] = {"arrays": list(pending.values()), "names": {}, "col": None,
                                "timed": False, "work_left_s": None}
        if pending:
            info["names"] = _holders(frame, pending)
            info["col"] = _column(frame)
            self._hold(info)
            where = (frame.f_code.co_filename, line)
            if where not in self._watched_starts:  # a start line's first time only
                self._watched_starts.add(where)
                info["timed"] = True
        info["check_s"] = _clock() - began
        return ids, info

    def _hold(self, info: dict[str, Any]) -> None:
        self._held[id(info)] = info
        while len(self._held) > MAX_HELD:
            self._release(next(iter(self._held.values())))

    def _release(self, info: dict[str, Any] | None) -> None:
        """Let go of the arrays a start found running (its region stopped, or never will)."""
        if info is not None and self._held.pop(id(info), None) is not None:
            info["arrays"], info["names"] = [], {}

    def _start_work(self, record: dict[str, Any], info: dict[str, Any], stopped: float) -> None:
        """Add to a stop's check what its start found running and the region waited for:
        the arrays ready by the stop (in dispatch order the region's own work ran after
        them); those still running were not waited for (another device's, say)."""
        counted = info.get("counted")
        if counted is None:
            ready = []
            for array in info["arrays"]:
                try:
                    if array.is_ready():
                        ready.append(array)
                except Exception:  # deleted or donated since: not known to be waited for
                    pass
            counted = info["counted"] = (len(ready), _describe(ready, info["names"]))
            self._release(info)
        record["pending_at_start"], record["start_arrays"] = counted
        record["start_col"] = info["col"]
        record["start_check_s"] = info["check_s"]
        record["region_s"] = stopped - info["since"]
        record["start_work_left_s"] = None if counted[0] else 0.0
        if counted[0] and info["timed"]:
            info["timed"] = False  # the region's first stop takes the figure
            self._unsettled.append((record, info))

    def _settle(self) -> None:
        """Give the stops their start's work left, as the watcher timed it from the start;
        at most the region's length (the watcher also waits for arrays the region did not)."""
        for record, info in self._unsettled:
            left = info.get("work_left_s")
            record["start_work_left_s"] = (None if left is None
                                           else min(float(left), float(record["region_s"])))
        self._unsettled = []

    def _check(self, frame: FrameType, line: int, col: int | None, key: tuple[object, ...],
               index: int, roles_given: bool) -> float:
        """Record the stop's pending work; returns the time spent waiting for it."""
        opened = self._open.get(key)
        if opened is None:
            return 0.0
        start_index, start_line, since, info = opened
        if not roles_given and line < start_line:
            return 0.0  # the loop went round: see the module docstring
        began = _clock()
        pending = _pending(since)
        found = _clock() - began
        record: dict[str, Any] = {
            "read": index, "line": line, "col": col, "start_read": start_index,
            "start_line": start_line, "pending": len(pending), "arrays": [],
            "work_left_s": 0.0, "check_s": found, "file": frame.f_code.co_filename,
        }
        # The lines of the script that the read is nested in (a ``with`` statement whose
        # context manager read the clock, a call of a timing helper): where a static finding
        # about this region may sit.
        outer: list[int] = []
        outer_files: list[str] = []
        up = frame.f_back
        while up is not None and len(outer) < 8:
            if (self.owns(up) if self.owns is not None
                    else up.f_code.co_filename == self.filename):
                outer.append(up.f_lineno)
                outer_files.append(up.f_code.co_filename)
            up = up.f_back
        record["outer"] = outer
        record["outer_files"] = outer_files
        if info is not None:
            self._start_work(record, info, began)
        if pending:
            if self.at_start:
                self._left.update(pending)
            names = _holders(frame, pending)
            record["arrays"] = [
                [list(getattr(a, "shape", ())), str(getattr(a, "dtype", "?")), names.get(i)]
                for i, a in list(pending.items())[:MAX_ARRAYS]
            ]
            # The wait happens on the watcher thread: blocking here would let the script go
            # on with an idle device, which changes what its later regions measure. Only a
            # region's first pending stop is timed: the watcher takes the interpreter lock
            # for a moment when the work is done, which may fall in the script's next region
            # (measured: a few tens of microseconds), and a loop's later occurrences, whose
            # median is the run's value, should be left as written.
            region = (record["file"], start_line, line)
            if region not in self._watched:
                self._watched.add(region)
                self._watch(record, list(pending.values()), _clock())
            else:
                record["work_left_s"] = None
        self.checks.append(record)
        return 0.0

    def _wrap(self, original: Callable[[], Any], scale: float) -> Callable[[], Any]:
        filename = self.filename
        lines = self.lines
        append = self.reads.append
        getframe = sys._getframe
        timeit_files = _TIMEIT_FILES
        roles_given = self.starts is not None or self.stops is not None
        recorder = self
        owns = self.owns

        def timer() -> Any:
            frame: FrameType | None = getframe(1)
            # Step out of timeit's machinery (never out of anything else: JAX reads the clock
            # while compiling, and those reads must not land on the script line that called it).
            while frame is not None and frame.f_code.co_filename in timeit_files:
                frame = frame.f_back
            if frame is None or (not owns(frame) if owns is not None
                                 else frame.f_code.co_filename != filename):
                return original()
            lineno = frame.f_lineno
            if lines is not None and lineno not in lines:
                return original()
            if not recorder.check:
                value = original()
                append((lineno, value, scale))
                return value
            start, stop = recorder._role(lineno)
            key = _call(frame)
            if stop and start and not roles_given:
                # Without roles every read is a lap, but one that stops nothing (the call's
                # first read, or its loop went round: see ``_check``) is a start only, whose
                # note of the live arrays then comes before the clock, outside the region.
                opened = recorder._open.get(key)
                stop = opened is not None and lineno >= opened[1]
            if start and not stop:
                # Note the live arrays (and, with ``at_start``, find the work still running)
                # before the clock, so that none of it is timed.
                began = _clock()
                info: dict[str, Any] | None = None
                if recorder.at_start:
                    ids, info = recorder._start_check(frame, lineno)
                else:
                    ids = _live_ids()
                if info is not None:
                    since = _clock()
                    info["since"] = since
                    if info["timed"]:  # the watcher times the work from here
                        recorder._watch(info, info["arrays"], since)
                        since = _clock()
                    cost = since - began
                else:
                    cost = _clock() - began
                old = recorder._open.get(key)
                if old is not None and old[3] is not None:
                    recorder._release(old[3])
                value = original()
                recorder._open[key] = (len(recorder.reads), lineno, ids, info)
                append((lineno, value, scale))
                recorder.costs.append(cost)
                return value
            value = original()  # the stop's value comes first; everything below is after it
            began = _clock()
            index = len(recorder.reads)
            append((lineno, value, scale))
            waited = 0.0
            if stop:
                waited = recorder._check(frame, lineno, _column(frame), key, index, roles_given)
            if start:  # a lap: what is running now is this stop's region's (checked above)
                old = recorder._open.get(key)
                if old is not None and old[3] is not None:
                    recorder._release(old[3])
                recorder._open[key] = (index, lineno, _live_ids(), None)
            recorder.costs.append(_clock() - began - waited)
            return value

        timer.__name__ = getattr(original, "__name__", "timer")
        timer.__doc__ = getattr(original, "__doc__", None)
        timer.__wrapped__ = original  # type: ignore[attr-defined]
        return timer

    def install(self) -> None:
        """Replace the timer attributes on ``time`` and ``timeit.default_timer``; start the
        watcher thread now, so that no stop read pays for starting it."""
        if self.check:
            self._queue = queue.SimpleQueue()
            self._watcher = threading.Thread(target=_watch_loop, args=(self._queue,),
                                             name="jaxlint-verify-watcher", daemon=True)
            self._watcher.start()
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

    def _watch(self, record: dict[str, Any], arrays: list[Any], since: float) -> None:
        """Have the watcher thread time how long ``arrays`` still take from ``since``."""
        if self._queue is not None:
            self._queue.put((record, arrays, since))

    def finish(self) -> None:
        """Wait for the watcher to time every pending region (call after the script ends)."""
        if self._queue is not None and self._watcher is not None:
            self._queue.put(None)
            self._watcher.join()
            self._queue = self._watcher = None
        self._settle()

    def drain(self, timeout: float | None = None) -> bool:
        """Wait until the watcher has timed the work of every stop checked so far (at most
        ``timeout`` seconds); False if it has not by then."""
        if self._queue is None:
            return True
        done = threading.Event()
        self._queue.put(done)
        return done.wait(timeout)

    def take(self, timeout: float | None = None) -> tuple[list[dict[str, Any]], list[float]]:
        """The checks and per-read costs recorded since the last ``take`` (or the start),
        once the watcher has timed their work (``drain``); the recorder then starts afresh,
        so that a long session does not keep every read it ever made."""
        self.drain(timeout)
        self._settle()
        checks, costs = self.checks, self.costs
        self.checks, self.costs = [], []
        self.reads.clear()  # in place: each timer wrapper holds its ``append``
        self._watched = set()
        self._watched_starts = set()
        return checks, costs

    def uninstall(self) -> None:
        for module, name, original in reversed(self._saved):
            setattr(module, name, original)
        self._saved.clear()


def _call(frame: FrameType) -> tuple[object, ...]:
    """What pairs a stop with its start: one call of one function, on one thread. A file's
    module-level code is one call, even when it runs as several code objects (IPython runs
    each top-level statement of a cell as its own)."""
    code = frame.f_code
    if code.co_name == "<module>":
        return (threading.get_ident(), code.co_filename)
    return (threading.get_ident(), id(frame), id(code))


_POSITIONS: dict[Any, list[Any]] = {}


def _column(frame: FrameType) -> int | None:
    """The 0-based column of the call being made in ``frame`` (Python 3.11+), else None."""
    code = frame.f_code
    if not hasattr(code, "co_positions"):
        return None
    entries = _POSITIONS.get(code)
    if entries is None:
        entries = _POSITIONS[code] = list(code.co_positions())
    try:
        col = entries[frame.f_lasti // 2][2]
    except IndexError:
        return None
    return col if isinstance(col, int) else None
