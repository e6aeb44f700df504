"""fluxsim: finite-volume advection on a periodic 1-D/2-D grid, in JAX."""
from .solver import advect_steps, make_grid, upwind_step  # noqa: F401

__version__ = "0.3.1"
