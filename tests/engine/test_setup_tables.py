"""The tables session 13 put on random play's path give what the loops they replace gave.

Each test states, worked out by hand, a case the table must give, and then holds the table
to the plain computation over its whole domain.
"""

from __future__ import annotations

import pytest

import stops
from stops.apps.playout import play_random
from stops.engine import deal as deal_mod
from stops.engine.actions import LADDER_MAX, Action, chips_range, simple, with_chips
from stops.engine.cards import CARDS
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.events import Event, shared, stop_event
from stops.engine.legal import FixedActions, Selections
from stops.engine.rng import Rng
from stops.phases.spare import SparePhase


def _suit_by_loop(suit: int, m: int) -> tuple[int, ...]:
    """The cards of ``suit`` with their rank bit set in ``m``, lowest first: the loop
    ``_suit_cards`` ran before its half tables."""
    return tuple(CARDS[suit * 13 + r] for r in range(13) if m >> r & 1)


def test_suit_cards_join_the_two_halves() -> None:
    # By hand: suit 1 is diamonds (cards 13..25), rank r its bit r. The mask
    # 0b1_0000_0100_0001 has ranks 0, 6 and 12: 2D (card 13) and 8D (card 19) from the low
    # table's entry 1 << 7 | 0b1000001, and AD (card 25) from the high table's entry
    # 1 << 6 | 0b100000 (rank 12 is bit 5 of the high six ranks).
    m = 1 << 12 | 1 << 6 | 1
    got = deal_mod._suit_cards(1, m)
    assert [str(c) for c in got] == ["2D", "8D", "AD"]
    assert [int(c) for c in got] == [13, 19, 25]


def test_suit_cards_every_mask_of_every_suit() -> None:
    # the whole domain (4 x 8192 masks): a wrong shift or bit order fails here
    for suit in range(4):
        for m in range(1 << 13):
            assert deal_mod._suit_cards(suit, m) == _suit_by_loop(suit, m), (suit, m)


def test_held_reads_every_suit_in_card_order() -> None:
    # By hand: a seat holding 2C (card 0), AC (12), 9D (20), 5H (29), KS (50) and AS (51)
    # has masks [1 | 1 << 12, 1 << 7, 1 << 3, 1 << 11 | 1 << 12]; held() gives them in card
    # order, clubs to spades, each suit low ranks first: 2C AC 9D 5H KS AS.
    odd = stops.Table("boodle", seats=4, seed=1).new_deal()
    odd.masks[0] = [1 | 1 << 12, 1 << 7, 1 << 3, 1 << 11 | 1 << 12]
    assert [str(c) for c in odd.held(0)] == ["2C", "AC", "9D", "5H", "KS", "AS"]
    # and every dealt hand of a few deals: the cards the owner table gives the seat
    table = stops.Table("boodle", seats=4, seed=1)
    rng = Rng(3)
    for _ in range(5):
        deal = table.new_deal()
        for s in range(deal.n):
            assert [int(c) for c in deal.held(s)] == [
                c for c in range(52) if deal.owner[c] == s]
        play_random(deal, rng)


def test_chips_range_is_the_interned_amounts() -> None:
    # By hand: seat 2's bids 3 to 5 are with_chips(2, "bid", 3), (..., 4) and (..., 5), the
    # very interned objects, in that order; asking for 1 to 6 afterwards gives those three
    # again (the same objects) among 1, 2 and 6.
    got = chips_range(2, "bid", 3, 6)
    assert [a.chips for a in got] == [3, 4, 5]
    assert all(a is with_chips(2, "bid", a.chips or 0) for a in got)
    wider = chips_range(2, "bid", 1, 7)
    assert [a.chips for a in wider] == [1, 2, 3, 4, 5, 6]
    assert wider[2:5] == got and all(x is y for x, y in zip(wider[2:5], got, strict=True))
    assert chips_range(2, "bid", 4, 4) == []
    with pytest.raises(ValueError, match="ladder"):
        chips_range(2, "bid", 1, LADDER_MAX + 2)
    with pytest.raises(ValueError, match="ladder"):
        chips_range(2, "bid", 0, 3)


