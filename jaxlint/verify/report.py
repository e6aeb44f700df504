"""Present verify results: terminal table, JSON list, Markdown report (chart in ``chart``)."""

from __future__ import annotations

import json
import re
import shlex
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

from jaxlint.verify import stats
from jaxlint.verify.model import NO_FINDINGS, Device, RegionResult

COLUMNS = ("fixture", "region", "as written", "fixed", "ratio", "verdict")


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


def format_region(region: tuple[int, int] | None) -> str:
    return f"{region[0]}-{region[1]}" if region else "-"


def _with_spread(median: float | None, relative: float | None) -> str:
    text = format_seconds(median)
    if median is not None and relative is not None:
        text += f" ±{relative * 100:.0f}%"
    return text


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
            format_region(r.region),
            _with_spread(r.as_written_s, r.as_written.relative),
            _with_spread(r.fixed_s, r.fixed.relative),
            format_ratio(r.ratio),
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
        f"medians of {repeat} run(s) per version; ±: half the min-max range across runs. "
        f'"{stats.CHANGED}" needs every fixed run above (or below) every as-written run '
        f"and medians at least {stats.MIN_RATIO}x apart."
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


def markdown(
    results: Sequence[RegionResult],
    *,
    repeat: int,
    argv: Sequence[str] | None,
    chart_name: str | None,
    backend: str | None = None,
) -> str:
    device = device_of(results)
    title = device.kind if device else "unknown device"
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    lines = [
        f"# jaxlint verify: {title}",
        "",
        f"- {device_line(results, backend)}",
        f"- date: {stamp}",
        f"- runs: {repeat} per version, each in a fresh Python process, "
        "as written and fixed interleaved",
    ]
    if argv is not None:
        lines.append(f"- command: `jaxlint verify {shlex.join(argv)}`")
    lines += [
        "",
        "Each row is a timed region the linter reported. *As written* is what the script "
        "measured when run unmodified; *fixed* is what the same timer reads measured after "
        "`jaxlint --fix` rewrote the script. Times are the median over runs of each run's "
        "median over the region's occurrences; min and max are over runs.",
        "",
        "| fixture | code | region | as written | min - max | fixed | min - max | ratio "
        "| verdict |",
        "|---|---|---|--:|--:|--:|--:|--:|---|",
    ]
    # Files left alone would be rows of dashes; they are listed after the table instead.
    left_alone = [r for r in results if r.verdict == NO_FINDINGS]
    for r in results:
        if r.verdict == NO_FINDINGS:
            continue
        aw, fx = r.as_written, r.fixed
        cells = [
            r.path,
            r.code or "-",
            format_region(r.region),
            format_seconds(aw.median),
            f"{format_seconds(aw.low)} - {format_seconds(aw.high)}" if aw.values else "-",
            format_seconds(fx.median),
            f"{format_seconds(fx.low)} - {format_seconds(fx.high)}" if fx.values else "-",
            format_ratio(r.ratio),
            r.verdict,
        ]
        lines.append("| " + " | ".join(_md_cell(c) for c in cells) + " |")
    lines.append("")
    if left_alone:
        lines += [
            f"No findings, so not fixed; each ran once to show it runs ({len(left_alone)}): "
            + ", ".join(f"`{r.path}`" for r in left_alone),
            "",
        ]
    if chart_name:
        lines += [f"![as written vs fixed, per region (log scale)]({chart_name})", ""]
    else:
        lines += ["(No region was measured in both versions, so there is no chart.)", ""]
    lines += [
        "## Verdict rule",
        "",
        f'"{stats.CHANGED}" means both: every fixed run measured more than every as-written '
        "run, or every one measured less (the ranges do not overlap; if both versions measured "
        "the same thing, that happens by chance with probability 2/C(2N, N), 2/252 for N=5), "
        f"and the medians are at least {stats.MIN_RATIO}x apart in that direction (so the small "
        "cost of one extra synchronisation on an already-synchronised region does not count). "
        f'Otherwise "{stats.TOO_SMALL}". With fewer than {stats.MIN_REPEATS} runs per '
        f'version: "{stats.TOO_FEW}". A ratio above 1x means the fixed script measured more '
        "(JAX101: the timer now waits for the work); below 1x, less (a host copy or the first "
        "call's compilation left the timed region).",
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
    )
    md_path.write_text(text, encoding="utf-8")
    return md_path, png_path if drawn else None
