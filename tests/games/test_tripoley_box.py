"""Hand-derived tests for Tripoley as the Cadaco box plays it (`tripoley`, FAMILY-RULINGS-2
G.1, G1-G9, with the G.0 mechanisms it needs: items 1-5), and for what the colour rules
(`tripoley-colours`) and `tripoley-home-table` keep of the old `tripoley`.

Deals are ownership grids (tests/support.py): per suit one character per rank
2 3 4 5 6 7 8 9 T J Q K A, a digit naming the seat that holds the card, ``x`` the dead hand.
The whole pack goes one card at a time from the dealer's left into a hand per player and the
dead hand (dealt after the dealer), the odd cards to the seats nearest the dealer's left:

* 9 players, dealer 0: 52 = 10 x 5 + 2: seats 1 and 2 hold 6, the others 5, dead hand 5.
* 4 players, dealer 0: seats 1 and 2 hold 11, seats 3 and 0 hold 10, dead hand 10.
* 2 players, dealer 0: 52 = 3 x 17 + 1: seat 1 holds 18, the dealer 17, dead hand 17.

The box's deal (G.1): stakes (1 on each of AH KH QH JH TH KQ 8-9-10 pot kitty from
everyone) -> no dead-hand decision (G5) -> stage one, claims by holding (automatic, G6) ->
one round of poker betting, the dealer first (G4), best five cards used automatically ->
stage three: the dealer leads the lowest card in his hand (G1), the holder of the next card
plays it, after a stop its player leads the lowest card in his hand (G3) -> settlement; at
the end of the session the chips left go to a single hand of poker (G7).
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from functools import partial
from typing import Any

import pytest

import stops
import support
from stops.phases.handrank import hand_key
from stops.rules.variant import variant_from_mapping
from support import act, expect_illegal, lead_choices, legal, make_record, nonzero, plays
from support import lead_decision as L
from support import plays_written as P

VARIANT = "tripoley"

pytestmark = support.skip_unless_built(VARIANT) + support.skip_unless_built(
    "tripoley-colours")

NINE = (5, 6, 6, 5, 5, 5, 5, 5, 5)  # 9 players, dealer 0
FOUR = (10, 11, 11, 10)  # 4 players, dealer 0
TWO = (17, 18)  # 2 players, dealer 0
SPACES = ("AH", "KH", "QH", "JH", "TH", "KQ", "8-9-10", "pot", "kitty")

record = partial(make_record, VARIANT, chips=200)
colours = partial(make_record, "tripoley-colours", chips=200)


def verbs(deal: stops.Deal) -> list[str]:
    return sorted({a["action"] for a in legal(deal)})


def checks(order: list[int]) -> list[dict[str, Any]]:
    return [act(s, "check") for s in order]


BOX_ORDER = [0, 1, 2, 3, 4, 5, 6, 7, 8]
"""The box's betting order with dealer 0: the dealer first, then clockwise (G4)."""


# -- BOX_A: 9 players, dealer 0 -----------------------------------------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 0 0 4 4 x x 4 4 4 1 1 1
# diams   1 1 3 3 3 3 3 0 0 5 5 5 5
# hearts  5 6 6 6 x 6 6 2 2 2 2 2 2
# spades  7 7 7 7 7 8 0 8 8 8 8 x x
#
# seat 0 (dealer): 3C 4C 9D TD 8S   lowest card 3C (he holds no 2)
# seat 1: 2C QC KC AC 2D 3D         seat 2: 9H TH JH QH KH AH (pay cards; a royal flush)
# seat 3: 4D-8D (straight flush)    seat 4: 5C 6C 9C TC JC
# seat 5: JD QD KD AD 2H            seat 6: 3H 4H 5H 7H 8H
# seat 7: 2S-6S (straight flush)    seat 8: 7S 9S TS JS QS
# dead:   7C 8C 6H KS AS            (nobody holds an 8-9-10 of one suit)
BOX_A_ROWS = {
    "C": "1 0 0 4 4 x x 4 4 4 1 1 1",
    "D": "1 1 3 3 3 3 3 0 0 5 5 5 5",
    "H": "5 6 6 6 x 6 6 2 2 2 2 2 2",
    "S": "7 7 7 7 7 8 0 8 8 8 8 x x",
}
HANDS_A, DEAD_A = support.grid(BOX_A_ROWS, NINE, 5)
# Stakes: 9 x 200 -> 191 each, 9 on every space (1800 chips in all).
# Stage one (G6, by holding): seat 2 AH KH QH JH TH and KQ: 6 x 9 = 54 -> 245. 8-9-10: none
# (7C 8C dead; 8D/9D TD, 8H/9H TH, 8S/9S TS are split): its 9 stay.
# Poker, everyone checks, the dealer first (G4): seat 2's royal flush beats the straight
# flushes of seats 3 (8 high) and 7 (6 high): pot 9 -> 254.
# Stage three (G1): the dealer leads the lowest card in his hand: 3C. 3C 4C (0) 5C 6C (4);
# 7C is in the dead hand: 6C is a stop (G5: the dead hand still makes stops). Seat 4 leads
# the lowest card in his hand (G3), 9C, of the suit just stopped: 9C TC JC are his, and JC is
# his last card: he is out (QC is seat 1's).
A_PLAYS = P("0:3C 0:4C 4:5C 4:6C 4:9C 4:TC 4:JC")
# Seat 4 takes the kitty (9) and a chip per card left (F53): seat 0 3 (9D TD 8S), seat 1 6,
# seat 2 6, seats 3 5 6 7 8 5 each: 40 -> 191 + 49 = 240. Seat 0 188, seat 1 185, seat 2
# 248, the five others 186; the 8-9-10's 9 stay: 1791 + 9 = 1800.
A_STACKS = (188, 185, 248, 186, 240, 186, 186, 186, 186)


