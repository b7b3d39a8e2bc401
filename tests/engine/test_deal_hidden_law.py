"""The law of the hidden cards ``clone_for`` deals (issue 24): what ``_deal_hidden`` gives,
counted over many draws, against every deal the facts allow, enumerated.

A search reads its imagined deals as a sample of the deals the seat cannot tell apart, so
a copy must never break a fact, every deal the facts allow must be possible, and with no
facts, or facts that do not overlap, every such deal is equally likely. Where two facts
overlap the cards are dealt one group at a time (the most constrained first), which is not
exactly uniform: the last test counts that law by hand and holds the draws to it, so that
a change to the dealing shows in its law (the ground for a change that deals under more
facts: docs/performance.md, "What `clone_for` costs a search").
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import product

from stops.engine.deal import SPARE
from stops.engine.determinize import _deal_hidden

Assignment = tuple[tuple[int, int], ...]
"""A deal of the hidden cards: (card, place) for each card, in card order."""


def _table() -> tuple[list[int], dict[int, int], dict[int, list[int]]]:
    """Six cards, two to each of seats 0 and 1 and the spare hand, each allowed anywhere
    (a test then says what is known)."""
    cards = [0, 1, 2, 3, 4, 5]
    return cards, {0: 2, 1: 2, SPARE: 2}, {c: [0, 1, SPARE] for c in cards}


def _every_deal(cards: list[int], places: dict[int, int],
                allowed: dict[int, list[int]]) -> set[Assignment]:
    """Every deal of ``cards`` that puts each where ``allowed`` lets it go and gives each
    place exactly its size: enumerated, the long way."""
    out: set[Assignment] = set()
    for where in product(*(allowed[c] for c in cards)):
        sizes = Counter(where)
        if all(sizes[h] == k for h, k in places.items()):
            out.add(tuple(zip(cards, where, strict=True)))
    return out


def _drawn(order: list[tuple[list[int], list[int]]], free: list[int], places: dict[int, int],
           allowed: dict[int, list[int]], draws: int, seed: int) -> Counter[Assignment]:
    """How often ``_deal_hidden`` deals each deal in ``draws`` draws."""
    rng = random.Random(seed)
    got: Counter[Assignment] = Counter()
    for _ in range(draws):
        at = _deal_hidden(order, free, places, allowed, rng)
        assert at is not None
        got[tuple(sorted((c, h) for h, cs in at.items() for c in cs))] += 1
    return got


def test_no_facts_every_deal_alike() -> None:
    # Six cards, two to each of seats 0 and 1 and the spare hand, nothing known: 6! / (2!
    # 2! 2!) = 90 deals, each drawn 1 time in 90. With 36,000 draws each is expected 400
    # times, a standard deviation under 20: every one between 300 and 500.
    cards, places, allowed = _table()
    every = _every_deal(cards, places, allowed)
    assert len(every) == 90
    got = _drawn([], cards, places, allowed, 36_000, 1)
    assert set(got) == every
    assert all(300 <= n <= 500 for n in got.values()), sorted(got.values())[:3]


def test_facts_apart_every_deal_alike() -> None:
    # Card 1 may only be in seat 0's hand, card 0 in seat 1's or the spare hand. Counted by
    # hand: card 1 in seat 0; card 0 in seat 1 (the four others then fill one place in seat
    # 0, one in seat 1 and two in the spare hand: 4! / (1! 1! 2!) = 12 deals) or in the spare
    # hand (again 12): 24 deals, each 1 in 24. 24,000 draws: each expected 1,000 times (a
    # deviation about 31), all within 850 to 1,150.
    cards, places, allowed = _table()
    allowed[0] = [1, SPARE]
    allowed[1] = [0]
    every = _every_deal(cards, places, allowed)
    assert len(every) == 24
    order = [([0], [1]), ([1, SPARE], [0])]  # the most constrained first, as _group sorts
    got = _drawn(order, [2, 3, 4, 5], places, allowed, 24_000, 2)
    assert set(got) == every
    assert all(850 <= n <= 1_150 for n in got.values()), sorted(got.values())[:3]


def test_overlapping_facts_the_law_counted_by_hand() -> None:
    # Cards 0 and 1 may each be in seat 0's or seat 1's hand, card 2 in seat 1's or the
    # spare hand, cards 3 to 5 anywhere; two cards to each place. Counted by hand, 27 deals
    # fit: cards 0 and 1 both in seat 0 (card 2 then in seat 1 or the spare, 3 ways each
    # for the rest: 6 deals), one in each seat (card 2 in seat 1: 3 ways, or the spare: 6
    # ways; 9 deals for each of the two splits: 18), both in seat 1 (card 2 in the spare,
    # 3 ways: 3 deals).
    # The dealing takes cards 0 and 1 first, two slots drawn from seat 0's two and seat 1's
    # two: both in seat 0 1/6, split 2/3, both in seat 1 1/6; then card 2 in proportion to
    # the room left; then the rest shuffled into what is left. So a deal of the first kind
    # comes 1/6 * 1/2 * 1/3 = 1/36 of the time, one of the second 1/27 (1/3 * 1/3 * 1/3 with
    # card 2 in seat 1, 1/3 * 2/3 * 1/6 in the spare: the uniform share), one of the third
    # 1/6 * 1/3 = 1/18. Not uniform (1/27 each): the total variation is 1/18, and every deal
    # that fits still comes up. 54,000 draws: expected 1,500, 2,000 and 3,000 times
    # (deviations about 38, 44 and 53), each within five of them.
    cards, places, allowed = _table()
    allowed[0] = allowed[1] = [0, 1]
    allowed[2] = [1, SPARE]
    every = _every_deal(cards, places, allowed)
    assert len(every) == 27
    order = [([0, 1], [0, 1]), ([1, SPARE], [2])]
    got = _drawn(order, [3, 4, 5], places, allowed, 54_000, 3)
    assert set(got) == every  # no fact broken, no deal that fits left out
    for deal, n in got.items():
        where = dict(deal)
        both = (where[0], where[1])
        expected, spread = ((1_500, 190) if both == (0, 0) else
                            (3_000, 265) if both == (1, 1) else (2_000, 220))
        assert abs(n - expected) <= spread, (deal, n, expected)
