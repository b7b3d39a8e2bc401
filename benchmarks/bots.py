"""How much the heuristic bot beats random play, per built-in base game.

    python benchmarks/bots.py            # 2000 deals each: boodle, three-in-one, pot-and-kitty
    python benchmarks/bots.py --deals 500 --players 5 --seed 3

For each game, seat 0 is played by the heuristic bot and every other seat by a random bot,
over ``--deals`` deals (sessions are restarted when a game's match end is reached). The
baseline plays the same shuffled deals with random bots in every seat, so any difference
between the two rows comes from seat 0's decisions. Every decision goes through
``deal.observe(seat)``, as a real bot host would.

Printed per row: seat 0's mean chips per deal, the other seats' mean, and the difference
(seat 0 minus the others' mean), each with its standard error over deals. Chips are the
deal's returns (``deal.returns()``); the pot-and-kitty end-of-game share-out of leftover
layout chips is not part of any deal and is left out.
"""

from __future__ import annotations

import argparse
import math
import time

import stops
from stops.bots import Bot, make_bot, play_deal
from stops.engine.rng import derive_seed

GAMES = [("boodle", 4), ("three-in-one", 4), ("pot-and-kitty", 4)]


class Stat:
    """Running mean and standard error (Welford)."""

    def __init__(self) -> None:
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0

    def add(self, x: float) -> None:
        self.n += 1
        d = x - self.mean
        self.mean += d / self.n
        self.m2 += d * (x - self.mean)

    @property
    def se(self) -> float:
        if self.n < 2:
            return float("nan")
        return math.sqrt(self.m2 / (self.n - 1) / self.n)

    def __str__(self) -> str:
        return f"{self.mean:+7.3f} ± {self.se:5.3f}"


def measure(name: str, players: int, deals: int, seed: int, hero: str,
            chips: int = 100) -> tuple[Stat, Stat, Stat]:
    """Seat 0 played by ``hero``, the rest by random bots; returns (seat 0, others, diff)."""
    variant = stops.load_variant(name)
    seat0, others, diff = Stat(), Stat(), Stat()
    played = sessions = 0
    while played < deals:
        table = stops.Table(variant, seats=players, chips=chips,
                            seed=derive_seed(seed, "session", sessions), keep_records=False)
        bots: list[Bot] = [make_bot(hero, derive_seed(seed, "hero", sessions))]
        bots += [make_bot("random", derive_seed(seed, "bot", sessions, s))
                 for s in range(1, players)]
        sessions += 1
        while not table.is_over and played < deals:
            deal = table.new_deal()
            play_deal(deal, bots)
            played += 1
            r = deal.returns()
            rest = sum(r[1:]) / (players - 1)
            seat0.add(r[0])
            others.add(rest)
            diff.add(r[0] - rest)
    return seat0, others, diff


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=2000, help="deals per row (default 2000)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--players", type=int, help="seats for every game (default 4)")
    ap.add_argument("--variant", action="append", help="a variant to measure (repeatable)")
    args = ap.parse_args()
    games = [(v, args.players or 4) for v in args.variant] if args.variant else [
        (v, args.players or p) for v, p in GAMES]
    print(f"{'variant':14} {'n':>2} {'seat 0':10} {'seat 0 chips/deal':>18} "
          f"{'others chips/deal':>18} {'difference':>18} {'s':>6}")
    for name, players in games:
        for hero in ("heuristic", "random"):
            start = time.perf_counter()
            s0, so, d = measure(name, players, args.deals, args.seed, hero)
            secs = time.perf_counter() - start
            print(f"{name:14} {players:>2} {hero:10} {s0!s:>18} {so!s:>18} {d!s:>18} "
                  f"{secs:6.1f}", flush=True)


if __name__ == "__main__":
    main()
