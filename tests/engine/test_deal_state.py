"""Typed per-deal state (issue 20): ``deal.state(T)``, declared by phases and policies.

A phase lists its state classes in ``state_types`` (dropped when the deal moves past the
phase); a policy names its own with ``register_policy(..., states=...)`` (kept for the whole
deal). Each deal and each copy of a deal has its own; a deal makes no state its variant does
not declare.

The plug-in below is a ``run_rule`` that claims nothing and only counts, per deal, the cards
one seat plays in a row (``Streak``): the longest such streak is what its state holds, and the
stacked Boodle deals derive it by hand. Boodle (docs/games/boodle.md, rulings 6, 8, 28, 30):
the dealer's left leads first, the lowest card of the suit he leads; whoever holds the next
card plays it at once; a card whose next card is in the spare hand is a stop and its player
leads again; a player whose last card goes wins the deal.
"""

from __future__ import annotations

import pickle
import random
from typing import Any

import attrs
import pytest

import stops
from stops import Action, parse_card
from stops.engine.errors import StopsError
from stops.phases.play import PlayState
from stops.phases.poker import PokerState
from stops.phases.spare import SpareState
from stops.phases.stake import StakeQueue
from stops.policies.claims import ClaimPolicy
from stops.rules.registry import RegistryError

PACK = [r + s for s in "CDHS" for r in "23456789TJQKA"]


@attrs.define
class Streak:
    """Cards one seat has played in a row this deal: the current streak and the longest."""

    seat: int = -1
    length: int = 0
    longest: int = 0
    longest_seat: int = -1

    def copy(self) -> Streak:
        return Streak(self.seat, self.length, self.longest, self.longest_seat)


class StreakRule(ClaimPolicy):
    """Claims nothing; counts each seat's cards played in a row (per deal, in ``Streak``)."""

    def watch(self, variant: Any, params: Any, triggers: Any, every: list[Any]) -> None:
        def on_card(deal: stops.Deal, seat: int, card: int) -> None:
            st = deal.state(Streak)
            st.length = st.length + 1 if seat == st.seat else 1
            st.seat = seat
            if st.length > st.longest:
                st.longest, st.longest_seat = st.length, seat

        every.append(on_card)


class NoCopy:
    pass


def _no_text(params: Any) -> str:
    return ""  # nothing to tell the players: it pays nothing


def streak_variant(declare: bool = True) -> stops.Variant:
    reg = stops.default_registry().copy()
    reg.register_policy("run_rule", "streak", text=_no_text,
                        states=(Streak,) if declare else ())(StreakRule())
    return stops.load_variant("boodle", options={"run_rule": "streak"}, registry=reg)


def stacked(variant: stops.Variant, hands: list[list[str]]) -> stops.Deal:
    used = {c for h in hands for c in h}
    table = stops.Table(variant, seats=len(hands), chips=50, seed=1, dealer=0)
    return table.new_deal(hands=hands, spare=[c for c in PACK if c not in used])


def lead(deal: stops.Deal, seat: int, card: str) -> None:
    deal.apply(Action(seat, "lead", card=parse_card(card)))


# Deal A, dealer 0, three seats: seat 0 holds 5C 6C KD, seat 1 2C 3C 4C 2D, seat 2 7C 3D.
# Seat 1 (the dealer's left) leads 2C; the run goes 2C 3C 4C (seat 1), 5C 6C (seat 0), 7C
# (seat 2), and 8C is in the spare hand: 7C is a stop, seat 2 leads next. Streaks: seat 1
# three in a row, seat 0 two, seat 2 one so far: longest 3, by seat 1; current: seat 2, 1.
# Seat 2 then leads 3D, its last card: it goes out, its streak is 2 (7C, 3D), still not 3.
HANDS_A = [["5C", "6C", "KD"], ["2C", "3C", "4C", "2D"], ["7C", "3D"]]
# Deal B, same table shape: seat 0 holds 2H 3H 4H 5H 9S, seat 1 6H 2S, seat 2 7H 3S.
# Seat 1 leads: its lowest cards are 6H and 2S. It leads 2S; 3S is seat 2's, 4S is in the
# spare hand: 3S stops. Seat 2 leads 7H (its last card): it goes out at once. Streaks: 2S
# (seat 1) 1, 3S (seat 2) 1, 7H (seat 2) 2: longest 2, by seat 2. Seat 0 played nothing.
HANDS_B = [["2H", "3H", "4H", "5H", "9S"], ["6H", "2S"], ["7H", "3S"]]


