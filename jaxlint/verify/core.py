"""Verify a set of scripts: lint, fix, run both versions, pair timer reads with regions.

This module decides *what* to run and assembles the results; ``execute`` runs one script,
``stats`` turns reads into durations and verdicts, ``linemap`` carries regions through the fix.
"""

from __future__ import annotations

import importlib.util
import statistics
import sys
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from jaxlint import Finding, fix_source, lint_source
from jaxlint.verify import stats
from jaxlint.verify.execute import RunOutcome, run_script
from jaxlint.verify.linemap import LineMap
from jaxlint.verify.model import (
    NO_FINDINGS,
    NO_REGION,
    NOT_FIXED,
    NOT_FIXED_UNSAFE,
    NOT_MEASURED,
    NOT_RUN_CLEAN,
    NOT_RUN_SETUP,
    Device,
    RegionResult,
)
from jaxlint.verify.progress import Progress

DEFAULT_REPEAT = 5
DEFAULT_TIMEOUT = 120.0
NOT_MAPPED = "not measured: the fix rewrote the region's timer lines"

AS_WRITTEN = "as written"
FIXED = "fixed"


class VerifyError(Exception):
    """A problem that stops verify as a whole (as opposed to one script failing)."""


def ensure_jax(python: str = sys.executable) -> None:
    """Fail early, in one line, when the interpreter that will run the scripts lacks JAX.

    ``find_spec`` locates the package without importing it: the parent never imports JAX.
    """
    if importlib.util.find_spec("jax") is None:
        raise VerifyError(
            f"jax is not installed for {python}; install it there (python -m pip install jax), "
            "or from a clone of jaxlint: python -m pip install '.[verify]'"
        )


# Files that install, configure or drive a project rather than benchmark it: running one
# (``setup.py`` builds and installs, ``noxfile.py`` runs sessions) does what the user did not
# ask for, so verify never runs them, found in a folder or named.
SETUP_LIKE = frozenset({"setup.py", "conftest.py", "noxfile.py", "fabfile.py", "dodo.py",
                        "manage.py", "tasks.py", "__init__.py", "__main__.py"})


def targets(paths: Iterable[str | Path]) -> list[tuple[Path, bool]]:
    """Each script to consider, with whether the user named it (rather than a folder
    holding it). Folders are searched as ``jaxlint`` searches them: the same skips
    (virtual environments, site-packages, build/, node_modules, caches), no symlinked
    folders, no links out of the tree; only ``*.py``, nothing in a hidden folder, and no
    symlinked file (it may point into build/ or an environment)."""
    from jaxlint.files import PathError
    from jaxlint.files import discover as lint_discover

    found: list[tuple[Path, bool]] = []
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for item in lint_discover([str(path)]):
                if isinstance(item, PathError) or not item.endswith(".py"):
                    continue
                # Hidden folders too (.hidden/, .tox-like tools' own): running is not linting.
                if any(part.startswith(".") for part in Path(item).relative_to(path).parts):
                    continue
                # A link the walk kept points at a file it would not have reached by a plain
                # path (the walk keeps the plain one otherwise): in build/, in a virtual
                # environment. Running is not linting: a link is run only when named.
                if Path(item).is_symlink():
                    continue
                found.append((Path(item), False))
        elif path.is_file():
            found.append((path, True))
        else:
            raise VerifyError(f"no such file or directory: {raw}")
    # The same file named twice (a file and its directory) is verified once.
    unique: dict[Path, tuple[Path, bool]] = {}
    for path, named in found:
        key = path.resolve()
        if key in unique:
            unique[key] = (unique[key][0], unique[key][1] or named)
        else:
            unique[key] = (path, named)
    return list(unique.values())


def discover(paths: Iterable[str | Path]) -> list[Path]:
    """The scripts verify considers under ``paths`` (see targets), less setup.py-like ones."""
    return [path for path, _ in targets(paths) if path.name not in SETUP_LIKE]


