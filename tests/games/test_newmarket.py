"""Hand-derived tests for British Newmarket (`newmarket`, FAMILY-RULINGS F.0, F.1, F7-F13).

Every deal is stacked and written as an ownership grid: for each suit one character per rank
2 3 4 5 6 7 8 9 T J Q K A, a digit naming the seat that holds the card or ``x`` for the
dummy (the spare hand). The grid helper checks that hands + dummy are exactly the 52-card pack
and that every hand has the `n_plus_one` size (RULINGS 1: dealt one at a time from the
dealer's left, the dummy last in each round, so the first ``52 mod (n+1)`` seats from the
dealer's left get one card more):

* 8 players, dealer 0: 52 = 9 x 5 + 7, so seats 1-7 hold 6 cards, the dealer 5, the dummy 5.
* 4 players, dealer 2: 52 = 5 x 10 + 2, so seats 3 and 0 hold 11, seats 1 and 2 hold 10,
  the dummy 10.

Holder plays (F.0): after a lead, whoever holds the next higher card of the suit plays it at
once; the sequence stops at an ace or when the next card is in the dummy or already played.
Default stakes (F7): 1 chip on each horse AH KC QD JS and 2 in the kitty = 6 a player, so with
8 players and 50 chips every stack is 44 after the stakes, each horse holds 8 and the kitty 16.

To follow a trace, read the grid: e.g. in DEAL_B the diamonds row ``1 x 2 2 ...`` says 2D is
seat 1's, 3D is in the dummy, 4D and 5D are seat 2's, and so on.
"""

from __future__ import annotations

import random
from functools import partial

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stops
import support
from support import (
    expect_illegal,
    lead_choices,
    legal,
    make_record,
    nonzero,
    plays,
    skip_unless_built,
)
from support import lead_decision as L
from support import plays_written as P

VARIANT = "newmarket"

pytestmark = skip_unless_built(VARIANT)

SIZES_8 = (5, 6, 6, 6, 6, 6, 6, 6)  # 8 players, dealer 0 (RULINGS 1)
SIZES_4_DEALER_2 = (11, 10, 10, 11)  # 4 players, dealer 2: seats 3 and 0 get the extra card


# -- helpers (shared ones in support.py) -----------------------------------------------------

# Hands and dummy from an ownership grid (see the module docstring): ace high, 52 cards.
grid = support.grid
record = partial(make_record, VARIANT)


# -- DEAL_B: 8 players, dealer 0; the whole of both black suits gets played ------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 1 2 2 3 3 4 4 5 5 0 0 7
# diams   1 x 2 2 3 0 3 6 x 4 1 4 5
# hearts  7 x 7 x x 5 6 6 6 7 7 6 0
# spades  7 2 2 3 3 4 4 5 5 0 1 1 6
#
# seat 0: QC KC 7D AH JS (5)      seat 1: 2C 3C 2D QD QS KS     seat 2: 4C 5C 4D 5D 3S 4S
# seat 3: 6C 7C 6D 8D 5S 6S       seat 4: 8C 9C JD KD 7S 8S     seat 5: TC JC AD 7H 9S TS
# seat 6: 9D 8H 9H TH KH AS       seat 7: AC 2H 4H JH QH 2S     dummy:  3D TD 3H 5H 6H
DEAL_B_ROWS = {
    "C": "1 1 2 2 3 3 4 4 5 5 0 0 7",
    "D": "1 x 2 2 3 0 3 6 x 4 1 4 5",
    "H": "7 x 7 x x 5 6 6 6 7 7 6 0",
    "S": "7 2 2 3 3 4 4 5 5 0 1 1 6",
}
HANDS_B, SPARE_B = grid(DEAL_B_ROWS, SIZES_8, 5)

# The default trace of DEAL_B (used by several tests):
#  1. 2D is held (seat 1): seat 1 leads it (diamonds_up). 3D is in the dummy: 2D is a stop.
#  2. Seat 1 must lead the other colour (black): lowest of a chosen black suit -> 2C or QS.
#     He leads 2C; clubs run 2C 3C (1) 4C 5C (2) 6C 7C (3) 8C 9C (4) TC JC (5) QC KC (0)
#     AC (7): KC takes the KC horse (8) for seat 0; AC is an ace: stop.
#  3. Seat 7 must lead red: he holds only hearts (2H 4H JH QH) -> 2H; 3H is dead: stop.
#  4. Seat 7 must lead black: clubs are all played, spades 2S -> 2S (7) 3S 4S (2) 5S 6S (3)
#     7S 8S (4) 9S TS (5) JS (0: the JS horse, 8) QS KS (1) AS (6): ace, stop.
#  5. Seat 6 must lead red: 9D (diamonds) or 8H (hearts); he leads 9D; TD is dead: stop.
#  6. Seat 6 must lead black and holds none; every black card has been played, so nobody
#     holds one: blocked (F10, end_no_payment).
B_ACTIONS = [L(1, "2D"), L(1, "2C"), L(7, "2H"), L(7, "2S"), L(6, "9D")]
B_PLAYS = P("1:2D 1:2C 1:3C 2:4C 2:5C 3:6C 3:7C 4:8C 4:9C 5:TC 5:JC 0:QC 0:KC 7:AC 7:2H "
            "7:2S 2:3S 2:4S 3:5S 3:6S 4:7S 4:8S 5:9S 5:TS 0:JS 1:QS 1:KS 6:AS 6:9D")