def test_g5_g4_no_dead_hand_decision_and_the_dealer_bets_first() -> None:
    # G5: the dead hand is not used: after the stakes (and the automatic stage one) the first
    # decision is the dealer's poker bet, not a swap or an auction (G4: the dealer starts the
    # betting). Nobody else may act first.
    deal = stops.replay(record(HANDS_A, DEAD_A), partial=True)
    assert deal.stacks == (191, 191, 245, 191, 191, 191, 191, 191, 191)
    assert nonzero(deal) == {"8-9-10": 9, "pot": 9, "kitty": 9}
    assert deal.phase == "poker" and deal.current_seat == 0
    assert verbs(deal) == ["bet", "check"]
    expect_illegal(deal, act(1, "check"))
    expect_illegal(deal, act(0, "swap"))
    expect_illegal(deal, act(0, "auction"))
    for s in BOX_ORDER[:-1]:  # the dealer checks; the turn goes clockwise from his left
        assert deal.current_seat == s
        deal.apply(act(s, "check"))
    assert deal.current_seat == 8
    deal.apply(act(8, "check"))
    assert deal.phase == "play"
    assert not [e for e in deal.events if e.kind in ("spare_swapped", "auction_opened", "kept")]


def test_g4_the_dealer_bets_and_everyone_folds() -> None:
    # The dealer bets 1 (191 -> 190, pot 10); seats 1-8 fold: the betting ends with them and
    # the dealer takes the pot unseen: 200. Stage three then opens with his lowest card, 3C.
    folds = [act(0, "bet", chips=1)] + [act(s, "fold") for s in range(1, 9)]
    deal = stops.replay(record(HANDS_A, DEAD_A, folds), partial=True)
    assert deal.stacks == (200, 191, 245, 191, 191, 191, 191, 191, 191)
    assert deal.layout["pot"] == 0
    assert lead_choices(deal) == [(0, "3C")]


def test_g4_option_dealers_left_bets_first() -> None:
    deal = stops.replay(record(HANDS_A, DEAD_A, options={"first_bettor": "dealers_left"}),
                        partial=True)
    assert deal.current_seat == 1 and verbs(deal) == ["bet", "check"]
    expect_illegal(deal, act(0, "check"))


def test_g1_g3_the_dealer_leads_his_lowest_card_then_the_stopper_his() -> None:
    deal = stops.replay(record(HANDS_A, DEAD_A, checks(BOX_ORDER)), partial=True)
    assert deal.stacks == (191, 191, 254, 191, 191, 191, 191, 191, 191)
    # G1: the dealer, the lowest card in his hand (3C: not 4C, 8S, 9D or TD)
    assert lead_choices(deal) == [(0, "3C")]
    expect_illegal(deal, L(0, "8S"))
    expect_illegal(deal, L(0, "4C"))
    expect_illegal(deal, L(1, "2C"))  # the dealer's left does not lead
    with pytest.raises(stops.IllegalAction, match="lowest card in your hand"):
        deal.apply(L(0, "9D"))
    deal.apply(L(0, "3C"))
    assert plays(deal) == A_PLAYS[:4]
    stop = [e for e in deal.events if e.kind == "stop"][-1]
    assert str(stop.card) == "6C" and "dead hand" in stop.note  # G5: a dead card stops
    # G3: the player of the stop leads the lowest card in his hand, here of the suit just
    # stopped (9C, not TC or JC)
    assert lead_choices(deal) == [(4, "9C")]
    expect_illegal(deal, L(4, "JC"))