def test_a_plug_in_policy_keeps_its_own_state_per_deal() -> None:
    variant = streak_variant()
    a = stacked(variant, HANDS_A)
    b = stacked(variant, HANDS_B)  # the same variant, so the same handler: its own state
    assert a.peek_state(Streak) is None and b.peek_state(Streak) is None  # no card yet
    lead(a, 1, "2C")
    assert a.peek_state(Streak) == Streak(seat=2, length=1, longest=3, longest_seat=1)
    assert b.peek_state(Streak) is None  # deal B has played nothing: nothing of A's
    lead(b, 1, "2S")
    lead(b, 2, "7H")
    assert b.is_terminal and b.winner == 2
    assert b.peek_state(Streak) == Streak(seat=2, length=2, longest=2, longest_seat=2)
    assert a.peek_state(Streak) == Streak(seat=2, length=1, longest=3, longest_seat=1)
    lead(a, 2, "3D")
    assert a.is_terminal and a.winner == 2
    # a policy's state is kept for the whole deal (only a phase's goes with the phase)
    assert a.peek_state(Streak) == Streak(seat=2, length=2, longest=3, longest_seat=1)


def test_a_copy_has_its_own_state() -> None:
    deal = stacked(streak_variant(), HANDS_A)
    lead(deal, 1, "2C")
    copy_ = deal.clone()
    assert copy_.state(Streak) == deal.state(Streak)
    assert copy_.state(Streak) is not deal.state(Streak)
    assert copy_.state(PlayState) is not deal.state(PlayState)
    copy_.state(PlayState).opening = "changed in the copy only"
    assert deal.state(PlayState).opening is None
    lead(copy_, 2, "3D")  # the copy goes on: seat 2's streak grows there only
    assert copy_.state(Streak).length == 2
    assert deal.state(Streak) == Streak(seat=2, length=1, longest=3, longest_seat=1)
    # still due in the real one: seat 2 leads, only 3D, after the stop in clubs (suit 0)
    assert deal.state(PlayState).lead == (2, [parse_card("3D")], 0)
    again = pickle.loads(pickle.dumps(deal))
    assert again.state(Streak) == deal.state(Streak)
    assert again.state(PlayState) == deal.state(PlayState)


def test_state_no_rule_declares_is_refused() -> None:
    deal = stacked(streak_variant(declare=False), HANDS_A)
    before = dict(deal.states)
    with pytest.raises(StopsError, match="Streak is not declared as deal state"):
        deal.state(Streak)
    assert deal.states == before
    assert deal.peek_state(Streak) is None  # looking never makes one


def test_a_state_class_without_copy_is_refused_at_registration() -> None:
    reg = stops.default_registry().copy()
    with pytest.raises(RegistryError, match=r"NoCopy.*copy\(\)"):
        reg.register_policy("run_rule", "nocopy", states=(NoCopy,))(StreakRule())
    assert ("run_rule", "nocopy") not in reg.policies


def test_a_phase_state_is_dropped_when_the_deal_moves_past_the_phase() -> None:
    # Three-in-One: the poker stage's state lives through the poker phase only, the play's
    # through the play; both are gone once the deal is over.
    deal = stops.Table("three-in-one", seats=4, chips=50, seed=3).new_deal()
    seen: dict[str, set[type]] = {}
    while not deal.is_terminal:
        seen.setdefault(deal.phase, set()).update(deal.states)
        deal.apply(deal.legal_actions()[0])
    assert PokerState in seen["poker"] and PlayState not in seen["poker"]
    assert PlayState in seen["play"] and PokerState not in seen["play"]
    assert SpareState in seen["spare_hand"] and SpareState not in seen["poker"]
    assert deal.peek_state(PlayState) is None and deal.peek_state(PokerState) is None
    # free stakes: the queue of stake decisions lives while they are due
    deal = stops.Table("boodle-free-stakes", seats=4, chips=50, seed=3).new_deal()
    assert deal.phase == "stake" and deal.state(StakeQueue).due
    while deal.phase == "stake":
        deal.apply(deal.legal_actions()[0])
    assert deal.peek_state(StakeQueue) is None


@pytest.mark.parametrize("name", stops.list_variants())
def test_a_copy_never_changes_the_state_of_the_deal_it_copies(name: str) -> None:
    rng = random.Random(name)
    for seed in range(3):
        lo, hi = stops.load_variant(name).players
        seats = min(max(4, lo), hi)  # 4, or what the game allows (epsom: 2)
        deal = stops.Table(name, seats=seats, chips=50, seed=seed).new_deal()
        while not deal.is_terminal:
            before = {kind: st.copy() for kind, st in deal.states.items()}
            twin = deal.clone()
            assert all(twin.states[k] is not deal.states[k] for k in deal.states)
            while not twin.is_terminal:
                legal = twin.legal_actions()
                twin.apply(legal[rng.randrange(len(legal))])
            assert deal.states == before, deal.phase
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
