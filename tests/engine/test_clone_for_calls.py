"""Issue 24: what ``clone_for``'s repeated call leaves out, and why each copy is the same.

A repeated call at one position calls only the phases whose ``after_redeal`` does something
(``Step.redeals``), keeps the lead on offer to the seat itself as it is (its options are
what it sees offered, from its own hand: a lead after a stop, or an opening that goes round
as one), and writes no owner for a hidden card dealt to
the spare hand (the view's hands hold every hidden card there already). These tests hold
each premise: a skipped call would have done nothing, a kept lead is the one worked out
again on the copy's hands, a hidden card's owner in the view is the spare hand's.
"""

from __future__ import annotations

import random
from typing import Any

import stops
from stops.engine import determinize
from stops.engine.determinize import SPARE, pick_sorted
from stops.phases.base import Phase
from stops.phases.play import PlayPhase, PlayState

_PLAY_GAMES = ("poch", "boodle", "newmarket", "comet", "pope-joan", "tripoley")


def test_redeals_is_set_where_a_class_has_its_own_after_redeal() -> None:
    # every built-in phase: the flag is whether the class overrides the default; by hand,
    # the stake keeps the default and the poker stage has its own
    for name in stops.list_variants():
        for p in stops.load_variant(name).phases:
            assert p.redeals == (type(p).after_redeal is not Phase.after_redeal), (name, p)
    phases = {type(p).__name__: p for p in stops.load_variant("three-in-one").phases}
    assert not phases["StakePhase"].redeals and phases["PokerPhase"].redeals

    # an interpreted subclass: its own after_redeal sets it, one that inherits the
    # default leaves it clear, one that inherits an override keeps it
    class Own(Phase):
        name = "own"

        def after_redeal(self, deal: Any, seat: int, rng: Any) -> bool:
            return False

    class Plain(Phase):
        name = "plain"

    class Inherited(PlayPhase):
        pass

    variant = stops.load_variant("boodle")
    assert Own(variant).redeals and not Plain(variant).redeals
    assert Inherited(variant).redeals


def test_infers_is_set_where_a_class_has_its_own_infer_and_only_those_are_asked() -> None:
    # Session 17: at each new position a seat's reader asks only the phases that may add
    # something: those with a reading of their own (not the base class's, which reads
    # nothing and adds nothing), and those without one whose class has its own infer
    # (Step.infers). The flag, for every built-in phase and interpreted subclasses:
    for name in stops.list_variants():
        for p in stops.load_variant(name).phases:
            assert p.infers == (type(p).infer is not Phase.infer), (name, p)

    class Own(Phase):
        name = "own"

        def infer(self, deal: Any, seat: int, known: Any) -> None:
            known.lack(0, (1,))

    class Plain(Phase):
        name = "plain"

    variant = stops.load_variant("boodle")
    assert Own(variant).infers and not Plain(variant).infers
    # by hand: Boodle's stake, deal and settlement keep both defaults and are not asked;
    # its spare hand and play have readings of their own and are, in the flow's order
    deal = stops.Table(variant, seats=4, seed=3, chips=100).new_deal()
    rng = random.Random(3)
    while deal.phase != "play":
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    seat = deal.to_act
    assert seat is not None
    deal.clone_for(seat, rng)
    reader = determinize._kept(deal)[("read", seat)]
    assert [type(p).__name__ for p, _ in reader.asks] == ["SparePhase", "PlayPhase"]
    assert all(r is not None for _, r in reader.asks)


def _positions(name: str, seed: int) -> list[stops.Deal]:
    """Copies of a deal of ``name`` at each of its decisions (random play from ``seed``)."""
    variant = stops.load_variant(name)
    seats = min(max(4, variant.players[0]), variant.players[1])
    deal = stops.Table(variant, seats=seats, seed=seed, chips=100).new_deal()
    rng = random.Random(seed)
    out = []
    while not deal.is_terminal:
        out.append(deal.clone())
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return out


def test_a_copys_own_lead_is_the_one_its_hand_may_lead() -> None:
    # wherever the seat to act has a lead after a stop on offer, each of its copies keeps
    # the lead the real deal offers, and that is what the lead rule gives on the copy's
    # own hands (the shortcut in PlayPhase.after_redeal changes nothing)
    rng = random.Random(5)
    met = 0
    for name in _PLAY_GAMES:
        for deal in _positions(name, 3):
            st = deal.peek_state(PlayState)
            seat = deal.to_act
            if st is None or st.lead is None or st.opening is not None or seat is None:
                continue
            s, opts, broken = st.lead
            if s != seat:
                continue
            phase = deal.variant.phases[deal.phase_idx]
            assert isinstance(phase, PlayPhase)
            for _ in range(3):
                copy = deal.clone_for(seat, rng)
                lead = copy.state(PlayState).lead
                assert lead is not None and lead[1] == opts and lead[2] == broken
                assert sorted(phase._after_impl(copy, s, broken, phase._after_params)) == \
                    sorted(opts), (name, seat)
                met += 1
    assert met > 50


