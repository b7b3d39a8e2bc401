"""The tables session 13 put on random play's path give what the loops they replace gave.

Each test states, worked out by hand, a case the table must give, and then holds the table
to the plain computation over its whole domain.
"""

from __future__ import annotations

from stops.engine import deal as deal_mod
from stops.engine.cards import CARDS


def _suit_by_loop(suit: int, m: int) -> tuple[int, ...]:
    """The cards of ``suit`` with their rank bit set in ``m``, lowest first: the loop
    ``_suit_cards`` ran before its half tables."""
    return tuple(CARDS[suit * 13 + r] for r in range(13) if m >> r & 1)


def test_suit_cards_join_the_two_halves() -> None:
    # By hand: suit 1 is diamonds (cards 13..25), rank r its bit r. The mask
    # 0b1_0000_0100_0001 has ranks 0, 6 and 12: 2D (card 13) from the low table's entry
    # 1 << 7 | 0b1000001, then 8D (card 19), and AD (card 25) from the high table's entry
    # 1 << 6 | 0b100000 (rank 12 is bit 5 of the high six ranks).
    m = 1 << 12 | 1 << 6 | 1
    got = deal_mod._suit_cards(1, m)
    assert [str(c) for c in got] == ["2D", "8D", "AD"]
    assert [int(c) for c in got] == [13, 19, 25]
    # the memo hands the same tuple back
    assert deal_mod._suit_cards(1, m) is got


def test_suit_cards_every_mask_of_every_suit() -> None:
    # the whole domain (4 x 8192 masks): a wrong shift or bit order fails here
    for suit in range(4):
        for m in range(1 << 13):
            assert deal_mod._suit_cards(suit, m) == _suit_by_loop(suit, m), (suit, m)
