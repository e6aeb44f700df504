#!/usr/bin/env python3
"""Score jaxlint against the hand-labelled real-world corpus.

Runs fetch.py (download, verify and extract the pinned sdists; export the pinned git
commits), then ``python -m jaxlint --format json --exit-zero FILE`` on every labelled file
(with the extracted source as the working directory, so finding paths match label paths),
and matches findings to labels (for a notebook, a finding must also be in the label's
``cell``):

* a label is **hit** when jaxlint reports a finding of any JAX code at the label's ``line``
  (the stop timer read; for timeit / pytest-benchmark sites, the call line);
* as a secondary, looser figure, a label is **hit in region** when a finding lies anywhere
  from the label's ``start_line`` to its ``line`` (JAX105 findings are reported at the
  compiling call, not at the stop read).

It prints, and writes to RESULTS.md: recall on mistakes and the share of correct sites
flagged, per project and overall, the misses, the false alarms, and the findings at lines
that carry no label. Exit status 0 whatever the figures; 1 if the sources cannot be fetched.

Every run saves the raw findings to .cache/last_run.json; ``--rescore`` scores those against
the current labels without running jaxlint again (for relabelling). ``--project NAME``
(repeatable) fetches, lints and scores only those projects' labels; its findings are merged
into the saved run.

Usage:
    python corpus/evaluate.py [--sdist-dir DIR] [--mirror-dir DIR] [--project NAME]...
                              [--jobs N] [--timeout S] [--rescore] [--no-write]
"""

from __future__ import annotations

import argparse
import datetime as _dt
import hashlib
import json
import os
import re
import subprocess
import sys
import time
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import fetch  # noqa: E402
import split  # noqa: E402

LABELS = HERE / "labels.json"
RESULTS = HERE / "RESULTS.md"
START = HERE / "start.json"  # the figures of the start of a round of work (--save-start)


def load_labels() -> list[dict]:
    with LABELS.open(encoding="utf-8") as f:
        return json.load(f)


def jaxlint_version(src: Path | None = None) -> str:
    """jaxlint's version and the commit of the checkout it runs from, if it is one."""
    proc = subprocess.run([sys.executable, "-m", "jaxlint", "--version"],
                          capture_output=True, text=True, env=jaxlint_env(src))
    version = (proc.stdout or proc.stderr).strip() or "unknown"
    where = src if src is not None else HERE.parent
    rev = subprocess.run(["git", "-C", str(where), "rev-parse", "--short", "HEAD"],
                         capture_output=True, text=True)
    dirty = subprocess.run(["git", "-C", str(where), "status", "--porcelain", "--", "jaxlint"],
                           capture_output=True, text=True)
    if rev.returncode == 0:
        version += f" at {rev.stdout.strip()}" + (" (jaxlint/ modified)" if dirty.stdout.strip()
                                                  else "")
    else:
        # A snapshot that is no checkout (``git archive`` of a commit) is named by its
        # sources' hash: a ``--project`` run merges into the saved run only when the
        # version is the same, and "jaxlint 0.1.0" alone would merge two analyses.
        digest = hashlib.sha256()
        for path in sorted((where / "jaxlint").rglob("*.py")):
            digest.update(str(path.relative_to(where)).encode() + b"\0" + path.read_bytes())
        version += f" (sources {digest.hexdigest()[:12]})"
    return version


def jaxlint_env(src: Path | None) -> dict[str, str] | None:
    """The environment that makes ``python -m jaxlint`` import the checkout ``src`` (to score
    another commit, such as the start of a round of work, with the same labels)."""
    if src is None:
        return None
    return {**os.environ, "PYTHONPATH": str(src.resolve())}


def run_jaxlint(root: Path, path: str, timeout: float,
                src: Path | None = None) -> tuple[list[dict], str | None, float]:
    """Findings for one file (paths relative to root), an error text if any, and seconds."""
    t0 = time.monotonic()
    try:
        proc = subprocess.run(
            [sys.executable, "-m", "jaxlint", "--format", "json", "--exit-zero", "-q",
             "--no-cache", path],
            cwd=root, capture_output=True, text=True, timeout=timeout, env=jaxlint_env(src),
        )
    except subprocess.TimeoutExpired:
        return [], f"timed out after {timeout:.0f} s", time.monotonic() - t0
    elapsed = time.monotonic() - t0
    try:
        findings = json.loads(proc.stdout) if proc.stdout.strip() else []
    except json.JSONDecodeError:
        return [], f"unparseable output (rc={proc.returncode}): {proc.stdout[:200]!r}", elapsed
    err = None
    if proc.returncode != 0:
        err = f"rc={proc.returncode}: {proc.stderr.strip()[:300]}"
    for f in findings:
        f["path"] = Path(f["path"]).as_posix()
    return findings, err, elapsed


