"""Which part of a labelled set a repository (or a synthetic file) belongs to.

The corpus and the blind synthetic sets are split *by repository* into a development part
(about two thirds), whose misses and false alarms may be read and fixed from, and a
held-out part, whose figures are reported but whose cases are not read while the analysis
is changed. The held-out figure is the one that counts: when it lags the development part,
a change was fitted to cases.

The rule is fixed before any result is seen and does not depend on what else is in the
set: a group is held out when the SHA-256 of ``SALT + group`` is 0 modulo 3. A group is a
project: an sdist and a git repository of the same project (``flax`` and ``flax-git``) are
one group, so no code is on both sides. For a synthetic set, a group is a top-level entry
of its folder (a script, a notebook, or a mini-project's folder).
"""

from __future__ import annotations

import hashlib

SALT = "jaxlint-heldout-2026-12-01:"
DEV, HELDOUT = "development", "held-out"


def group_of(project: str) -> str:
    """The group of a corpus project name (``flax-git`` -> ``flax``) or of a synthetic
    set's path (``trainkit/train.py`` -> ``trainkit``)."""
    name = project.replace("\\", "/").split("/", 1)[0].lower()
    return name.removesuffix("-git")


def part_of(project: str) -> str:
    """``DEV`` or ``HELDOUT`` for a project name or a synthetic set's path."""
    digest = hashlib.sha256((SALT + group_of(project)).encode("utf-8")).digest()
    return HELDOUT if int.from_bytes(digest[:8], "big") % 3 == 0 else DEV
