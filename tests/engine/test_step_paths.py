"""The step path's shortcuts (session 9) give what the plain reading of the rules gives.

The spare hand's swap builds the new suit masks straight from the spare cards, a poker
selection is unranked in lexicographic order, and a short family of
amounts hands out the actions it made before. Each is checked against a deal stacked by
hand, with the outcome worked out from the rules first.
"""

from __future__ import annotations

import stops
from stops.engine.actions import with_chips
from stops.engine.cards import parse_card
from stops.engine.deal import SPARE
from stops.engine.legal import Amounts, LegalActions, Selections

RANKS = "23456789TJ"


def _stacked() -> stops.Deal:
    # Seat 0 (the dealer at seed 1) holds the clubs 2-J, seat 1 the diamonds 2-J, seat 2
    # the hearts 2-J, seat 3 the spades 2-J; the spare hand the twelve Q, K, A.
    table = stops.Table("three-in-one", seats=4, seed=1)
    hands = [[r + s for r in RANKS] for s in "CDHS"]
    spare = [r + s for s in "CDHS" for r in "QKA"]
    return table.new_deal(hands=hands, spare=spare)


def _cards(text: str) -> list[stops.Card]:
    return sorted(parse_card(t) for t in text.split())


def test_swaps_with_the_spare_hand_move_every_card() -> None:
    deal = _stacked()
    assert deal.dealer == 0 and deal.phase == "spare_hand"
    clubs = _cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC")
    diamonds = _cards("2D 3D 4D 5D 6D 7D 8D 9D TD JD")
    high = _cards("QC KC AC QD KD AD QH KH AH QS KS AS")
    # By hand (rulings 9-11): the dealer swaps, so he holds the twelve high cards and the
    # spare hand his ten clubs; he then sells his old hand (the clubs, now the spare hand).
    deal.apply({"seat": 0, "action": "swap"})
    assert deal.hand(0) == high
    assert deal.counts[0] == 12
    assert sorted(deal.spare) == clubs
    assert all(deal.owner[c] == SPARE for c in clubs)
    assert all(deal.owner[c] == 0 for c in high)
    mine = [e for e in deal.events if e.note == "your new hand"]
    assert list(mine[-1].cards) == high
    # Open ascending auction from the dealer's left: seat 1 bids 1, seats 2 and 3 pass, so
    # seat 1 buys the clubs for 1 chip: he holds the clubs, the spare hand his diamonds.
    deal.apply({"seat": 0, "action": "auction"})
    deal.apply({"seat": 1, "action": "bid", "chips": 1})
    deal.apply({"seat": 2, "action": "pass"})
    deal.apply({"seat": 3, "action": "pass"})
    assert deal.hand(1) == clubs
    assert deal.counts[1] == 10
    assert sorted(deal.spare) == diamonds
    assert all(deal.owner[c] == SPARE for c in diamonds)
    assert all(deal.owner[c] == 1 for c in clubs)
    bought = [e for e in deal.events if e.note == "buys the hand"]
    assert [(e.seat, e.to_seat, e.chips) for e in bought] == [(1, 0, 1)]
    assert list([e for e in deal.events if e.note == "your new hand"][-1].cards) == clubs
    assert deal.spare_known == frozenset({1})


def test_a_selection_unranks_in_lexicographic_order() -> None:
    # Five of ten cards, in lexicographic order of positions: index 0 is the first five,
    # index 1 swaps the fifth for the sixth, the last (C(10, 5) - 1 = 251) is the last five.
    hand = _cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC")
    legal = LegalActions(Selections(2, list(reversed(hand)), 5, "select"))
    assert len(legal) == 252
    assert list(legal[0].cards or ()) == hand[:5]
    assert list(legal[1].cards or ()) == hand[:4] + hand[5:6]
    assert list(legal[251].cards or ()) == hand[5:]
    assert all(type(c) is stops.Card for c in legal[100].cards or ())
    assert legal[251] in legal and legal[7] == legal[7]


def test_a_short_family_of_amounts_hands_out_the_same_actions() -> None:
    # A limit bet of 1..10: index i is the bet of i + 1, the same (interned) action each time
    part = Amounts(3, "bet", range(1, 11))
    legal = LegalActions(part)
    first = [legal[i] for i in range(10)]
    assert [a.chips for a in first] == list(range(1, 11))
    assert all(legal[i] is first[i] for i in range(10))
    assert first[4] == with_chips(3, "bet", 5)
    # a long family (a no-limit stack) keeps nothing and still gives each amount
    big = LegalActions(Amounts(3, "bet", range(1, 1001)))
    assert big[999].chips == 1000 and big[999] == with_chips(3, "bet", 1000)
