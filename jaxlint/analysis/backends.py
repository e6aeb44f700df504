"""Libraries that switch backends: which ones run on JAX in this module.

Policy (README, "How it works: policies"): a library is JAX when its backend is chosen by a
literal name ``"jax"``: ``K = tc.set_backend("jax")`` (tensorcircuit and its like: any
``set_backend``/``get_backend`` call given ``"jax"``), or ``os.environ["KERAS_BACKEND"] =
"jax"`` (an environment variable ``<LIBRARY>_BACKEND``). From then on the library's
functions and objects compute on the JAX values they are given, as a JAX library's do, and
its transformations are JAX's: ``jit`` compiles on its first call, ``vmap``, ``grad``,
``value_and_grad`` and ``vectorized_value_and_grad`` give functions whose calls are JAX
work. Chosen by a name that is not a literal, or by another backend, the library is not JAX.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import libcst as cst

from jaxlint.analysis import names
from jaxlint.analysis.values import Ref, Value

if TYPE_CHECKING:
    from jaxlint.analysis.flow import FlowAnalysis

SWITCHES = frozenset({"set_backend", "get_backend"})

# A backend's transformations, as JAX names them.
TRANSFORMS = {
    "jit": "jax.jit",
    "vmap": "jax.vmap",
    "grad": "jax.grad",
    "value_and_grad": "jax.value_and_grad",
    "vectorized_value_and_grad": "jax.vmap",
    "vvag": "jax.vmap",
    "vjp": "jax.vjp",
    "jvp": "jax.jvp",
}


def _says_jax(node: cst.Call) -> bool:
    return any(isinstance(a.value, cst.SimpleString) and a.value.evaluated_value == "jax"
               and (a.keyword is None or a.keyword.value == "backend") for a in node.args)


class Backends:
    """The backends part of ``FlowAnalysis`` (see the module docstring)."""

    jax_backed: set[str]  # root packages switched to JAX in this module

    def backend_switch(self: FlowAnalysis, q: str, node: cst.Call) -> Value:
        """``tc.set_backend("jax")``: the library is JAX from now on; the backend object it
        gives (``K``). None for any other call."""
        head, _, last = q.rpartition(".")
        if last not in SWITCHES or not head or not _says_jax(node):
            return None
        root = head.split(".", 1)[0]
        self.jax_backed.add(root)
        return Ref(f"{root}.backend")

    def env_switch(self: FlowAnalysis, target: cst.BaseExpression,
                   value: cst.BaseExpression) -> None:
        """``os.environ["KERAS_BACKEND"] = "jax"``: that library is JAX from now on."""
        if not (isinstance(target, cst.Subscript) and isinstance(value, cst.SimpleString)
                and value.evaluated_value == "jax" and len(target.slice) == 1):
            return
        index = target.slice[0].slice
        key = index.value if isinstance(index, cst.Index) else None
        if (isinstance(key, cst.SimpleString) and isinstance(key.evaluated_value, str)
                and key.evaluated_value.endswith("_BACKEND")
                and self.module.code_for_node(target.value).endswith("environ")):
            self.jax_backed.add(key.evaluated_value.removesuffix("_BACKEND").lower())

    def as_jax(self: FlowAnalysis, q: str) -> str:
        """``q`` as JAX names it when its library runs on JAX (``K.jit`` -> ``jax.jit``)."""
        if not self.jax_backed or q.split(".", 1)[0] not in self.jax_backed:
            return q
        return TRANSFORMS.get(q.rsplit(".", 1)[-1], q)

    def jax_library(self: FlowAnalysis, q: str) -> bool:
        """Whether ``q`` is of a JAX library: a known one, one switched to JAX here, or a
        package named for JAX (``jaxfluids.SimulationManager``) that the project does not
        hold (the project's own ``jax_sph`` is read as code, not judged by its name)."""
        if names.is_jax_library(q) or (
                self.jax_backed and q.split(".", 1)[0] in self.jax_backed):
            return True
        top = names.jax_named_package(q)
        if top is None:
            return False
        holds = getattr(self.index, "holds", None)
        return not (holds is not None and holds(top))
