#!/usr/bin/env python3
"""Run flake8 as if jaxlint were not installed: the baseline for the plugin's overhead.

flake8 enables every installed plugin's codes by default, so a plain ``flake8`` in an
environment with jaxlint already runs the JAX plugin. This wrapper hides jaxlint's
distribution from flake8's plugin discovery (importlib.metadata.distributions) and then runs
flake8's own entry point with the same arguments; nothing else changes. Check with
``python benchmarks/flake8_without_jaxlint.py --version``: jaxlint is not listed.
"""

from __future__ import annotations

import importlib.metadata as _md
import sys

_distributions = _md.distributions


def _without_jaxlint(**kwargs):
    for dist in _distributions(**kwargs):
        if (dist.metadata["Name"] or "").lower() != "jaxlint":
            yield dist


_md.distributions = _without_jaxlint

from flake8.main.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main())