def test_box_a_to_the_end() -> None:
    deal = stops.replay(record(HANDS_A, DEAD_A, [*checks(BOX_ORDER), L(0, "3C"), L(4, "9C")]))
    assert plays(deal) == A_PLAYS
    assert deal.outcome == "went_out" and deal.winner == 4
    assert deal.stacks == A_STACKS
    assert nonzero(deal) == {"8-9-10": 9}
    # both leads had one choice each: a record may leave them out (G.9)
    short = stops.replay(record(HANDS_A, DEAD_A, checks(BOX_ORDER)))
    assert plays(short) == A_PLAYS and short.stacks == A_STACKS


def test_g1_option_poker_winner_with_lowest_of_suit() -> None:
    # reference.com's form: the poker winner (seat 2, royal flush) leads the lowest card he
    # holds of a suit he chooses: he holds only hearts, so 9H. After his 9H ... AH (all his)
    # he is out.
    opts = {"first_leader": "poker_winner", "lead_rule": "lowest_of_suit"}
    deal = stops.replay(record(HANDS_A, DEAD_A, checks(BOX_ORDER), options=opts), partial=True)
    assert lead_choices(deal) == [(2, "9H")]


def test_first_lead_card_is_a_parameter_of_the_first_leader() -> None:
    # G.0 item 2: first_lead_card governs the first lead only. With lead_rule any_card and
    # first_lead_card lowest_of_suit the dealer (3C 4C 9D TD 8S) opens with the lowest card of
    # a suit he chooses: 3C, 9D or 8S. He leads 9D: 9D TD (his), JD QD KD AD (seat 5): AD, an
    # ace, stops. Seat 5 then leads any card he holds (any_card): only 2H is left.
    opts = {"lead_rule": "any_card", "first_lead_card": "lowest_of_suit"}
    deal = stops.replay(record(HANDS_A, DEAD_A, checks(BOX_ORDER), options=opts), partial=True)
    assert lead_choices(deal) == [(0, "3C"), (0, "8S"), (0, "9D")]
    with pytest.raises(stops.IllegalAction):
        deal.apply(L(0, "TD"))
    deal.apply(L(0, "9D"))
    assert plays(deal) == P("0:9D 0:TD 5:JD 5:QD 5:KD 5:AD")
    assert lead_choices(deal) == [(5, "2H")]
    # first_lead_card lowest_in_hand on the dealer's left (seat 1: 2C QC KC AC 2D 3D): the
    # two 2s, his choice; under lowest_tie suit_order_HCDS the 2C (clubs before diamonds).
    opts = {"first_leader": "dealers_left", "first_lead_card": "lowest_in_hand",
            "lead_rule": "any_card"}
    deal = stops.replay(record(HANDS_A, DEAD_A, checks(BOX_ORDER), options=opts), partial=True)
    assert lead_choices(deal) == [(1, "2C"), (1, "2D")]
    opts["lowest_tie"] = "suit_order_HCDS"
    deal = stops.replay(record(HANDS_A, DEAD_A, checks(BOX_ORDER), options=opts), partial=True)
    assert lead_choices(deal) == [(1, "2C")]


def test_g3_option_must_change_suit() -> None:
    # OB's "next suit": after_stop must_change_suit with pass_left. The first lead has no
    # stop: the dealer may lead the lowest card of any suit (3C, 9D, 8S); he leads 3C, and
    # 6C stops as before. Seat 4 holds only clubs (9C TC JC): he cannot change suit and the
    # lead passes to seat 5 (JD QD KD AD 2H), who leads the lowest card of another suit than
    # clubs: JD or 2H.
    opts = {"after_stop": {"use": "must_change_suit", "fallback": "pass_left"}}
    deal = stops.replay(record(HANDS_A, DEAD_A, checks(BOX_ORDER), options=opts), partial=True)
    assert lead_choices(deal) == [(0, "3C"), (0, "8S"), (0, "9D")]
    deal.apply(L(0, "3C"))
    passed = [e for e in deal.events if e.kind == "lead_passed"]
    assert [(e.seat, e.to_seat) for e in passed] == [(4, 5)]
    assert lead_choices(deal) == [(5, "2H"), (5, "JD")]


# -- BOX_B: equal lowest cards (G2) --------------------------------------------------------------
#
# BOX_A with the dealer's 4C and 9D given to seats 6 and 7 for their 3H and 3S: the dealer
# holds 3C 3H 3S TD 8S, three cards of his lowest rank.
BOX_B_ROWS = {
    "C": "1 0 6 4 4 x x 4 4 4 1 1 1",
    "D": "1 1 3 3 3 3 3 7 0 5 5 5 5",
    "H": "5 0 6 6 x 6 6 2 2 2 2 2 2",
    "S": "7 0 7 7 7 8 0 8 8 8 8 x x",
}
HANDS_B, DEAD_B = support.grid(BOX_B_ROWS, NINE, 5)
# BOX_B2: BOX_B with the dealer's 3H and seat 1's 3D exchanged: 3C 3D 3S, no heart.
BOX_B2_ROWS = dict(BOX_B_ROWS, D="1 0 3 3 3 3 3 7 0 5 5 5 5", H="5 1 6 6 x 6 6 2 2 2 2 2 2")
HANDS_B2, DEAD_B2 = support.grid(BOX_B2_ROWS, NINE, 5)