def test_hand_sizes_of_the_stacked_deals() -> None:
    # n_plus_one with 8 players and dealer 0: the dealer (last in each round before the dummy)
    # is the one player with 5 cards; the dummy has 5.
    assert [len(h) for h in HANDS_B] == [5, 6, 6, 6, 6, 6, 6, 6]
    assert len(SPARE_B) == 5
    assert sorted(SPARE_B) == sorted(["3D", "TD", "3H", "5H", "6H"])


def test_default_stakes_each_horse_plus_kitty_added_to_carry_over() -> None:
    # F7 default: every player, dealer included, 1 on each horse and kitty_stake 2 in the
    # kitty: 50 - 6 = 44 each. 8 players: each horse +8, kitty +16, on top of the carry-over
    # AH 3 and kitty 5 -> AH 11, KC 8, QD 8, JS 8, kitty 21. No stake decisions: the first
    # decision is the opening lead, 2D by its holder (seat 1), the only legal choice (F8).
    deal = stops.replay(record(HANDS_B, SPARE_B, layout={"AH": 3, "kitty": 5}), partial=True)
    assert deal.stacks == (44,) * 8
    assert nonzero(deal) == {"AH": 11, "KC": 8, "QD": 8, "JS": 8, "kitty": 21}
    assert deal.current_seat == 1
    assert legal(deal) == [L(1, "2D")]
    assert plays(deal) == []


def test_block_ends_the_deal_nobody_pays_layout_carries() -> None:
    # The default trace of DEAL_B (see above), played to the end.
    # Chips: 44 each after the stakes; seat 0 plays KC and JS: 44 + 8 + 8 = 60.
    # Block (F10, end_no_payment): nobody pays anybody; AH (seat 0 still holds it) and QD
    # (seat 1 still holds it) carry over with 8 each, and the kitty (16) stays.
    deal = stops.replay(record(HANDS_B, SPARE_B, B_ACTIONS))
    assert plays(deal) == B_PLAYS
    assert deal.is_terminal
    assert deal.outcome == "blocked"
    assert deal.winner is None
    assert deal.stacks == (60, 44, 44, 44, 44, 44, 44, 44)
    assert nonzero(deal) == {"AH": 8, "QD": 8, "kitty": 16}


def test_after_stop_opposite_colour_lowest_in_chosen_suit_step_by_step() -> None:
    # F9 default. After the 2D stop seat 1 holds 2C 3C (clubs) and QS KS (spades): he may lead
    # 2C or QS (the lowest of either black suit), nothing red.
    deal = stops.replay(record(HANDS_B, SPARE_B, [L(1, "2D")]), partial=True)
    assert plays(deal) == [(1, "2D")]
    assert lead_choices(deal) == [(1, "2C"), (1, "QS")]
    # After the AC stop seat 7 holds hearts only: 2H is his one legal lead (red).
    deal = stops.replay(record(HANDS_B, SPARE_B, B_ACTIONS[:2]), partial=True)
    assert deal.current_seat == 7
    assert lead_choices(deal) == [(7, "2H")]
    # After the AS stop seat 6 may lead 9D or 8H (lowest of either red suit).
    deal = stops.replay(record(HANDS_B, SPARE_B, B_ACTIONS[:4]), partial=True)
    assert deal.current_seat == 6
    assert lead_choices(deal) == [(6, "8H"), (6, "9D")]


def test_illegal_leads_are_refused_and_change_nothing() -> None:
    # Opening (F8): only seat 1's 2D. Not your turn (seat 2), a card that is not the opening
    # card (2C), a card seat 1 does not hold (5H).
    deal = stops.replay(record(HANDS_B, SPARE_B), partial=True)
    expect_illegal(deal, L(2, "4D"))
    expect_illegal(deal, L(1, "2C"))
    expect_illegal(deal, L(1, "5H"))
    # After the 2D stop: QD is red - the wrong colour after a red stop; 3C is not the lowest
    # club; KS is not the lowest spade; seat 2 is not on turn.
    deal.apply(L(1, "2D"))
    expect_illegal(deal, L(1, "QD"))
    expect_illegal(deal, L(1, "3C"))
    expect_illegal(deal, L(1, "KS"))
    expect_illegal(deal, L(2, "4C"))
    assert lead_choices(deal) == [(1, "2C"), (1, "QS")]


def test_stake_kitty_stake_four_with_the_block() -> None:
    # F7 with kitty_stake 4: 4 horses + 4 = 8 a player: 42 each; horses 8, kitty 32.
    # Play as DEAL_B's default trace: seat 0 takes KC and JS (16) -> 58; block, no payment.
    deal = stops.replay(record(HANDS_B, SPARE_B, B_ACTIONS, options={"kitty_stake": 4}))
    assert plays(deal) == B_PLAYS
    assert deal.outcome == "blocked" and deal.winner is None
    assert deal.stacks == (58, 42, 42, 42, 42, 42, 42, 42)
    assert nonzero(deal) == {"AH": 8, "QD": 8, "kitty": 32}


