"""Issue 13: deals that copy and share safely (clone, deepcopy, pickle, clone_for), and
fuzzing of saves and of records from untrusted sources (both builds run these)."""

from __future__ import annotations

import copy
import json
import pickle
import random
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stops
from stops.engine.errors import StopsError
from tiers import campaign

GAMES = ["boodle", "three-in-one", "pot-and-kitty", "pope-joan", "spinado", "nain-jaune",
         "comet", "newmarket", "tripoley"]
FUZZ = campaign(300)


def midway(name: str, seed: int, steps: int, seats: int = 4) -> stops.Deal:
    rng = random.Random(seed)
    deal = stops.Table(name, seats=seats, chips=40, seed=seed).new_deal()
    for _ in range(steps):
        if deal.is_terminal:
            break
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
    return deal


def play_out(deal: stops.Deal, rng: random.Random) -> None:
    while not deal.is_terminal:
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("how", ["clone", "deepcopy", "pickle"])
def test_copies_are_independent(name: str, how: str) -> None:
    for seed in range(8):
        deal = midway(name, seed, 6)
        if deal.is_terminal:
            continue
        before = list(deal.events)
        stacks = deal.stacks
        if how == "clone":
            twin = deal.clone()
        elif how == "deepcopy":
            twin = copy.deepcopy(deal)
        else:
            twin = pickle.loads(pickle.dumps(deal))
        assert twin.events == deal.events and twin.current_seat == deal.current_seat
        assert twin.legal_actions() == deal.legal_actions()
        play_out(twin, random.Random(seed))
        assert deal.events == before and deal.stacks == stacks and not deal.is_terminal
        # the original plays on exactly as a fresh replay of its own record would
        again = stops.replay(deal.record(), partial=True)
        assert again.events == deal.events


def test_a_clone_plays_like_the_original() -> None:
    for seed in range(10):
        deal = midway("three-in-one", seed, 5)
        twin = deal.clone()
        play_out(deal, random.Random(seed))
        play_out(twin, random.Random(seed))
        assert twin.events == deal.events and twin.stacks == deal.stacks


def test_a_clone_does_not_touch_the_table() -> None:
    table = stops.Table("boodle", seats=4, seed=3)
    deal = table.new_deal()
    twin = deal.clone()
    play_out(twin, random.Random(1))
    assert table.deals_played == 0 and table.deal is deal


@pytest.mark.parametrize("name", GAMES)
def test_clone_for_keeps_what_the_seat_has_seen(name: str) -> None:
    for seed in range(12):
        deal = midway(name, seed, 4 + seed % 5)
        if deal.is_terminal:
            continue
        for seat in range(deal.n):
            imagined = deal.clone_for(seat, random.Random(seed * 7 + seat))
            assert imagined.hand(seat) == deal.hand(seat)
            assert imagined.counts == deal.counts
            assert len(imagined.spare) == len(deal.spare)
            assert imagined.plays == deal.plays
            assert imagined.current_seat == deal.current_seat
            view, real = imagined.observe(seat), deal.observe(seat)
            assert view.hand == real.hand and view.events == real.events
            assert view.legal_actions == real.legal_actions
            # no card is in two places, and every card is somewhere
            held = [c for s in range(deal.n) for c in imagined.hand(s)]
            assert len(set(held)) == len(held)
            assert len(held) + len(imagined.spare) + len(imagined.plays) == len(
                deal.variant.deck)
            total = sum(deal.stacks) + sum(deal.layout.values())
            play_out(imagined, random.Random(seed))
            assert sum(imagined.stacks) + sum(imagined.layout.values()) == total


def test_clone_for_hides_the_real_hands() -> None:
    deal = midway("boodle", 1, 2, seats=5)
    rng = random.Random(0)
    differs = 0
    for _ in range(20):
        imagined = deal.clone_for(0, rng)
        differs += imagined.hand(1) != deal.hand(1)
        assert all(e.visible(0) or not e.cards for e in imagined.events)
    assert differs >= 15


def test_clone_for_validates() -> None:
    deal = midway("boodle", 1, 2)
    with pytest.raises(StopsError):
        deal.clone_for(9, random.Random(1))
    with pytest.raises(StopsError):
        deal.clone_for(0, "not an rng")


# -- fuzzing saves and untrusted records ---------------------------------------------------------

def _leaves(data: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(data, dict):
        for k, v in data.items():
            out += _leaves(v, (*prefix, k))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            out += _leaves(v, (*prefix, i))
    return out


junk = st.one_of(
    st.none(), st.booleans(), st.integers(-10**6, 10**6), st.text(max_size=8),
    st.sampled_from(["AH", "2C", "no", "/etc/passwd", "../x.yaml", "boodle", [], {}, [1, 2],
                     {"hands": 5}, 10**30, -1, 0.5]))


def _mutated(base: dict[str, Any], data: st.DataObject) -> dict[str, Any]:
    out = copy.deepcopy(base)
    paths = _leaves(out)
    for _ in range(data.draw(st.integers(1, 3))):
        path = data.draw(st.sampled_from(paths[1:]))
        target: Any = out
        try:
            for p in path[:-1]:
                target = target[p]
            if data.draw(st.booleans()) and isinstance(target, dict):
                target.pop(path[-1], None)
            else:
                target[path[-1]] = data.draw(junk)
        except (KeyError, IndexError, TypeError):
            pass
    return out


SAVES = {}
for _name in GAMES:
    _t = stops.Table(_name, seats=4, chips=40, seed=11)
    _d = _t.new_deal()
    for _ in range(7):
        if _d.is_terminal:
            break
        _d.apply(_d.legal_actions()[0])
    SAVES[_name] = (json.loads(json.dumps(_t.to_dict())), _t.total_chips())


@FUZZ
@given(name=st.sampled_from(GAMES), data=st.data())
def test_fuzzed_saves_restore_consistently_or_are_refused(name: str, data: Any) -> None:
    base, _total = SAVES[name]
    forged = _mutated(base, data)
    try:
        table = stops.Table.from_dict(forged)
    except StopsError:
        return
    # whatever restores is a consistent table: its chips add up and it plays on
    assert table.total_chips() == sum(table.start_stacks) + sum(table.start_layout.values())
    deal = table.deal
    if deal is not None:
        play_out(deal, random.Random(0))
        assert table.total_chips() == sum(table.start_stacks) + sum(
            table.start_layout.values())


RECORDS = {name: json.loads(json.dumps(midway(name, 2, 200).record())) for name in GAMES}


@FUZZ
@given(name=st.sampled_from(GAMES), data=st.data())
def test_fuzzed_untrusted_records_give_only_record_errors(name: str, data: Any) -> None:
    forged = _mutated(RECORDS[name], data)
    try:
        deal = stops.replay(forged)
    except StopsError:
        return
    assert deal.is_terminal


def test_a_variant_with_its_own_registry_pickles() -> None:
    reg = stops.default_registry().copy()
    v = stops.load_variant("boodle", registry=reg)
    again = pickle.loads(pickle.dumps(v))
    assert again.registry is not stops.default_registry()
    assert set(again.registry.policies) == set(reg.policies)
    assert again.rules == v.rules
    assert pickle.loads(pickle.dumps(stops.default_registry())) is stops.default_registry()
