"""A hand shown as its holder's best is checked against the holder's cards in each copy
``clone_for`` deals (``PokerPhase._still_best``): read from his suit masks, as a copy of
Tripoley after its showdown reads it at every try, it must give what picking from his cards
gives (``_still_best_cards``, the rule's own pick), in both modes that check it."""

from __future__ import annotations

from itertools import combinations
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import stops
from stops.engine.cards import CARDS, parse_card
from stops.engine.determinize import cards_of
from stops.phases.handrank import (
    best_five_key,
    first_best_five,
    hand_key,
    suited_best_five_key,
    suited_first_best_five,
)
from stops.phases.poker import PokerPhase, _beaten_by

SEAT = 1
_PHASES: dict[str, tuple[PokerPhase, Any]] = {}


def _setup(selection: str) -> tuple[PokerPhase, Any]:
    """Tripoley's poker phase with ``poker_selection`` as given, and a deal whose hands and
    plays a test sets (made once per mode: the checks read only the masks and the plays)."""
    got = _PHASES.get(selection)
    if got is None:
        variant = stops.load_variant("tripoley", {"poker_selection": selection})
        deal = stops.Table(variant, seats=4, seed=1).new_deal()
        phase = next(p for p in variant.phases if isinstance(p, PokerPhase))
        got = _PHASES[selection] = (phase, deal)
    return got


def _place(deal: Any, hand: list[int], played: list[int]) -> None:
    """Seat 1 holds ``hand`` now and has played ``played``; nobody else has played."""
    masks = [0, 0, 0, 0]
    for c in hand:
        masks[c // 13] |= 1 << c % 13
    deal.masks[SEAT] = masks
    deal.played_by = [-1] * 52
    for c in played:
        deal.played_by[c] = SEAT


def _both(selection: str, hand: list[int], played: list[int],
          shown: tuple[Any, ...]) -> tuple[bool, bool]:
    phase, deal = _setup(selection)
    _place(deal, hand, played)
    fast = phase._still_best(deal, SEAT, shown)
    slow = phase._still_best_cards(cards_of(deal, SEAT), shown, sorted(played))
    return fast, slow


def _cards(*codes: str) -> list[int]:
    return [int(parse_card(c)) for c in codes]


def test_by_hand() -> None:
    # By hand. He showed 5C 5D KS QH 9C (a pair of fives, the auto pick of his cards then).
    shown = tuple(CARDS[c] for c in sorted(_cards("5C", "5D", "KS", "QH", "9C")))
    base = _cards("5C", "5D", "KS", "QH", "9C")
    # with 2H 3S 7D beside it (no pair among them, nothing above the nine but as shown):
    # still his best, and the very five the rule picks
    assert _both("auto", base[:3], base[3:] + _cards("2H", "3S", "7D"), shown) == (True, True)
    # an ace beside it: a better kicker, not his best
    assert _both("auto", base + _cards("AH"), [], shown) == (False, False)
    # 3C 3H beside it: two pair, better
    assert _both("auto", base + _cards("3C", "3H"), [], shown) == (False, False)
    # 9S beside it (played): two pair, nines and fives, better
    assert _both("best", base, _cards("9S"), shown) == (False, False)
    # Two pair shown, KC KD 7H 7S with the 4C, and the 4D beside it: the same key, and
    # the rule picks the first four in card order, the 4C: still the pick
    shown2 = tuple(CARDS[c] for c in sorted(_cards("KC", "KD", "7H", "7S", "4C")))
    assert _both("auto", _cards("KC", "KD", "7H", "7S", "4C", "4D"), [], shown2) == (True, True)
    # with 2C 2D beside instead: three pairs, the best five still K K 7 7 with the best
    # kicker, the 4: the same
    assert _both("auto", _cards("KC", "KD", "7H", "7S", "4C", "2C", "2D"), [],
                 shown2) == (True, True)
    # but had he shown the 4D with the 4C beside, the rule would have picked the 4C: not
    # the hand shown (the same key)
    shown3 = tuple(CARDS[c] for c in sorted(_cards("KC", "KD", "7H", "7S", "4D")))
    assert _both("auto", _cards("KC", "KD", "7H", "7S", "4C", "4D"), [], shown3) == (False, False)
    # "best" asks only that it is as good: the same key is enough
    assert _both("best", _cards("KC", "KD", "7H", "7S", "4C", "4D"), [], shown3) == (True, True)
    # a flush shown: with the 4C beside it, still the pick; with the 3H, a better flush
    # (K J 9 5 3 above K J 9 5 2)
    shown4 = tuple(CARDS[c] for c in sorted(_cards("2H", "5H", "9H", "JH", "KH")))
    assert _both("auto", _cards("2H", "5H", "9H", "JH", "KH", "4C"), [], shown4) == (True, True)
    assert _both("auto", _cards("2H", "5H", "9H", "JH", "KH", "3H"), [], shown4) == (False, False)
    # the same five ranks in diamonds too: the rule picks the first suit holding them, the
    # diamonds (the same key), so the hearts shown are not its pick; with four of them
    # in diamonds, they are
    diamonds = _cards("2D", "5D", "9D", "JD", "KD")
    assert _both("auto", _cards("2H", "5H", "9H", "JH", "KH") + diamonds, [],
                 shown4) == (False, False)
    assert _both("auto", _cards("2H", "5H", "9H", "JH", "KH") + diamonds[1:], [],
                 shown4) == (True, True)
    assert _both("best", _cards("2H", "5H", "9H", "JH", "KH") + diamonds, [],
                 shown4) == (True, True)
    # five cards or fewer in all: the hand shown is all he had
    assert _both("auto", base, [], shown) == (True, True)


_RANKS = st.sampled_from([c for c in range(52) if c % 13 in (0, 3, 4, 8, 11, 12)])
_TWO_SUITS = st.sampled_from([c for c in range(52) if c // 13 in (1, 2)])


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(st.integers(0, 51), min_size=5, max_size=14, unique=True),
                 st.lists(_RANKS, min_size=5, max_size=14, unique=True),
                 st.lists(_TWO_SUITS, min_size=5, max_size=14, unique=True)),
       st.integers(0, 14), st.sampled_from(["pick", "subset", "any"]),
       st.randoms(use_true_random=False), st.sampled_from(["auto", "best"]))
def test_masks_agree_with_the_pick(cards: list[int], split: int, how: str, rnd: Any,
                                   selection: str) -> None:
    """Any cards, some played, and a hand shown that is the rule's pick from them, five of
    them at random, or five cards at all (some perhaps not his): the same answer."""
    played = cards[:min(split, len(cards))]
    hand = cards[len(played):]
    if how == "pick":
        shown_codes = list(first_best_five(sorted(cards)))
    elif how == "subset":
        shown_codes = rnd.sample(cards, 5)
    else:
        shown_codes = rnd.sample(range(52), 5)
    shown = tuple(CARDS[c] for c in sorted(shown_codes))
    fast, slow = _both(selection, hand, played, shown)
    assert fast == slow
    if how == "pick":  # the rule's own pick of all his cards
        assert fast


@given(st.lists(st.integers(0, 51), min_size=5, max_size=17, unique=True))
def test_suited_best_five_key_is_best_five_key(cards: list[int]) -> None:
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[c // 13] |= 1 << c % 13
    assert suited_best_five_key(*masks) == best_five_key(cards)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(st.integers(0, 51), min_size=6, max_size=17, unique=True),
                 st.lists(_RANKS, min_size=6, max_size=17, unique=True),
                 st.lists(_TWO_SUITS, min_size=6, max_size=17, unique=True)))
