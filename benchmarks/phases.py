#!/usr/bin/env python3
"""Where jaxlint's time goes on the benchmark corpus, phase by phase, in one process.

Reads every corpus file and prefilters it, then for each file that passes measures libcst's
parse, the flow analysis, the whole lint (rules, plans, noqa included) and, for files with
findings, the positions libcst computes for them. CPU seconds (process_time), one process,
no project index and no cache: the work a -j1 run does per file, without start-up. Prints one
JSON line; benchmarks/MISSES.md quotes it.

Usage:  python benchmarks/phases.py
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from corpus import ensure_corpus  # noqa: E402


def main() -> int:
    import libcst as cst

    from jaxlint.analysis.flow import FlowAnalysis
    from jaxlint.engine import Settings, lint_source
    from jaxlint.notebook import build, lint_notebook, load
    from jaxlint.positions import starts
    from jaxlint.settings import might_matter

    root = ensure_corpus(quiet=True)
    files = sorted(p for p in root.rglob("*") if p.suffix in (".py", ".ipynb") and p.is_file())
    t = time.process_time()
    datas = [(p, p.read_bytes()) for p in files]
    read = time.process_time() - t
    t = time.process_time()
    passed = [(p, d) for p, d in datas if might_matter(d)]
    prefilter = time.process_time() - t
    phases = {"parse": 0.0, "flow": 0.0, "lint": 0.0, "positions": 0.0}
    with_findings = 0
    for p, d in passed:
        notebook = p.suffix == ".ipynb"
        src = build(load(d, str(p)), str(p)).text if notebook else d
        t0 = time.process_time()
        module = cst.parse_module(src)
        t1 = time.process_time()
        FlowAnalysis(module).run().regions()
        t2 = time.process_time()
        phases["parse"] += t1 - t0
        phases["flow"] += t2 - t1
        found = (lint_notebook(d, str(p), Settings()) if notebook
                 else lint_source(d, str(p)))
        t3 = time.process_time()
        phases["lint"] += t3 - t2
        if found:
            with_findings += 1
            _ = starts(module)
            phases["positions"] += time.process_time() - t3
    print(json.dumps({"files": len(files), "passed": len(passed),
                      "with_findings": with_findings, "read_s": round(read, 2),
                      "prefilter_s": round(prefilter, 2),
                      **{f"{k}_s": round(v, 2) for k, v in phases.items()}}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