def _device(outcomes: Iterable[RunOutcome]) -> Device | None:
    for outcome in outcomes:
        device = Device.from_json(outcome.device)
        if device is not None:
            return device
    return None


def _values(outcomes: Sequence[RunOutcome], region: tuple[int, int] | None) -> list[float]:
    """One value per successful run in which the region ran at least once."""
    if region is None:
        return []
    values = []
    for outcome in outcomes:
        if not outcome.ok:
            continue
        value = stats.run_value(outcome.reads, region[0], region[1])
        if value is not None:
            values.append(value)
    return values


def _pending(outcomes: Sequence[RunOutcome], region: tuple[int, int] | None
             ) -> stats.Pending | None:
    """What the runtime check saw at the region's stops, over the successful runs."""
    if region is None or not any(o.ok for o in outcomes):
        return None
    return stats.pending((o.checks for o in outcomes if o.ok), region[0], region[1])


RUNS_WHEN_FIXED = "fix makes the script run"


def _failure_verdict(version: str, outcome: RunOutcome) -> str:
    return f"failed ({version}): {outcome.error}"


class _FileVerifier:
    """Verifies one script; an object so the run settings are not threaded through every call."""

    def __init__(
        self,
        repeat: int,
        timeout: float,
        backend: str | None,
        unsafe_fixes: bool,
        progress: Progress,
        run_all: bool = False,
        ran: list[str] | None = None,
        size: int | None = None,
        check: bool = True,
    ) -> None:
        self.size = size
        self.check = check
        self.run_all = run_all
        self.ran = ran if ran is not None else []  # scripts executed, in order
        self.repeat = repeat
        self.unsafe_fixes = unsafe_fixes
        self.timeout = timeout
        self.backend = backend
        self.progress = progress

    def _run(self, script: Path, regions: Iterable[tuple[int, int]],
             path_dir: Path | None = None) -> RunOutcome:
        shown = str(path_dir / script.name) if path_dir is not None else str(script)
        if shown not in self.ran:
            self.ran.append(shown)
        regions = list(regions)
        return run_script(
            script,
            lines={n for r in regions for n in r},
            starts={r[0] for r in regions},
            stops={r[1] for r in regions},
            same={r[0] for r in regions if r[0] == r[1]},
            check=self.check,
            timeout=self.timeout,
            backend=self.backend,
            size=self.size,
            path_dir=path_dir,
        )

    def verify(self, path: Path, display: str, index: int, total: int, named: bool = True
               ) -> list[RegionResult]:
        if path.name in SETUP_LIKE:
            self.progress.file_started(index, total, display, 0)
            return [RegionResult(display, None, None, NOT_RUN_SETUP)]
        try:
            raw = path.read_bytes()
            findings = lint_source(raw, display)
        except Exception as exc:  # unreadable or unparsable: report it, verify the rest
            self.progress.file_started(index, total, display, 0)
            return [_failed_file(display, f"could not lint: {type(exc).__name__}: {exc}")]

        regions = [f for f in findings if f.region is not None]
        unmeasurable = [
            RegionResult(display, f.code, None, NO_REGION, message=f.message)
            for f in findings
            if f.region is None
        ]
        if not findings:
            if not (named or self.run_all):  # found in a folder: only scripts with findings
                self.progress.file_started(index, total, display, 0)
                return [RegionResult(display, None, None, NOT_RUN_CLEAN)]
            return [self._run_clean(path, display, index, total)]
        if not regions:
            self.progress.file_started(index, total, display, 0)
            return unmeasurable

        try:
            fixed = fix_source(raw, display, unsafe_fixes=self.unsafe_fixes).source
        except Exception as exc:  # a fixer bug on one file must not stop the others
            self.progress.file_started(index, total, display, 0)
            verdict = f"could not fix: {type(exc).__name__}: {exc}"
            return [_failed_file(display, verdict)] + unmeasurable
        if isinstance(fixed, str):  # the API promises bytes for bytes; do not rely on it
            fixed = fixed.encode("utf-8")
        changed = fixed != raw
        with tempfile.TemporaryDirectory(prefix="jaxlint-verify-") as tmp:
            fixed_path: Path | None = None
            line_map: LineMap | None = None
            if changed:
                fixed_path = Path(tmp) / path.name
                fixed_path.write_bytes(fixed)
                line_map = LineMap(_text(raw), _text(fixed))
            results = self._measure(path, display, regions, fixed_path, line_map, index, total)
        return results + unmeasurable

    def _run_clean(self, path: Path, display: str, index: int, total: int) -> RegionResult:
        """A file with no findings is not fixed; one run proves it runs, with every clock
        read checked as ``--detect`` checks them, so work the linter missed shows."""
        self.progress.file_started(index, total, display, 1)
        self.progress.run_started(AS_WRITTEN, 1, 1)
        if str(path) not in self.ran:
            self.ran.append(str(path))
        outcome = run_script(path, lines=None, timeout=self.timeout, backend=self.backend,
                             size=self.size, check=self.check)
        device = _device([outcome])
        if not outcome.ok:
            result = _failed_file(display, _failure_verdict(AS_WRITTEN, outcome), outcome.error)
            result.device = device
            self.progress.file_done(display, "failed")
            return result
        self.progress.file_done(display, NO_FINDINGS)
        result = RegionResult(display, None, None, NO_FINDINGS, device=device)
        pending = [c for c in outcome.checks if c.get("pending")]
        regions = list(dict.fromkeys((int(c["start_line"]), int(c["line"])) for c in pending))
        if regions:
            # Work still running at a stop the linter did not report: the row says where.
            result.runtime = stats.pending([outcome.checks], *regions[0])
            result.message = "at run time, pending work at the stop of " + ", ".join(
                f"lines {a}-{b}" for a, b in regions) + " (see --detect)"
            result.verdict = f"{NO_FINDINGS}; {result.message}"
        elif outcome.checks:
            result.runtime = stats.pending([outcome.checks], int(outcome.checks[0]["start_line"]),
                                           int(outcome.checks[0]["line"]))
        if outcome.costs:
            result.check_s = statistics.median(outcome.costs)
        return result

    def _measure(
        self,
        path: Path,
        display: str,
        findings: list[Finding],
        fixed_path: Path | None,
        line_map: LineMap | None,
        index: int,
        total: int,
    ) -> list[RegionResult]:
        regions = [f.region for f in findings if f.region is not None]
        fixed_regions = [line_map.region(r) if line_map else None for r in regions]
        fx_regions = [r for r in fixed_regions if r]

        runs = self.repeat * (2 if fixed_path else 1)
        self.progress.file_started(index, total, display, runs)
        as_written: list[RunOutcome] = []
        fixed: list[RunOutcome] = []
        failure: str | None = None
        # Interleave the versions (A F A F ...) so drift in machine load or clocks over the
        # minutes a file takes hits both versions alike instead of biasing one.
        # A sync that raises (JAX107: ``jax.block_until_ready()``, ``(a, b).block_until_ready()``)
        # stops the script as written; its fix is what makes it run, so the fixed version is
        # still measured.
        raises: RunOutcome | None = None
        for number in range(1, self.repeat + 1):
            if raises is None:
                self.progress.run_started(AS_WRITTEN, number, self.repeat)
                outcome = self._run(path, regions)
                as_written.append(outcome)
                if not outcome.ok:
                    if fixed_path is None or not findings or any(
                            f.code != "JAX107" for f in findings):
                        failure = _failure_verdict(AS_WRITTEN, outcome)
                        break
                    raises = outcome
            if fixed_path is None:
                continue
            self.progress.run_started(FIXED, number, self.repeat)
            outcome = self._run(fixed_path, fx_regions, path_dir=path.parent)
            fixed.append(outcome)
            if not outcome.ok:
                failure = _failure_verdict(FIXED, outcome)
                break

        device = _device(as_written + fixed)
        costs = [c for o in as_written if o.ok for c in o.costs]
        check_s = statistics.median(costs) if costs else None
        failed_outcome = next((o for o in as_written + fixed if not o.ok and o is not raises),
                              None)
        results = []
        for finding, region, fixed_region in zip(findings, regions, fixed_regions, strict=True):
            result = RegionResult(
                path=display,
                code=finding.code,
                region=region,
                verdict="",
                fixed_region=fixed_region,
                message=finding.message,
                as_written_runs=_values(as_written, region),
                fixed_runs=_values(fixed, fixed_region),
                device=device,
                runtime=_pending(as_written, region),
                runtime_fixed=_pending(fixed, fixed_region),
                check_s=check_s,
            )
            if fixed_path is not None and finding.fixable and (
                    self.unsafe_fixes or not finding.unsafe):
                result.fix = "unsafe" if finding.unsafe else "safe"
            if failure is not None:
                result.verdict, result.failed = failure, True
                result.error = failed_outcome.error if failed_outcome else None
            elif raises is not None:
                result.verdict = f"{RUNS_WHEN_FIXED} (as written: {raises.error})"
                if not result.fixed_runs:
                    result.verdict = NOT_MEASURED
            else:
                result.verdict = _verdict(
                    finding, result, fixed_path is not None, self.unsafe_fixes
                )
            results.append(result)
        self.progress.file_done(display, "failed" if failure else "done")
        return results


