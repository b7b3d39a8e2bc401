"""Tests for stops.phases.handrank: exhaustive counts, a reference evaluator, hand-picked cases."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Iterable
from itertools import combinations, combinations_with_replacement
from random import Random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from stops.phases.handrank import (
    CATEGORIES,
    best_five_key,
    best_hand,
    category,
    describe,
    first_best_five,
    hand_key,
)

RANKS = "23456789TJQKA"
SUITS = "CDHS"


def cards(text: str) -> list[int]:
    """Parse "AS KD 5C" into card ints (suit * 13 + rank)."""
    return [SUITS.index(t[1]) * 13 + RANKS.index(t[0]) for t in text.split()]


def key(text: str) -> tuple[int, ...]:
    return hand_key(cards(text))


class FancyCard(int):
    """Stand-in for an int subclass card type (like stops.engine.cards.Card)."""

    __slots__ = ()


def ref_key(hand: Iterable[int]) -> tuple[int, ...]:
    """Textbook evaluator, written independently of the module's tables.

    Checks categories from strongest to weakest, as a rule book lists them.
    """
    hand = list(hand)
    ranks = [c % 13 for c in hand]
    suits = {c // 13 for c in hand}
    groups = sorted(((n, r) for r, n in Counter(ranks).items()), reverse=True)
    counts = [n for n, _ in groups]
    order = [r for _, r in groups]
    five = len(hand) == 5
    flush = five and len(suits) == 1
    distinct = sorted(set(ranks))
    top = None
    if five and len(distinct) == 5:
        if distinct[4] - distinct[0] == 4:
            top = distinct[4]
        elif distinct == [0, 1, 2, 3, 12]:
            top = 3
    if top is not None and flush:
        return (8, top)
    if counts[0] == 4:
        return (7, *order)
    if counts[:2] == [3, 2]:
        return (6, *order)
    if flush:
        return (5, *order)
    if top is not None:
        return (4, top)
    if counts[0] == 3:
        return (3, *order)
    if counts[:2] == [2, 2]:
        return (2, *order)
    if counts[0] == 2:
        return (1, *order)
    return (0, *order)


# --- (a) exhaustive -----------------------------------------------------------------------------

EXPECTED_HANDS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "pair": 1_098_240,
    "high_card": 1_302_540,
}
EXPECTED_CLASSES = {
    "straight_flush": 10,
    "four_of_a_kind": 156,
    "full_house": 156,
    "flush": 1_277,
    "straight": 10,
    "three_of_a_kind": 858,
    "two_pair": 858,
    "pair": 2_860,
    "high_card": 1_277,
}


@pytest.mark.campaign  # all 2,598,960 hands; the tests of _representatives() are the quick check
def test_all_five_card_hands() -> None:
    # Counter consumes the map in C, so this is dominated by hand_key itself.
    by_key = Counter(map(hand_key, combinations(range(52), 5)))
    hands: Counter[str] = Counter()
    classes: Counter[str] = Counter()
    for k, n in by_key.items():
        hands[CATEGORIES[k[0]]] += n
        classes[CATEGORIES[k[0]]] += 1
    assert sum(by_key.values()) == 2_598_960
    assert dict(hands) == EXPECTED_HANDS
    assert dict(classes) == EXPECTED_CLASSES
    assert len(by_key) == 7_462


def _representatives() -> list[tuple[int, ...]]:
    """One hand for every rank multiset of 1..5 cards, plus every 5-card flush rank set."""
    reps: list[tuple[int, ...]] = []
    for size in range(1, 6):
        for ranks in combinations_with_replacement(range(13), size):
            if max(Counter(ranks).values()) > 4:
                continue
            seen: Counter[int] = Counter()
            hand = []
            for r in ranks:
                hand.append(seen[r] * 13 + r)  # i-th copy of a rank gets suit i
                seen[r] += 1
            if size == 5 and len(set(ranks)) == 5:
                reps.append(tuple(hand))  # all clubs: the flush
                hand[-1] += 13  # one diamond: the non-flush
            reps.append(tuple(hand))
    return reps


def test_every_rank_class_matches_reference() -> None:
    reps = _representatives()
    for hand in reps:
        assert hand_key(hand) == ref_key(hand), hand
    five = [h for h in reps if len(h) == 5]
    assert len({hand_key(h) for h in five}) == 7_462
    # Distinct short hands never collide with each other or with 5-card hands.
    assert len({hand_key(h) for h in reps}) == len(reps)


def test_key_order_is_category_then_kickers() -> None:
    reps = sorted(_representatives(), key=hand_key)
    cats = [hand_key(h)[0] for h in reps]
    assert cats == sorted(cats)
    assert hand_key(reps[0]) == (0, 0)  # a lone deuce is the weakest hand
    assert hand_key(reps[-1]) == (8, 12)  # royal flush is the strongest


# --- (b) hand-picked comparisons ----------------------------------------------------------------


def test_wheel_is_lowest_straight() -> None:
    wheel = key("AS 2D 3C 4H 5S")
    assert wheel == (4, 3)
    assert category(cards("AS 2D 3C 4H 5S")) == "straight"
    assert wheel < key("2S 3D 4C 5H 6S") < key("TS JD QC KH AS")
    assert wheel > key("AS AD AC KH QS")  # still a straight: beats trips
    # The ace is low only in the wheel: no wrap-around straights.
    assert category(cards("QS KD AC 2H 3S")) == "high_card"
    assert category(cards("JS QD KC AH 2S")) == "high_card"


def test_steel_wheel_is_lowest_straight_flush() -> None:
    steel = key("AH 2H 3H 4H 5H")
    assert steel == (8, 3)
    assert steel < key("2H 3H 4H 5H 6H")
    assert steel > key("AS AD AC AH KS")


def test_broadway_beats_king_high_straight() -> None:
    assert key("AS KD QC JH TS") > key("KS QD JC TH 9S")
    assert key("AS KS QS JS TS") > key("KH QH JH TH 9H")


@pytest.mark.parametrize(
    ("stronger", "weaker"),
    [
        ("2C 4C 6C 8C TC", "AS KD QC JH TS"),  # flush beats straight
        ("2C 2D 3H 3S 3C", "AS KS QS JS 9S"),  # full house beats flush
        ("2C 2D 2H 2S 3C", "AS AD AH KS KC"),  # quads beat full house
        ("2C 3C 4C 5C 6C", "AS AD AH AC KS"),  # straight flush beats quads
        ("2C 2D 2H 4S 5C", "AS AD KH KS QC"),  # trips beat two pair
        ("2C 2D 3H 3S 4C", "AS AD KH QS JC"),  # two pair beats a pair
        ("2C 2D 3H 4S 5C", "AS KD QH JS 9C"),  # pair beats high card
        ("KS KD 7H 7S AC", "KH KC 7D 7C 2S"),  # two pair: kicker decides
        ("KS KD 8H 8S 2C", "KH KC 7D 7C AS"),  # two pair: second pair before kicker
        ("AS AD 2H 2S 3C", "KH KC QD QC JS"),  # two pair: top pair first
        ("AS AD KH 5S 2C", "AH AC QD JC TS"),  # pair: first kicker
        ("AS AD KH QS 3C", "AH AC KD QC 2S"),  # pair: last kicker
        ("3S 3D 3H 2S 2C", "2H 2D 2C AS AC"),  # full house: trips before pair
        ("AS KD QH JS 8C", "AH KC QD JC 7S"),  # high card: fifth card
        ("AH KH QH JH 8H", "AS KS QS JS 7S"),  # flush: fifth card
    ],
)
def test_stronger_beats_weaker(stronger: str, weaker: str) -> None:
    assert key(stronger) > key(weaker)


def test_suits_do_not_matter() -> None:
    assert key("KS KD 7H 7S AC") == key("KH KC 7D 7C AS")
    assert key("AS KD QC JH TS") == key("AH KC QD JS TH")
    assert key("2C 4C 6C 8C TC") == key("2S 4S 6S 8S TS")
    assert key("5H 4H 3H 2H AH") == key("5D 4D 3D 2D AD")


def test_card_order_does_not_matter() -> None:
    assert key("KS KD 7H 7S AC") == key("AC 7S KD 7H KS")


def test_short_hands_missing_kickers_rank_lowest() -> None:
    assert key("KS KD AH 7S") < key("KH KC AD 7C 2S")
    assert key("KS KD AH 7S") > key("KH KC AD 6C 5S")
    assert key("KS KD 7H 7S") < key("KH KC 7D 7C 2S")
    assert key("9S 9D 9H 9C") < key("9S 9D 9H 9C 2S")
    assert key("9S 9D 9H 9C") > key("8S 8D 8H 8C AS")
    assert key("QS QD QH") < key("QS QD QH 2C 3D")
    assert key("QS QD QH") > key("JS JD JH AC KD")
    assert key("AS KD QH JC") < key("AS KD QH JC 2C")
    assert key("AS") > key("KS QD JH TC 8S")
    assert key("AS") < key("2S 2D")
    assert key("2S") < key("3S")


def test_short_hands_make_no_straights_or_flushes() -> None:
    assert category(cards("2S 3D 4H 5C")) == "high_card"
    assert category(cards("2S 4S 6S 8S")) == "high_card"
    assert category(cards("9S 9D 9H 9C")) == "four_of_a_kind"
    assert category(cards("9S 9D 3H 3C")) == "two_pair"
    assert category(cards("9S 9D 9H")) == "three_of_a_kind"
    assert category(cards("9S 9D")) == "pair"
    assert category(cards("9S")) == "high_card"


def test_key_shape() -> None:
    assert key("KS KD 3H 3S KC") == (6, 11, 1)
    assert key("KS KD AH 7S") == (1, 11, 12, 5)
    assert key("2C 3D 4H 5S 7C") == (0, 5, 3, 2, 1, 0)
    assert CATEGORIES.index("straight_flush") == 8
    assert len(CATEGORIES) == 9


def test_accepts_any_iterable_and_int_subclasses() -> None:
    hand = cards("KS KD 3H 3S KC")
    expected = hand_key(hand)
    assert hand_key(tuple(hand)) == expected
    assert hand_key(iter(hand)) == expected
    assert hand_key(c for c in hand) == expected
    assert hand_key(FancyCard(c) for c in hand) == expected
    assert hand_key([FancyCard(c) for c in hand[:3]]) == hand_key(hand[:3])


@pytest.mark.parametrize(
    "hand",
    [
        [],
        list(range(8)),
        list(range(13)),
        [5, 5],
        [1, 2, 3, 4, 1],
        [52],
        [-1],
        [1, 2, 3, 4, -1],
        [1, 2, 3, 4, 52],
        [10**30],
        [-(10**30), 1, 2, 3, 4],
    ],
)
def test_invalid_hands_raise_value_error(hand: list[int]) -> None:
    with pytest.raises(ValueError):
        hand_key(hand)
    with pytest.raises(ValueError):
        category(hand)


def test_error_messages_name_the_problem() -> None:
    with pytest.raises(ValueError, match="at least one"):
        hand_key([])
    with pytest.raises(ValueError, match="at most 7"):
        hand_key(range(8))
    # six or seven cards rank by their best five (poker_hand_size 6 or 7, issue 13)
    assert hand_key(range(6)) == max(hand_key(c) for c in itertools.combinations(range(6), 5))
    with pytest.raises(ValueError, match="duplicate"):
        hand_key([7, 8, 7])
    with pytest.raises(ValueError, match="out of range"):
        hand_key([7, 52])


def test_non_int_cards_raise_type_error() -> None:
    with pytest.raises(TypeError):
        hand_key([1.0, 2, 3, 4, 5])  # type: ignore[list-item]
    with pytest.raises(TypeError):
        hand_key(["AS"])  # type: ignore[list-item]


@pytest.mark.parametrize(
    ("hand", "text"),
    [
        ("AS KS QS JS TS", "royal flush"),
        ("9H 8H 7H 6H 5H", "straight flush to the nine"),
        ("AD 2D 3D 4D 5D", "straight flush to the five"),
        ("6S 6D 6H 6C 2S", "four of a kind, sixes"),
        ("KS KD 3H 3S KC", "full house, kings over threes"),
        ("2C 4C 6C 8C JC", "flush, jack high"),
        ("AS 2D 3C 4H 5S", "straight to the five"),
        ("AS KD QC JH TS", "straight to the ace"),
        ("7S 7D 7H 2S 3C", "three of a kind, sevens"),
        ("AS AD TH TS 3C", "two pair, aces and tens"),
        ("AS AD 9H 7S 3C", "pair of aces"),
        ("QS 9D 7H 4S 3C", "queen high"),
        ("AS AD", "pair of aces"),
        ("8C", "eight high"),
    ],
)
def test_describe(hand: str, text: str) -> None:
    assert describe(cards(hand)) == text


# --- (c) best_hand ------------------------------------------------------------------------------


def test_best_hand_thirteen_cards_finds_buried_royal() -> None:
    hand = cards("2C 7D 9H KS TH 3S QH JH 5C AH KD KC KH")
    assert len(set(hand)) == 13
    best = best_hand(hand)
    assert best == tuple(sorted(cards("TH JH QH KH AH")))
    assert describe(best) == "royal flush"


def test_best_hand_thirteen_cards_ties_pick_smallest() -> None:
    hand = cards("AS AD AH AC KS KD KH KC 2C 3D 4H 5S 7C")
    best = best_hand(hand)
    # Four aces plus any king tie; the king of clubs (card 11) is the smallest.
    assert best == (11, 12, 25, 38, 51)
    assert best_hand(hand, size=2) == (12, 25)  # pair of aces, clubs and diamonds
    assert best_hand(hand, size=4) == (12, 25, 38, 51)
    assert best_hand(hand, size=1) == (12,)


def test_best_hand_thirteen_cards_against_brute_force() -> None:
    hand = cards("2C 3C 9C 4D 5H 6S TD JS QH 8C 8D 8S 7H")
    best = best_hand(hand)
    strongest = max(hand_key(c) for c in combinations(hand, 5))
    assert hand_key(best) == strongest
    assert describe(best) == "straight to the queen"
    assert best == min(tuple(sorted(c)) for c in combinations(hand, 5) if hand_key(c) == strongest)


def test_best_hand_small_hands_and_errors() -> None:
    assert best_hand([40, 3, 17]) == (3, 17, 40)
    assert best_hand([]) == ()
    assert best_hand([9, 1], size=2) == (1, 9)
    assert best_hand([FancyCard(3), FancyCard(1)]) == (1, 3)
    with pytest.raises(ValueError):
        best_hand([1, 2, 2])
    with pytest.raises(ValueError):
        best_hand(range(10), size=6)
    with pytest.raises(ValueError):
        best_hand(range(10), size=0)
    with pytest.raises(ValueError):
        best_hand([1, 2, 3, 4, 5, 60])


# --- properties ---------------------------------------------------------------------------------

deck = st.integers(min_value=0, max_value=51)
hands = st.lists(deck, min_size=1, max_size=5, unique=True)


@given(hands)
def test_matches_reference(hand: list[int]) -> None:
    assert hand_key(hand) == ref_key(hand)
    assert category(hand) == CATEGORIES[ref_key(hand)[0]]
    assert isinstance(describe(hand), str)


@given(hands, st.permutations(range(4)), st.randoms(use_true_random=False))
def test_suit_and_order_invariance(hand: list[int], perm: list[int], rnd: Random) -> None:
    renamed = [perm[c // 13] * 13 + c % 13 for c in hand]
    rnd.shuffle(renamed)
    assert hand_key(renamed) == hand_key(hand)


@given(st.lists(deck, min_size=2, max_size=5, unique=True))
def test_adding_a_card_to_a_short_hand_strengthens_it(hand: list[int]) -> None:
    assert hand_key(hand[:-1]) < hand_key(hand)


@given(st.lists(deck, min_size=6, max_size=9, unique=True), st.integers(1, 5))
def test_best_hand_is_strongest_subset(hand: list[int], size: int) -> None:
    best = best_hand(hand, size)
    subsets = [tuple(sorted(c)) for c in combinations(hand, size)]
    strongest = max(hand_key(s) for s in subsets)
    assert hand_key(best) == strongest
    assert best == min(s for s in subsets if hand_key(s) == strongest)


@given(st.lists(st.integers(0, 51), min_size=5, max_size=17, unique=True))
def test_best_five_without_trying_every_five(cards: list[int]) -> None:
    """The direct best-five evaluation is the brute force's answer: the same key, and the same
    first best five in combination order (so the games the poker phase plays are unchanged)."""
    brute = max(combinations(cards, 5), key=hand_key)
    assert best_five_key(cards) == hand_key(brute)
    assert first_best_five(cards) == brute


@given(st.lists(st.sampled_from([c for c in range(52) if c % 13 in (0, 3, 7, 11, 12)]),
                min_size=5, max_size=16, unique=True))
def test_best_five_on_few_ranks(cards: list[int]) -> None:
    """Few ranks: quads, full houses (two trips), flushes and straights against each other."""
    brute = max(combinations(cards, 5), key=hand_key)
    assert best_five_key(cards) == hand_key(brute)
    assert first_best_five(cards) == brute