def test_g2_equal_lowest_cards() -> None:
    # lowest_tie player_choice (default): the dealer chooses among his three 3s.
    deal = stops.replay(record(HANDS_B, DEAD_B, checks(BOX_ORDER)), partial=True)
    assert lead_choices(deal) == [(0, "3C"), (0, "3H"), (0, "3S")]
    expect_illegal(deal, L(0, "8S"))
    # He leads the 3H: 4H 5H (seat 6), 6H dead: stop. Seat 6 (4C 7H 8H) leads his lowest,
    # 4C: 5C 6C (seat 4), 7C dead: stop.
    deal.apply(L(0, "3H"))
    assert plays(deal) == P("0:3H 6:4H 6:5H")
    assert lead_choices(deal) == [(6, "4C")]
    # suit_order_HCDS: one legal choice, the first in hearts, clubs, diamonds, spades: 3H
    opts = {"lowest_tie": "suit_order_HCDS"}
    deal = stops.replay(record(HANDS_B, DEAD_B, checks(BOX_ORDER), options=opts), partial=True)
    assert lead_choices(deal) == [(0, "3H")]
    with pytest.raises(stops.IllegalAction, match="lowest card in your hand"):
        deal.apply(L(0, "3C"))
    # without a heart: clubs come before diamonds and spades: 3C
    deal = stops.replay(record(HANDS_B2, DEAD_B2, checks(BOX_ORDER), options=opts),
                        partial=True)
    assert lead_choices(deal) == [(0, "3C")]
    deal = stops.replay(record(HANDS_B2, DEAD_B2, checks(BOX_ORDER)), partial=True)
    assert lead_choices(deal) == [(0, "3C"), (0, "3D"), (0, "3S")]


# -- G7: the final share-out ----------------------------------------------------------------------
#
# DUO: 2 players (G8), dealer 0.
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   0 1 1 1 1 1 1 1 1 1 1 1 1     seat 0 (17): 2C 9D TD JD KD AD 2S-8S JS-AS
# diams   1 1 1 1 1 1 x 0 0 0 x 0 0     seat 1 (18): 3C-AC 2D-7D
# hearts  x x x x x x x x x x x x x     dead (17): every heart, 8D QD 9S TS
# spades  0 0 0 0 0 0 0 x x 0 0 0 0
DUO_ROWS = {
    "C": "0 1 1 1 1 1 1 1 1 1 1 1 1",
    "D": "1 1 1 1 1 1 x 0 0 0 x 0 0",
    "H": "x x x x x x x x x x x x x",
    "S": "0 0 0 0 0 0 0 x x 0 0 0 0",
}
HANDS_DUO, DEAD_DUO = support.grid(DUO_ROWS, TWO, 17)
DUO_STACKS = [9, 200]
# Stakes: seat 0 pays his 9 and has 0; seat 1 191; 2 on every space (18).
# Stage one: seat 1 holds 8C 9C TC: the 8-9-10 (2) -> 193; every heart is dead.
# Poker, the dealer first: with no chips he can only check; seat 1 checks. Seat 1's royal
# flush in clubs beats seat 0's straight flush 4S-8S: pot 2 -> 195.
# Stage three: the dealer's lowest cards are 2C and 2S: he chooses 2C. 3C ... AC are seat 1's:
# the ace stops. Seat 1 leads his lowest card, 2D: 2D ... 7D are his, and 7D is his 18th card:
# out. He takes the kitty (2) -> 197; seat 0 owes 16 chips for his cards and has none.
# Left on the layout: AH KH QH JH TH KQ, 2 each = 12. Seat 0, at 0, is out of the session:
# one player is left and the session ends (G7). The seat that would deal next is seat 1.
DUO_ACTIONS = [act(0, "check"), act(1, "check"), L(0, "2C"), L(1, "2D")]
DUO_LEFT = {"AH": 2, "KH": 2, "QH": 2, "JH": 2, "TH": 2, "KQ": 2}
# The final hands (a fresh pack: they may repeat the deal's cards), dealt by seat 1 from his
# left: seat 0 three aces, seat 1 a pair of kings.
DUO_FINAL = {"dealer": 1, "hands": [["AS", "AH", "AD", "2C", "3C"],
                                    ["KS", "KH", "4D", "5D", "7C"]]}


