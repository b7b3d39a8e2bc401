"""The poker stage's and the spare auction's legal sets, held to the computation they replace.

Session 11 made these sets cheaper (issue 24): a selection is unranked from shared position
tuples instead of the combinatorial number system's walk, the hand is read from its suit
masks as a tuple, a best-hand selection tries only the cards whose rank is in the best key,
the betting menus are keyed by one integer, the spare auction reads its parameters once per
decision. None of that may change a decision. Here every decision of random deals of every
built-in with a poker stage or the dealer's spare-hand options and auction (``DealerOptions``:
Boodle's auction variation, Royal Rummy, Rummoli, Three-in-One, Tripoley's colours and home
table), at every seat count, is compared with the old
computation written out plainly (the same actions in the same order, so the same index picks
the same decision), and the refusals are checked to be the ones they were.
"""

from __future__ import annotations

from itertools import combinations
from typing import Any

import pytest

import stops
from stops.engine.actions import Action, simple, with_cards, with_chips
from stops.engine.cards import CARDS
from stops.engine.legal import MAX_COMBOS, LegalActions, Selections
from stops.engine.rng import Rng
from stops.phases.handrank import describe, describe_key, hand_key
from stops.phases.poker import PokerState
from stops.phases.spare import DealerOptions, DealerOptionsParams, DealerSwapParams, SpareState
from stops.policies.claims import holds_pay_card
from support import refused_with

# (variant, options): every built-in whose flow has a poker stage or a spare auction
# (royal-rummy's own spare protocol is the dealer's options, with or without poker), and the
# poker settings a table can choose (best-hand selection, the dealer betting first)
CASES: list[tuple[str, dict[str, Any] | None]] = [
    ("three-in-one", None),
    ("three-in-one", {"poker_selection": "best"}),
    ("three-in-one", {"poker_selection": "auto", "first_bettor": "dealer"}),
    ("three-in-one-on-play", None),
    ("rummoli", None),
    ("tripoley", None),
    ("tripoley-colours", None),
    ("tripoley-home-table", None),
    ("royal-rummy", {"with-poker": True}),
    ("boodle-spare-auction", None),
]


def _old_selection(hand: list[int], k: int, seat: int, selection: str) -> list[Action]:
    """The poker selection's legal set as it was computed before: every ``k`` of the sorted
    hand (``free``), or those of the best key, all keys tried (``best``)."""
    combos = list(combinations(sorted(hand), k))
    if selection == "free":
        return [with_cards(seat, "select", c) for c in combos]
    best = max(hand_key(c) for c in combos)
    return [with_cards(seat, "select", c) for c in combos if hand_key(c) == best]


def _old_betting(deal: stops.Deal, st: PokerState, seat: int) -> list[Action]:
    """The betting menu as it was built from its tuple key."""
    s = deal.variant.settings("poker")
    stack = deal.ledger.stacks[seat]
    limit = max(0, stack) if s.betting == "no_limit" else s.bet_limit
    if not st.bet_made:
        most = max(0, min(limit, stack))
        return [simple(seat, "check"), *(with_chips(seat, "bet", x) for x in range(1, most + 1))]
    to_call = st.current - st.contrib[seat]
    can_call = to_call <= stack or s.short_call == "all_in_no_side_pot"
    room = max(0, min(limit, stack - to_call))
    acts = [simple(seat, "fold")] + ([simple(seat, "call")] if can_call else [])
    return acts + [with_chips(seat, "raise", x) for x in range(1, room + 1)]


def _old_spare(deal: stops.Deal, st: SpareState, seat: int) -> list[Action]:
    """The dealer's options and the bidders' menus, each parameter looked up where it was."""
    p = deal.variant.policies["spare_protocol"].params
    blocking = isinstance(p, (DealerOptionsParams, DealerSwapParams)) and p.pay_card_blocks_spare
    d = deal.dealer

    def blocked(s: int) -> bool:
        return blocking and holds_pay_card(deal, s)

    if st.step == "dealer":
        keep = [simple(d, "keep")] if p.dealer_keep else []
        swap = [] if blocked(d) else [simple(d, "swap")]
        return [*keep, *swap, simple(d, "auction")]
    if st.step == "after_swap":
        return [simple(d, "keep"), simple(d, "auction")]
    if st.step == "after_unsold":
        return [simple(d, "keep")] + ([] if blocked(d) else [simple(d, "swap")])
    if st.offering == "spare" and blocked(seat):
        return [simple(seat, "pass")]
    stack = deal.ledger.stacks[seat]
    low = st.high_bid + 1 if p.auction_format == "open_ascending" else 1
    top = stack + 1
    if p.auction_increment == "one":
        low = st.high_bid + 1
        top = min(top, low + 1)
    return [simple(seat, "pass"), *(with_chips(seat, "bid", x) for x in range(low, max(low, top)))]



