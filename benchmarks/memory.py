"""Memory held by live deals: the mean bytes one Deal keeps, measured with tracemalloc.

    python benchmarks/memory.py

"Fresh" is a deal just dealt (stakes placed, first decision due); "mid-deal" has had half
of its decisions; "finished" is over, with its whole event log.
"""

from __future__ import annotations

import gc
import tracemalloc

import stops
from stops.engine.rng import Rng

CASES = [("boodle", 5), ("three-in-one", 4), ("pot-and-kitty", 4)]


def measure(name: str, players: int, stage: str, count: int = 300) -> float:
    variant = stops.load_variant(name)
    rng = Rng(7)
    tables = [stops.Table(variant, seats=players, chips=50, seed=i, keep_records=False)
              for i in range(count)]
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.get_traced_memory()[0]
    deals = []
    for table in tables:
        deal = table.new_deal()
        if stage != "fresh":
            steps = 0
            limit = 10**9 if stage == "finished" else 6
            while not deal.is_terminal and steps < limit:
                legal = deal.legal_actions()
                deal.apply(legal[rng.below(len(legal))])
                steps += 1
        deals.append(deal)
    gc.collect()
    after = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    return (after - before) / count


def main() -> None:
    print(f"{'variant':16} {'players':>7} {'fresh':>9} {'mid-deal':>9} {'finished':>9}  bytes")
    for name, players in CASES:
        row = [measure(name, players, s) for s in ("fresh", "mid", "finished")]
        print(f"{name:16} {players:>7} " + " ".join(f"{x:9.0f}" for x in row))


if __name__ == "__main__":
    main()