def duo_table(options: dict[str, Any] | None = None) -> tuple[stops.Table, stops.Deal]:
    table = stops.Table(VARIANT, seats=2, chips=DUO_STACKS, seed=7, dealer=0,
                        options=options, keep_records=True)
    return table, table.new_deal(hands=HANDS_DUO, spare=DEAD_DUO)


def test_duo_deal_by_hand() -> None:
    deal = stops.replay(record(HANDS_DUO, DEAD_DUO, DUO_ACTIONS[:2], stacks=DUO_STACKS),
                        partial=True)
    assert deal.stacks == (0, 195)
    assert lead_choices(deal) == [(0, "2C"), (0, "2S")]
    deal = stops.replay(record(HANDS_DUO, DEAD_DUO, DUO_ACTIONS, stacks=DUO_STACKS,
                               final_hands=DUO_FINAL))
    assert plays(deal) == [(0, "2C")] + [(1, r + "C") for r in "3456789TJQKA"] + [
        (1, r + "D") for r in "234567"]
    assert deal.winner == 1 and deal.stacks == (0, 197)
    assert nonzero(deal) == DUO_LEFT


def test_g7_all_seats_the_eliminated_seat_may_win() -> None:
    # final_poker_seats all_seats (default): seat 0, out of the session, is dealt too; his
    # three aces beat the kings and take all 12 chips: 12 and 197. Chips are conserved (209).
    table, deal = duo_table()
    table.given_final_hands = (1, [tuple(stops.parse_cards(h)) for h in DUO_FINAL["hands"]])
    for a in DUO_ACTIONS:
        deal.apply(a)
    assert table.is_over and table.eliminated == {0}
    assert table.stacks == (12, 197) and support.nonzero_spaces(table.layout) == {}
    assert table.total_chips() == 209
    shares = [e for e in table.events if e.kind == "final_share"]
    # dealt clockwise from the final dealer's left: seat 0, then seat 1
    assert [(e.seat, e.chips, [str(c) for c in e.cards]) for e in shares] == [
        (0, 12, DUO_FINAL["hands"][0]), (1, 0, DUO_FINAL["hands"][1])]
    assert table.records[-1]["final_hands"] == DUO_FINAL


def test_g7_replaying_the_last_record_tells_the_share_out() -> None:
    # The session's last record, replayed alone (as `stops replay` does), ends the session
    # again: seat 0 is out (0 chips), then the share-out of DUO_LEFT's 12 chips (2 on each of
    # six spaces) to seat 0's three aces. The table leaves it on the deal: dealt by seat 1,
    # seat 0 first; 6 claims of 2. Chips: 9 -> 12 (+3) and 200 -> 197 (-3), not the deal's own
    # 0 (-9) and 197 (-3).
    from stops.apps.terminal import Style, replay_text

    deal = stops.replay(record(HANDS_DUO, DEAD_DUO, DUO_ACTIONS, stacks=DUO_STACKS,
                               final_hands=DUO_FINAL))
    end = deal.session_end
    assert end is not None and end.dealer == 1 and end.stacks == (12, 197)
    assert [(e.kind, e.seat) for e in end.events] == [
        ("eliminated", 0), ("final_share", 0), ("final_share", 1)] + [("claimed", 0)] * 6
    assert sum(e.chips for e in end.events if e.kind == "claimed") == 12
    text = replay_text([deal], seat=1, st=Style(unicode=False))
    tail = text[-4:]
    assert tail[0].endswith("dealt by you:")
    assert tail[1] == ("  seat 0: AD AH AS 3C 2C (three of a kind, aces; the best hand); "
                       "seat 0 wins 12")
    assert tail[2] == "  you: KH KS 7C 5D 4D (pair of kings)"
    assert tail[3] == "Chips after the deal: seat 0 12 (+3) | you 197 (-3)"
    # a deal the session goes on after has none; nor has a copy (it is the table's)
    assert stops.replay(record(HANDS_DUO, DEAD_DUO, DUO_ACTIONS[:2], stacks=DUO_STACKS),
                        partial=True).session_end is None
    assert deal.clone().session_end is None


def test_g7_in_session_with_one_seat_takes_everything_unseen() -> None:
    # final_poker_seats in_session: only seat 1 is left: he takes the 12 chips and no cards
    # are dealt (both hands null): 209.
    table, deal = duo_table({"final_poker_seats": "in_session"})
    for a in DUO_ACTIONS:
        deal.apply(a)
    assert table.stacks == (0, 209) and table.total_chips() == 209
    assert table.records[-1]["final_hands"] == {"dealer": 1, "hands": [None, None]}
    shares = [e for e in table.events if e.kind == "final_share"]
    assert [(e.seat, e.chips, e.cards) for e in shares] == [(1, 12, ())]


