"""Issue 24: the selections a ``clone_for`` copy makes again without the field checks.

A poker copy (Three-in-One, Tripoley, Rummoli) picks every selection it did not see shown
again from the imagined hands, on every copy; those ``select`` decisions are made by
``actions.picked_cards``, which skips :class:`Action`'s checks of each field. These tests
hold it to the checked constructor: the same decision, field by field, and in a copy each
re-made selection is the one the checked path would record.
"""

from __future__ import annotations

import random
from itertools import combinations

import stops
from stops.engine.actions import Action, picked_cards
from stops.engine.cards import CARDS, parse_card
from stops.phases.handrank import hand_key
from stops.phases.poker import PokerState


def _fields(a: Action) -> tuple[object, ...]:
    return (a.seat, a.action, a.card, a.chips, a.space, a.cards, a.as_rank, a.flags)


def test_picked_cards_is_the_checked_decision() -> None:
    # By hand: seat 2 selecting 2H 5H 9S KD AC is the decision Action(2, "select",
    # cards=...) with no card, chips, space, rank or flags; equal, hashed alike, the same
    # dict and repr, and (equality by card set) equal to the same cards in another order.
    cards = tuple(parse_card(c) for c in ("2H", "5H", "9S", "KD", "AC"))
    fast = picked_cards(2, "select", cards)
    checked = Action(2, "select", cards=cards)
    assert _fields(fast) == _fields(checked) == (2, "select", None, None, None, cards, None, ())
    assert fast == checked and hash(fast) == hash(checked)
    assert fast.to_dict() == checked.to_dict() == {
        "seat": 2, "action": "select", "cards": ["2H", "5H", "9S", "KD", "AC"]}
    assert repr(fast) == repr(checked)
    assert fast == Action(2, "select", cards=cards[::-1])
    # the mark is private: a caller's flags are still checked
    try:
        Action(2, "select", cards=cards, flags=("no such flag",))
    except stops.IllegalAction:
        pass
    else:
        raise AssertionError("an unregistered flag was taken")


def _at_the_betting(seed: int, name: str = "three-in-one", bettors: int = 1) -> stops.Deal:
    """A four-seat deal of ``name`` played at random until the poker stage bets (every
    seat's selection made, none shown) with at least ``bettors`` seats still to bet."""
    variant = stops.load_variant(name)
    deal = stops.Table(variant, seats=4, seed=seed, chips=100).new_deal()
    rng = random.Random(seed)
    while not deal.is_terminal:
        st = deal.peek_state(PokerState)
        if st is not None and st.step == "bet" and len(st.need) >= bettors:
            return deal
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    raise AssertionError("the deal ended before the poker stage bet")


def test_a_copys_remade_selections_are_the_checked_ones_from_its_hands() -> None:
    # By hand: at the betting, seat s's selection is 5 cards (hand_size 5) of the hand he
    # held when he chose, and he has played none since (the play comes after the poker).
    # So in every copy, each other seat's re-made `select` is 5 cards of that seat's
    # imagined hand, in card order, the very cards of the poker state's hand for him, and
    # the decision the checked constructor makes of them; the seat's own is the real one.
    checked = 0
    for seed in range(6):
        deal = _at_the_betting(seed)
        seat = deal.current_seat
        assert seat is not None
        mine = [a for a in deal.actions if a.action == "select" and a.seat == seat]
        rng = random.Random(seed)
        for _ in range(5):
            copy = deal.clone_for(seat, rng)
            st = copy.peek_state(PokerState)
            assert st is not None
            for a in copy.actions:
                if a.action != "select":
                    continue
                assert a.cards is not None
                if a.seat == seat:
                    assert a in mine
                    continue
                again = Action(a.seat, "select", cards=a.cards)
                assert _fields(a) == _fields(again) and a == again
                idx = tuple(int(c) for c in a.cards)
                assert len(idx) == 5 and list(idx) == sorted(idx)
                assert idx == st.hands[a.seat]
                held = {int(c) for c in copy.hand(a.seat)}
                assert set(idx) <= held
                assert all(CARDS[i] in copy.hand(a.seat) for i in idx)
                checked += 1
    assert checked >= 20  # three other seats a copy, on most of the 30 copies


def _first_best_five(hand: list[int]) -> tuple[int, ...]:
    """The rule's pick worked out the long way: of every five of ``hand`` in card order,
    the first whose key is the highest."""
    best: tuple[int, ...] | None = None
    pick: tuple[int, ...] = ()
    for five in combinations(sorted(hand), 5):
        key = hand_key(five)
        if best is None or key > best:
            best, pick = key, five
    return pick


def test_a_tripoley_copy_picks_each_hidden_hand_when_it_is_read() -> None:
    # By hand: with poker_selection auto every hand bets on its best five, which depends
    # on its cards alone, and no card moves in the poker stage. So a copy leaves each other
    # seat's five to be picked (the state holds none for it: a pick at every copy cost a
    # third of a clone() a seat), the real deal keeps its own picks, what poker_aids shows
    # of a hand in the copy is the pick from the copy's cards, and the copy's showdown
    # shows, for each seat still in, the first best five of the cards the copy dealt him.
    from stops.phases.poker_aids import chosen

    showdowns = 0
    for seed in range(8):
        deal = _at_the_betting(seed, "tripoley", 2)
        seat = deal.current_seat
        assert seat is not None
        real = deal.peek_state(PokerState)
        assert real is not None
        before = dict(real.hands)
        rng = random.Random(seed)
        for _ in range(3):
            copy = deal.clone_for(seat, rng)
            st = copy.peek_state(PokerState)
            assert st is not None
            dealt = {s: [int(c) for c in copy.hand(s)] for s in st.hands}
            for s in st.hands:
                if s == seat:
                    assert st.hands[s] == real.hands[s]
                    continue
                assert st.hands[s] == ()
                assert chosen(copy, s) == _first_best_five(dealt[s])
                assert st.hands[s] == ()  # shown, not kept
            # everyone calls or checks to the showdown
            n = len(copy.events)
            while copy.peek_state(PokerState) is st and st.step == "bet" \
                    and not copy.is_terminal:
                legal = copy.legal_actions()
                plain = [a for a in legal if a.action in ("check", "call")]
                copy.apply(plain[0] if plain else legal[0])
            for e in copy.events[n:]:
                if e.kind == "showdown":
                    assert e.seat is not None
                    assert tuple(int(c) for c in e.cards) == _first_best_five(dealt[e.seat])
                    showdowns += 1
        assert real.hands == before  # the real deal's picks are its own, untouched
    assert showdowns >= 16  # most copies reach a showdown of two or more