def pct(n: int, d: int) -> str:
    return f"{n}/{d} ({100.0 * n / d:.0f}%)" if d else "0/0 (-)"


LAST_RUN = fetch.CACHE / "last_run.json"


def file_key(lab: dict) -> tuple[str, str, str]:
    """(project, version or commit, path) of a label."""
    return (*fetch.key_of(lab), lab["path"])


def where(project: str, ref: str, path: str) -> str:
    return f"{project}-{fetch.short_ref(ref)}/{path}"


def lint_all(labels, roots, jobs, timeout, src=None):
    """{(project, ref, path): (findings, error, seconds)} for every labelled file."""
    files = sorted({file_key(lab) for lab in labels})

    def work(key):
        project, ref, path = key
        res = run_jaxlint(roots[(project, ref)], path, timeout, src)
        print(f"evaluate: {where(*key)}: {len(res[0])} findings, {res[2]:.0f} s"
              + (f" ({res[1]})" if res[1] else ""), file=sys.stderr, flush=True)
        return key, res

    with ThreadPoolExecutor(max_workers=jobs) as pool:
        return dict(pool.map(work, files))


def save_run(results, version):
    LAST_RUN.parent.mkdir(parents=True, exist_ok=True)
    data = {"jaxlint": version,
            "files": [{"project": k[0], "ref": k[1], "path": k[2], "findings": f,
                       "error": e, "seconds": t} for k, (f, e, t) in results.items()]}
    LAST_RUN.write_text(json.dumps(data, indent=1), encoding="utf-8")


def load_run(path: Path = LAST_RUN):
    data = json.loads(path.read_text(encoding="utf-8"))
    results = {(d["project"], d.get("ref") or d.get("version") or d["commit"], d["path"]):
               (d["findings"], d["error"], d["seconds"]) for d in data["files"]}
    return results, data["jaxlint"]


def selectors(lab: dict) -> set[str]:
    """What ``--project`` accepts for a label: NAME, or NAME@VERSION / NAME@COMMIT12."""
    name, ref = fetch.key_of(lab)
    return {name, f"{name}@{ref}", f"{name}@{fetch.short_ref(ref)}"}


_LINES: dict[tuple[str, str, str], list[str]] = {}


def source_lines(lab: dict) -> list[str]:
    """The lines of a label's file (of its cell, in a notebook) at the pinned source."""
    key = file_key(lab)
    if key not in _LINES:
        name, ref = fetch.key_of(lab)
        path = fetch.CACHE / "src" / f"{name}-{fetch.short_ref(ref)}" / lab["path"]
        try:
            text = path.read_text(encoding="utf-8", errors="replace")
        except OSError:
            text = ""
        _LINES[key] = [text]
    text = _LINES[key][0]
    if lab.get("cell"):
        try:
            cell = json.loads(text)["cells"][lab["cell"] - 1]
        except (ValueError, KeyError, IndexError, TypeError):
            return []
        source = cell.get("source", "")
        text = "".join(source) if isinstance(source, list) else str(source)
    return text.splitlines()


def with_start(lab: dict) -> bool:
    """Whether the label's start read is a ``with`` statement (a timer used as a context
    manager), as the labels mark one (its region is the ``with`` body)."""
    if lab.get("start_line") in (None, lab["line"]):
        return False
    lines = source_lines(lab)
    n = lab["start_line"]
    return 0 < n <= len(lines) and re.match(r"\s*(async\s+)?with\b", lines[n - 1]) is not None


def pos(entry: dict) -> tuple[int | None, int]:
    """(cell, line) of a label or finding; cell is None outside notebooks. A JAX107 finding
    (reported at the sync that cannot wait) is at the stop read of the region it is about,
    where JAX101 would be."""
    if entry.get("code") == "JAX107" and entry.get("region"):
        stop = entry["region"]["stop"]
        return stop.get("cell", entry.get("cell")), stop["line"]
    return entry.get("cell"), entry["line"]