def test_g7_option_stays() -> None:
    table, deal = duo_table({"leftover_at_match_end": "stays"})
    for a in DUO_ACTIONS:
        deal.apply(a)
    assert table.stacks == (0, 197)
    assert support.nonzero_spaces(table.layout) == DUO_LEFT
    assert "final_hands" not in table.records[-1]


def test_g7_a_seeded_table_fills_in_final_hands_and_replay_checks_them() -> None:
    # The seeded share-out: dealer 1, five cards each from one fresh pack; the best hand
    # (by the poker ranking) takes the 12 chips; the record replays.
    table, deal = duo_table()
    for a in DUO_ACTIONS:
        deal.apply(a)
    rec = table.records[-1]
    final = rec["final_hands"]
    assert final["dealer"] == 1
    hands = [stops.parse_cards(h) for h in final["hands"]]
    assert [len(h) for h in hands] == [5, 5] and len(set(hands[0]) | set(hands[1])) == 10
    keys = [hand_key(h) for h in hands]
    if keys[0] != keys[1]:
        best = keys.index(max(keys))
        assert table.stacks[best] == [0, 197][best] + 12
    assert table.total_chips() == 209
    replayed = stops.replay(rec)
    assert replayed.stacks == (0, 197)
    # the whole session record replays too, and so does a save of the finished table
    assert stops.Table.from_dict(table.to_dict()).records[-1]["final_hands"] == final


@pytest.mark.parametrize(("change", "path"), [
    (lambda f: f.update(dealer=0), "final_hands.dealer"),
    (lambda f: f["hands"].__setitem__(0, None), "final_hands.hands[0]"),
    (lambda f: f["hands"][1].__setitem__(2, "ZZ"), "final_hands.hands[1][2]"),
    (lambda f: f["hands"][1].__setitem__(4, "AS"), "final_hands.hands[1][4]"),
    (lambda f: f["hands"][1].pop(), "final_hands.hands[1]"),
    (lambda f: f["hands"].append(None), "final_hands.hands"),
    (lambda f: f.update(extra=1), "final_hands"),
])
def test_a_bad_final_hands_is_a_record_error_naming_the_key(change: Any, path: str) -> None:
    final = json.loads(json.dumps(DUO_FINAL))
    change(final)
    with pytest.raises(stops.RecordError, match=re.escape(f"'{path}'")):
        stops.replay(record(HANDS_DUO, DEAD_DUO, DUO_ACTIONS, stacks=DUO_STACKS,
                            final_hands=final))


def test_final_hands_only_after_a_share_out() -> None:
    # A deal after which the session goes on, or a variant whose chips stay, deals no
    # final hands: a record that names some is refused.
    with pytest.raises(stops.RecordError, match="'final_hands'"):
        stops.replay(record(HANDS_DUO, DEAD_DUO, DUO_ACTIONS, stacks=DUO_STACKS,
                            options={"leftover_at_match_end": "stays"},
                            final_hands=DUO_FINAL))
    # in_session with one seat left: no cards, so both hands must be null
    with pytest.raises(stops.RecordError, match=re.escape("'final_hands.hands[0]'")):
        stops.replay(record(HANDS_DUO, DEAD_DUO, DUO_ACTIONS, stacks=DUO_STACKS,
                            options={"final_poker_seats": "in_session"},
                            final_hands=DUO_FINAL))
    stops.replay(record(HANDS_DUO, DEAD_DUO, DUO_ACTIONS, stacks=DUO_STACKS,
                        options={"final_poker_seats": "in_session"},
                        final_hands={"dealer": 1, "hands": [None, None]}))


# BOX_A as the last deal of a session (an agreed last deal): 9 chips are left on the 8-9-10.
# The final dealer is seat 1; he deals clockwise from seat 2. Seats 3 and 8 hold equal
# jack-high flushes (suits do not rank): they share 9: 4 each, and the odd chip goes to the
# first of them clockwise from the final dealer's left: seat 3 (before seat 8): 5 and 4.
A_FINAL = {"dealer": 1, "hands": [
    ["AC", "KD", "3S", "4D", "6C"], ["AD", "KC", "3C", "4S", "6D"],
    ["AS", "KH", "3D", "4C", "6S"], ["2H", "5H", "7H", "9H", "JH"],
    ["QC", "QD", "8C", "TC", "2C"], ["TD", "TH", "8D", "5C", "7C"],
    ["8H", "8S", "9C", "JC", "2D"], ["KS", "QS", "9D", "5D", "3H"],
    ["2S", "5S", "7S", "9S", "JS"]]}