def test_shared_and_stop_events_are_the_named_tuples() -> None:
    # By hand: shared("staked", 1, 3, "pot") is Event(kind="staked", seat=1, chips=3,
    # space="pot") and nothing else; a stop of card 7 (9C) by seat 0 for "no 10C" is
    # Event("stop", 0, CARDS[7], note="no 10C"). Same type, same fields.
    e = shared("staked_test_kind", 1, 3, "pot")
    assert type(e) is Event
    assert e == Event("staked_test_kind", 1, chips=3, space="pot")
    s = stop_event(0, 7, "no 10C (test)")
    assert type(s) is Event
    assert s == Event(EventKind.STOP, 0, CARDS[7], note="no 10C (test)")
    assert str(s.card) == "9C"


def test_selections_pick_the_checked_actions() -> None:
    # By hand: a seat-1 hand of 2C 5C 9D QH AS (cards 0, 3, 20, 36, 51) choosing 2 has
    # C(5, 2) = 10 selections in lexicographic order; pick 0 is 2C 5C and pick 9 is QH AS.
    # Picked without the per-action checks (ordered=True), each equals the action the
    # checked constructor makes; a bad verb still refuses, a bad seat too.
    hand = tuple(CARDS[c] for c in (0, 3, 20, 36, 51))
    fast = Selections(1, hand, 2, "select", ordered=True)
    slow = Selections(1, hand, 2, "select")
    assert len(fast) == 10
    assert [str(c) for c in fast.get(0).cards or ()] == ["2C", "5C"]
    assert [str(c) for c in fast.get(9).cards or ()] == ["QH", "AS"]
    for i in range(10):
        a = fast.get(i)
        assert a == slow.get(i) == Action(1, "select", cards=a.cards)
        assert hash(a) == hash(slow.get(i))
    with pytest.raises(IllegalAction):
        Selections(1, hand, 2, "no-such-verb", ordered=True).get(0)
    # a seat that is no int: refused when picked (pure) or already when the set is made
    # (compiled: the typed constructor), never made into an action
    with pytest.raises((IllegalAction, TypeError)):
        Selections("1", hand, 2, "select", ordered=True).get(0)  # type: ignore[arg-type]


class _KeepOrPass:
    """A spare protocol that is no ``SpareProtocol`` (a plug-in may register any object with
    the slot's members): the dealer keeps his hand or passes, nothing else happens."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def enter(self, deal: stops.Deal) -> bool:
        self.calls.append("enter")
        deal.to_act = deal.dealer
        return True

    def legal(self, deal: stops.Deal) -> FixedActions:
        self.calls.append("legal")
        d = deal.dealer
        return FixedActions((simple(d, "keep"), simple(d, "pass")))

    def apply(self, deal: stops.Deal, action: Action) -> bool:
        self.calls.append(f"apply {action.action}")
        return False

    def explain(self, deal: stops.Deal, action: Action) -> None:
        return None


def test_a_spare_protocol_that_is_no_spare_protocol_is_called_by_name() -> None:
    # By hand: Boodle, 3 seats, dealer 0, with the duck protocol. Entering the spare phase
    # calls its enter (the dealer, seat 0, to act); the legal set is its two actions, keep
    # and pass; applying keep calls its apply and the deal goes on to play: seat 1 (the
    # dealer's left) to lead. The built-in protocols are called natively; this one by name,
    # with the same calls in the same order.
    duck = _KeepOrPass()
    reg = stops.default_registry().copy()
    reg.register_policy("spare_protocol", "keep_or_pass", text=lambda p: "",
                        phrase="keep or pass")(duck)
    variant = stops.load_variant("boodle", options={"spare_protocol": "keep_or_pass"},
                                 registry=reg)
    deal = stops.Table(variant, seats=3, chips=50, seed=1, dealer=0).new_deal()
    assert deal.phase == "spare_hand" and deal.to_act == 0
    assert list(deal.legal_actions()) == [simple(0, "keep"), simple(0, "pass")]
    deal.apply(simple(0, "keep"))
    assert duck.calls == ["enter", "legal", "apply keep"]
    assert deal.phase == "play" and deal.to_act == 1
    # and the built-in protocol of Boodle is the one called natively
    builtin = next(s for s in stops.load_variant("boodle").steps
                   if isinstance(s, SparePhase))
    assert builtin._native is builtin.protocol