def evaluate(labels, results):
    by_file = defaultdict(list)
    for lab in labels:
        by_file[file_key(lab)].append(lab)

    rows = []          # one per label, with hit flags and the findings matched
    unlabelled = []    # findings at lines that carry no label
    errors = []
    for key, labs in by_file.items():
        if key not in results:
            errors.append((key, "not linted in the cached run (use a fresh run)"))
            continue
        findings, err, _ = results[key]
        if err:
            errors.append((key, err))
            continue
        label_pos = {pos(lab) for lab in labs}

        def in_span(f, lab):
            lo, hi = sorted((lab.get("start_line", lab["line"]), lab["line"]))
            return f.get("cell") == lab.get("cell") and lo <= f["line"] <= hi

        for lab in labs:
            at_line = [f for f in findings if pos(f) == pos(lab)]
            if with_start(lab):
                # A ``with`` timer's region is reported at its ``with`` item (where the
                # timer is; its fix goes at the end of the body): a finding there is one
                # at the stop read.
                at_line += [f for f in findings if pos(f) == (lab.get("cell"),
                                                               lab["start_line"])]
            in_region = [f for f in findings if in_span(f, lab)]
            rows.append(dict(label=lab, at_line=at_line, in_region=in_region))
        for f in findings:
            if pos(f) not in label_pos:
                regions = [lab for lab in labs if in_span(f, lab)]
                unlabelled.append(dict(project=key[0], ref=key[1], finding=f,
                                       inside=[r["line"] for r in regions]))

    def order(entry):
        return (entry.get("cell") or 0, entry["line"])

    rows.sort(key=lambda r: (r["label"]["project"], r["label"]["path"], order(r["label"])))
    unlabelled.sort(key=lambda u: (u["project"], u["finding"]["path"], order(u["finding"])))
    return rows, unlabelled, errors


# The labelled sets kept in the repository, scored by their own scripts: (name, command,
# what the numbers are), each reporting mistakes found and correct regions flagged.
REPO_SETS = [
    ("tests/holdout (first blind set)", ["scripts/score_holdout.py", "tests/holdout"]),
    ("tests/holdout_blind (second blind set)", ["scripts/score_holdout.py"]),
    ("tests/dev_sets (development sets)", ["scripts/score_dev_sets.py"]),
    ("tests/blind_synth (third blind set)", ["scripts/score_blind.py"]),
]
_FRACTION = re.compile(r"(\d+)/(\d+)")


def repo_sets(src: Path | None) -> dict[str, list[int]]:
    """{set (and part): [found, mistakes, flagged, correct]} for the repository's labelled
    sets, scored by the jaxlint of ``src`` (None: the installed one)."""
    out: dict[str, list[int]] = {}
    for name, args in REPO_SETS:
        proc = subprocess.run([sys.executable, *args], cwd=HERE.parent, capture_output=True,
                              text=True, env=jaxlint_env(src))
        lines = proc.stdout.splitlines()
        if "score_blind" in args[0]:
            for line in lines:
                cells = [c.strip() for c in line.strip("|").split("|")]
                if len(cells) == 3 and cells[0] in (split.DEV, split.HELDOUT):
                    (f, m), (fl, c) = (map(int, _FRACTION.search(x).groups()) for x in cells[1:])
                    out[f"{name}, {cells[0]}"] = [f, m, fl, c]
            continue
        # ("mistakes found: 66/71 ..." and "correct flagged: 1/78 ...", or both on the line
        # "all: mistakes found 69/90, correct flagged 0/70")
        found = next((ln for ln in reversed(lines) if ln.startswith("all:")), "") or next(
            (ln for ln in lines if "mistakes found" in ln), "")
        flagged = found if "flagged" in found else next(
            (ln for ln in lines if "correct flagged" in ln), "")
        fm, fc = _FRACTION.findall(found), _FRACTION.findall(flagged)
        if fm and fc:
            out[name] = [*map(int, fm[0]), *map(int, fc[-1])]
    return out


