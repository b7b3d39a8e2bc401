"""A deal of Boodle stacked by hand, played step by step, then recorded and replayed.

This is how the tests build deals whose outcome is derived from the rule text.
"""

from __future__ import annotations

import stops

HANDS = [
    ["2C", "3C", "4C", "KC", "AH"],   # seat 0 (the dealer)
    ["5C", "6C", "QD", "2H"],         # seat 1 (leads first: the dealer's left)
    ["7C", "8C", "JS", "3H"],         # seat 2
]


def main() -> None:
    variant = stops.load_variant("boodle")
    dealt = {c for hand in HANDS for c in hand}
    spare = [str(c) for c in variant.deck if str(c) not in dealt]  # the rest is the spare
    table = stops.Table(variant, seats=3, chips=20, dealer=0)
    deal = table.new_deal(hands=HANDS, spare=spare)
    print("after stakes:", deal.stacks, deal.layout)
    while not deal.is_terminal:
        seat = deal.current_seat
        legal = deal.legal_actions()
        print(f"seat {seat} may:", ", ".join(str(a.card) for a in legal))
        for event in deal.apply(legal[0]):
            print("   ", event.describe())
    print("final stacks:", deal.stacks, "layout:", deal.layout)
    record = deal.record()
    again = stops.replay(record)
    assert again.plays == deal.plays and again.stacks == deal.stacks
    print("the record replays to the same result")
    print(stops.io.records.dumps(record))


if __name__ == "__main__":
    main()