def test_choose_one_horse_stake_decisions_then_the_block() -> None:
    # F7 option choose_one_horse: each player, clockwise from the dealer's left (1, 2, ... 7,
    # then the dealer 0), stakes 1 chip on one horse of his choice (a `stake` decision) and
    # kitty_stake (2) in the kitty: 50 - 3 = 47 each.
    # Choices: 1 AH, 2 KC, 3 KC, 4 QD, 5 JS, 6 JS, 7 JS, 0 KC
    #   -> AH 1, KC 3, QD 1, JS 3, kitty 16.
    # Then DEAL_B's default trace: seat 0 plays KC (+3) and JS (+3): 47 + 6 = 53; block.
    # AH 1 and QD 1 carry, kitty 16 stays.
    choices = {1: "AH", 2: "KC", 3: "KC", 4: "QD", 5: "JS", 6: "JS", 7: "JS", 0: "KC"}
    stakes = [{"seat": s, "action": "stake", "space": choices[s]}
              for s in (1, 2, 3, 4, 5, 6, 7, 0)]
    opts = {"stake_rule": "choose_one_horse"}
    deal = stops.replay(record(HANDS_B, SPARE_B, stakes, options=opts), partial=True)
    assert deal.stacks == (47,) * 8
    assert nonzero(deal) == {"AH": 1, "KC": 3, "QD": 1, "JS": 3, "kitty": 16}
    assert legal(deal) == [L(1, "2D")]
    deal = stops.replay(record(HANDS_B, SPARE_B, stakes + B_ACTIONS, options=opts))
    assert plays(deal) == B_PLAYS
    assert deal.outcome == "blocked"
    assert deal.stacks == (53, 47, 47, 47, 47, 47, 47, 47)
    assert nonzero(deal) == {"AH": 1, "QD": 1, "kitty": 16}


def test_choose_one_horse_order_and_illegal_stakes() -> None:
    # The first stake decision is seat 1's (dealer's left); the dealer staking first is not
    # his turn; the kitty is not a horse. Seat 1's legal stakes are the four horses.
    # Reading: the `stake` decision names only the horse; its kitty_stake is placed for him.
    opts = {"stake_rule": "choose_one_horse"}
    deal = stops.replay(record(HANDS_B, SPARE_B, options=opts), partial=True)
    assert deal.current_seat == 1
    assert sorted(a["space"] for a in legal(deal) if a["action"] == "stake") == [
        "AH", "JS", "KC", "QD"]
    expect_illegal(deal, {"seat": 0, "action": "stake", "space": "AH"})
    expect_illegal(deal, {"seat": 1, "action": "stake", "space": "kitty"})
    deal.apply({"seat": 1, "action": "stake", "space": "QD"})
    assert deal.current_seat == 2


# -- DEAL_G: 8 players, dealer 0: the dealer goes out in mid-sequence with the QD ------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 1 1 1 1 1 2 2 2 2 3 3 3
# diams   0 0 2 2 3 3 4 4 0 0 0 5 5
# hearts  3 4 4 4 4 5 5 5 5 6 6 6 6
# spades  6 6 7 7 7 7 7 7 x x x x x
#
# seat 0: 2D 3D TD JD QD (5). Dummy: TS JS QS KS AS (the JS horse is in the dummy).
DEAL_G_ROWS = {
    "C": "1 1 1 1 1 1 2 2 2 2 3 3 3",
    "D": "0 0 2 2 3 3 4 4 0 0 0 5 5",
    "H": "3 4 4 4 4 5 5 5 5 6 6 6 6",
    "S": "6 6 7 7 7 7 7 7 x x x x x",
}
HANDS_G, SPARE_G = grid(DEAL_G_ROWS, SIZES_8, 5)
G_PLAYS = P("0:2D 0:3D 2:4D 2:5D 3:6D 3:7D 4:8D 4:9D 0:TD 0:JD 0:QD")
# Trace: seat 0 (the dealer) holds 2D and leads it; 3D (0) 4D 5D (2) 6D 7D (3) 8D 9D (4)
# TD JD QD (0). QD takes the QD horse (8) and empties seat 0's hand: F1, play ends at once,
# although KD (seat 5) would follow. Cards left: seats 1, 5, 6, 7: 6 each; seats 2, 3, 4:
# 4 each (two diamonds played) -> 24 + 12 = 36.


def test_going_out_mid_sequence_kitty_plus_per_card() -> None:
    # F11 default kitty_plus_per_card: seat 0 = 44 + 8 (QD) + 16 (kitty) + 36 = 104.
    # Seats 1, 5, 6, 7: 44 - 6 = 38; seats 2, 3, 4: 44 - 4 = 40.
    # AH (seat 6) and KC (seat 3) are still held; JS is in the dummy: all three carry (8).
    deal = stops.replay(record(HANDS_G, SPARE_G, [L(0, "2D")]))
    assert plays(deal) == G_PLAYS
    assert deal.is_terminal
    assert deal.outcome == "went_out"
    assert deal.winner == 0
    assert deal.stacks == (104, 38, 40, 40, 40, 38, 38, 38)
    assert nonzero(deal) == {"AH": 8, "KC": 8, "JS": 8}


def test_going_out_kitty_only() -> None:
    # F11 kitty_only: seat 0 = 44 + 8 (QD) + 16 (kitty) = 68; nobody else pays: 44.
    deal = stops.replay(record(HANDS_G, SPARE_G, [L(0, "2D")],
                               options={"going_out_reward": "kitty_only"}))
    assert plays(deal) == G_PLAYS
    assert deal.outcome == "went_out" and deal.winner == 0
    assert deal.stacks == (68, 44, 44, 44, 44, 44, 44, 44)
    assert nonzero(deal) == {"AH": 8, "KC": 8, "JS": 8}


