"""The per-decision shortcuts of issue 24 (session 11) give what the general path gives.

``Deal.apply`` asks a ``FixedActions`` legal set directly (not through ``in``); the play
phase offers the lead to the player of a stop inline (``seek_leader``'s first step) and
reads its stop events from a table; ``play_random`` writes ``Rng.below``'s rejection loop
out. Each is held here to the general path at every decision of random deals of every
built-in: the same legal sets, the same refusals with the same codes, the same leads, the
same draws. (``benchmarks/fingerprint.py`` holds every built-in's events and records to the
digests taken before, in both builds.)
"""

from __future__ import annotations

import pytest

import stops
from stops.apps.playout import play_random
from stops.engine.actions import Action, leads_of
from stops.engine.cards import parse_card
from stops.engine.errors import IllegalAction
from stops.engine.eventkind import EventKind
from stops.engine.rng import Rng
from stops.phases.play import PlayPhase, PlayState

BUILTINS = stops.list_variants()


def _seats(name: str) -> list[int]:
    lo, hi = stops.load_variant(name).players
    return sorted({lo, min(hi, 5)})


def _candidates(deal: stops.Deal, rng: Rng) -> list[Action]:
    """Decisions to put to ``apply`` besides the legal ones: a lead of three cards of the
    pack by the seat to act (most held by others, or played), and the first legal decision
    made by the next seat."""
    seat = deal.to_act
    assert seat is not None
    row = leads_of(seat)
    out = [row[rng.below(52)] for _ in range(3)]
    first = deal.legal_actions()[0]
    out.append(Action((seat + 1) % deal.n, first.action, card=first.card, chips=first.chips,
                      space=first.space, flags=first.flags))
    return out


