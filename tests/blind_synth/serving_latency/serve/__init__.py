from .engine import Engine  # noqa: F401
from .timing import LatencyRecorder, Timer  # noqa: F401