def sets_table(now: dict[str, list[int]], start: dict[str, list[int]] | None) -> list[str]:
    out = ["| set | mistakes found | correct regions flagged | at the start: found | "
           "at the start: flagged |", "| --- | --- | --- | --- | --- |"]
    for name, (f, m, fl, c) in now.items():
        b = (start or {}).get(name)
        was = f"{pct(b[0], b[1])} | {pct(b[2], b[3])}" if b else "- | -"
        out.append(f"| {name} | {pct(f, m)} | {pct(fl, c)} | {was} |")
    return out


def load_sources() -> dict[tuple[str, str], dict]:
    """The source entries of sources.json by (name, pin)."""
    with fetch.SOURCES.open(encoding="utf-8") as f:
        return {fetch.key_of(e): e for e in json.load(f)}


def latest_round(sources: dict[tuple[str, str], dict]) -> str | None:
    """The newest ``added`` date among the sources (the repositories labelled this round)."""
    dates = [e["added"] for e in sources.values() if e.get("added")]
    return max(dates) if dates else None


def parts_of(lab: dict, sources: dict[tuple[str, str], dict], newest: str | None) -> list[str]:
    """The summary rows a label counts in: its part (split.py), and for the held-out part
    also the repositories added in the newest round (blind to every fix made before)."""
    part = split.part_of(lab["project"])
    out = [f"PART {part}"]
    entry = sources.get(fetch.key_of(lab), {})
    if newest is not None and entry.get("added") == newest:
        out.append(f"PART {part}, new")
    out.append(f"KIND {part} {entry.get('kind', 'unknown')}")
    return out


def summarise(rows, sources=None, newest=None):
    stats = defaultdict(lambda: dict(m=0, m_hit=0, m_region=0, m_code=0,
                                     c=0, c_hit=0, c_region=0, c_unsynced=0,
                                     m_found=0, c_flagged=0, c_105=0, c_104=0))
    sources = sources or {}
    for r in rows:
        lab = r["label"]
        keys = [f"{lab['project']} {fetch.short_ref(fetch.ref_of(lab))}", "ALL",
                *parts_of(lab, sources, newest)]
        for key in keys:
            s = stats[key]
            compiling = any(f["code"] == "JAX105" for f in r["in_region"])
            if lab["label"] == "mistake":
                s["m_found"] += bool(r["at_line"]) or compiling
                s["m"] += 1
                s["m_hit"] += bool(r["at_line"])
                s["m_region"] += bool(r["in_region"])
                s["m_code"] += any(f["code"] == lab["code"] for f in r["in_region"])
            else:
                s["c"] += 1
                s["c_hit"] += bool(r["at_line"])
                s["c_region"] += bool(r["in_region"])
                s["c_unsynced"] += any(f["code"] != "JAX104" for f in r["at_line"])
                s["c_flagged"] += compiling or any(f["code"] != "JAX104" for f in r["at_line"])
                s["c_105"] += compiling
                s["c_104"] += any(f["code"] == "JAX104" for f in r["at_line"])
    return stats


def headline(stats) -> dict[str, dict[str, int]]:
    """The figures that count, per part: {row: {m, m_found, c, c_flagged, c_105, c_104}}."""
    keys = ("m", "m_found", "c", "c_flagged", "c_105", "c_104")
    rows = [k for k in stats if k.startswith("PART ")] + ["ALL"]
    return {k: {x: stats[k][x] for x in keys} for k in sorted(rows)}


def fmt_line(entry):
    """``LINE``, or ``cell N:LINE`` in a notebook."""
    return f"cell {entry['cell']}:{entry['line']}" if entry.get("cell") else str(entry["line"])


def fmt_finding(f):
    return f"{f['code']}@{fmt_line(f)}"


def _part_name(key: str) -> str:
    name = key.removeprefix("PART ")
    return {"development": "development", "held-out": "**held-out**",
            "held-out, new": "**held-out, new this round**",
            "development, new": "development, new this round", "ALL": "all"}.get(name, name)