def _check_decision(deal: stops.Deal) -> int:
    """Compare the seat to act's legal set with the old computation (where it is one of
    ours); check the refusals of the poker stage. Returns 1 if compared."""
    seat = deal.current_seat
    assert seat is not None
    legal = deal.legal_actions()
    if deal.phase == "poker":
        st = deal.state(PokerState)
        s = deal.variant.settings("poker")
        if st.step == "select":
            hand = [int(c) for c in deal.hand(seat)]
            k = min(s.hand_size, len(hand))
            old = _old_selection(hand, k, seat, s.selection)
            assert list(legal) == old
            assert all(legal[i] == old[i] and legal[i] in legal for i in range(len(old)))
            outside = next(c for c in range(52) if deal.owner[c] != seat)
            short = tuple(CARDS[c] for c in hand[:k - 1])
            refused_with(deal, Action(seat, "select", cards=(*short, CARDS[outside])),
                         "not_in_hand")
            if k > 1:
                refused_with(deal, Action(seat, "select", cards=short), "wrong_count")
        else:
            assert list(legal) == _old_betting(deal, st, seat)
            if s.betting == "limit":
                verb = "raise" if st.bet_made else "bet"
                refused_with(deal, with_chips(seat, verb, s.bet_limit + 1), "over_limit")
        return 1
    if deal.phase == "spare_hand" and isinstance(
            deal.variant.policy("spare_protocol").impl, DealerOptions):
        assert list(legal) == _old_spare(deal, deal.state(SpareState), seat)
        return 1
    return 0


@pytest.mark.parametrize(("name", "options"), CASES,
                         ids=[n + ("" if o is None else "-" + "-".join(o)) for n, o in CASES])
def test_legal_sets_are_the_old_computations_at_every_decision(
        name: str, options: dict[str, Any] | None) -> None:
    variant = stops.load_variant(name, options=options)
    lo, hi = variant.players
    rng = Rng(11)
    compared = 0
    for seats in range(lo, hi + 1):
        table = stops.Table(variant, seats=seats, chips=40, seed=seats)
        for _ in range(2):
            if table.is_over:
                break
            deal = table.new_deal()
            while deal.current_seat is not None:
                compared += _check_decision(deal)
                legal = deal.legal_actions()
                deal.apply(legal[rng.below(len(legal))])
    assert compared > 10


@pytest.mark.parametrize(("n", "k"), [(5, 5), (10, 5), (11, 5), (13, 5), (13, 7), (17, 5),
                                      (20, 5), (8, 3), (4, 5)])
def test_every_selection_index_unranks_to_the_same_cards(n: int, k: int) -> None:
    # The i-th selection is the i-th of itertools.combinations of the sorted hand, whether
    # read from the shared position tuples (C(n, k) <= MAX_COMBOS) or unranked step by step
    # (C(20, 5) = 15,504 > 8,192). A hand given in card order as the pack's cards
    # (ordered=True) gives the very same set as the same cards in any order as plain ints.
    hand = [c for c in range(52) if c % 3 != 1][:n]
    assert len(hand) == n
    kk = min(k, n)
    fast = LegalActions(Selections(1, tuple(CARDS[c] for c in hand), kk, "select", ordered=True))
    slow = LegalActions(Selections(1, list(reversed(hand)), kk, "select"))
    expected = list(combinations(hand, kk))
    assert len(fast) == len(slow) == len(expected)
    assert fast == slow
    big = len(expected) > MAX_COMBOS
    assert big == ((n, k) == (20, 5))
    for i in range(0, len(expected), 1 if len(expected) < 2000 else 7):
        a = fast[i]
        assert a.cards == tuple(expected[i]) == slow[i].cards
        assert all(type(c) is stops.Card for c in a.cards or ())
        assert a in fast and a == slow[i] and hash(a) == hash(slow[i])
    assert fast[-1].cards == tuple(expected[-1])


def test_a_showdown_names_each_hand_from_its_key() -> None:
    # describe_key(hand_key(h)) is describe(h): a full house, kings over threes (KC KD KH 3S
    # 3D); a royal flush (TS JS QS KS AS); a wheel, straight to the five (AC 2D 3H 4S 5C);
    # and a short hand of a pair of twos with a kicker (2C 2D 9H).
    def ints(text: str) -> list[int]:
        return [int(stops.parse_card(t)) for t in text.split()]

    for text, said in [("KC KD KH 3S 3D", "full house, kings over threes"),
                       ("TS JS QS KS AS", "royal flush"),
                       ("AC 2D 3H 4S 5C", "straight to the five"),
                       ("2C 2D 9H", "pair of twos")]:
        cards = ints(text)
        assert describe(cards) == said
        assert describe_key(hand_key(cards)) == said


def test_a_legal_set_compares_with_anything_without_raising() -> None:
    # the compiled build holds ``__eq__`` to ``bool``: a legal set that answered
    # NotImplemented (a tuple's answer to a string) raised TypeError there, so
    # ``"x" == deal.legal_actions()`` or a legal set among other values in a list that
    # ``in`` searched failed in one build and not the other
    deal = stops.Table("three-in-one", seats=4, chips=50, seed=2).new_deal()
    while not isinstance(deal.legal_actions(), LegalActions):
        deal.apply(deal.legal_actions()[0])
    family = deal.legal_actions()  # the poker stage's selections
    fixed = stops.Table("boodle", seats=4, seed=2).new_deal().legal_actions()
    for legal in (family, fixed):
        for other in ("x", 3, None, {"a": 1}, Action(0, "pass")):
            assert legal != other and other != legal and (legal == other) is False
        assert legal == list(legal) and list(legal) == legal
        assert legal == tuple(legal) and tuple(legal) == legal
        assert "x" not in [legal] and legal in ["x", legal]
    assert family != fixed and fixed != family