def test_suited_first_best_five_is_the_pick(cards: list[int]) -> None:
    """The five picked from the suit masks (a copy's other hands, the cards at fault) are
    the rule's own pick from the cards in card order: the first best five."""
    masks = [0, 0, 0, 0]
    for c in cards:
        masks[c // 13] |= 1 << c % 13
    assert suited_first_best_five(*masks) == first_best_five(sorted(cards))


def test_suited_first_best_five_by_hand() -> None:
    # By hand: 2C 2H 2S 9D 9S KC AD (a full house, twos over nines): the first three twos
    # are all of them, the first two nines in card order are 9D then 9S (diamonds before
    # spades; clubs, diamonds, hearts, spades)
    hand = _cards("2C", "2H", "2S", "9D", "9S", "KC", "AD")
    masks = [0, 0, 0, 0]
    for c in hand:
        masks[c // 13] |= 1 << c % 13
    assert suited_first_best_five(*masks) == tuple(sorted(_cards("2C", "2H", "2S", "9D",
                                                                  "9S")))
    # two flushes in hearts and spades with the same five ranks (A K 9 7 4): the first
    # suit, hearts, is picked
    hand = _cards("AH", "KH", "9H", "7H", "4H", "AS", "KS", "9S", "7S", "4S")
    masks = [0, 0, 0, 0]
    for c in hand:
        masks[c // 13] |= 1 << c % 13
    assert suited_first_best_five(*masks) == tuple(sorted(_cards("AH", "KH", "9H", "7H",
                                                                  "4H")))


def _beaten_by_trying_every_five(shown: tuple[int, ...], beside: tuple[int, ...]
                                 ) -> frozenset[int]:
    """What a shown hand proves its holder lacked, the long way: each other card, with the
    hand and the cards beside it, every five of them tried."""
    best = hand_key(shown)
    return frozenset(d for d in range(52) if d not in shown and d not in beside and max(
        hand_key(five) for five in combinations((*shown, *beside, d), 5)) > best)


def test_beaten_by_by_hand() -> None:
    """The cards a hand shown as its holder's best proves he did not hold (worked out from
    the suit masks since session 27), by hand."""
    _phase, deal = _setup("auto")
    # a pair of sevens with A K Q: another seven makes trips, an ace, king or queen two
    # pair; any other card is a lower kicker than the queen, and none makes a straight
    # (7 Q K A) or a flush (two spades): eleven cards
    pair = tuple(sorted(_cards("7S", "7H", "AD", "KC", "QS")))
    assert _beaten_by(deal, pair) == frozenset(_cards(
        "7D", "7C", "AS", "AH", "AC", "KS", "KH", "KD", "QH", "QD", "QC"))
    # with the 2D played since beside it: a two makes two pair as well
    assert _beaten_by(deal, pair, tuple(_cards("2D"))) == frozenset(_cards(
        "7D", "7C", "AS", "AH", "AC", "KS", "KH", "KD", "QH", "QD", "QC", "2S", "2H", "2C"))
    # with K 9 4 beside the sevens instead, every card from the five up betters a kicker
    # (the eight: 7 7 K 9 8 over 7 7 K 9 4) unless it pairs: 39 of the 47 others
    low = tuple(sorted(_cards("7S", "7H", "KD", "9C", "4S")))
    assert len(_beaten_by(deal, low)) == 39
    assert not _beaten_by(deal, low) & frozenset(_cards("2C", "2D", "2H", "2S", "3C", "3D",
                                                          "3H", "3S"))
    # a pair of sevens with A K Q of diamonds, the 2D played since: four diamonds, so any
    # other diamond makes a flush; besides, the other sevens (trips), an ace, king or
    # queen, or a two (two pair): 22 cards, the diamonds read one by one, the other suits
    # one rank at a time
    four = tuple(sorted(_cards("7S", "7H", "AD", "KD", "QD")))
    assert _beaten_by(deal, four, tuple(_cards("2D"))) == frozenset(_cards(
        "7D", "7C", "AS", "AH", "AC", "KS", "KH", "KC", "QS", "QH", "QC", "2S", "2H", "2C",
        "JD", "TD", "9D", "8D", "6D", "5D", "4D", "3D"))
    # a flush, A J 8 5 3 of hearts: any heart above the three betters it (it takes the
    # three's place); the two of hearts does not, and a single card of another suit makes
    # at most a pair
    flush = tuple(sorted(_cards("AH", "JH", "8H", "5H", "3H")))
    assert _beaten_by(deal, flush) == frozenset(_cards(
        "KH", "QH", "TH", "9H", "7H", "6H", "4H"))


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 51), min_size=5, max_size=12, unique=True),
       st.integers(0, 3))
