"""Throughput of random play through the public API (events on), one process, one core.

    python benchmarks/simulate.py            # the default table of variants and seat counts
    python benchmarks/simulate.py --seconds 5 --variant boodle --players 5

Prints deals per second and the mean time per decision, and which build ran: the pure-Python
one (the default install) or the compiled one (``STOPS_COMPILE=1 pip install .``; see
docs/performance.md). No test asserts these numbers; the closing notes of each issue report
them.
"""

from __future__ import annotations

import argparse
import time

import stops
from stops.apps.simulate import play_random
from stops.engine.rng import Rng

DEFAULT = [("boodle", 5), ("boodle", 4), ("three-in-one", 4), ("three-in-one", 5),
           ("pot-and-kitty", 4)]
FAMILY = [("newmarket", 5), ("pope-joan", 4), ("spinado", 4), ("nain-jaune", 4), ("comet", 2),
          ("comet", 4), ("tripoley", 5), ("poch", 4), ("play-or-pay", 4),
          ("royal-rummy", 4), ("rummoli", 4),
          ("pink-nines", 4), ("newmarket-peel", 4)]
"""The family games (docs/family-rulings.md): each at a common table size."""
TARGETS = {("boodle", 5): 15_000, ("three-in-one", 4): 8_000, ("pot-and-kitty", 4): 10_000}
"""Issue 7's targets (deals per second, one core, random agents, events on)."""


def measure(name: str, players: int, seconds: float) -> tuple[float, float, int]:
    variant = stops.load_variant(name)
    rng = Rng(12345)
    deals = decisions = 0
    table = stops.Table(variant, seats=players, chips=50, seed=1, keep_records=False)
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        for _ in range(50):
            if table.is_over:
                table = stops.Table(variant, seats=players, chips=50, seed=deals,
                                        keep_records=False)
            deal = table.new_deal()
            decisions += play_random(deal, rng)
            deals += 1
    elapsed = time.perf_counter() - start
    return deals / elapsed, elapsed / max(decisions, 1) * 1e6, deals


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--variant")
    ap.add_argument("--players", type=int)
    args = ap.parse_args()
    cases = DEFAULT + [c for c in FAMILY if c[0] in stops.list_variants()]
    if args.variant:
        cases = [(args.variant, args.players or 4)]
    build = "compiled (mypyc)" if stops.COMPILED else "pure Python"
    print(f"stops {stops.__version__}, {build} build")
    print(f"{'variant':16} {'players':>7} {'deals/s':>10} {'us/decision':>12} {'deals':>8} "
          f"{'target':>8}")
    for name, players in cases:
        rate, per_decision, deals = measure(name, players, args.seconds)
        target = TARGETS.get((name, players))
        shown = f"{target:>8}" if target else f"{'':>8}"
        print(f"{name:16} {players:>7} {rate:>10.0f} {per_decision:>12.1f} {deals:>8} {shown}")


if __name__ == "__main__":
    main()
