"""The rule codes, without importing the rules (which import libcst)."""

CODES = ("JAX101", "JAX102", "JAX103", "JAX104", "JAX105", "JAX106", "JAX107")