def test_going_out_per_card_kitty_stays() -> None:
    # F11 per_card: seat 0 = 44 + 8 (QD) + 36 = 88; the kitty (16) stays on the layout.
    deal = stops.replay(record(HANDS_G, SPARE_G, [L(0, "2D")],
                               options={"going_out_reward": "per_card"}))
    assert plays(deal) == G_PLAYS
    assert deal.outcome == "went_out" and deal.winner == 0
    assert deal.stacks == (88, 38, 40, 40, 40, 38, 38, 38)
    assert nonzero(deal) == {"AH": 8, "KC": 8, "JS": 8, "kitty": 16}


def test_horses_carry_over_in_a_session() -> None:
    # DEAL_G in a session: after it the table holds AH 8, KC 8, JS 8 (JS was in the dummy,
    # AH and KC were still in hands). The deal moves left: dealer 1. The second deal gives
    # every seat the hand of the seat on its right (so seat 1, now the dealer, has the five
    # cards and the 2D). Its stakes (6 each) come on top of the carry-over:
    # AH 16, KC 16, QD 8, JS 16, kitty 16; stacks 104-6, 38-6, 40-6, ... .
    table = stops.Table(VARIANT, seats=8, chips=50, seed=1, dealer=0)
    deal = table.new_deal(hands=HANDS_G, spare=SPARE_G)
    deal.apply(L(0, "2D"))
    assert deal.is_terminal and deal.winner == 0
    assert list(table.stacks) == [104, 38, 40, 40, 40, 38, 38, 38]
    assert {k: v for k, v in table.layout.items() if v} == {"AH": 8, "KC": 8, "JS": 8}
    hands2 = [HANDS_G[(s - 1) % 8] for s in range(8)]
    assert [len(h) for h in hands2] == [6, 5, 6, 6, 6, 6, 6, 6]  # dealer 1 has 5
    nxt = table.new_deal(hands=hands2, spare=SPARE_G)
    assert table.dealer == 1
    assert nxt.stacks == (98, 32, 34, 34, 34, 32, 32, 32)
    assert nonzero(nxt) == {"AH": 16, "KC": 16, "QD": 8, "JS": 16, "kitty": 16}
    assert nxt.current_seat == 1 and legal(nxt) == [L(1, "2D")]


def test_record_with_wrong_hand_sizes_is_rejected() -> None:
    # F.0: each hand must have the n_plus_one size. Give the dealer (seat 0) six cards and
    # seat 7 five: rejected.
    hands = [list(h) for h in HANDS_G]
    hands[7].remove("4S")
    hands[0].append("4S")
    with pytest.raises(stops.RecordError):
        stops.replay(record(hands, SPARE_G, [L(0, "2D")]))


# -- DEAL_K: 4 players, dealer 2, kitty_stake 3 ---------------------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   0 0 0 0 0 0 0 0 0 0 0 1 1
# diams   3 3 3 3 3 3 3 3 3 3 3 1 1
# hearts  1 1 1 1 1 1 2 2 2 2 2 2 2
# spades  2 2 2 x x x x x x x x x x
DEAL_K_ROWS = {
    "C": "0 0 0 0 0 0 0 0 0 0 0 1 1",
    "D": "3 3 3 3 3 3 3 3 3 3 3 1 1",
    "H": "1 1 1 1 1 1 2 2 2 2 2 2 2",
    "S": "2 2 2 x x x x x x x x x x",
}
HANDS_K, SPARE_K = grid(DEAL_K_ROWS, SIZES_4_DEALER_2, 10)


def test_four_players_kitty_stake_three_dealers_left_not_the_opener() -> None:
    # Stakes with kitty_stake 3: 4 + 3 = 7 each -> 43; horses 4 each, kitty 12.
    # Seat 3 (the dealer's left, 11 cards) holds 2D and every diamond up to QD: he opens with
    # 2D and plays 2D..QD himself (holder plays). QD takes
    # its horse (4) and empties his hand (11 cards): out in mid-sequence (KD is seat 1's).
    # Reward: kitty 12 + cards left 11 (seat 0) + 10 (seat 1) + 10 (seat 2) = 31.
    # Seat 3: 43 + 4 + 12 + 31 = 90; seat 0: 43 - 11 = 32; seats 1, 2: 43 - 10 = 33.
    # AH (seat 2) and KC (seat 1) are held, JS is in the dummy: 4 each carry.
    opts = {"kitty_stake": 3}
    deal = stops.replay(record(HANDS_K, SPARE_K, options=opts, dealer=2), partial=True)
    assert deal.stacks == (43, 43, 43, 43)
    assert nonzero(deal) == {"AH": 4, "KC": 4, "QD": 4, "JS": 4, "kitty": 12}
    assert legal(deal) == [L(3, "2D")]
    deal = stops.replay(record(HANDS_K, SPARE_K, [L(3, "2D")], options=opts, dealer=2))
    assert plays(deal) == [(3, r + "D") for r in "23456789TJQ"]
    assert deal.outcome == "went_out" and deal.winner == 3
    assert deal.stacks == (32, 33, 33, 90)
    assert nonzero(deal) == {"AH": 4, "KC": 4, "JS": 4}


# -- opening card (F8) --------------------------------------------------------------------------

