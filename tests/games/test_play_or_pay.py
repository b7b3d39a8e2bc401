"""Hand-derived tests for Play or Pay (`play-or-pay`, FAMILY-RULINGS-2 G.7, G38-G40, G.0
items 6, 7 and 18, G.11 item 5).

Every deal is stacked and written as an ownership grid: for each suit one digit per rank in
the order 2 3 4 5 6 7 8 9 T J Q K A, naming the seat that holds the card. The whole pack is
dealt, no spare; the ``52 mod n`` seats nearest the dealer's left get one card more (3
players, dealer 0: seat 1 18 cards, seats 2 and 0 17; 4 players: 13 each).

The game (G.7): everyone stakes 1 chip into `pot`, and 1 more if his hand will be smaller
than the largest (G.0 item 18). The dealer's left leads any card; then one card a turn,
clockwise: the player on turn must play the next card up in the suit (K then A then 2) if he
holds it, else he is passed over and pays 1 chip into the pot (`pass_fine: 1`); a seat due to
lead never pays. When the turn comes back to the player who laid the last card he too must
play the needed card if he holds it (`on_return: continue`). The sequence ends at once when
the next card is in no hand: after the thirteenth card of the suit, or when it has been
played (G.11 item 5); its player leads any card. The first out takes the pot (`kitty_only`).
50 chips each.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

import stops
import support
from support import (
    expect_illegal,
    make_record,
    nonzero,
    nonzero_spaces,
    plays,
    skip_unless_built,
)
from support import lead_decision as L
from support import plays_written as P

VARIANT = "play-or-pay"

pytestmark = skip_unless_built(VARIANT)

grid = partial(support.grid, pack_size=52)
record = partial(make_record, VARIANT)


def fines(deal: stops.Deal) -> list[tuple[int | None, int]]:
    """The fines paid so far, in order: (seat, chips) of each ``paid`` event."""
    return [(e.seat, e.chips) for e in deal.events if e.kind == "paid"]


def passed_over(deal: stops.Deal) -> list[tuple[int | None, int]]:
    """Each seat passed over, with the fine its event carries."""
    return [(e.seat, e.chips) for e in deal.events if e.kind == "passed_over"]


def replay(hands: list[list[str]], actions: list[dict[str, Any]], **kw: Any) -> stops.Deal:
    """The deal after ``actions`` and every forced play that follows them (one legal
    choice), up to the next real decision."""
    deal = stops.replay(record(hands, [], actions, **kw), partial=True)
    while not deal.is_terminal and len(deal.legal_actions()) == 1:
        deal.apply(deal.legal_actions()[0])
    return deal


# -- DEAL_A: 3 players, dealer 0 (seat 1 18 cards, seats 2 and 0 17) --------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   0 1 2 0 1 2 0 1 2 0 1 2 0
# diams   0 1 2 0 1 2 0 1 2 0 1 2 0
# hearts  2 2 0 1 1 0 2 1 1 0 2 2 0
# spades  1 1 2 0 1 2 0 1 2 0 1 2 1
#
# hearts: seat 0 4H 7H JH AH; seat 1 5H 6H 9H TH; seat 2 2H 3H 8H QH KH.
HANDS_A, _ = grid({"C": "0 1 2 0 1 2 0 1 2 0 1 2 0",
                   "D": "0 1 2 0 1 2 0 1 2 0 1 2 0",
                   "H": "2 2 0 1 1 0 2 1 1 0 2 2 0",
                   "S": "1 1 2 0 1 2 0 1 2 0 1 2 1"}, (17, 18, 17), 0)

# Stakes (G.0 item 18): seat 1 (18 cards, the largest hand) 1 chip; seats 2 and 0 (17) 1 + 1.
# Pot 5; stacks seat 0 48, seat 1 49, seat 2 48.
#
# The hearts under on_return: continue (the default), seat 1 leading 9H:
#  after 9H (last 1, need TH, seat 1's): seat 2 fined, seat 0 fined, seat 1 (back to him)
#    must play TH.
#  after TH (need JH, seat 0's): seat 2 fined; seat 0 plays JH.
#  after JH (need QH, seat 2's): seat 1 fined; seat 2 plays QH.
#  after QH (need KH, seat 2's): seat 0 fined, seat 1 fined; seat 2 (back to him) plays KH.
#  after KH (need AH, seat 0's): seat 0 plays AH (round the corner).
#  after AH (need 2H, seat 2's): seat 1 fined; seat 2 plays 2H.
#  after 2H (need 3H, seat 2's): seat 0 fined, seat 1 fined; seat 2 plays 3H.
#  after 3H (need 4H): seat 0 plays 4H. after 4H (need 5H): seat 1 plays 5H.
#  after 5H (need 6H, seat 1's): seat 2 fined, seat 0 fined; seat 1 plays 6H.
#  after 6H (need 7H, seat 0's): seat 2 fined; seat 0 plays 7H.
#  after 7H (need 8H, seat 2's): seat 1 fined; seat 2 plays 8H, the thirteenth heart (the next,
#    9H, is played): a stop, and seat 2 leads at once; nobody is fined for it.
# Fines: seat 2 TH JH 6H 7H = 4; seat 0 TH KH 3H 6H = 4; seat 1 QH KH 2H 3H 8H = 5; 13 in all.
# Pot 5 + 13 = 18; stacks 44, 44, 44 (3 * 44 + 18 = 150).
A_HEARTS = P("1:9H 1:TH 0:JH 2:QH 2:KH 0:AH 2:2H 2:3H 0:4H 1:5H 1:6H 0:7H 2:8H")
A_FINES = [(2, 1), (0, 1), (2, 1), (1, 1), (0, 1), (1, 1), (1, 1), (0, 1), (1, 1), (2, 1),
           (0, 1), (2, 1), (1, 1)]


def test_short_hands_stake_one_more() -> None:
    # G.0 item 18, derived above: seat 1 (18 cards) 1 chip, seats 0 and 2 (17) 2 each.
    deal = replay(HANDS_A, [])
    assert nonzero(deal) == {"pot": 5}
    assert list(deal.stacks) == [48, 49, 48]
    assert deal.current_seat == 1  # the dealer's left leads


@pytest.mark.parametrize(("players", "dealer", "stacks", "pot"), [
    # 4 players: 13 each, nobody short: 1 chip each.
    (4, 0, [49, 49, 49, 49], 4),
    # 5 players, dealer 0: 52 = 5 * 10 + 2, seats 1 and 2 (nearest the dealer's left) 11,
    # seats 3, 4, 0 10 cards: they stake 2.
    (5, 0, [48, 49, 49, 48, 48], 8),
    # 3 players, dealer 2: seat 0 (his left) 18 cards, seats 1 and 2 17: they stake 2.
    (3, 2, [49, 48, 48], 5),
    # 8 players, dealer 7: 52 = 8 * 6 + 4: seats 0-3 7 cards, seats 4-7 6: they stake 2.
    (8, 7, [49, 49, 49, 49, 48, 48, 48, 48], 12),
])
def test_short_hand_extra_follows_the_deal_shape(players: int, dealer: int, stacks: list[int],
                                                 pot: int) -> None:
    table = stops.Table(VARIANT, seats=players, seed=3, dealer=dealer)
    deal = table.new_deal()
    assert list(deal.stacks) == stacks
    assert nonzero(deal) == {"pot": pot}
    big = max(len(deal.hand(s)) for s in range(players))
    short = [s for s in range(players) if len(deal.hand(s)) < big]
    assert short == [s for s in range(players) if stacks[s] == 48]


def test_one_card_a_turn_fines_and_the_thirteenth_card() -> None:
    deal = replay(HANDS_A, [L(1, "9H")])
    assert plays(deal) == A_HEARTS
    assert fines(deal) == A_FINES
    assert passed_over(deal) == A_FINES  # each passed_over event carries its fine
    assert [e.space for e in deal.events if e.kind == "paid"] == ["pot"] * 13
    assert nonzero(deal) == {"pot": 18}
    assert list(deal.stacks) == [44, 44, 44]
    stop = [e for e in deal.events if e.kind == "stop"]
    assert [(e.seat, str(e.card), e.note) for e in stop] == [
        (2, "8H", "the thirteenth card of its suit")]
    # seat 2 leads at once, any card he holds
    acts = support.legal(deal)
    assert {a["action"] for a in acts} == {"lead"}
    assert sorted(a["card"] for a in acts) == sorted(HANDS_A[2][i] for i in range(17)
                                                     if HANDS_A[2][i][1] != "H")


def test_the_holder_must_play_the_card_due_even_back_at_his_own_turn() -> None:
    # After 9H the turn goes round (seats 2 and 0 fined) back to seat 1, who holds TH: the one
    # legal decision is to play it; a pass and a lead are refused, and change nothing.
    deal = stops.replay(record(HANDS_A, [], [L(1, "9H")]), partial=True, fill_forced=False)
    assert deal.current_seat == 1
    assert support.legal(deal) == [{"seat": 1, "action": "play", "card": "TH"}]
    assert fines(deal) == [(2, 1), (0, 1)]
    for bad, code in [({"seat": 1, "action": "pass"}, "no_voluntary_stop"),
                      (L(1, "5H"), "must_continue"),
                      ({"seat": 1, "action": "play", "card": "5H"}, "wrong_rank")]:
        with pytest.raises(stops.IllegalAction) as err:
            deal.apply(bad)
        assert err.value.code == code
        expect_illegal(deal, bad)


def test_on_return_restart_the_last_player_leads_without_a_fine() -> None:
    # on_return: restart: after 9H seats 2 and 0 are fined; back at seat 1, due to lead, he
    # pays nothing and leads anew (TH is one of his choices). Pot 5 + 2 = 7; stacks 47 49 47.
    deal = replay(HANDS_A, [L(1, "9H")], options={"on_return": "restart"})
    assert fines(deal) == [(2, 1), (0, 1)]
    assert nonzero(deal) == {"pot": 7}
    assert list(deal.stacks) == [47, 49, 47]
    acts = support.legal(deal)
    assert {(a["seat"], a["action"]) for a in acts} == {(1, "lead")}
    assert "TH" in {a["card"] for a in acts}


def test_a_card_whose_next_card_is_played_stops_at_once_under_restart() -> None:
    # G.11 item 5, on_return: restart. 9H (seat 1): seats 2, 0 fined; seat 1 leads anew, 6H:
    # need 7H (seat 0's): seat 2 fined, seat 0 plays 7H; need 8H (seat 2's): seat 1 fined,
    # seat 2 plays 8H. The next card, 9H, is played: a stop at once, seat 2 leads; nobody is
    # fined for it (without the stop seats 0 and 1 would be passed over).
    # Fines: seat 2 2, seat 0 1, seat 1 1. Pot 5 + 4 = 9; stacks 47, 48, 46 (+9 = 150).
    deal = replay(HANDS_A, [L(1, "9H"), L(1, "6H")], options={"on_return": "restart"})
    assert plays(deal) == P("1:9H 1:6H 0:7H 2:8H")
    assert fines(deal) == [(2, 1), (0, 1), (2, 1), (1, 1)]
    assert [(e.seat, str(e.card), e.note) for e in deal.events if e.kind == "stop"] == [
        (2, "8H", "the next card has been played")]
    assert nonzero(deal) == {"pot": 9}
    assert list(deal.stacks) == [47, 48, 46]
    assert {(a["seat"], a["action"]) for a in support.legal(deal)} == {(2, "lead")}


def test_pass_fine_zero_turns_the_fines_off() -> None:
    # The same hearts as above with pass_fine: 0: the same plays, nobody pays; the pot keeps
    # the 5 staked chips and the stacks stay 48, 49, 48.
    deal = replay(HANDS_A, [L(1, "9H")], options={"pass_fine": 0})
    assert plays(deal) == A_HEARTS
    assert fines(deal) == []
    assert {c for _, c in passed_over(deal)} == {0}
    assert nonzero(deal) == {"pot": 5}
    assert list(deal.stacks) == [48, 49, 48]


def test_a_lead_is_refused_when_a_play_is_due_and_a_pass_when_a_lead_is() -> None:
    deal = replay(HANDS_A, [])
    with pytest.raises(stops.IllegalAction) as err:
        deal.apply({"seat": 1, "action": "pass"})
    assert err.value.code == "must_lead"
    expect_illegal(deal, {"seat": 1, "action": "pass"})
    expect_illegal(deal, {"seat": 1, "action": "play", "card": "9H"})


# -- DEAL_B: 4 players, dealer 0, 13 each: a deal played out -----------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   0 1 2 3 0 1 2 3 0 1 2 3 1
# diams   1 2 3 0 1 2 3 0 1 2 3 0 1
# hearts  0 3 2 0 2 3 0 1 2 3 0 2 3
# spades  1 2 3 0 1 2 3 0 1 2 3 0 1
#
# Stakes: 1 chip each (nobody short): pot 4, stacks 49.
# 1. seat 1 leads 9H (his only heart): TH (2) JH (3) QH (0); seat 1 fined (KH); KH (2) AH (3)
#    2H (0); seat 1 fined, seat 2 fined (3H); 3H (3); seat 0 fined, seat 1 fined (4H); 4H (2);
#    seat 3 fined (5H); 5H (0); seat 1 fined (6H); 6H (2) 7H (3) 8H (0): the thirteenth heart,
#    a stop; seat 0 leads. Fines: seat 1 4, seats 2, 0, 3 1 each: 7. Pot 11.
# 2. seat 0 leads 2C: 3C (1) 4C (2) 5C (3) 6C (0) 7C (1) 8C (2) 9C (3) TC (0) JC (1) QC (2)
#    KC (3); seat 0 fined (AC); AC (1): the thirteenth, a stop; seat 1 leads. Pot 12.
# 3. seat 1 leads 2D: 3D (2) 4D (3) 5D (0) ... in turn, no fines, AD (1): stop; seat 1 leads.
# 4. seat 1 leads 2S: 3S (2) 4S (3) 5S (0) 6S (1) 7S (2) 8S (3) 9S (0) TS (1) JS (2): seat 2's
#    thirteenth card (TH KH 4H 6H, 4C 8C QC, 3D 7D JD, 3S 7S JS): he goes out and takes the
#    pot, 12. Seats 0, 1, 3 still hold KS, AS, QS.
# Stacks: seat 0 49 - 1 - 1 = 47; seat 1 49 - 4 = 45; seat 2 49 - 1 + 12 = 60; seat 3 49 - 1
# = 48 (= 200).
HANDS_B, _ = grid({"C": "0 1 2 3 0 1 2 3 0 1 2 3 1",
                   "D": "1 2 3 0 1 2 3 0 1 2 3 0 1",
                   "H": "0 3 2 0 2 3 0 1 2 3 0 2 3",
                   "S": "1 2 3 0 1 2 3 0 1 2 3 0 1"}, (13, 13, 13, 13), 0)
B_LEADS = [L(1, "9H"), L(0, "2C"), L(1, "2D"), L(1, "2S")]


@pytest.mark.parametrize("on_return", ["continue", "restart"])
def test_deal_b_played_out(on_return: str) -> None:
    # In DEAL_B the turn never comes back to the player who laid the last card (at most three
    # seats are passed over in a row, 4 players), so on_return: restart plays it the same:
    # the thirteenth heart and club stop at once there too (G.11 item 5).
    deal = stops.replay(record(HANDS_B, [], B_LEADS, options={"on_return": on_return}))
    assert deal.is_terminal
    assert deal.winner == 2
    assert list(deal.stacks) == [47, 45, 60, 48]
    assert nonzero(deal) == {}
    assert [s for s, _ in fines(deal)[:8]] == [1, 1, 2, 0, 1, 3, 1, 0]
    assert sum(c for _, c in passed_over(deal)) == 8


def test_denexa_no_ante_each_opponent_pays_per_card() -> None:
    # G38 preset denexa: no stake, the same fines (8: pot 8); seat 2 goes out and takes the
    # pot and 1 chip per card from seats 0, 1, 3 (one card each). Stacks: seat 0 50 - 2 - 1 =
    # 47; seat 1 50 - 4 - 1 = 45; seat 2 50 - 1 + 8 + 3 = 60; seat 3 50 - 1 - 1 = 48: the same
    # chips as the default, as G38 says.
    deal = stops.replay(record(HANDS_B, [], B_LEADS, options={"denexa": True}))
    assert not [e for e in deal.events if e.kind == "staked"]
    assert deal.winner == 2
    assert list(deal.stacks) == [47, 45, 60, 48]
    assert nonzero(deal) == {}


def test_a_record_replays_to_the_same_deal() -> None:
    deal = stops.replay(record(HANDS_B, [], B_LEADS))
    again = stops.replay(deal.record())
    assert again.stacks == deal.stacks and plays(again) == plays(deal)


@pytest.mark.parametrize("options", [{}, {"denexa": True}, {"on_return": "restart"}])
def test_whole_sessions_conserve_chips(options: dict[str, Any]) -> None:
    # Fines are compulsory and may drive a stack below zero (debt): every chip staked or
    # fined is in the pot until the first player out takes it, so stacks plus pot stay 250.
    from stops.bots import make_bot, play_deal

    table = stops.Table(VARIANT, seats=5, seed=7, options=options)
    bots = [make_bot("heuristic" if s % 2 else "random", seed=s) for s in range(5)]
    while not table.is_over:
        deal = table.new_deal()
        play_deal(deal, bots)
        assert deal.winner is not None
        assert sum(table.stacks) + sum(dict(table.layout).values()) == 250
    assert nonzero_spaces(table.layout) == {}


@pytest.mark.parametrize(("options", "key"), [
    ({"fine_space": "kitty"}, "fine_space"),
    ({"pass_fine": -1}, "pass_fine"),
    ({"short_hand_extra": -1}, "short_hand_extra"),
    ({"successor": {"use": "same_suit_wrap", "missing_ranks": "skip"}}, "missing_ranks"),
])
def test_bad_options_are_refused_naming_the_key(options: dict[str, Any], key: str) -> None:
    with pytest.raises(stops.VariantError) as err:
        stops.load_variant(VARIANT, options)
    assert key in str(err.value)


def test_the_flat_options_reach_their_rules() -> None:
    # short_hand_extra: 0 (the denexa stake without the preset): 3 players, 1 chip each.
    deal = replay(HANDS_A, [], options={"short_hand_extra": 0})
    assert nonzero(deal) == {"pot": 3}
    # pass_fine: 2: the hearts of DEAL_A fine 13 passes 2 chips each: pot 5 + 26 = 31;
    # stacks 48 - 8, 49 - 10, 48 - 8.
    deal = replay(HANDS_A, [L(1, "9H")], options={"pass_fine": 2})
    assert nonzero(deal) == {"pot": 31}
    assert list(deal.stacks) == [40, 39, 40]
