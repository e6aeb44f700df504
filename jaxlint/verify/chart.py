"""Bar chart for the report: as written vs fixed per region, log scale.

Log scale because the two bars routinely differ by 10-1000x (dispatch vs. the work itself);
on a linear axis the as-written bar would be invisible.  matplotlib is imported here, and this
module is imported only when ``--report`` is given, so it stays an optional dependency.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from jaxlint.verify.model import RegionResult
from jaxlint.verify.report import device_line, format_ratio, format_region


def _label(result: RegionResult) -> str:
    return f"{result.path}:{format_region(result.region)}"


def bar_chart(results: Sequence[RegionResult], path: Path) -> bool:
    """Draw regions measured in both versions to ``path``; False when there is none."""
    # Both medians must be positive to sit on a log axis (a coarse timer can measure 0).
    measured = [r for r in results if (r.as_written_s or 0) > 0 and (r.fixed_s or 0) > 0]
    if not measured:
        return False

    import matplotlib

    matplotlib.use("Agg")  # files only; never open a window or need a display
    import matplotlib.pyplot as plt

    n = len(measured)
    fig, ax = plt.subplots(figsize=(9, 1.6 + 0.55 * n))
    height = 0.38
    positions = list(range(n))
    for offset, name, color, spreads in (
        (-height / 2, "as written", "#9aa5b1", [r.as_written for r in measured]),
        (height / 2, "fixed (--fix)", "#1f6feb", [r.fixed for r in measured]),
    ):
        medians = [s.median or 0.0 for s in spreads]
        # Error bars span the min-max range over runs: the noise the verdict is judged against.
        lower = [(s.median or 0.0) - (s.low or 0.0) for s in spreads]
        upper = [(s.high or 0.0) - (s.median or 0.0) for s in spreads]
        ax.barh(
            [p + offset for p in positions],
            medians,
            height=height,
            color=color,
            label=name,
            xerr=[lower, upper],
            error_kw={"elinewidth": 1, "capsize": 2, "ecolor": "#333333"},
        )
    ax.set_yticks(positions)
    ax.set_yticklabels([_label(r) for r in measured], fontsize=8)
    ax.set_ylim(n - 0.5, -0.5)  # first region at the top, as in the table; no blank margin
    ax.set_xscale("log")
    ax.set_xlabel("measured time per region, seconds (median over runs; bars: min-max)")
    ax.set_title(f"jaxlint verify: {device_line(results)}", fontsize=10)
    for position, result in zip(positions, measured, strict=True):
        if result.ratio is not None:
            ax.annotate(
                format_ratio(result.ratio),
                xy=(max(result.fixed.high or 0.0, result.as_written.high or 0.0), position),
                xytext=(4, 0),
                textcoords="offset points",
                va="center",
                fontsize=8,
            )
    ax.legend(loc="lower right", fontsize=8)
    ax.grid(axis="x", which="both", alpha=0.3)
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return True