def _check_lead(deal: stops.Deal, before: int) -> int:
    """If the last decision ended in a stop whose player was offered the lead at once (no
    event after the stop: the inline step), the general ``seek_leader`` offers the same
    lead from the same position; returns 1 if a lead was checked."""
    if deal.to_act is None or deal.phase != "play":
        return 0
    phase = deal.variant.phases[deal.phase_idx]
    assert isinstance(phase, PlayPhase)
    new = deal.events[before:]
    if not new or new[-1].kind != EventKind.STOP or phase.turns is not None:
        return 0
    stop = new[-1]
    assert stop.seat is not None and stop.card is not None
    st = deal.state(PlayState)
    assert st.lead is not None
    other = deal.clone()
    other.state(PlayState).lead = None
    other.to_act = None
    kept = len(other.events)
    assert phase.seek_leader(other, stop.seat, int(stop.card) // 13) is True
    assert other.events[kept:] == []  # the player of the stop leads: nobody passes
    assert other.to_act == deal.to_act == stop.seat
    assert other.state(PlayState).lead == st.lead
    assert list(other.legal_actions()) == list(deal.legal_actions())
    assert list(phase.legal(deal)) == list(deal.legal_actions())
    return 1


@pytest.mark.parametrize("name", BUILTINS)
def test_every_decision_takes_the_general_paths_answers(name: str) -> None:
    rng = Rng(7)
    leads = 0
    for n in _seats(name):
        table = stops.Table(name, seats=n, seed=3)
        for _ in range(2):
            if table.is_over:
                break
            deal = table.new_deal()
            while deal.to_act is not None:
                legal = deal.legal_actions()
                # every legal decision is taken by apply's direct membership test ...
                assert all(deal.can(a) for a in legal)
                # ... and every other is refused, with the code explain gives, changing
                # nothing
                for a in _candidates(deal, rng):
                    if a in legal:
                        continue
                    size, why = len(deal.events), deal.explain(a)
                    assert isinstance(why, IllegalAction)
                    with pytest.raises(IllegalAction) as refused:
                        deal.apply(a)
                    assert refused.value.code == why.code
                    assert len(deal.events) == size and deal.legal_actions() == legal
                before = len(deal.events)
                deal.apply(legal[rng.below(len(legal))])
                leads += _check_lead(deal, before)
    played = stops.load_variant(name).policy("turn_order").name == "holder"
    if played and "play" in stops.load_variant(name).flow:
        assert leads > 0  # the inline lead was met and checked


@pytest.mark.parametrize("name", ["boodle", "three-in-one", "newmarket", "pope-joan"])
def test_play_random_draws_as_below_does(name: str) -> None:
    # The general path: legal[rng.below(len(legal))] at every decision, through the public
    # step API; play_random, with the rejection loop written out, must make the very same
    # decisions (the same draws from the same generator, in the same order).
    a = stops.Table(name, seats=4, seed=5)
    b = stops.Table(name, seats=4, seed=5)
    ra, rb = Rng(9), Rng(9)
    for _ in range(4):
        if a.is_over:
            break
        da, db = a.new_deal(), b.new_deal()
        made = play_random(da, ra)
        count = 0
        while db.to_act is not None:
            legal = db.legal_actions()
            db.apply(legal[rb.below(len(legal))])
            count += 1
        assert made == count
        assert da.events == db.events
    assert a.stacks == b.stacks
    assert ra.below(1 << 20) == rb.below(1 << 20)  # both generators at the same point


def test_a_stop_event_names_its_reason_by_hand() -> None:
    # Boodle, 3 seats, stacked (the whole pack): seat 0 holds 2C-4C, 2D 3D, 2S-9S; seat 1
    # 5C-7C, 4D 5D, 2H-4H, TS-AS; seat 2 6D-AD, 5H-8H; the spare hand 8C-AC, 9H-AH.
    # By hand: seat 1 leads 5C (the dealer, seat 0 at seed 1, has seat 1 on his left);
    # he holds 6C and 7C, so the run is 5C 6C 7C, and 7C is a stop because 8C is in the
    # spare hand (its reason names the spare hand by the variant's word for it). Seat 1
    # played the stop, so he leads again, and any_suit offers the lowest card of each suit
    # he holds: 4D, 2H, TS.
    table = stops.Table("boodle", seats=3, seed=1)
    deal = table.new_deal(
        hands=[["2C", "3C", "4C", "2D", "3D", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S"],
               ["5C", "6C", "7C", "4D", "5D", "2H", "3H", "4H", "TS", "JS", "QS", "KS", "AS"],
               ["6D", "7D", "8D", "9D", "TD", "JD", "QD", "KD", "AD", "5H", "6H", "7H", "8H"]],
        spare=["8C", "9C", "TC", "JC", "QC", "KC", "AC", "9H", "TH", "JH", "QH", "KH", "AH"])
    while deal.phase != "play":
        deal.apply(deal.legal_actions()[0])
    assert deal.dealer == 0 and deal.to_act == 1
    before = len(deal.events)
    deal.apply(leads_of(1)[int(parse_card("5C"))])
    run = deal.events[before:]
    assert [(e.kind, e.seat, str(e.card)) for e in run] == [
        (EventKind.LED, 1, "5C"), (EventKind.PLAYED, 1, "6C"), (EventKind.PLAYED, 1, "7C"),
        (EventKind.STOP, 1, "7C")]
    assert run[-1].note == f"the next card is in the {deal.variant.spare_name}"
    assert deal.to_act == 1
    assert sorted(str(a.card) for a in deal.legal_actions()) == ["2H", "4D", "TS"]
    # then seat 1 leads 4D: 4D 5D (his), 6D-AD (seat 2's): AD is the top of its suit
    deal.apply(leads_of(1)[int(parse_card("4D"))])
    stop = deal.events[-1]
    assert stop.kind == EventKind.STOP and str(stop.card) == "AD" and stop.seat == 2
    assert stop.note == deal.variant.phases[deal.phase_idx].stop_reason[int(parse_card("AD"))]
    assert deal.to_act == 2
    assert sorted(str(a.card) for a in deal.legal_actions()) == ["5H"]


def test_a_copied_rng_draws_on_as_the_original() -> None:
    # A copy of an Rng (deepcopy, or a pickle's round trip) must draw what the original would
    # draw next, through ``below``, ``shuffle`` and the playout's ``bits()`` alike: a bound
    # method kept on
    # the Rng would be copied apart from its generator by deepcopy, so that ``below``
    # and ``shuffle`` drew from two generators.
    import copy
    import pickle

    for copier in (copy.deepcopy, lambda r: pickle.loads(pickle.dumps(r))):
        a = Rng(5)
        a.below(10)
        b = copier(a)
        want = [a.below(1000) for _ in range(4)] + [a.bits()(12) for _ in range(4)]
        got = [b.below(1000) if i < 4 else b.bits()(12) for i in range(8)]
        assert got == want
        # and every way of drawing goes on from the one generator, shuffles included
        mixed = copier(b)
        seq_b, seq_m = list(range(9)), list(range(9))
        b.below(90)
        b.shuffle(seq_b)
        mixed.below(90)
        mixed.shuffle(seq_m)
        assert seq_m == seq_b
        assert [mixed.bits()(7), mixed.below(90)] == [b.bits()(7), b.below(90)]
