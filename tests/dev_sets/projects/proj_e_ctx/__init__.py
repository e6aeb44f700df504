from .timing import stopwatch, report

__all__ = ["stopwatch", "report"]