# DEAL_S: DEAL_B with 2D and 3D exchanged: 2D is in the dummy, seat 1 holds 3D.
DEAL_S_ROWS = dict(DEAL_B_ROWS, D="x 1 2 2 3 0 3 6 x 4 1 4 5")
HANDS_S, SPARE_S = grid(DEAL_S_ROWS, SIZES_8, 5)


def test_opening_3d_when_2d_is_in_the_dummy() -> None:
    # F8 diamonds_up: 2D is in the dummy, so the holder of 3D (seat 1) leads it.
    # 3D (1) 4D 5D (2) 6D (3) 7D (0) 8D (3) 9D (6); TD is dead: 9D stops with seat 6.
    # Seat 6 must lead black: his only black card is AS.
    deal = stops.replay(record(HANDS_S, SPARE_S), partial=True)
    assert deal.current_seat == 1
    assert legal(deal) == [L(1, "3D")]
    deal.apply(L(1, "3D"))
    assert plays(deal) == P("1:3D 2:4D 2:5D 3:6D 0:7D 3:8D 6:9D")
    assert deal.current_seat == 6
    assert lead_choices(deal) == [(6, "AS")]
    # AS: ace, stop; seat 6 must lead red: 8H (hearts; his 9D is played).
    deal.apply(L(6, "AS"))
    assert plays(deal)[-1] == (6, "AS")
    assert lead_choices(deal) == [(6, "8H")]


# DEAL_C: DEAL_B with 2C (seat 1) and 4D (seat 2) exchanged.
DEAL_C_ROWS = dict(DEAL_B_ROWS, C="2 1 2 2 3 3 4 4 5 5 0 0 7", D="1 x 1 2 3 0 3 6 x 4 1 4 5")
HANDS_C, SPARE_C = grid(DEAL_C_ROWS, SIZES_8, 5)


def test_opening_clubs_up() -> None:
    # F8 clubs_up: seat 2 holds 2C and leads it (seat 1 holds 2D, which would open by
    # default). 2C (2) 3C (1) 4C 5C (2) 6C 7C (3) 8C 9C (4) TC JC (5) QC KC (0, KC horse 8)
    # AC (7): ace, stop; seat 7 must lead red: 2H.
    opts = {"opening": "clubs_up"}
    deal = stops.replay(record(HANDS_C, SPARE_C, options=opts), partial=True)
    assert deal.current_seat == 2
    assert legal(deal) == [L(2, "2C")]
    deal.apply(L(2, "2C"))
    assert plays(deal) == P("2:2C 1:3C 2:4C 2:5C 3:6C 3:7C 4:8C 4:9C 5:TC 5:JC 0:QC 0:KC 7:AC")
    assert deal.stacks == (52, 44, 44, 44, 44, 44, 44, 44)
    assert nonzero(deal) == {"AH": 8, "QD": 8, "JS": 8, "kitty": 16}
    assert lead_choices(deal) == [(7, "2H")]


def test_opening_diamonds_up_default_on_the_same_deal() -> None:
    # Same deal by default: seat 1's 2D opens; 3D dead: stop; seat 1 must lead black:
    # 3C (his lowest club) or QS.
    deal = stops.replay(record(HANDS_C, SPARE_C), partial=True)
    assert legal(deal) == [L(1, "2D")]
    deal.apply(L(1, "2D"))
    assert plays(deal) == [(1, "2D")]
    assert lead_choices(deal) == [(1, "3C"), (1, "QS")]


def test_opening_dealers_left_lowest_of_any_suit() -> None:
    # F8 dealers_left: eldest (seat 1) leads the lowest card of a suit of his choice: he holds
    # 2C 3C / 2D QD / QS KS -> 2C, 2D or QS. He leads QS: QS KS (1) AS (6): ace, stop.
    # Seat 6 must lead red (spades are black): 9D or 8H.
    opts = {"opening": "dealers_left"}
    deal = stops.replay(record(HANDS_B, SPARE_B, options=opts), partial=True)
    assert lead_choices(deal) == [(1, "2C"), (1, "2D"), (1, "QS")]
    expect_illegal(deal, L(1, "KS"))
    deal.apply(L(1, "QS"))
    assert plays(deal) == P("1:QS 1:KS 6:AS")
    assert lead_choices(deal) == [(6, "8H"), (6, "9D")]


# -- after a stop (F9) ---------------------------------------------------------------------------


def test_switch_card_lowest_of_colour() -> None:
    # F9 switch_card lowest_of_colour on DEAL_B: after the 2D stop seat 1's lowest black card
    # across both suits is 2C (QS is not offered). After the AS stop (step 4 of the trace)
    # seat 6's lowest red card is 8H (below 9D).
    opts = {"switch_card": "lowest_of_colour"}
    deal = stops.replay(record(HANDS_B, SPARE_B, [L(1, "2D")], options=opts), partial=True)
    assert lead_choices(deal) == [(1, "2C")]
    expect_illegal(deal, L(1, "QS"))
    deal = stops.replay(record(HANDS_B, SPARE_B, B_ACTIONS[:4], options=opts), partial=True)
    assert plays(deal) == B_PLAYS[:-1]
    assert lead_choices(deal) == [(6, "8H")]


# DEAL_T: DEAL_B with 2S (seat 7) and QS (seat 1) exchanged: seat 1 holds 2C 3C 2D QD 2S KS.
DEAL_T_ROWS = dict(DEAL_B_ROWS, S="1 2 2 3 3 4 4 5 5 0 7 1 6")
HANDS_T, SPARE_T = grid(DEAL_T_ROWS, SIZES_8, 5)


