"""Present verify results: terminal table, JSON list, Markdown report (chart in ``chart``)."""

from __future__ import annotations

import json
import re
import shlex
import statistics
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

from jaxlint.verify import stats
from jaxlint.verify.model import Device, RegionResult

COLUMNS = ("fixture", "code", "region", "as written (min-max)", "fixed (min-max)", "change",
           "at the stop", "verdict")


def format_seconds(seconds: float | None) -> str:
    """Milliseconds for the usual range, like the timings scripts print themselves."""
    if seconds is None:
        return "-"
    ms = seconds * 1e3
    if ms < 0.01:
        return f"{seconds * 1e6:.2f} us"
    if ms < 1:
        return f"{ms:.3f} ms"
    if ms < 100:
        return f"{ms:.2f} ms"
    if ms < 10_000:
        return f"{ms:.0f} ms"
    return f"{seconds:.1f} s"


def format_ratio(value: float | None) -> str:
    if value is None:
        return "-"
    if value < 0.1:
        return f"{value:.3f}x"  # the fix made it faster (compilation or a copy left the region)
    return f"{value:.1f}x" if value < 100 else f"{value:.0f}x"


def format_change(value: float | None) -> str:
    """fixed / as written in words: ``19x longer``, ``67x shorter`` (never ``0.0x``)."""
    if value is None or value <= 0:
        return "-"
    factor, word = (value, "longer") if value >= 1 else (1 / value, "shorter")
    number = f"{factor:.2f}" if factor < 10 else f"{factor:.0f}"
    if factor < 10:
        number = number.rstrip("0").rstrip(".") if "." in number else number
    return f"{number}x {word}"


def format_spread(spread: stats.Spread) -> str:
    """``7.47 ms (0.181 ms-7.76 ms)``: the median and the min-max range over runs."""
    if not spread.values:
        return "-"
    text = format_seconds(spread.median)
    if len(spread.values) > 1:
        text += f" ({format_seconds(spread.low)}-{format_seconds(spread.high)})"
    return text


def at_stop(result: RegionResult) -> str:
    """The runtime check's verdict for the as-written runs (and the fixed ones when it
    differs), in a few words."""
    if result.runtime is None:
        return "-"
    text = result.runtime.short()
    if result.runtime_fixed is not None and result.runtime_fixed.stops \
            and result.runtime_fixed.short() != text:
        text += f"; fixed: {result.runtime_fixed.short()}"
    return text


def format_region(region: tuple[int, int] | None) -> str:
    return f"{region[0]}-{region[1]}" if region else "-"


def device_of(results: Sequence[RegionResult]) -> Device | None:
    return next((r.device for r in results if r.device is not None), None)


def device_line(results: Sequence[RegionResult], backend: str | None = None) -> str:
    device = device_of(results)
    if device is not None:
        return f"device: {device.header()}"
    chosen = backend or "JAX's default"
    return f"device: unknown (no script reported one; backend: {chosen})"


def rows(results: Sequence[RegionResult]) -> list[tuple[str, ...]]:
    return [
        (
            r.path,
            r.code or "-",
            format_region(r.region),
            format_spread(r.as_written),
            format_spread(r.fixed),
            format_change(r.ratio),
            at_stop(r),
            r.verdict,
        )
        for r in results
    ]


def table(results: Sequence[RegionResult], repeat: int, backend: str | None = None) -> str:
    body = rows(results)
    widths = [max([len(c), *(len(row[i]) for row in body)]) for i, c in enumerate(COLUMNS)]
    widths[-1] = len(COLUMNS[-1])  # the verdict is last: no padding, long errors just run on

    def line(cells: Sequence[str]) -> str:
        return "  ".join(cell.ljust(w) for cell, w in zip(cells, widths, strict=True)).rstrip()

    out = [device_line(results, backend), line(COLUMNS)]
    out += [line(row) for row in body]
    out.append("")
    out.append(
        f"medians of {repeat} run(s) per version, min-max across runs. "
        f'"{stats.CHANGED}" needs every fixed run above (or below) every as-written run, '
        f"medians at least {stats.MIN_RATIO}x apart in the rule's direction (JAX101-103 and "
        f"JAX107 longer, JAX104-106 shorter) and at least {stats.MIN_WORK_S * 1e3:g} ms. "
        '"at the stop": JAX work still running when the clock was read, as written.'
    )
    return "\n".join(out)


def to_json(results: Sequence[RegionResult]) -> str:
    return json.dumps([r.to_json() for r in results], indent=2)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "unknown"


def report_paths(target: Path, results: Sequence[RegionResult]) -> tuple[Path, Path]:
    """``DIR/verify-<device>.md`` for a directory; a path ending in .md is used as given."""
    if target.suffix.lower() == ".md":
        md = target
    else:
        device = device_of(results)
        md = target / f"verify-{_slug(device.kind if device and device.kind else 'unknown')}.md"
    return md, md.with_suffix(".png")


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _check_cost(results: Sequence[RegionResult]) -> str | None:
    """The runtime check's cost next to the regions it checked, in one sentence."""
    costs = [r.check_s for r in results if r.check_s is not None]
    times = [t for r in results for t in (r.as_written_s, r.fixed_s) if t]
    if not costs or not times:
        return None
    return (f"the pending-work check cost {statistics.median(costs) * 1e6:.0f} us per clock "
            f"read (median over files, at most {max(costs) * 1e6:.0f} us), outside the "
            f"measured intervals; the regions measured {format_seconds(min(times))} to "
            f"{format_seconds(max(times))}")


