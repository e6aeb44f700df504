"""Bar chart for the report: as written vs fixed per region, log scale.

Log scale because the two bars routinely differ by 10-1000x (dispatch vs. the work itself);
on a linear axis the as-written bar would be invisible.  matplotlib is imported here, and this
module is imported only when ``--report`` is given, so it stays an optional dependency.

Every row of the report's table is a row of the chart, in the same order: a region measured
in both versions gets two bars (error bars: min-max over runs) and its change in words; one
that was not gets its reason written where the bars would be.  The legend sits above the
plot, outside it, so it never covers a bar.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from jaxlint.verify.model import RegionResult
from jaxlint.verify.report import device_line, format_change, format_region

AS_WRITTEN_COLOR, FIXED_COLOR = "#9aa5b1", "#1f6feb"


def _label(result: RegionResult) -> str:
    if result.region is None:
        return result.path + (f" {result.code}" if result.code else "")
    code = f" {result.code}" if result.code else ""
    return f"{result.path}:{format_region(result.region)}{code}"


def _positive(value: float | None) -> bool:
    return value is not None and value > 0


def bar_chart(results: Sequence[RegionResult], path: Path) -> bool:
    """Draw every result to ``path``; False (nothing drawn) when no region has a time."""
    # A coarse timer can measure 0, which has no place on a log axis: such a row says so.
    timed = [v for r in results for v in (*r.as_written_runs, *r.fixed_runs) if v > 0]
    if not timed:
        return False

    import matplotlib

    matplotlib.use("Agg")  # files only; never open a window or need a display
    import matplotlib.pyplot as plt

    n = len(results)
    fig, ax = plt.subplots(figsize=(11, 2.0 + 0.6 * n))
    height = 0.38
    low, high = min(timed), max(timed)
    left_edge = low / 3
    for position, r in enumerate(results):
        drawn = False
        for offset, spread, color in (
            (-height / 2, r.as_written, AS_WRITTEN_COLOR),
            (height / 2, r.fixed, FIXED_COLOR),
        ):
            if not _positive(spread.median):
                continue
            median, lo, hi = spread.median or 0.0, spread.low or 0.0, spread.high or 0.0
            ax.barh(position + offset, median - left_edge, left=left_edge, height=height,
                    color=color, xerr=[[median - lo], [hi - median]],
                    error_kw={"elinewidth": 1, "capsize": 2, "ecolor": "#333333"})
            drawn = True
        if _positive(r.as_written_s) and _positive(r.fixed_s):
            note = f"{format_change(r.ratio)}: {r.verdict}"
        elif drawn:
            note = f"fixed not measured: {r.verdict}"
        elif r.runtime is not None and r.runtime.pending_stops:
            note = f"{r.verdict.split(';')[0]}; at run time: {r.runtime.short()}"
        else:
            note = r.verdict
        right = max((v for v in (r.as_written.high, r.fixed.high) if v is not None and v > 0),
                    default=left_edge)
        ax.annotate(note if len(note) <= 90 else note[:87] + "...",
                    xy=(right, position), xytext=(6, 0), textcoords="offset points",
                    va="center", fontsize=8)
    ax.set_yticks(list(range(n)))
    ax.set_yticklabels([_label(r) for r in results], fontsize=8)
    ax.set_ylim(n - 0.5, -0.5)  # first row at the top, as in the table; no blank margin
    ax.set_xscale("log")
    # Room on the right for the notes: they are text, not data, and must not leave the plot.
    ax.set_xlim(left_edge, high * 300)
    ax.set_xlabel("measured time per region, seconds (median over runs; error bars: min-max)")
    ax.grid(axis="x", which="major", alpha=0.3)
    handles = [plt.Rectangle((0, 0), 1, 1, color=AS_WRITTEN_COLOR),
               plt.Rectangle((0, 0), 1, 1, color=FIXED_COLOR)]
    ax.legend(handles, ["as written", "fixed (--fix)"], loc="lower left",
              bbox_to_anchor=(0.0, 1.0), ncol=2, fontsize=8, frameon=False)
    fig.suptitle(f"jaxlint verify: {device_line(results)}", fontsize=10)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True