def test_switch_card_lowest_of_colour_rank_tie_is_players_choice() -> None:
    # F9: after the 2D stop seat 1's lowest black cards are 2C and 2S, a rank tie: he may
    # lead either. He leads 2S: 2S (1) 3S 4S (2) 5S 6S (3) 7S 8S (4) 9S TS (5) JS (0, JS
    # horse 8) QS (7) KS (1) AS (6): ace, stop. Seat 6's lowest red card: 8H (not 9D).
    opts = {"switch_card": "lowest_of_colour"}
    deal = stops.replay(record(HANDS_T, SPARE_T, [L(1, "2D")], options=opts), partial=True)
    assert lead_choices(deal) == [(1, "2C"), (1, "2S")]
    deal.apply(L(1, "2S"))
    assert plays(deal) == P("1:2D 1:2S 2:3S 2:4S 3:5S 3:6S 4:7S 4:8S 5:9S 5:TS 0:JS 7:QS "
                            "1:KS 6:AS")
    assert deal.stacks == (52, 44, 44, 44, 44, 44, 44, 44)
    assert lead_choices(deal) == [(6, "8H")]


def test_after_stop_any_suit() -> None:
    # F9 after_stop any_suit: after the 2D stop seat 1 may lead the lowest card of any suit he
    # holds: 2C, QD (diamonds again) or QS. He leads QD: the QD horse (8) -> 52;
    # KD (4) AD (5): ace, stop. Seat 5 holds TC JC / 7H / 9S TS: 7H, TC or 9S.
    opts = {"after_stop": "any_suit"}
    deal = stops.replay(record(HANDS_B, SPARE_B, [L(1, "2D")], options=opts), partial=True)
    assert lead_choices(deal) == [(1, "2C"), (1, "QD"), (1, "QS")]
    deal.apply(L(1, "QD"))
    assert plays(deal) == P("1:2D 1:QD 4:KD 5:AD")
    assert deal.stacks == (44, 52, 44, 44, 44, 44, 44, 44)
    assert nonzero(deal) == {"AH": 8, "KC": 8, "JS": 8, "kitty": 16}
    assert lead_choices(deal) == [(5, "7H"), (5, "9S"), (5, "TC")]


# -- no card of the other colour (F10) ----------------------------------------------------------

# DEAL_P: DEAL_B with seat 1's black cards (2C 3C QS KS) and seat 6's hearts (8H 9H TH KH)
# exchanged: seat 1 holds 2D QD 8H 9H TH KH (no black), seat 6 2C 3C 9D QS KS AS.
DEAL_P_ROWS = {
    "C": "6 6 2 2 3 3 4 4 5 5 0 0 7",
    "D": "1 x 2 2 3 0 3 6 x 4 1 4 5",
    "H": "7 x 7 x x 5 1 1 1 7 7 1 0",
    "S": "7 2 2 3 3 4 4 5 5 0 6 6 6",
}
HANDS_P, SPARE_P = grid(DEAL_P_ROWS, SIZES_8, 5)


def test_colour_fallback_pass_left_receiver_bound_by_the_colour() -> None:
    # F10 default pass_left: 2D (1) stops (3D dead). Seat 1 holds no black card, so the duty
    # passes left to seat 2 (4C 5C 4D 5D 3S 4S), who must lead black: 4C or 3S, not 4D.
    deal = stops.replay(record(HANDS_P, SPARE_P, [L(1, "2D")]), partial=True)
    assert deal.current_seat == 2
    assert lead_choices(deal) == [(2, "3S"), (2, "4C")]
    expect_illegal(deal, L(2, "4D"))  # the wrong colour
    expect_illegal(deal, L(1, "8H"))  # seat 1 no longer has the lead
    # 3S (2) 4S (2) 5S 6S (3) 7S 8S (4) 9S TS (5) JS (0: horse 8) QS KS AS (6): ace, stop.
    # 2S (seat 7) is below the lead and is never played. Seat 6 must lead red: 9D only.
    deal.apply(L(2, "3S"))
    assert plays(deal) == P("1:2D 2:3S 2:4S 3:5S 3:6S 4:7S 4:8S 5:9S 5:TS 0:JS 6:QS 6:KS 6:AS")
    assert deal.stacks == (52, 44, 44, 44, 44, 44, 44, 44)
    assert lead_choices(deal) == [(6, "9D")]


def test_colour_fallback_pass_left_with_lowest_of_colour() -> None:
    # Reading: the receiver is bound by the switch_card rule too (F10 "bound by the same
    # colour", F9 for the card): under lowest_of_colour seat 2's lowest black card is 3S.
    opts = {"switch_card": "lowest_of_colour"}
    deal = stops.replay(record(HANDS_P, SPARE_P, [L(1, "2D")], options=opts), partial=True)
    assert lead_choices(deal) == [(2, "3S")]


