"""Tiny kernel benchmarking kit used by the norms paper appendix."""