def test_a_copys_own_opening_is_the_one_its_hand_may_open_with() -> None:
    # wherever the seat to act has an opening on offer that goes round as a lead after a
    # stop (Tripoley's stage three: the lowest card of the colour due), each of its copies
    # keeps the lead the real deal offers, and that is what the opening gives on the copy's
    # own hands (the shortcut in PlayPhase.after_redeal changes nothing)
    rng = random.Random(6)
    met = 0
    for name in ("tripoley-colours", "tripoley-home-table", "tripoley"):
        for seed in (3, 4, 5, 6):
            for deal in _positions(name, seed):
                st = deal.peek_state(PlayState)
                seat = deal.to_act
                if st is None or st.lead is None or st.opening is None or seat is None:
                    continue
                s, opts, broken = st.lead
                phase = deal.variant.phases[deal.phase_idx]
                assert isinstance(phase, PlayPhase)
                first = phase.first.impl(deal, phase.first.params)
                if s != seat or first is None or first.seek is None:
                    continue
                for _ in range(3):
                    copy = deal.clone_for(seat, rng)
                    lead = copy.state(PlayState).lead
                    assert lead is not None and lead[1] == opts and lead[2] == broken
                    again = first.seek.options(copy, s, broken if broken is not None else 0)
                    assert sorted(again) == sorted(opts), (name, seat)
                    met += 1
    assert met > 10


def test_a_hidden_card_lies_in_the_spare_hand_in_the_view() -> None:
    # the cards a view deals again are owned by the spare hand in its hands, so a copy
    # dealing one to the spare hand writes no owner for it
    rng = random.Random(2)
    for name in ("three-in-one", "rummoli", "poch", "boodle", "tripoley-colours"):
        for deal in _positions(name, 4)[::4]:
            for seat in range(deal.n):
                deal.clone_for(seat, rng)
                view = determinize._cached(deal, seat)
                if view is None:  # nothing dealt yet: the copy deals from its own seed
                    continue
                assert all(view.owner[c] == SPARE for c in view.hidden), (name, seat)


def test_pick_sorted_picks_from_a_tuple_and_leaves_a_list_as_it_was() -> None:
    # a hand read as a tuple is picked from as it is; one larger than the table's reach is
    # picked from a copy, the caller's list unchanged
    rng = random.Random(9)
    hand = tuple(range(0, 24, 2))
    got = pick_sorted(rng, hand, 5)
    assert len(got) == 5 and list(got) == sorted(got) and set(got) <= set(hand)
    big = list(range(20))
    got = pick_sorted(rng, big, 6)
    assert big == list(range(20))
    assert len(set(got)) == 6 and list(got) == sorted(got)


def test_checks_hands_is_set_where_a_class_has_its_own_hands_fit() -> None:
    # every built-in phase: the flag is whether the class overrides the default; by hand,
    # Tripoley's poker stage and claims by holding check the hands, its play does not
    for name in stops.list_variants():
        for p in stops.load_variant(name).phases:
            assert p.checks_hands == (type(p).hands_fit is not Phase.hands_fit), (name, p)
    phases = {type(p).__name__: p for p in stops.load_variant("tripoley").phases}
    assert phases["PokerPhase"].checks_hands and phases["ClaimHeldPhase"].checks_hands
    assert not phases["PlayPhase"].checks_hands
    # the claims by holding only say yes or no: no after_redeal of their own any more
    assert not phases["ClaimHeldPhase"].redeals

    class Own(Phase):
        name = "own"

        def hands_fit(self, deal: Any, seat: int) -> bool:
            return False

    class Plain(Phase):
        name = "plain"

    variant = stops.load_variant("boodle")
    assert Own(variant).checks_hands and not Plain(variant).checks_hands


class _Counted(PlayPhase):
    """Boodle's play with a check of the hands: the card ``banned`` is never in seat
    ``holder``'s hand (true of the real deal the test uses), each call of the check and of
    ``after_redeal`` counted."""

    banned = -1
    holder = -1
    checks = 0
    refused = 0
    redeals_called = 0

    def hands_fit(self, deal: Any, seat: int) -> bool:
        type(self).checks += 1
        if deal.owner[self.banned] == self.holder:
            type(self).refused += 1
            return False
        return True

    def after_redeal(self, deal: Any, seat: int, rng: Any) -> bool:
        type(self).redeals_called += 1
        return super().after_redeal(deal, seat, rng)


