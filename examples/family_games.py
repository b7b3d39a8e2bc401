"""One deal of each of the six family games, played by heuristic bots, with the events that
make each game itself: Pope Joan's turn-up, Spinado's bonuses, Nain Jaune's "sans X" and
doubled boxes, the Comet's wild card, Newmarket's horses, Tripoley's three stages.

    python examples/family_games.py [seed]

The rules each game follows by default are in docs/family-rulings.md; ``stops rules NAME``
prints them in plain English.
"""

from __future__ import annotations

import sys

import stops
from stops.bots import make_bot, play_deal

GAMES = {"newmarket": 4, "pope-joan": 4, "spinado": 3, "nain-jaune": 4, "comet": 2,
         "tripoley": 5}
TOLD = ("turned_up", "claimed", "bonus", "excused", "went_out", "blocked", "showdown")


def main(seed: int = 1) -> None:
    for name, players in GAMES.items():
        variant = stops.load_variant(name)
        table = stops.Table(variant, seats=players, seed=seed)  # the game's own starting chips
        deal = table.new_deal()
        play_deal(deal, [make_bot("heuristic", seed + s) for s in range(players)])
        print(f"=== {variant.title}: {players} players, dealer seat {deal.dealer}")
        for event in deal.events:
            if event.kind in TOLD:
                print("   ", event.describe())
        print("    returns:", deal.returns(), " cards played:", len(deal.plays))
        # chips are only ever moved: the stacks and the layout add up to what they began with
        assert sum(table.stacks) + sum(table.layout.values()) == table.total_chips()


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1)
