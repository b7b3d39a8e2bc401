"""Play one session of Three-in-One with random players and print what happened.

    python examples/quickstart.py [variant] [players]
"""

from __future__ import annotations

import random
import sys

import stops


def main(variant_name: str = "three-in-one", players: int = 4) -> None:
    variant = stops.load_variant(variant_name)
    table = stops.Table(variant, seats=players, chips=50, seed=2024, deals=3)
    agent = random.Random(7)  # the agents' randomness is separate from the deal's
    while not table.is_over:
        deal = table.new_deal()
        print(f"--- deal {table.deals_played + 1}, dealer seat {deal.dealer}")
        while not deal.is_terminal:
            seat = deal.current_seat
            view = deal.observe(seat)  # only what this seat may know
            choice = agent.choice(view.legal_actions)
            for event in deal.apply(choice):
                if event.kind in ("claimed", "went_out", "blocked", "showdown", "sold"):
                    print("   ", event.describe())
        print("    returns:", deal.returns())
    print("standings (seat, stack, change):", table.standings())
    print("chips left on the layout:", {k: v for k, v in table.layout.items() if v})


if __name__ == "__main__":
    name = sys.argv[1] if len(sys.argv) > 1 else "three-in-one"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    main(name, count)