def test_g7_equal_best_hands_share_odd_chips_from_the_final_dealers_left() -> None:
    table = stops.Table(VARIANT, seats=9, seed=3, dealer=0, deals=1, keep_records=True)
    table.given_final_hands = (1, [tuple(stops.parse_cards(h)) for h in A_FINAL["hands"]])
    deal = table.new_deal(hands=HANDS_A, spare=DEAD_A)
    for a in [*checks(BOX_ORDER), L(0, "3C"), L(4, "9C")]:
        deal.apply(a)
    assert deal.stacks == A_STACKS
    assert table.is_over
    assert table.stacks == (188, 185, 248, 191, 240, 186, 186, 186, 190)
    assert table.total_chips() == 1800 and support.nonzero_spaces(table.layout) == {}
    won = {e.seat: e.chips for e in table.events if e.kind == "final_share" and e.chips}
    assert won == {3: 5, 8: 4}
    # the record of this last deal carries the hands and replays (a record with final_hands
    # is its session's last deal)
    rec = table.records[-1]
    assert rec["final_hands"] == A_FINAL
    assert stops.replay(rec).stacks == A_STACKS


# -- G8: players -----------------------------------------------------------------------------------


def test_g8_two_to_nine_players() -> None:
    for n in (2, 9):
        assert stops.Table(VARIANT, seats=n, seed=1).stacks == (200,) * n
    with pytest.raises(stops.TableError):
        stops.Table(VARIANT, seats=10, seed=1)
    with pytest.raises(stops.TableError):
        stops.Table("tripoley-colours", seats=3, seed=1)


# -- G9: the opening fine of tripoley-colours ------------------------------------------------------
#
# 4 players, dealer 0; seat 1 holds no club or spade.
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   3 3 2 2 2 0 0 0 x x x x x     seat 0: 7C 8C 9C 9D-QD 8S 9S TS (an 8-9-10)
# diams   1 1 1 3 3 3 3 0 0 0 0 x x     seat 1: 2D 3D 4D 2H-9H (all red)
# hearts  1 1 1 1 1 1 1 1 2 2 2 2 2     seat 2: 4C 5C 6C TH-AH 2S 3S 4S
# spades  2 2 2 3 3 3 0 0 0 3 x x x     seat 3: 2C 3C 5D-8D 5S 6S 7S JS
#                                       dead:   TC-AC KD AD QS KS AS
G9_ROWS = {
    "C": "3 3 2 2 2 0 0 0 x x x x x",
    "D": "1 1 1 3 3 3 3 0 0 0 0 x x",
    "H": "1 1 1 1 1 1 1 1 2 2 2 2 2",
    "S": "2 2 2 3 3 3 0 0 0 3 x x x",
}
HANDS_G9, DEAD_G9 = support.grid(G9_ROWS, FOUR, 10)
# Stakes 191 each, 4 a space. The dealer holds a pay card (the spade 8-9-10): he cannot swap
# (F49); he auctions and all pass (seat 2 must: heart honours). Stage one: seat 2 AH KH QH JH
# TH KQ (24) -> 215; seat 0 the 8-9-10 (4) -> 195. Poker from the dealer's left, all check:
# seat 2's royal flush takes the pot (4) -> 219.
G9_BEFORE = [act(0, "auction"), act(1, "pass"), act(2, "pass"), act(3, "pass"),
             *checks([1, 2, 3, 0])]


def test_g9_the_opener_with_no_black_card_pays_and_passes_the_duty() -> None:
    # opening_exempt false (default): seat 1 must open with his lowest black card and holds
    # none: lead_passed (seat 1, to seat 2), he pays 1 into the kitty (190; kitty 5), and seat
    # 2 must lead HIS lowest black card: 2S (not 4C, and not seat 3's 2C).
    deal = stops.replay(colours(HANDS_G9, DEAD_G9, G9_BEFORE), partial=True)
    start = max(i for i, e in enumerate(deal.events) if e.kind == "claimed") + 1
    tail = [(str(e.kind), e.seat, e.to_seat, e.space, e.chips) for e in deal.events[start:]]
    assert tail == [("lead_passed", 1, 2, None, 0), ("paid", 1, None, "kitty", 1)]
    assert "no black card" in deal.events[start].note
    assert deal.stacks == (195, 190, 219, 191)
    assert deal.layout["kitty"] == 5
    assert lead_choices(deal) == [(2, "2S")]
    with pytest.raises(stops.IllegalAction, match="opens with 2S"):
        deal.apply(L(2, "4C"))
    expect_illegal(deal, L(1, "2D"))
    expect_illegal(deal, L(3, "2C"))


def test_g9_option_opening_exempt() -> None:
    # opening_exempt true: no event, no payment, seat 2 opens with 2S.
    deal = stops.replay(colours(HANDS_G9, DEAD_G9, G9_BEFORE,
                                options={"opening_exempt": True}), partial=True)
    assert not [e for e in deal.events if e.kind in ("lead_passed", "paid")]
    assert deal.stacks == (195, 191, 219, 191) and deal.layout["kitty"] == 4
    assert lead_choices(deal) == [(2, "2S")]