def test_a_deal_the_checks_refuse_costs_no_after_redeal() -> None:
    # A deal of Boodle in play, seen by seat 0: a card that seat 0 cannot see and seat 1
    # does not hold (the first in card order) is banned from seat 1 by a check of the
    # hands. By the
    # contract of hands_fit: no copy puts it there, every refused deal is refused by the
    # check alone (after_redeal is called once per copy handed back, never on a deal the
    # check refused), and some deals are refused (the card lies in seat 1's hand in about
    # a quarter of the deals: seat 1 holds about a quarter of the cards seat 0 cannot see)
    import attrs

    from stops.rules.registry import default_registry

    reg = default_registry().copy()
    reg.phases["play"] = attrs.evolve(reg.phases["play"], impl=_Counted)
    variant = stops.load_variant("boodle", registry=reg)
    deal = stops.Table(variant, seats=4, seed=11, chips=100).new_deal()
    rng = random.Random(11)
    while deal.phase != "play" or deal.to_act != 0:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    banned = next(c for c in range(52) if deal.owner[c] not in (0, 1, -2, -3))
    _Counted.banned, _Counted.holder = banned, 1
    _Counted.checks = _Counted.refused = _Counted.redeals_called = 0
    copies = [deal.clone_for(0, random.Random(k)) for k in range(40)]
    assert all(c.owner[banned] != 1 for c in copies)
    assert _Counted.redeals_called == len(copies)
    assert _Counted.checks == len(copies) + _Counted.refused
    assert _Counted.refused > 0


def test_held_cards_names_every_card_the_claims_key_reads() -> None:
    # clone_for's check of the claims by holding puts back with their players only the
    # cards played that the policy's key reads (ClaimPolicy.held_cards). At every other
    # decision of random deals of every built-in with claims by holding, in the deal and in
    # copies of it: the key from those is the key from every card played put back, and a
    # card the key reads, played and left out, changes it somewhere (the list is not
    # longer than it need be, Tripoley's hearts and runs, Poch's trumps)
    from stops.phases.settle import ClaimHeldPhase

    met = changed = 0
    rng = random.Random(8)
    for name in stops.list_variants():
        variant = stops.load_variant(name)
        held = [p for p in variant.phases if isinstance(p, ClaimHeldPhase)]
        if not held:
            continue
        impl, params = held[0].policy.impl, held[0].policy.params
        for deal in _positions(name, 5)[::2]:
            seat = deal.to_act
            copies = [deal] if seat is None else [deal, deal.clone_for(seat, rng)]
            for d in copies:
                cards = impl.held_cards(d, params)
                if cards is None:
                    continue
                every = list(d.owner)
                for p, c in d.plays:
                    every[c] = p
                some = list(d.owner)
                for p, c in d.plays:
                    if c in cards:
                        some[c] = p
                key = impl.held_key_now(d, params, every)
                assert impl.held_key_now(d, params, some) == key, (name, d.plays)
                met += 1
                for _, c in d.plays:  # one card the key reads, left out
                    if c in cards:
                        less = list(some)
                        less[c] = d.owner[c]
                        changed += impl.held_key_now(d, params, less) != key
                        break
    assert met > 80 and changed > 10


def test_held_cards_by_hand() -> None:
    # By hand, from the layouts: Tripoley's stage one reads the five heart honours (card
    # spaces A, K, Q, J, 10), the K and Q of hearts (the combination) and each suit's
    # 8-9-10 (the run); Poch's, once diamonds are trumps, the A K Q J 10 of diamonds (the
    # honours) and the K Q again (the marriage), the sequence read from the masks
    from stops.phases.settle import ClaimHeldPhase

    def named(codes: str) -> set[int]:
        return {int(c) for c in stops.parse_cards(codes.split())}

    variant = stops.load_variant("tripoley")
    phase = next(p for p in variant.phases if isinstance(p, ClaimHeldPhase))
    deal = stops.Table(variant, seats=4, seed=1, chips=100).new_deal()
    got = phase.policy.impl.held_cards(deal, phase.policy.params)
    assert got is not None
    assert set(got) == named("AH KH QH JH TH 8C 9C TC 8D 9D TD 8H 9H 8S 9S TS")
    variant = stops.load_variant("poch")
    phase = next(p for p in variant.phases if isinstance(p, ClaimHeldPhase))
    for seed in range(40):
        deal = stops.Table(variant, seats=4, seed=seed, chips=100).new_deal()
        while deal.phase != "vying" and deal.to_act is not None:
            deal.apply(deal.legal_actions()[0])
        if deal.last_dealt >= 0 and deal.last_dealt // 13 == 1:  # diamonds turned up
            break
    else:
        raise AssertionError("no deal of the first forty turned up a diamond")
    got = phase.policy.impl.held_cards(deal, phase.policy.params)
    assert got is not None and sorted(got) == sorted(
        int(c) for c in stops.parse_cards(["AD", "KD", "QD", "JD", "TD", "KD", "QD"]))
