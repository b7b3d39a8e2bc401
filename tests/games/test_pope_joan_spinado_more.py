"""More tests for Pope Joan and Spinado (docs/family-rulings.md F.2, F.4, F.6), beside the
hand-derived files: the dead hand seen by the dealer alone (a property over random deals),
the ``turn_up`` and ``exempt`` record keys (echoed, checked, bad values refused with the key
named), the turn-up of a shuffled deal, saves that remember the last winner, the session's
one deal per player, and the rules text.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import stops
from stops.engine.eventkind import EventKind
from stops.games.pope_joan import Trumps
from stops.rules.prose import rules_text
from tiers import campaign

GAMES = ("pope-joan", "spinado")
SETTINGS = campaign(40)


def _random_play(deal: stops.Deal, rng: random.Random, steps: int | None = None) -> None:
    k = 0
    while not deal.is_terminal and (steps is None or k < steps):
        legal = deal.legal_actions()
        deal.apply(legal[rng.randrange(len(legal))])
        k += 1


# -- the dead hand (widow) is seen by the dealer only -------------------------------------------


@SETTINGS
@given(st.sampled_from(GAMES), st.data(), st.integers(0, 2**32), st.integers(0, 2**32))
def test_no_view_but_the_dealers_shows_the_dead_hand(name: str, data: Any, seed: int,
                                                    agent: int) -> None:
    lo, hi = stops.load_variant(name).players
    seats = data.draw(st.integers(lo, hi))
    table = stops.Table(name, seats=seats, chips=40, seed=seed)
    deal = table.new_deal()
    rng = random.Random(agent)
    turned = {deal.last_dealt} if name == "pope-joan" else set()
    dead = {int(c) for c in deal.dealt_spare} - turned
    while True:
        for s in range(seats):
            view = deal.observe(s)
            shown = {int(c) for c in view.spare or ()}
            named = {int(e.card) for e in view.events if e.card is not None}
            for e in view.events:
                named.update(int(c) for c in e.cards)
            if s == deal.dealer:
                assert shown == {int(c) for c in deal.dealt_spare}
            else:
                assert view.spare is None
                assert not (named & dead), (s, named & dead)   # no event names a dead card
            assert json.dumps(view.to_dict())  # the JSON view is plain data
        if deal.is_terminal:
            break
        _random_play(deal, rng, 1)


def test_spare_seen_by_is_a_general_deal_setting() -> None:
    # Boodle's spare hand, seen by the dealer with spare_seen_by: dealer, by nobody by default.
    plain = stops.Table("boodle", seats=4, seed=3).new_deal()
    assert all(plain.observe(s).spare is None for s in range(4))
    seen = stops.Table("boodle", seats=4, seed=3, dealer=2,
                       options={"spare_seen_by": "dealer"}).new_deal()
    assert seen.observe(2).spare is not None and seen.observe(1).spare is None


# -- the turn-up of a shuffled deal -----------------------------------------------------------


@pytest.mark.parametrize("shape", ["equal_plus_dead", "n_plus_one"])
def test_shuffled_turn_up_is_the_last_card_dealt_and_replays(shape: str) -> None:
    for seed in range(6):
        table = stops.Table("pope-joan", seats=5, chips=40, seed=seed,
                            options={"deal_shape": shape})
        deal = table.new_deal()
        up = deal.events[[e.kind for e in deal.events].index(EventKind.TURNED_UP)]
        assert up.visible_to is None and up.card is not None
        assert int(up.card) == deal.last_dealt and up.card in deal.dealt_spare
        trumps = deal.result(Trumps)
        assert trumps is not None and trumps.suit == int(up.card) // 13
        rec = deal.record()
        assert rec["turn_up"] == str(up.card)
        _random_play(deal, random.Random(seed))
        again = stops.replay(deal.record())
        assert again.plays == deal.plays and again.stacks == deal.stacks


def test_turn_up_key_only_where_a_card_is_turned_up() -> None:
    spinado = stops.Table("spinado", seats=4, seed=1).new_deal()
    assert "turn_up" not in spinado.record()
    rec = spinado.record()
    rec["turn_up"] = rec["spare"][0]
    with pytest.raises(stops.RecordError, match="turn_up"):
        stops.replay(rec)


@pytest.mark.parametrize("bad", [5, ["2H"], "ZZ"])
def test_a_malformed_turn_up_is_refused_naming_the_key(bad: Any) -> None:
    deal = stops.Table("pope-joan", seats=4, seed=2).new_deal()
    rec = deal.record()
    rec["turn_up"] = bad
    with pytest.raises(stops.RecordError, match="turn_up"):
        stops.replay(rec)


def test_new_deal_checks_the_turn_up() -> None:
    deal = stops.Table("pope-joan", seats=4, seed=2).new_deal()
    hands = [[str(c) for c in h] for h in deal.dealt_hands]
    spare = [str(c) for c in deal.dealt_spare]
    t = stops.Table("pope-joan", seats=4, seed=2)
    with pytest.raises(stops.TableError, match="turn_up"):
        t.new_deal(hands=hands, spare=spare)                     # a stacked deal needs it
    with pytest.raises(stops.TableError, match="turn_up"):
        t.new_deal(hands=hands, spare=spare, turn_up=hands[0][0])  # not a dead card
    with pytest.raises(stops.TableError, match="turn_up"):
        t.new_deal(turn_up=spare[0])                             # the shuffle deals it
    d = t.new_deal(hands=hands, spare=spare, turn_up=spare[3])
    assert d.result(Trumps) == Trumps(int(stops.parse_card(spare[3])),
                                      int(stops.parse_card(spare[3])) // 13)


# -- exempt seats (F33) -----------------------------------------------------------------------


@pytest.mark.parametrize("bad", [[9], [-1], ["2"], [1, 1], 3, [True]])
def test_bad_exempt_values_are_refused_naming_the_key(bad: Any) -> None:
    deal = stops.Table("spinado", seats=4, seed=2).new_deal()
    rec = deal.record()
    rec["exempt"] = bad
    with pytest.raises(stops.RecordError, match="exempt"):
        stops.replay(rec)
    with pytest.raises(stops.TableError, match="exempt"):
        stops.Table("spinado", seats=4, seed=2).new_deal(exempt=bad)


def test_the_exempt_seat_is_echoed_and_replays() -> None:
    table = stops.Table("spinado", seats=3, chips=40, seed=4, dealer=0)
    deal = table.new_deal(exempt=[2])
    assert deal.record()["exempt"] == [2]
    assert deal.stacks == (16, 37, 40)        # dealer 24, seat 1 3 on game, seat 2 nothing
    _random_play(deal, random.Random(1))
    assert stops.replay(deal.record()).stacks == deal.stacks


def test_a_save_remembers_the_last_winner() -> None:
    table = stops.Table("spinado", seats=3, chips=40, seed=8, dealer=0)
    _random_play(table.new_deal(), random.Random(2))
    winner = table.last_winner
    assert winner is not None
    saved = json.loads(json.dumps(table.to_dict()))
    assert saved["last_winner"] == winner
    restored = stops.Table.from_dict(saved)
    assert restored.last_winner == winner
    a, b = table.new_deal(), restored.new_deal()
    want = [] if winner == table.dealer else [winner]
    assert a.record().get("exempt", []) == b.record().get("exempt", []) == want
    # a deal in progress restores with its exempt seat
    _random_play(a, random.Random(3), steps=2)
    again = stops.Table.from_dict(json.loads(json.dumps(table.to_dict())))
    assert again.deal is not None and again.deal.exempt == a.exempt
    saved = table.to_dict()
    saved["last_winner"] = 7
    with pytest.raises(stops.RecordError, match="last_winner"):
        stops.Table.from_dict(saved)


def test_pope_joan_exempts_nobody() -> None:
    table = stops.Table("pope-joan", seats=3, chips=40, seed=8, dealer=0)
    _random_play(table.new_deal(), random.Random(2))
    assert "exempt" not in table.new_deal().record()


# -- sessions ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("name", "seats"), [("pope-joan", 4), ("spinado", 2), ("spinado", 5)])
def test_one_deal_per_player(name: str, seats: int) -> None:
    table = stops.Table(name, seats=seats, chips=60, seed=5)
    dealers = []
    while not table.is_over:
        deal = table.new_deal()
        dealers.append(deal.dealer)
        _random_play(deal, random.Random(len(dealers)))
    assert dealers == list(range(seats))


def test_deals_per_player_count() -> None:
    v = stops.load_variant("boodle", options={"match_end": {"use": "deals",
                                                            "per_player": 2}})
    table = stops.Table(v, seats=3, chips=60, seed=5)
    n = 0
    while not table.is_over:
        _random_play(table.new_deal(), random.Random(n))
        n += 1
    assert n == 6
    assert "so that everyone deals twice" in rules_text(v)


# -- words ------------------------------------------------------------------------------------


def test_rules_text_never_calls_a_trump_compartment_the_pot() -> None:
    for name in ("pope-joan", "pope-joan-parlett", "pope-joan-cassell"):
        text = rules_text(stops.load_variant(name))
        assert "pot" not in text.replace("spot", "").split(), name
        assert "the pot" not in text
        assert "turned face up; its suit is trumps" in text
        assert "the ace, King, Queen or Jack of trumps" in text


def test_variations_differ_as_their_rulings_say() -> None:
    p = stops.load_variant("pope-joan-parlett")
    assert (p.rules.ace, p.settings("deal").shape) == ("high", "n_plus_one")
    assert p.policy("after_stop").params.lead_rule == "lowest_of_suit"
    assert stops.load_variant("pope-joan-cassell").settings("turn_up").pope_turn_up == \
        "game_and_per_card"
    assert stops.load_variant("spinado-parlett").policy("going_out_reward").name == "parlett"
    assert stops.load_variant("spinado-cassell").policy("stake_rule").name == "cassell"


def test_stops_check_is_clean() -> None:
    from stops.rules.checks import check_file, hint_lines
    from stops.rules.loader import builtin_dir

    for name in ("pope-joan", "spinado", "pope-joan-parlett", "pope-joan-cassell",
                 "spinado-parlett", "spinado-cassell"):
        path = builtin_dir() / f"{name}.yaml"
        assert check_file(path) == [], name
        assert hint_lines(path) == [], name


# -- the terminal game --------------------------------------------------------------------------


def test_terminal_shows_the_turn_up_the_trump_cards_and_the_dealers_dead_hand() -> None:
    import io

    from stops.apps.terminal import play_terminal

    out = io.StringIO()
    play_terminal(stops.load_variant("pope-joan"), players=4, seed=3, deals=1,
                  inp=io.StringIO("1\n" * 400), out=out)
    text = re.sub(r"\n +", " ", out.getvalue())  # lines cut to the screen, joined again
    assert "is turned up: spades are trumps" in text
    assert "king (K♠)" in text and "matrimony = K♠+Q♠" in text
    out = io.StringIO()
    play_terminal(stops.load_variant("spinado"), players=3, seed=5, deals=1,
                  inp=io.StringIO("1\n" * 400), out=out)
    assert "Widow (only you, the dealer, see it):" in out.getvalue()
