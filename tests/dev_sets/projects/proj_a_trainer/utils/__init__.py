from .timing import Timer, timed

__all__ = ["Timer", "timed"]