def figures_table(now: dict, start: dict | None) -> list[str]:
    out = ["| part | mistakes found | correct timings flagged | JAX105 on correct | "
           "JAX104 on correct |" + (" at the start: found | at the start: flagged |"
                                    if start else ""),
           "| --- | --- | --- | --- | --- |" + (" --- | --- |" if start else "")]
    for key, s in now.items():
        row = (f"| {_part_name(key)} | {pct(s['m_found'], s['m'])} | "
               f"{pct(s['c_flagged'], s['c'])} | {s['c_105']} | {s['c_104']} |")
        if start:
            b = start["figures"].get(key)
            row += (f" {pct(b['m_found'], b['m'])} | {pct(b['c_flagged'], b['c'])} |" if b
                    else " - | - |")
        out.append(row)
    return out


def report(all_labels, rows, unlabelled, errors, timings, stats, version, command, date,
           jobs, timeout, show_heldout=False, start=None, sets=None) -> str:
    out = []
    w = out.append
    w("# jaxlint on the labelled real-world corpus\n")
    w(f"- date: {date}")
    w(f"- jaxlint: {version}")
    w(f"- command: `{command}`")
    n_m = stats["ALL"]["m"]
    n_c = stats["ALL"]["c"]
    n_unscored = sum(1 for lab in all_labels if file_key(lab) in {e[0] for e in errors})
    w(f"- sites: {len(all_labels)} labelled timed regions "
      f"({sum(lab['label'] == 'mistake' for lab in all_labels)} mistakes, "
      f"{sum(lab['label'] == 'correct' for lab in all_labels)} correct) in "
      f"{len({(lab['project'], lab['path']) for lab in all_labels})} files of "
      f"{len({lab['project'] for lab in all_labels})} projects; scored: {n_m + n_c} "
      f"({n_m} mistakes, {n_c} correct); {n_unscored} in files jaxlint could not check\n")
    w("The corpus is split by repository (`split.py`): the development part's misses and "
      "false alarms may be read and fixed from; the held-out part's cases are not read while "
      "the analysis changes, and only its figures are reported here. The held-out figure is "
      "the one that counts. \"New this round\" are the repositories added in the newest "
      "round of blind labelling, on which no fix was ever made.\n")
    w("Mistakes found = a finding at the labelled stop line, or a JAX105 at its compiling "
      "call inside the region. Correct timings flagged = a finding at the stop line that says "
      "work is unfinished (any code but JAX104, which says the region is synced through a "
      "host copy; the labels count a host read as a sync), or a JAX105 inside the region. "
      "A JAX107 (a sync that cannot wait) counts at the stop read of its region.\n")
    if start:
        w(f"The start columns: {start['jaxlint']}, scored on the same labels "
          f"({start['date']}).\n")
    w("\n".join(figures_table(headline(stats), start)))
    w("")
    if sets:
        w("The labelled sets kept in the repository (`tests/`), scored by their own scripts "
          "on the same definitions (the third blind set is split as the corpus is; the first "
          "two were written blind, scored and never tuned to; the development sets were "
          "fixed from):\n")
        w("\n".join(sets_table(sets, (start or {}).get("sets"))))
        w("")
    kinds = sorted(k for k in stats if k.startswith("KIND "))
    if kinds:
        w("By kind of repository:\n")
        w("| part | kind | mistakes found | correct timings flagged |")
        w("| --- | --- | --- | --- |")
        for k in kinds:
            _, part, kind = k.split(" ", 2)
            s = stats[k]
            w(f"| {part} | {kind} | {pct(s['m_found'], s['m'])} | "
              f"{pct(s['c_flagged'], s['c'])} |")
        w("")
    shown = [r for r in rows if show_heldout
             or split.part_of(r["label"]["project"]) == split.DEV]
    shown_projects = {f"{r['label']['project']} {fetch.short_ref(fetch.ref_of(r['label']))}"
                      for r in shown}
    w("## Development part, by project\n" if not show_heldout else "## By project\n")
    w("Hit = a finding of any JAX code at the labelled stop line. In region = a finding "
      "anywhere from the region's start read to its stop read (looser; JAX105 reports at the "
      "compiling call). Code = a finding in the region has the labelled code. Unsynced = "
      "flagged at the stop line by a finding that says work is unfinished.\n")
    w("| project | mistakes found (hit) | found (in region) | right code | "
      "correct sites flagged (hit) | flagged (in region) | flagged unsynced (hit) |")
    w("| --- | --- | --- | --- | --- | --- | --- |")
    for k in sorted(k for k in stats if k in shown_projects):
        s = stats[k]
        w(f"| {k} | {pct(s['m_hit'], s['m'])} | {pct(s['m_region'], s['m'])} | "
          f"{pct(s['m_code'], s['m'])} | {pct(s['c_hit'], s['c'])} | "
          f"{pct(s['c_region'], s['c'])} | {pct(s['c_unsynced'], s['c'])} |")
    w("")

    def site(lab):
        return f"{where(*file_key(lab))}:{fmt_line(lab)}"

    scope = "" if show_heldout else " (development part)"
    misses = [r for r in shown if r["label"]["label"] == "mistake" and not r["at_line"]]
    w(f"## Misses{scope}: {len(misses)} mistakes with no finding at the stop line\n")
    for r in misses:
        lab = r["label"]
        near = ", ".join(fmt_finding(f) for f in r["in_region"]) or "none"
        w(f"- `{site(lab)}` [{lab['code']}] (in region: {near}) — {lab['why']}")
    w("")
    alarms = [r for r in shown if r["label"]["label"] == "correct" and r["at_line"]]
    w(f"## Correct sites with a finding at the stop line{scope}: {len(alarms)}\n")
    for r in alarms:
        lab = r["label"]
        found = "; ".join(f"{f['code']}: {f['message']}" for f in r["at_line"])
        w(f"- `{site(lab)}` — flagged {found}\n  - label: {lab['why']}")
    w("")
    region_alarms = [r for r in shown if r["label"]["label"] == "correct"
                     and not r["at_line"] and r["in_region"]]
    if region_alarms:
        w(f"## Correct sites with a finding inside the region only{scope}: "
          f"{len(region_alarms)}\n")
        for r in region_alarms:
            lab = r["label"]
            found = "; ".join(f"{fmt_finding(f)}: {f['message']}" for f in r["in_region"])
            w(f"- `{site(lab)}` — {found}")
        w("")
    wrong_code = [r for r in shown if r["label"]["label"] == "mistake" and r["at_line"]
                  and not any(f["code"] == r["label"]["code"] for f in r["in_region"])]
    if wrong_code:
        w(f"## Mistakes found with a different code{scope}: {len(wrong_code)}\n")
        for r in wrong_code:
            lab = r["label"]
            w(f"- `{site(lab)}` labelled {lab['code']}, found "
              f"{', '.join(fmt_finding(f) for f in r['at_line'])}")
        w("")
    stray = [u for u in unlabelled if show_heldout or split.part_of(u["project"]) == split.DEV]
    w(f"## Findings at unlabelled lines{scope}: {len(stray)}\n")
    for u in stray:
        f = u["finding"]
        inside = (f" (inside labelled region ending at line {', '.join(map(str, u['inside']))})"
                  if u["inside"] else "")
        w(f"- `{where(u['project'], u['ref'], f['path'])}:{fmt_line(f)}` {f['code']}{inside}: "
          f"{f['message']}")
    w("")
    if errors:
        w(f"## Files jaxlint could not check ({len(errors)})\n")
        w("Their labels are left out of the figures above.\n")
        for key, err in errors:
            w(f"- `{where(*key)}`: {err}")
        w("")
    slow = sorted(timings.items(), key=lambda kv: -kv[1])[:5]
    w("## Slowest files\n")
    w(f"jaxlint wall time summed over {len(timings)} files: {sum(timings.values()):.0f} s "
      + (f"({jobs} at a time; {timeout:.0f} s allowed per file).\n" if jobs
         else "(timings of the saved run).\n"))
    for key, sec in slow:
        w(f"- `{where(*key)}`: {sec:.0f} s")
    w("")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sdist-dir", type=Path, default=None,
                        help="passed to fetch.py: take archives from this folder first")
    parser.add_argument("--mirror-dir", type=Path, default=None,
                        help="passed to fetch.py: folder of bare git mirrors OWNER+NAME/repo")
    parser.add_argument("--project", action="append", default=None, metavar="NAME",
                        help="only this project's labels, NAME or NAME@VERSION or "
                             "NAME@COMMIT12 (repeatable); a fresh run's findings are merged "
                             "into the saved run and RESULTS.md is not written")
    parser.add_argument("--jobs", type=int, default=max(1, os.cpu_count() or 1),
                        help="jaxlint processes to run at once")
    parser.add_argument("--timeout", type=float, default=300.0,
                        help="seconds allowed per file before jaxlint is stopped")
    parser.add_argument("--rescore", nargs="?", const=LAST_RUN, default=None, type=Path,
                        metavar="RUN",
                        help="score the findings saved by the last run (.cache/last_run.json, "
                             "or the saved run RUN) against the current labels, without "
                             "running jaxlint")
    parser.add_argument("--no-write", action="store_true", help="do not write RESULTS.md")
    parser.add_argument("--jaxlint-src", type=Path, default=None, metavar="DIR",
                        help="run the jaxlint of this checkout (e.g. a worktree of the commit "
                             "a round of work started from) instead of the installed one")
    parser.add_argument("--save-start", action="store_true",
                        help="save this run's figures as the start of a round of work "
                             "(corpus/start.json); RESULTS.md shows them beside later runs")
    parser.add_argument("--show-heldout", action="store_true",
                        help="also list the held-out part's projects and cases (printed only, "
                             "never written: read them only once the work is measured)")
    args = parser.parse_args(argv)

    labels = load_labels()
    projects = None
    if args.project:
        wanted = set(args.project)
        chosen = [lab for lab in labels if wanted & selectors(lab)]
        unknown = wanted - set().union(*(selectors(lab) for lab in chosen))
        if unknown:
            print(f"evaluate: no labels for {', '.join(sorted(unknown))}", file=sys.stderr)
            return 1
        labels = chosen
        projects = {lab["project"] for lab in labels}
    try:
        roots = fetch.fetch_all(args.sdist_dir, args.mirror_dir, projects,
                                {fetch.key_of(lab) for lab in labels} if projects else None)
    except fetch.FetchError as e:
        print(f"evaluate: cannot fetch the corpus sources: {e}", file=sys.stderr)
        return 1
    if args.rescore:
        if not args.rescore.is_file():
            print(f"evaluate: no saved run at {args.rescore}; run without --rescore first",
                  file=sys.stderr)
            return 1
        results, version = load_run(args.rescore)
        jobs = timeout = None
    else:
        version = jaxlint_version(args.jaxlint_src)
        results = lint_all(labels, roots, args.jobs, args.timeout, args.jaxlint_src)
        saved = dict(results)
        if projects is not None and LAST_RUN.is_file():
            old, old_version = load_run()
            if old_version == version:
                saved = {**old, **results}
        save_run(saved, version)
        jobs, timeout = args.jobs, args.timeout
    timings = {key: res[2] for key, res in results.items()}
    rows, unlabelled, errors = evaluate(labels, results)
    sources = load_sources()
    stats = summarise(rows, sources, latest_round(sources))
    command = "python corpus/evaluate.py" + (" " + " ".join(argv) if argv else "")
    date = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    sets = repo_sets(args.jaxlint_src) if projects is None else None
    if args.save_start and args.rescore and args.jaxlint_src is None:
        print("evaluate: the repository's labelled sets are scored by the installed jaxlint, "
              "not the saved run's; pass --jaxlint-src with the run's sources",
              file=sys.stderr)
    if args.save_start and projects is None:
        START.write_text(json.dumps({"jaxlint": version, "date": date,
                                     "figures": headline(stats), "sets": sets}, indent=1)
                         + "\n", encoding="utf-8")
        print(f"wrote {START.relative_to(HERE.parent)}", file=sys.stderr)
    start = json.loads(START.read_text(encoding="utf-8")) if (
        START.is_file() and not args.save_start) else None
    if args.show_heldout:
        print(report(labels, rows, unlabelled, errors, timings, stats, version, command, date,
                     jobs, timeout, show_heldout=True, start=start, sets=sets))
        return 0
    text = report(labels, rows, unlabelled, errors, timings, stats, version, command, date,
                  jobs, timeout, start=start, sets=sets)
    print(text)
    if args.save_start:
        return 0
    if projects is not None and not args.no_write:
        print(f"\nnot writing {RESULTS.relative_to(HERE.parent)}: --project scores part of the "
              "corpus only", file=sys.stderr)
    elif not args.no_write:
        RESULTS.write_text(text + "\n", encoding="utf-8")
        print(f"\nwrote {RESULTS.relative_to(HERE.parent)}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
