"""Small MLP benchmarking package: models, steps, timers, utils."""
from . import models, steps, timers, utils  # noqa: F401

__all__ = ["models", "steps", "timers", "utils"]