def test_colour_fallback_same_colour_stop_player_leads_his_own_suit() -> None:
    # F10 same_colour: seat 1 (no black card) leads the lowest card of a suit of his choice:
    # QD (diamonds) or 8H (hearts). Reading: any suit he holds (all of the stop's colour).
    # QD takes its horse (8); KD (4) AD (5): stop. Seat 5 must lead black: TC or 9S.
    opts = {"colour_fallback": "same_colour"}
    deal = stops.replay(record(HANDS_P, SPARE_P, [L(1, "2D")], options=opts), partial=True)
    assert lead_choices(deal) == [(1, "8H"), (1, "QD")]
    deal.apply(L(1, "QD"))
    assert plays(deal) == P("1:2D 1:QD 4:KD 5:AD")
    assert deal.stacks == (44, 52, 44, 44, 44, 44, 44, 44)
    assert lead_choices(deal) == [(5, "9S"), (5, "TC")]


def test_colour_fallback_same_colour_is_a_suit_of_his_choice_under_lowest_of_colour() -> None:
    # F10 same_colour: "the stop player leads the lowest card of a suit of his choice", whatever
    # switch_card says (F9's lowest_of_colour picks the card of the *other* colour). On DEAL_P
    # seat 1 holds 2D QD 8H 9H TH KH; after his 2D stop (3D dead) he holds no black card: his
    # lowest diamond QD and his lowest heart 8H are both legal, though 8H ranks below QD.
    # He leads QD: the QD horse (8); KD (4) AD (5): ace, stop, as in the test above. Seat 5
    # (TC JC 7H 9S TS) holds black cards, so lowest_of_colour applies again: 9S (below TC).
    opts = {"colour_fallback": "same_colour", "switch_card": "lowest_of_colour"}
    deal = stops.replay(record(HANDS_P, SPARE_P, [L(1, "2D")], options=opts), partial=True)
    assert lead_choices(deal) == [(1, "8H"), (1, "QD")]
    expect_illegal(deal, L(1, "9H"))  # not the lowest of its suit
    deal.apply(L(1, "QD"))
    assert plays(deal) == P("1:2D 1:QD 4:KD 5:AD")
    assert deal.stacks == (44, 52, 44, 44, 44, 44, 44, 44)
    assert lead_choices(deal) == [(5, "9S")]


def test_colour_fallback_same_colour_avoids_the_block_and_goes_out_mid_sequence() -> None:
    # DEAL_B under same_colour: the trace is the default one up to the 9D stop (every stop
    # player held the other colour until then). Seat 6 holds no black card: instead of a
    # block he leads the lowest card of a suit of his choice - hearts only: 8H.
    # 8H 9H TH (6) JH QH (7) KH (6): KH is seat 6's last card: he goes out (F1) before AH
    # (seat 0) is played. Cards left: seat 0 7D AH (2), seat 1 QD (1), seats 2-5 two each
    # (8), seat 7 4H (1) = 12. Seat 6: 44 + 16 (kitty) + 12 = 72; seat 0: 44 + 8 (KC) + 8
    # (JS) - 2 = 58; seats 1 and 7: 43; seats 2-5: 42. AH and QD (8 each) carry.
    opts = {"colour_fallback": "same_colour"}
    deal = stops.replay(record(HANDS_B, SPARE_B, B_ACTIONS, options=opts), partial=True)
    assert plays(deal) == B_PLAYS
    assert not deal.is_terminal
    assert lead_choices(deal) == [(6, "8H")]
    deal.apply(L(6, "8H"))
    assert plays(deal) == B_PLAYS + P("6:8H 6:9H 6:TH 7:JH 7:QH 6:KH")
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 6
    assert deal.stacks == (58, 43, 42, 42, 42, 42, 72, 43)
    assert nonzero(deal) == {"AH": 8, "QD": 8}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 8), st.integers(0, 2**32), st.integers(0, 2**32))
def test_lead_after_a_stop_any_deal_same_colour_lowest_of_colour(seats: int, seed: int,
                                                                  agent: int) -> None:
    # Property of F9 x F10 over random deals and play, with switch_card lowest_of_colour and
    # colour_fallback same_colour: after a stop its player leads (no pass, no block). If he
    # holds the other colour he leads its lowest card across both suits (a rank tie: either);
    # if not, the lowest card of each suit he holds is a legal lead.
    opts = {"colour_fallback": "same_colour", "switch_card": "lowest_of_colour"}
    deal = stops.Table(VARIANT, seats=seats, seed=seed, options=opts).new_deal()
    rng = random.Random(agent)
    colour = {"C": 0, "S": 0, "D": 1, "H": 1}
    rank = "23456789TJQKA".index
    while not deal.is_terminal:
        acts = legal(deal)
        if deal.plays and deal.phase == "play":
            seat, stop = plays(deal)[-1]
            hand = [str(c) for c in deal.hand(seat)]
            other = [c for c in hand if colour[c[1]] != colour[stop[1]]]
            if other:
                low = min(rank(c[0]) for c in other)
                want = sorted((seat, c) for c in other if rank(c[0]) == low)
            else:
                want = sorted((seat, min((c for c in hand if c[1] == suit), key=lambda c:
                                         rank(c[0]))) for suit in {c[1] for c in hand})
            assert lead_choices(deal) == want, (stop, hand)
        deal.apply(rng.choice(acts))


# -- ace low (F12) ---------------------------------------------------------------------------

# DEAL_L: DEAL_B with AD (seat 5) and TD (dummy) exchanged, so the AD is in the dummy and the
# opening card is 2D under any reading of "2D ... AD" with the ace low (F8 does not say
# whether an ace-low AD would open before the 2D; these tests avoid the question).
DEAL_L_ROWS = dict(DEAL_B_ROWS, D="1 x 2 2 3 0 3 6 5 4 1 4 x")
HANDS_L, SPARE_L = grid(DEAL_L_ROWS, SIZES_8, 5)


