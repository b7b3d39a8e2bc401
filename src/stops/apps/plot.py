"""Pictures of simulation reports (``stops simulate ... --plot FILE.png``).

Needs the optional extra ``plot`` (matplotlib): ``pip install "stops-cards[plot]"`` (from a
checkout, ``pip install ".[plot]"``). Draws, for each report, the distribution of each
seat's change of stack per deal and the share of deals in which each layout space was claimed
(with 95 % error bars); with ``--compare`` the two variants stand side by side, on shared
axes.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from stops.apps.simulate import Z95, Report
from stops.engine.errors import StopsError


def _pyplot() -> Any:
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise StopsError('--plot needs matplotlib: pip install "stops-cards[plot]" (from a '
                         'checkout: pip install ".[plot]")') from None
    return plt


def plot_reports(reports: Sequence[Report], path: str | Path) -> Path:
    """Draw one column per report (one, or two for ``--compare``) into ``path``."""
    plt = _pyplot()
    path = Path(path)
    cols = len(reports)
    fig, axes = plt.subplots(2, cols, figsize=(6.5 * cols, 8), squeeze=False,
                             sharey="row")
    lo = min((int(k) for r in reports for h in r.chips_histogram for k in h), default=0)
    hi = max((int(k) for r in reports for h in r.chips_histogram for k in h), default=0)
    for j, rep in enumerate(reports):
        ax = axes[0][j]
        for seat, hist in enumerate(rep.chips_histogram):
            xs = sorted(int(k) for k in hist)
            total = sum(hist.values()) or 1
            ys = [hist[str(x)] / total for x in xs]
            ax.step(xs, ys, where="mid", label=f"seat {seat} (mean "
                    f"{rep.chips_per_deal[seat]:+.2f} ± {rep.chips_per_deal_se[seat]:.2f})")
        ax.set_xlim(lo - 1, hi + 1)
        ax.set_title(f"{rep.variant}: change of stack per deal\n"
                     f"{rep.deals} deals, {rep.players} players, seed {rep.seed}", fontsize=10)
        ax.set_xlabel("chips won (+) or lost (-) in one deal")
        ax.set_ylabel("share of deals")
        ax.legend(fontsize=8)
        ax = axes[1][j]
        spaces = list(rep.claim_rate)
        rates = [100 * rep.claim_rate[s] for s in spaces]
        errs = [100 * Z95 * rep.claim_rate_se[s] for s in spaces]
        ax.bar(range(len(spaces)), rates, yerr=errs, capsize=3, color="tab:green")
        ax.set_xticks(range(len(spaces)), spaces, rotation=30)
        ax.set_ylim(0, 100)
        ax.set_title(f"{rep.variant}: spaces claimed (95 % error bars)", fontsize=10)
        ax.set_ylabel("% of deals")
    fig.tight_layout()
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