def test_opening_exempt_needs_the_lowest_black_opening() -> None:
    with pytest.raises(stops.VariantError, match="opening_exempt"):
        stops.load_variant("newmarket", options={"opening_exempt": True})


# -- the three Tripoley files -------------------------------------------------------------------


def test_tripoley_with_home_table_names_tripoley_colours() -> None:
    with pytest.raises(stops.VariantError, match="tripoley-colours"):
        stops.load_variant(VARIANT, options={"home-table": True})
    v = stops.load_variant("tripoley-colours", options={"home-table": True})
    home = stops.load_variant("tripoley-home-table")
    assert v.flow == home.flow
    assert v.policy("pay_collection").params == home.policy("pay_collection").params
    assert v.policy("spare_protocol").params == home.policy("spare_protocol").params


def fingerprint(name: str, options: dict[str, Any] | None) -> str:
    """A digest of seeded random sessions (4, 5, 6 and 9 players, 25 sessions each, at most
    30 deals): the cards, every decision, the events and the stacks."""
    h = hashlib.sha256()
    v = stops.load_variant(name, options)
    for n in (4, 5, 6, 9):
        for k in range(25):
            table = stops.Table(v, seats=n, seed=f"fp-{n}-{k}", deals=30, keep_records=True)
            rng = random.Random(f"bots-{n}-{k}")
            deals = []
            while not table.is_over:
                d = table.new_deal()
                while not d.is_terminal:
                    choices = d.legal_actions()
                    d.apply(choices[rng.randrange(len(choices))])
                deals.append(d)
            for d in deals:
                h.update(json.dumps([
                    [list(map(str, x)) for x in d.dealt_hands], list(map(str, d.dealt_spare)),
                    [a.to_dict() for a in d.actions], list(d.ledger.stacks),
                    dict(d.ledger.layout),
                    [[str(e.kind), e.seat, str(e.card), e.chips, e.space, e.to_seat]
                     for e in d.events]], sort_keys=True).encode())
            h.update(json.dumps([[str(e.kind), e.seat, e.chips, e.space] for e in table.events],
                                sort_keys=True).encode())
            h.update(json.dumps([table.stacks, dict(table.layout)], sort_keys=True).encode())
    return h.hexdigest()


@pytest.mark.parametrize(("name", "digest"), [
    # the digests of `tripoley` and `tripoley-home-table` before G.1 (commit f2bd285)
    ("tripoley-colours", "2641ef059f2086c090fc78c5cfecaa3d2bbea20f8274342b0068de6925c5d745"),
    ("tripoley-home-table", "a97dec0835cfa41016debc7c2360d43ffd29174a54a49f1e5dc6f06e2ed9b515"),
])
def test_the_colour_rules_play_exactly_as_before_g1(name: str, digest: str) -> None:
    # G.1: the former rules move "unchanged except for the opening fine": with
    # opening_exempt true (the old free walk) the seeded sessions are identical.
    assert fingerprint(name, {"opening_exempt": True}) == digest


def test_the_printed_rules_read_as_each_game() -> None:
    from stops.rules.prose import rules_text

    box = rules_text(stops.load_variant(VARIANT))
    for said in ("2 to 9 players", "The dead hand is not used", "the dealer first, then "
                 "clockwise", "The dealer makes the first lead.", "Every lead, after a stop as "
                 "at the first lead, is the lowest card in the leader's "
                 "hand", "a single hand of poker", "puts 1 chip on every space"):
        assert said in box, said
    for unsaid in ("black", "auction", "swap", "stake unit"):
        assert unsaid not in box, unsaid
    col = rules_text(stops.load_variant("tripoley-colours"))
    assert "If he holds no black card, he cannot lead as required" in col
    assert "pays 1 chip into the kitty" in col
    assert "the next player to the left who does opens" not in col
    assert "from the dealer's left: check or bet" in col
    assert "4 to 9 players" in col and "Chips still on the layout stay there" in col
    home = rules_text(stops.load_variant("tripoley-home-table"))
    assert "If he holds no black card, he cannot lead as required" in home


def test_a_final_poker_hand_needs_five_cards_a_seat() -> None:
    # A fresh 52-card pack deals five cards to at most ten seats: a variant for eleven
    # players that shares out by a poker hand is refused at load, naming the rule.
    eleven = {"name": "big-tripoley", "extends": "tripoley",
              "players": {"min": 2, "max": 11}}
    with pytest.raises(stops.VariantError, match="at most 10 players"):
        variant_from_mapping(eleven)
    variant_from_mapping(dict(eleven, rules={"final_share": "all_layout_equal"}))