def markdown(
    results: Sequence[RegionResult],
    *,
    repeat: int,
    argv: Sequence[str] | None,
    chart_name: str | None,
    backend: str | None = None,
    unsafe_fixes: bool = False,
    size: int | None = None,
) -> str:
    device = device_of(results)
    title = device.kind if device else "unknown device"
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"# jaxlint verify: {title}",
        "",
        f"- device: {device.details()}" if device else f"- {device_line(results, backend)}",
        f"- date: {stamp}",
        f"- runs: {repeat} per version, each in a fresh Python process, "
        "as written and fixed interleaved",
        "- fixes applied: safe" + (" and unsafe (--unsafe-fixes)" if unsafe_fixes
                                  else " only (unsafe ones are held back)"),
    ]
    lines.append(f"- work size: JAXLINT_VERIFY_SIZE={size} (--size)" if size is not None else
                 "- work size: the scripts' defaults (no --size)")
    cost = _check_cost(results)
    if cost:
        lines.append(f"- {cost}")
    if argv is not None:
        lines.append(f"- command: `jaxlint verify {shlex.join(argv)}`")
    lines += [
        "",
        "Each row is a timed region the linter reported (or a script that has none). *As "
        "written* is what the script measured when run unmodified; *fixed* is what the same "
        "timer reads measured after `jaxlint --fix` rewrote the script (*fix* says which fix "
        "was applied). Times are the median over runs of each run's median over the region's "
        "occurrences; min and max are over runs. *At the stop* is the runtime check: the JAX "
        "arrays made since the start read that were still being computed when the stop read "
        "happened, and how long the wait for them took (outside the measurement); as written, "
        "and as fixed when that differs.",
        "",
        "| fixture | code | region | fix | as written | min - max | fixed | min - max "
        "| change | at the stop | verdict |",
        "|---|---|---|---|--:|--:|--:|--:|--:|---|---|",
    ]
    for r in results:
        aw, fx = r.as_written, r.fixed
        cells = [
            r.path,
            r.code or "-",
            format_region(r.region),
            r.fix or "-",
            format_seconds(aw.median),
            f"{format_seconds(aw.low)} - {format_seconds(aw.high)}" if aw.values else "-",
            format_seconds(fx.median),
            f"{format_seconds(fx.low)} - {format_seconds(fx.high)}" if fx.values else "-",
            format_change(r.ratio),
            at_stop(r),
            r.verdict,
        ]
        lines.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    lines.append("")
    if chart_name:
        lines += [f"![as written vs fixed, per region (log scale)]({chart_name})", ""]
    else:
        lines += ["(No region was measured in both versions, so there is no chart.)", ""]
    lines += [
        "## Verdict rule",
        "",
        f'"{stats.CHANGED}" means all of: every fixed run measured more than every '
        "as-written run, or every one measured less (the ranges do not overlap; if both "
        "versions measured the same thing, that happens by chance with probability "
        f"2/C(2N, N), 2/252 for N=5); the medians are at least {stats.MIN_RATIO}x apart in "
        "that direction (so the small cost of one extra synchronisation on an "
        "already-synchronised region does not count); and the direction is the rule's: "
        "JAX101, JAX102, JAX103 and JAX107 fixes make the timer wait for the work (longer), "
        "JAX104, JAX105 and JAX106 fixes take a host copy, the first call's compilation or "
        "earlier work out of the region (shorter); the other direction is "
        f'"{stats.WRONG_WAY}". A script that raises as written at a sync that cannot wait '
        '(JAX107) and runs when fixed is "fix makes the script run", with the fixed times. '
        "A region whose larger "
        f"median is under {stats.MIN_WORK_S * 1e3:g} ms is \"too small to tell on this "
        "device\", with its numbers, whatever the ranges say (clock and process noise are "
        "that size). Otherwise "
        f'"{stats.TOO_SMALL}". With fewer than {stats.MIN_REPEATS} runs per version: '
        f'"{stats.TOO_FEW}". *Change* is fixed / as written in words.',
        "",
    ]
    failures = [r for r in results if r.failed]
    if failures:
        lines += ["## Failures", ""]
        seen: set[tuple[str, str]] = set()
        for r in failures:
            key = (r.path, r.verdict)
            if key not in seen:
                seen.add(key)
                lines.append(f"- `{r.path}`: {r.verdict}")
        lines.append("")
    return "\n".join(lines)


def write_report(
    target: Path,
    results: Sequence[RegionResult],
    *,
    repeat: int,
    argv: Sequence[str] | None = None,
    backend: str | None = None,
    unsafe_fixes: bool = False,
    size: int | None = None,
) -> tuple[Path, Path | None]:
    """Write the Markdown report and its chart; returns (md path, png path or None)."""
    from jaxlint.verify.chart import bar_chart  # matplotlib is imported only for --report

    md_path, png_path = report_paths(target, results)
    md_path.parent.mkdir(parents=True, exist_ok=True)
    drawn = bar_chart(results, png_path)
    text = markdown(
        results,
        repeat=repeat,
        argv=argv,
        chart_name=png_path.name if drawn else None,
        backend=backend,
        unsafe_fixes=unsafe_fixes,
        size=size,
    )
    md_path.write_text(text, encoding="utf-8")
    return md_path, png_path if drawn else None