def test_ace_low_king_is_a_stop_and_an_ace_leads_up_to_the_two() -> None:
    # F12 ace low: 2D (1) stops (3D dead); seat 1 leads 2C; clubs run 2C ... QC KC (0): the
    # King is now the top of the suit: stop, although seat 7 holds AC. KC horse (8) -> seat 0.
    # Seat 0 must lead red: 7D or AH (the ace is his lowest heart). He leads AH: the AH horse
    # (8) -> 60; next card up is 2H (seat 7); 3H is dead: stop with seat 7.
    # Seat 7 must lead black: AC (his lowest club, ace low) or 2S.
    opts = {"ace": "low"}
    deal = stops.replay(record(HANDS_L, SPARE_L, [L(1, "2D"), L(1, "2C")], options=opts),
                        partial=True)
    assert plays(deal) == P("1:2D 1:2C 1:3C 2:4C 2:5C 3:6C 3:7C 4:8C 4:9C 5:TC 5:JC 0:QC 0:KC")
    assert deal.current_seat == 0
    assert lead_choices(deal) == [(0, "7D"), (0, "AH")]
    deal.apply(L(0, "AH"))
    assert plays(deal)[-2:] == [(0, "AH"), (7, "2H")]
    assert deal.stacks == (60, 44, 44, 44, 44, 44, 44, 44)
    assert nonzero(deal) == {"QD": 8, "JS": 8, "kitty": 16}
    assert lead_choices(deal) == [(7, "2S"), (7, "AC")]


def test_ace_high_default_on_the_same_deal() -> None:
    # Ace high: after KC the AC (seat 7) follows and is the stop; seat 7 must lead red: 2H.
    deal = stops.replay(record(HANDS_L, SPARE_L, [L(1, "2D"), L(1, "2C")]), partial=True)
    assert plays(deal)[-3:] == [(0, "QC"), (0, "KC"), (7, "AC")]
    assert lead_choices(deal) == [(7, "2H")]


# -- the dummy (F13) -------------------------------------------------------------------------


def test_dealer_swap_takes_the_dummy_and_the_2d() -> None:
    # F13 dealer_swap on DEAL_S (2D in the dummy): the first decision is the dealer's: swap or
    # keep. He swaps: his hand becomes 2D TD 3H 5H 6H, the dummy QC KC 7D AH JS. Now 2D is
    # held (by seat 0) and opens: 2D (0) 3D (1) 4D 5D (2) 6D (3); 7D is in the dummy now:
    # stop with seat 3, who must lead black: 6C or 5S.
    opts = {"spare_protocol": "dealer_swap"}
    deal = stops.replay(record(HANDS_S, SPARE_S, options=opts), partial=True)
    assert deal.current_seat == 0
    assert sorted(a["action"] for a in legal(deal)) == ["keep", "swap"]
    expect_illegal(deal, L(1, "3D"))  # no lead before the dealer's choice
    deal.apply({"seat": 0, "action": "swap"})
    assert {str(c) for c in deal.observe(0).hand} == {"2D", "TD", "3H", "5H", "6H"}
    assert legal(deal) == [L(0, "2D")]
    deal.apply(L(0, "2D"))
    assert plays(deal) == P("0:2D 1:3D 2:4D 2:5D 3:6D")
    assert lead_choices(deal) == [(3, "5S"), (3, "6C")]


def test_dealer_swap_keep_then_3d_opens() -> None:
    # Keeping leaves the deal as dealt: 3D (seat 1) opens as in the default.
    opts = {"spare_protocol": "dealer_swap"}
    deal = stops.replay(record(HANDS_S, SPARE_S, [{"seat": 0, "action": "keep"}],
                               options=opts), partial=True)
    assert legal(deal) == [L(1, "3D")]
    deal.apply(L(1, "3D"))
    assert plays(deal) == P("1:3D 2:4D 2:5D 3:6D 0:7D 3:8D 6:9D")


def test_no_dummy_decision_by_default() -> None:
    # F13 default spare_protocol none: the first decision is the opening lead.
    deal = stops.replay(record(HANDS_S, SPARE_S), partial=True)
    assert legal(deal) == [L(1, "3D")]


def test_compulsory_payments_may_drive_a_stack_below_zero() -> None:
    # F2: DEAL_G with seat 1 holding only 3 chips. His stakes (6) are compulsory: 3 - 6 = -3.
    # Seat 0 goes out as before; seat 1 pays 1 for each of his 6 cards: -3 - 6 = -9, and seat
    # 0 receives the full 6 (104 as before). Chips are conserved: 353 in all.
    stacks = [50, 3, 50, 50, 50, 50, 50, 50]
    deal = stops.replay(record(HANDS_G, SPARE_G, stacks=stacks), partial=True)
    assert deal.stacks == (44, -3, 44, 44, 44, 44, 44, 44)
    deal = stops.replay(record(HANDS_G, SPARE_G, [L(0, "2D")], stacks=stacks))
    assert plays(deal) == G_PLAYS
    assert deal.stacks == (104, -9, 40, 40, 40, 38, 38, 38)
    assert nonzero(deal) == {"AH": 8, "KC": 8, "JS": 8}
    assert sum(deal.stacks) + sum(deal.layout.values()) == 353
