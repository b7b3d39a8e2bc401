"""Issue 24: a phase's checks of each hand alone (``Phase.hand_checks``) say exactly what its
``hands_fit`` says. ``clone_for`` asks them of the hands it deals before it makes a copy's
hands, and never asks that phase's ``hands_fit``: were they to differ, copies would be
refused that fit, or kept that do not.

The deals checked are ``clone_for``'s own proposals at positions after a showdown (its
whole deals, most of which Tripoley's checks refuse, and steps of its walk), each placed in
a copy as ``clone_for`` places them: both answers are asked of every one.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import stops
from stops.engine.deal import HandCheck
from stops.engine.determinize import (
    _cached,
    _copy,
    _deal_hidden,
    _hands_refused,
    _mend,
    _place,
    _swap,
)
from stops.phases.base import Phase
from stops.phases.poker import PokerPhase


def _after_showdown(name: str, seed: int, options: dict[str, Any] | None = None
                    ) -> list[tuple[stops.Deal, int]]:
    """Positions of random play after the showdown, with more than one hand shown: the
    seat to act at every third decision there (30 of them)."""
    variant = stops.load_variant(name, options or {})
    out: list[tuple[stops.Deal, int]] = []
    rng = random.Random(seed)
    table = stops.Table(variant, seats=4, seed=seed, chips=100)
    for _ in range(120):
        if len(out) >= 30:
            break
        if table.is_over:
            table = stops.Table(variant, seats=4, seed=rng.randrange(10**6), chips=100)
        deal = table.new_deal()
        k = 0
        while not deal.is_terminal:
            seat = deal.current_seat
            shown = sum(e.kind == "showdown" for e in deal.events)
            if shown >= 2 and seat is not None and k % 3 == 0:
                out.append((deal.clone(), seat))
            legal = deal.legal_actions()
            deal.apply(legal[rng.randrange(len(legal))])
            k += 1
    return out


@pytest.mark.parametrize(("name", "options"), [
    ("tripoley", None),
    ("tripoley", {"poker_selection": "best"}),
    ("tripoley-home-table", None),
    ("three-in-one", {"poker_selection": "best"}),
])
def test_hand_checks_say_what_hands_fit_says(name: str, options: dict[str, Any] | None
                                             ) -> None:
    positions = _after_showdown(name, 5, options)
    assert positions, "no position after a showdown"
    poker = next(p for p in stops.load_variant(name, options or {}).phases
                 if isinstance(p, PokerPhase))
    assert poker.checks_each_hand and not any(
        isinstance(p, PokerPhase) and p.checks_hands and not p.checks_each_hand
        for p in stops.load_variant(name, options or {}).phases)
    seen = {True: 0, False: 0}
    walked = 0
    for deal, seat in positions[:40]:
        rng = random.Random(len(deal.events))
        deal.clone_for(seat, rng)  # the view, kept
        view = _cached(deal, seat)
        assert view is not None and view.hand_checks is not None
        checks = list(view.hand_checks)
        work = _copy(deal, view)
        fresh = True
        at: dict[int, list[int]] | None = None
        for _ in range(25):
            holders = {h for h, cards in at.items() if cards and h >= 0} if at else set()
            if at is not None and holders and rng.random() < 0.5:
                # a step of the walk from the last deal (two or three hands changed)
                at = _swap(at, holders, view.allowed, rng)
                walked += 1
            else:
                at = _deal_hidden(view.order, view.free, view.places, view.allowed, rng)
            assert at is not None
            _place(work, view, at, fresh)
            fresh = False
            work._imagined = view.memo  # lent as clone_for lends it to the phases
            try:
                whole = poker.hands_fit(work, seat)
                at_fault = poker.misfits(work, seat)
            finally:
                work._imagined = None
            alone = _hands_refused(list(checks), at, True)
            assert (alone is None) == whole, (name, seat, at)
            assert (alone[0] if alone is not None else set()) == at_fault
            seen[whole] += 1
            # each check alone, on the hand as the copy holds it
            for holder, _known, check in checks:
                m = work.masks[holder]
                hand = m[0] | m[1] << 13 | m[2] << 26 | m[3] << 39
                assert check.fits(hand) == (holder not in at_fault)
    # both answers met, and walk steps among the deals checked
    assert seen[True] > 10 and seen[False] > 10, seen
    assert walked > 10


def test_culprits_are_cards_of_the_hand_that_better_it() -> None:
    # Each hand at fault names as culprits only cards it holds, none of the hand shown, and
    # at least one: moving them is what the walk does first.
    positions = _after_showdown("tripoley", 6)
    met = 0
    for deal, seat in positions[:30]:
        rng = random.Random(7)
        deal.clone_for(seat, rng)
        view = _cached(deal, seat)
        assert view is not None and view.hand_checks is not None
        for _ in range(20):
            at = _deal_hidden(view.order, view.free, view.places, view.allowed, rng)
            assert at is not None
            for holder, known, check in view.hand_checks:
                hand = known
                for c in at.get(holder, ()):
                    hand |= 1 << c
                if check.fits(hand):
                    continue
                met += 1
                bad = check.culprits(hand)
                assert bad, "a hand at fault names no card"
                assert all(hand >> c & 1 for c in bad)
                assert not bad & {int(c) for c in check.got.shown}  # type: ignore[attr-defined]
    assert met > 10


def test_a_phase_declares_hand_checks_by_having_them() -> None:
    # Declared, not probed: the flag is set where a class has its own hand_checks.
    class Plain(Phase):
        name = "plain-test"

    class Each(Phase):
        name = "each-test"

        def hand_checks(self, deal: stops.Deal, seat: int) -> list[HandCheck]:
            return [HandCheck(0)]

    variant = stops.load_variant("boodle")
    assert not Plain(variant).checks_each_hand
    assert Each(variant).checks_each_hand
    assert HandCheck(2).fits(0) and not HandCheck(2).culprits(0)


@pytest.mark.parametrize("answer", [
    [HandCheck(9)], [HandCheck(-1)], ["not a check"], HandCheck(0),
])
def test_a_plug_ins_bad_hand_checks_are_refused_by_name(answer: Any) -> None:
    # A plug-in phase whose hand_checks answers a holder that is no seat, something that is
    # no HandCheck, or a check not in a list, is refused by name (a StopsError naming the
    # phase), not with a bare IndexError or TypeError deep in the copy; the real deal is
    # unchanged.
    class BadChecks(PokerPhase):
        def hand_checks(self, deal: stops.Deal, seat: int) -> list[HandCheck]:
            bad: list[HandCheck] = answer  # what a plug-in may answer, typed or not
            return bad

    positions = _after_showdown("tripoley", 5)
    deal, seat = positions[0]
    poker = next(p for p in deal.variant.phases if isinstance(p, PokerPhase))
    bad = BadChecks(deal.variant)
    assert bad.checks_each_hand
    phases = deal.variant.phases
    i = phases.index(poker)
    before = deal.record()
    deal.variant.phases = (*phases[:i], bad, *phases[i + 1:])
    try:
        with pytest.raises(stops.StopsError, match="BadChecks: hand_checks must return"):
            deal.clone_for(seat, random.Random(1))
    finally:
        deal.variant.phases = phases
    assert deal.record() == before


class _NoFive(HandCheck):
    """A hand check by hand: its holder may not hold card 5."""

    def fits(self, hand: int) -> bool:
        return not hand >> 5 & 1

    def culprits(self, hand: int) -> frozenset[int]:
        return frozenset({5}) if hand >> 5 & 1 else frozenset()


def test_the_mend_moves_the_card_at_fault_and_only_for_a_hand_checked() -> None:
    # By hand: seat 0 (checked: no card 5) holds 5 and 6; seat 1 (not checked) 7 and 8; the
    # spare hand 9 and 10; every card may go anywhere. The mend swaps the 5 out of seat 0
    # for one of 7, 8, 9, 10 (each passes), and leaves the deal it stepped from as it was.
    # Seat 1 at fault by another phase's word alone is not the mend's to move: no step.
    checks: list[tuple[int, int, HandCheck]] = [(0, 0, _NoFive(0))]
    allowed = {c: [0, 1, -1] for c in (5, 6, 7, 8, 9, 10)}
    for k in range(20):
        at = {0: [5, 6], 1: [7, 8], -1: [9, 10]}
        out = _mend(at, {0, 1}, allowed, random.Random(k), {5}, checks)
        assert out is not None
        assert 5 not in out[0] and 6 in out[0] and len(out[0]) == 2
        assert sorted(c for cards in out.values() for c in cards) == [5, 6, 7, 8, 9, 10]
        assert at == {0: [5, 6], 1: [7, 8], -1: [9, 10]}
        assert _mend(at, {1}, allowed, random.Random(k), {7}, checks) is None