def _verdict(finding: Finding, result: RegionResult, was_fixed: bool, unsafe_fixes: bool) -> str:
    if not result.as_written_runs:
        return NOT_MEASURED
    if finding.fixable and getattr(finding, "unsafe", False) and not unsafe_fixes:
        return NOT_FIXED_UNSAFE
    if not finding.fixable or not was_fixed:
        return NOT_FIXED
    if result.fixed_region is None:
        return NOT_MAPPED
    if not result.fixed_runs:
        return NOT_MEASURED
    return stats.judge_expected(finding.code, result.as_written_runs, result.fixed_runs)


def _failed_file(display: str, verdict: str, error: str | None = None) -> RegionResult:
    return RegionResult(display, None, None, verdict, error=error or verdict, failed=True)


def _text(source: bytes) -> str:
    return source.decode("utf-8", "replace")


def verify_paths(
    paths: Iterable[str | Path],
    repeat: int = DEFAULT_REPEAT,
    timeout: float = DEFAULT_TIMEOUT,
    backend: str | None = None,
    progress: Progress | None = None,
    unsafe_fixes: bool = False,
    run_all: bool = False,
    ran: list[str] | None = None,
    size: int | None = None,
    check: bool = True,
) -> list[RegionResult]:
    """Run every script under ``paths`` as written and as fixed; one result per timed region.

    "Fixed" is what ``jaxlint --fix`` writes (plus unsafe fixes when ``unsafe_fixes``).
    Scripts found in folders run only if they have findings (all of them with ``run_all``);
    named scripts run either way; setup.py-like files never run (see SETUP_LIKE). ``ran``,
    if given, receives the path of each script executed.
    This executes the scripts: call it only on code you mean to run.
    """
    if repeat < 1:
        raise VerifyError("--repeat must be at least 1")
    ensure_jax()
    files = targets(paths)
    progress = progress or Progress()
    verifier = _FileVerifier(repeat, timeout, backend, unsafe_fixes, progress, run_all, ran,
                             size, check)
    results: list[RegionResult] = []
    try:
        for index, (path, named) in enumerate(files, start=1):
            results.extend(verifier.verify(path, str(path), index, len(files), named))
    finally:
        progress.close()
    return results
