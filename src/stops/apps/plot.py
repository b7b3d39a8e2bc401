"""Pictures of simulation reports (``stops simulate ... --plot FILE.png``).

Needs the optional extra ``plot`` (matplotlib): ``pip install "stops-cards[plot]"`` (from a
checkout, ``pip install ".[plot]"``). Draws, for
each report, the distribution of each seat's change of stack per deal and the share of deals
in which each layout space was claimed (with 95 % error bars); with ``--compare`` the two
variants stand side by side, on shared axes, above a row of the differences B − A with their
95 % intervals (paired deal by deal where the comparison paired them).

A game with a long tail (Three-in-One's pots) would squeeze its histogram into one
spike: the histograms show the central 99 % of deals of all the columns together and say
how many deals fall outside, and their heights are on a logarithmic axis so rare outcomes
stay visible.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stops.apps.simulate import Z95, Difference, Pairs, Report, differences
from stops.engine.errors import StopsError

TAIL = 0.005
"""The share of deals left out at each end of the histograms' range."""
BINS = 60
"""At most this many bars in a histogram (wider ranges group chips into bars)."""


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise StopsError('--plot needs matplotlib: pip install "stops-cards[plot]" (from a '
                         'checkout: pip install ".[plot]")') from None
    return plt


def histogram_range(reports: Sequence[Report], tail: float = TAIL) -> tuple[int, int]:
    """The range of changes of stack the histograms show: from the ``tail`` quantile to the
    ``1 - tail`` quantile of every seat's deals in every report, pooled (so the columns
    share an axis)."""
    pooled: dict[int, int] = {}
    for r in reports:
        for h in r.chips_histogram:
            for k, c in h.items():
                pooled[int(k)] = pooled.get(int(k), 0) + c
    if not pooled:
        return 0, 0
    total = sum(pooled.values())
    keys = sorted(pooled)
    lo, hi = keys[0], keys[-1]
    seen = 0
    for x in keys:
        seen += pooled[x]
        if seen > tail * total:
            lo = x
            break
    seen = 0
    for x in reversed(keys):
        seen += pooled[x]
        if seen > tail * total:
            hi = x
            break
    return lo, hi


def plot_reports(reports: Sequence[Report], path: str | Path,
                 pairs: Pairs | None = None) -> Path:
    """Draw one column per report (one, or two for ``--compare``) into ``path``; with two,
    a row of the differences B − A below (paired where ``pairs`` pairs them)."""
    plt = _pyplot()
    path = Path(path)
    cols = len(reports)
    rows = 3 if cols == 2 else 2
    fig = plt.figure(figsize=(6.5 * cols, 4 * rows))
    grid = fig.add_gridspec(rows, 1)
    tops = grid[0].subgridspec(1, cols)
    mids = grid[1].subgridspec(1, cols)
    lo, hi = histogram_range(reports)
    width = max(1, -(-(hi - lo + 1) // BINS))
    nbins = -(-(hi - lo + 1) // width)
    first: Any = None
    for j, rep in enumerate(reports):
        ax = fig.add_subplot(tops[0, j], sharey=first)
        first = first or ax
        total = rep.deals or 1
        out = 0
        for seat, hist in enumerate(rep.chips_histogram):
            counts = [0] * nbins
            for k, c in hist.items():
                x = int(k)
                if lo <= x <= hi:
                    counts[(x - lo) // width] += c
                else:
                    out += c
            edges = [lo + i * width - 0.5 for i in range(nbins + 1)]
            ys = [c / total for c in counts]
            ax.stairs(ys, edges, label=f"seat {seat} (mean "
                      f"{rep.chips_per_deal[seat]:+.2f} ± {rep.chips_per_deal_se[seat]:.2f})")
        ax.set_xlim(lo - 0.5, hi + 0.5)
        ax.set_yscale("log")
        ax.set_title(f"{rep.variant}: change of stack per deal\n"
                     f"{rep.deals} deals, {rep.players} players, seed {rep.seed}", fontsize=10)
        share = out / (total * max(rep.players, 1))
        ax.set_xlabel("chips won (+) or lost (-) in one deal"
                      + (f"\n{100 * share:.1f}% of seats' deals fell outside {lo:+d}..{hi:+d} "
                         "(not shown)" if out else ""), fontsize=9)
        ax.set_ylabel("share of deals (log scale)" if width == 1 else
                      f"share of deals, {width} chips a bar (log scale)")
        ax.legend(fontsize=8)
        ax = fig.add_subplot(mids[0, j])
        spaces = list(rep.claim_rate)
        rates = [100 * rep.claim_rate[s] for s in spaces]
        errs = [100 * Z95 * rep.claim_rate_se[s] for s in spaces]
        ax.bar(range(len(spaces)), rates, yerr=errs, capsize=3, color="tab:green")
        ax.set_xticks(range(len(spaces)), spaces, rotation=30)
        ax.set_ylim(0, 100)
        ax.set_title(f"{rep.variant}: spaces claimed (95 % error bars)", fontsize=10)
        ax.set_ylabel("% of deals")
    if cols == 2:
        _differences_row(fig, grid[2], differences(reports[0], reports[1], pairs), reports,
                         pairs)
    fig.tight_layout()
    import io

    from stops.apps.files import write_atomic

    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, dpi=100, format=path.suffix[1:].lower() or "png")
    finally:
        plt.close(fig)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise StopsError(f"cannot write {path}: {e.strerror or e}") from None
    return write_atomic(path, buffer.getvalue())


def _differences_row(fig: Any, cell: Any, diffs: list[Difference], reports: Sequence[Report],
                     pairs: Pairs | None) -> None:
    """The differences B − A with their 95 % intervals, one panel per unit (chips, points
    of percentage, counts), so that no measure's scale hides another's."""
    groups = [("chips per deal (and per session)", [d for d in diffs
                                                    if d.signed]),
              ("percentage points", [d for d in diffs if d.percent]),
              ("cards, decisions, deals", [d for d in diffs if not d.signed
                                           and not d.percent])]
    groups = [(t, g) for t, g in groups if g]
    sub = cell.subgridspec(1, len(groups), wspace=0.6)
    a, b = reports
    how = (f"paired by {pairs.unit} ({pairs.n} pairs)" if pairs is not None
           else "runs treated as independent")
    for i, (unit, ds) in enumerate(groups):
        ax = fig.add_subplot(sub[0, i])
        k = 100.0 if ds[0].percent else 1.0
        ys = list(range(len(ds)))[::-1]
        for y, d in zip(ys, ds, strict=True):
            colour = "tab:red" if d.distinguishable else "tab:gray"
            ax.errorbar([k * d.difference], [y],
                        xerr=[[k * (d.difference - d.low)], [k * (d.high - d.difference)]],
                        fmt="o", color=colour, capsize=3)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(ys, [d.measure + ("" if d.paired or pairs is None else " *")
                           for d in ds], fontsize=8)
        ax.set_xlabel(f"B − A, {unit}", fontsize=9)
        if i == 0:
            ax.set_title(f"{b.variant} minus {a.variant}: 95 % intervals, {how}; "
                         "red: distinguishable from 0"
                         + ("; * not paired" if any(not d.paired for d in diffs) and pairs
                            is not None else ""), fontsize=10, loc="left")