def test_beaten_by_is_every_five_tried(cards: list[int], beside_size: int) -> None:
    """From the masks, the same cards as trying every five of the hand shown, the cards
    beside it and each other card (the hand shown as its holder's best five of ``cards``,
    the strong categories as often as the cards give them)."""
    _phase, deal = _setup("auto")
    shown = tuple(sorted(first_best_five(sorted(cards))))
    beside = tuple(c for c in cards if c not in shown)[:beside_size]
    assert _beaten_by(deal, shown, beside) == _beaten_by_trying_every_five(shown, beside)


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.lists(st.integers(0, 51), min_size=6, max_size=14, unique=True),
                 st.lists(_RANKS, min_size=6, max_size=14, unique=True)),
       st.integers(0, 3), st.randoms(use_true_random=False))
def test_a_same_rank_card_for_one_of_the_pick(cards: list[int], split: int, rnd: Any) -> None:
    """The rule's pick with one of its cards swapped for a card of the same rank he held
    (the same key, not the pick where that card lies in a lower suit): the masks' answer,
    read from the suits of each rank (session 29), is the pick's."""
    played = cards[:split]
    hand = cards[split:]
    pick = list(first_best_five(sorted(cards)))
    swaps = [(a, b) for a in pick for b in cards if b not in pick and b % 13 == a % 13]
    if swaps:
        a, b = rnd.choice(swaps)
        pick = [b if x == a else x for x in pick]
    shown = tuple(CARDS[c] for c in sorted(pick))
    fast, slow = _both("auto", hand, played, shown)
    assert fast == slow
