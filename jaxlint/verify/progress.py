"""Progress on stderr while scripts run (runs take seconds each; silence looks like a hang)."""

from __future__ import annotations

import sys
from typing import TextIO


class Progress:
    """Receives run events from ``verify_paths``; this base class shows nothing."""

    def file_started(self, index: int, total: int, path: str, runs: int) -> None:
        pass

    def run_started(self, version: str, number: int, runs: int) -> None:
        pass

    def file_done(self, path: str, summary: str) -> None:
        pass

    def close(self) -> None:
        pass


class StderrProgress(Progress):
    """One rewritten status line on a terminal; when stderr is a log, a line per file, per
    run and per file done."""

    def __init__(self, stream: TextIO | None = None) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.live = bool(getattr(self.stream, "isatty", lambda: False)())
        self._prefix = ""
        self._dirty = False

    def _write_live(self, text: str) -> None:
        self.stream.write("\r\x1b[K" + text)
        self.stream.flush()
        self._dirty = True

    def file_started(self, index: int, total: int, path: str, runs: int) -> None:
        self._prefix = f"[{index}/{total}] {path}"
        if self.live:
            self._write_live(self._prefix)
        else:
            plural = "s" if runs != 1 else ""
            self.stream.write(f"{self._prefix}: {runs} run{plural}\n")
            self.stream.flush()

    def run_started(self, version: str, number: int, runs: int) -> None:
        text = f"{self._prefix}: {version} run {number}/{runs}"
        if self.live:
            self._write_live(text)
        else:  # a log (CI, a pipe): one line per run, so a slow run is not silence
            self.stream.write(text + "\n")
            self.stream.flush()

    def file_done(self, path: str, summary: str) -> None:
        if self.live:
            self._write_live(f"{self._prefix}: {summary}")
        else:
            self.stream.write(f"{self._prefix}: {summary}\n")
            self.stream.flush()

    def close(self) -> None:
        if self.live and self._dirty:
            self.stream.write("\r\x1b[K")
            self.stream.flush()
            self._dirty = False
