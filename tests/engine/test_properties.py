"""Invariants over random deals of every built-in variant and seat count (hypothesis)."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given
from hypothesis import strategies as st

import stops
from stops.engine.actions import Action
from stops.testing import snapshot
from tiers import campaign

BUILTINS = stops.list_variants()
SETTINGS = campaign(60, suppress=[HealthCheck.too_slow])


def seats_for(name: str) -> st.SearchStrategy[int]:
    lo, hi = stops.load_variant(name).players
    return st.integers(lo, hi)


@st.composite
def games(draw: st.DrawFn) -> tuple[str, int, int, int]:
    name = draw(st.sampled_from(BUILTINS))
    seats = draw(seats_for(name))
    return name, seats, draw(st.integers(0, 2**32)), draw(st.integers(0, 2**32))


def play(deal: stops.Deal, rng: random.Random, budget: int = 5000) -> int:
    steps = 0
    while not deal.is_terminal:
        legal = deal.legal_actions()
        assert len(legal) > 0, "no legal action before the end of the deal"
        deal.apply(legal[rng.randrange(len(legal))])
        steps += 1
        assert steps < budget, "deal did not terminate"
    return steps


@SETTINGS
@given(games())
def test_chips_conserved_and_sessions_end(game: tuple[str, int, int, int]) -> None:
    name, seats, seed, agent = game
    table = stops.Table(name, seats=seats, chips=30, seed=seed, deals=6)
    total = table.total_chips()
    rng = random.Random(agent)
    while not table.is_over:
        deal = table.new_deal()
        while not deal.is_terminal:
            legal = deal.legal_actions()
            assert len(legal) > 0
            deal.apply(legal[rng.randrange(len(legal))])
            assert sum(deal.ledger.stacks) + sum(deal.ledger.layout.values()) == total
        # cards conserved: hands + spare + played = the pack
        held = sum(deal.counts)
        assert held + len(deal.spare) + len(deal.plays) == len(deal.variant.deck)
        assert table.total_chips() == total
    assert table.deals_played <= 6


@SETTINGS
@given(games(), st.integers(0, 10**6))
def test_illegal_actions_change_nothing(game: tuple[str, int, int, int], probe: int) -> None:
    name, seats, seed, agent = game
    table = stops.Table(name, seats=seats, chips=30, seed=seed)
    deal = table.new_deal()
    rng = random.Random(agent)
    prng = random.Random(probe)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        bad = _illegal_candidates(deal, prng)
        # one snapshot per step: each refusal must leave the deal as it was before the first
        # (a change by any of them fails the comparison right after it)
        before = snapshot(deal)
        for a in bad:
            if a in legal:
                continue
            with pytest.raises(stops.IllegalAction) as info:
                deal.apply(a)
            assert info.value.code
            assert snapshot(deal) == before
        deal.apply(legal[rng.randrange(len(legal))])
    with pytest.raises(stops.IllegalAction) as over:
        deal.apply({"seat": 0, "action": "keep"})
    assert over.value.code == "deal_over"


def _illegal_candidates(deal: stops.Deal, rng: random.Random) -> list[Any]:
    seat = deal.current_seat
    assert seat is not None
    other = (seat + 1) % deal.n
    card = stops.CARDS[rng.randrange(52)]
    out: list[Any] = [
        Action(other, "keep"),
        Action(seat, "lead", card=card),
        Action(seat, "bid", chips=rng.randrange(-3, 200)),
        Action(seat, "raise", chips=rng.randrange(0, 30)),
        Action(seat, "fold"),
        Action(seat, "swap"),
        Action(99, "pass"),
        {"seat": seat, "action": "lead", "card": "ZZ"},
        {"seat": seat, "action": "dance"},
        {"seat": "x", "action": "keep"},
        {"seat": seat, "action": "stake", "space": "nowhere", "chips": 1},
        {"seat": seat, "action": "select", "cards": ["AS"]},
    ]
    return out


@SETTINGS
@given(games())
def test_same_seed_same_game_and_replay(game: tuple[str, int, int, int]) -> None:
    name, seats, seed, agent = game
    records = []
    for _ in range(2):
        table = stops.Table(name, seats=seats, chips=30, seed=seed)
        deal = table.new_deal()
        play(deal, random.Random(agent))
        records.append(deal.record())
    assert records[0] == records[1]
    replayed = stops.replay(records[0])
    assert replayed.record() == records[0]
    assert replayed.stacks == tuple(records[0]["result"]["stacks"])


@SETTINGS
@given(games())
def test_records_with_forced_decisions_omitted_replay(game: tuple[str, int, int, int]) -> None:
    name, seats, seed, agent = game
    table = stops.Table(name, seats=seats, chips=30, seed=seed)
    deal = table.new_deal()
    forced: list[bool] = []
    rng = random.Random(agent)
    while not deal.is_terminal:
        legal = deal.legal_actions()
        forced.append(len(legal) == 1)
        deal.apply(legal[rng.randrange(len(legal))])
    rec = deal.record()
    rec["actions"] = [a for a, f in zip(rec["actions"], forced, strict=True) if not f]
    again = stops.replay(rec)
    assert again.plays == deal.plays
    assert again.stacks == deal.stacks


@SETTINGS
@given(games())
def test_views_show_only_what_a_seat_may_know(game: tuple[str, int, int, int]) -> None:
    name, seats, seed, agent = game
    table = stops.Table(name, seats=seats, chips=30, seed=seed)
    deal = table.new_deal()
    rng = random.Random(agent)
    while not deal.is_terminal:
        for s in range(seats):
            obs = deal.observe(s)
            own = set(obs.hand)
            played = {c for _, c in deal.plays}
            for e in obs.events:
                if e.visible_to is not None:
                    assert s in e.visible_to
                if e.kind in ("dealt", "spare_swapped", "selected") and e.cards:
                    assert e.seat == s
            assert obs.spare is None or s in deal.spare_known
            assert obs.legal_actions == () or deal.current_seat == s
            assert own <= set(deal.hand(s))
            assert played.isdisjoint(own)
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])


@campaign(25, suppress=[HealthCheck.too_slow])
@given(games())
def test_every_session_ends(game: tuple[str, int, int, int]) -> None:
    """Sessions end by the variant's own rule (10 deals, or every space retired)."""
    name, seats, seed, agent = game
    table = stops.Table(name, seats=seats, chips=30, seed=seed)
    total = table.total_chips()
    rng = random.Random(agent)
    while not table.is_over:
        play(table.new_deal(), rng)
        assert table.total_chips() == total
        assert table.deals_played < 500, "session did not end"
    with pytest.raises(stops.SessionOver):
        table.new_deal()
    assert sorted(s for s, _, _ in table.standings()) == list(range(seats))
