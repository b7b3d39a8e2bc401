"""Hand-derived tests for Poch (`poch`, FAMILY-RULINGS-2 G.4, G22-G29, G.0 items 4, 12, 13,
G.9 and G.11 items 7-9).

Every deal is stacked and its outcome worked out by hand from the rulings, before the game
existed; the derivation is written beside each test. Unless a test says otherwise:

* 4 players, dealer 0, so seat 1 (the dealer's left, eldest) acts first; 50 chips each;
* the 32-card pack (7 8 9 T J Q K A in each suit, ace high), 7 cards each and a stock of 4
  (the record's ``spare``); the record's ``turn_up`` is the turned card, whose suit is trumps;
* every player stakes 1 chip on each of the eight spaces (ace king queen jack ten marriage
  sequence pochen): every stack is 42 and every space holds 4 before the claims;
* stage one pays, in this order, ace king queen jack ten (the holder of that trump), the
  marriage (one player holding the King and Queen of trumps) and the sequence (the best run
  of three or more in one suit; G27); a space nobody qualifies for carries over;
* stage two, the vying, then stage three, play in turn up the suit from eldest; the first
  player out is paid 1 chip per card still held by every other player.

With ``five-each`` (3 players, 5 cards each, stock 17) every stack is 42 after the stakes and
every space holds 3.
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest

import stops
from support import (
    act,
    conserved,
    expect_illegal,
    hands_of,
    legal,
    make_record,
    nonzero,
    pack,
    plays,
    rest_of_pack,
    skip_unless_built,
)
from support import lead_decision as L
from support import pass_ as PASS
from support import plays_written as P

VARIANT = "poch"

pytestmark = skip_unless_built(VARIANT)

PACK32 = pack("789TJQKA")
HAND_SIZE = {3: 10, 4: 7, 5: 6, 6: 5}
STOCK_SIZE = {3: 2, 4: 4, 5: 2, 6: 2}
FIVE = {3: 5, 4: 5, 5: 5, 6: 5}
FIVE_STOCK = {3: 17, 4: 12, 5: 7, 6: 2}
SPACES = ("ace", "king", "queen", "jack", "ten", "marriage", "sequence", "pochen")

stock_of = partial(rest_of_pack, pack=PACK32, hand_size=HAND_SIZE, rest_size=STOCK_SIZE)
five_stock_of = partial(rest_of_pack, pack=PACK32, hand_size=FIVE, rest_size=FIVE_STOCK)


def record(hands: list[list[str]], stock: list[str], turn_up: str | None,
           actions: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    """The record of a stacked deal; ``turn_up`` (the trump card) is written when given."""
    return make_record(VARIANT, hands, stock, actions, turn_up=turn_up, **kw)


def poch(seat: int, chips: int) -> dict[str, Any]:
    return act(seat, "poch", chips=chips)


def hold(seat: int) -> dict[str, Any]:
    return act(seat, "hold")


def play(seat: int, card: str) -> dict[str, Any]:
    return act(seat, "play", card=card)


def claims(deal: stops.Deal) -> list[tuple[int | None, str | None, int]]:
    """Every public claim, in order: (seat, space, chips)."""
    return [(e.seat, e.space, e.chips) for e in deal.events
            if e.kind == "claimed" and e.visible_to is None]


def claimed(deal: stops.Deal, space: str) -> list[int | None]:
    """The seats that claimed ``space``, in order."""
    return [s for s, sp, _ in claims(deal) if sp == space]


def kinds(deal: stops.Deal, *wanted: str) -> list[tuple[str, int | None, int]]:
    return [(str(e.kind), e.seat, e.chips) for e in deal.events if e.kind in wanted]


def code_of(deal: stops.Deal, action: dict[str, Any]) -> str:
    """The code of the IllegalAction ``action`` raises (the deal is checked unchanged)."""
    expect_illegal(deal, action)
    with pytest.raises(stops.IllegalAction) as info:
        deal.apply(action)
    return info.value.code


# -- DEAL A: trumps hearts (turn-up 7H); every space is claimed ------------------------------
#
# seat 0: TD JD QD KD JC QC KC   runs T-J-Q-K of diamonds (4, top K), J-Q-K of clubs (3);
#                                pairs of Jacks, Queens, Kings (best group: the Kings)
# seat 1: AH TH 9C 9D 9S 8C 7C   ace and ten of trumps; three 9s; run 7-8-9 of clubs (3)
# seat 2: KH QH JS QS KS 8D 8S   King and Queen of trumps (marriage); run J-Q-K of spades (3);
#                                pairs of Kings, Queens, 8s (best group: the Kings)
# seat 3: JH 9H 8H AC AD AS TC   Jack of trumps; three aces; 8-9 of hearts is only two
# stock:  7D 7H 7S TS            7H turned up: hearts are trumps
HANDS_A = hands_of(
    "TD JD QD KD JC QC KC",
    "AH TH 9C 9D 9S 8C 7C",
    "KH QH JS QS KS 8D 8S",
    "JH 9H 8H AC AD AS TC",
)
STOCK_A = stock_of(HANDS_A, "7D 7H 7S TS")
# Stage one (G.4): ace seat 1, king seat 2, queen seat 2, jack seat 3, ten seat 1, marriage
# seat 2 (KH QH), sequence seat 0 (the only run of four). Each space holds 4.
# seat 0: 42 + 4 = 46; seat 1: 42 + 8 = 50; seat 2: 42 + 12 = 54; seat 3: 42 + 4 = 46;
# only the pochen (4) is left: 46 + 50 + 54 + 46 + 4 = 200.
A_CLAIMS = [(1, "ace", 4), (2, "king", 4), (2, "queen", 4), (3, "jack", 4), (1, "ten", 4),
            (2, "marriage", 4), (0, "sequence", 4)]
A_AFTER_CLAIMS = (46, 50, 54, 46)
# Vying (G.4 stage two): seat 1 poches 5 (three 9s), seats 2 and 3 hold, seat 0 passes.
A_VYING = [poch(1, 5), hold(2), hold(3), PASS(0)]
# Play (G.4 stage three), derived in test_deal_a_played_out.
A_PLAY = [L(1, "7C"), play(1, "8C"), play(1, "9C"), play(3, "TC"), play(0, "JC"),
          play(0, "QC"), play(0, "KC"), play(3, "AC"),
          L(3, "8H"), play(3, "9H"), play(1, "TH"), play(3, "JH"), play(2, "QH"),
          play(2, "KH"), play(1, "AH"),
          L(1, "9S"), L(1, "9D")]
A_PLAYS = P("1:7C 1:8C 1:9C 3:TC 0:JC 0:QC 0:KC 3:AC 3:8H 3:9H 1:TH 3:JH 2:QH 2:KH 1:AH "
            "1:9S 1:9D")


def test_stage_one_each_space_to_its_holder() -> None:
    # Trumps hearts. ace: AH seat 1; king: KH seat 2; queen: QH seat 2; jack: JH seat 3;
    # ten: TH seat 1; marriage: KH and QH both seat 2; sequence: seat 0's T-J-Q-K of diamonds
    # is the only run of four (seat 2's J-Q-K of spades and seat 1's 7-8-9 of clubs are
    # three). Paid in that order, 4 chips each; then the vying begins with seat 1.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H"), partial=True)
    assert claims(deal) == A_CLAIMS
    assert deal.stacks == A_AFTER_CLAIMS
    assert nonzero(deal) == {"pochen": 4}
    assert deal.phase == "vying"
    assert deal.current_seat == 1
    turned = [e for e in deal.events if e.kind == "turned_up"]
    assert [str(e.card) for e in turned] == ["7H"] and turned[0].visible_to is None
    conserved(deal, 200)


def test_claims_show_the_cards_that_win_them() -> None:
    # A claim by holding shows its cards to everyone: the honour, both cards of the marriage,
    # the whole run of the sequence.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H"), partial=True)
    shown = {e.space: sorted(str(c) for c in e.cards) for e in deal.events
             if e.kind == "claimed"}
    assert shown["ace"] == ["AH"] and shown["jack"] == ["JH"]
    assert shown["marriage"] == ["KH", "QH"]
    assert shown["sequence"] == ["JD", "KD", "QD", "TD"]


def test_carried_chips_go_to_the_holder() -> None:
    # Chips carried on the layout from earlier deals stay with their space: ace holds 3 + 4 = 7
    # and goes to seat 1 (50 + 3 = 53 after the claims); pochen holds 6 + 4 = 10 at the vying.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", layout={"ace": 3, "pochen": 6}),
                        partial=True)
    assert claims(deal)[0] == (1, "ace", 7)
    assert deal.stacks == (46, 53, 54, 46)
    assert nonzero(deal) == {"pochen": 10}
    conserved(deal, 209)


def test_vying_showdown_three_aces_beat_three_nines() -> None:
    # Seat 1 poches 5: 50 - 5 = 45, pochen 4 + 5 = 9. Then clockwise from seat 2, each seat
    # once: seat 2 holds (54 - 5 = 49, pochen 14), seat 3 holds (46 - 5 = 41, pochen 19),
    # seat 0 passes. Hands shown: seat 1 three 9s, seat 2 a pair of Kings, seat 3 three aces;
    # threes beat pairs and aces beat 9s: seat 3 takes 19 -> 60.
    # Stacks 46 45 49 60 (200), nothing left on the layout; play begins with seat 1.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", A_VYING), partial=True)
    assert kinds(deal, "poched", "held") == [("poched", 1, 5), ("held", 2, 5), ("held", 3, 5)]
    shown = [e for e in deal.events if e.kind == "vying_showdown"]
    assert sorted(e.seat for e in shown) == [1, 2, 3]
    for e in shown:
        assert e.visible_to is None  # visible to all
        assert sorted(str(c) for c in e.cards) == sorted(HANDS_A[e.seat])
    assert claims(deal)[-1] == (3, "pochen", 19)
    assert deal.stacks == (46, 45, 49, 60)
    assert nonzero(deal) == {}
    assert deal.phase == "play" and deal.current_seat == 1
    conserved(deal, 200)


def test_deal_a_played_out() -> None:
    """Play in turn up the suit, the ace a stop, a dead gap, going out per card (G29, G.11 9).

    Seat 1 (eldest) leads 7C and goes on with 8C and 9C; nobody else has had a turn yet.
    The TC is seat 3's: seat 2 is passed over, seat 3 plays TC; the JC is seat 0's: seat 0
    plays JC, QC, KC; the AC is seat 3's: seats 1 and 2 are passed over, seat 3 plays AC,
    the top of the suit: a stop, and seat 3 leads again at once.
    Seat 3 leads 8H, goes on with 9H; TH: seat 0 passed over, seat 1 plays TH; JH: seat 2
    passed over, seat 3 plays JH; QH: seats 0 and 1 passed over, seat 2 plays QH and KH; AH:
    seats 3 and 0 passed over, seat 1 plays AH: a stop, seat 1 leads.
    Seat 1 leads 9S; the TS is in the stock (dead): seats 2, 3 and 0 are passed over and
    the turn comes back to seat 1, the last to lay a card, who leads again (G.11 9: a dead
    card is no stop, and the pass costs nothing). He leads 9D, his last card: he is out.
    Left in hand: seat 0 TD JD QD KD (4), seat 2 JS QS KS 8D 8S (5), seat 3 AD AS (2);
    each pays seat 1 a chip per card: 11.
    From 46 45 49 60 after the vying: 42, 45 + 11 = 56, 44, 58 (200).
    """
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", A_VYING + A_PLAY))
    assert plays(deal) == A_PLAYS
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (42, 56, 44, 58)
    assert nonzero(deal) == {}
    passed = [e.seat for e in deal.events if e.kind == "passed_over"]
    assert passed == [2, 1, 2, 0, 2, 0, 1, 3, 0, 2, 3, 0]
    conserved(deal, 200)


def test_play_in_turn_offers_only_the_next_card_of_the_suit() -> None:
    # After seat 1's 7C the 8C is his: his only choice is to play it (no voluntary stop).
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", A_VYING + A_PLAY[:1]), partial=True)
    assert legal(deal) == [play(1, "8C")]
    # After 9C, the TC is seat 3's: seat 2 is passed over without a decision.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", A_VYING + A_PLAY[:3]), partial=True)
    assert deal.current_seat == 3 and legal(deal) == [play(3, "TC")]


def test_nobody_poches_the_pochen_carries() -> None:
    # Every seat passes in turn from seat 1: the 4 chips stay on the pochen and nobody's hand
    # is shown. Play begins with seat 1 and, played out as in deal A, ends with the same
    # payments: 46 50 54 46 -> 42, 50 + 11 = 61, 49, 44; pochen 4 (200).
    vying = [PASS(1), PASS(2), PASS(3), PASS(0)]
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", vying), partial=True)
    assert deal.stacks == A_AFTER_CLAIMS
    assert nonzero(deal) == {"pochen": 4}
    assert not [e for e in deal.events if e.kind in ("vying_showdown", "poched", "held")]
    assert deal.phase == "play" and deal.current_seat == 1
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", vying + A_PLAY))
    assert deal.stacks == (42, 61, 49, 44)
    assert nonzero(deal) == {"pochen": 4}
    conserved(deal, 200)


def test_nobody_holds_the_pocher_takes_the_pool_unseen() -> None:
    # Seat 1 poches 3 (50 - 3 = 47, pochen 7); seats 2, 3 and 0 pass: seat 1 takes the 7
    # unseen (54), no hand is shown.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H",
                               [poch(1, 3), PASS(2), PASS(3), PASS(0)]), partial=True)
    assert claims(deal)[-1] == (1, "pochen", 7)
    assert deal.stacks == (46, 54, 54, 46)
    assert not [e for e in deal.events if e.kind == "vying_showdown"]
    assert deal.phase == "play"
    conserved(deal, 200)


def test_the_vying_offers() -> None:
    # Seat 1 (three 9s, stack 50): poch 1 to 50 chips, or pass; no hold before a poch.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H"), partial=True)
    acts = legal(deal)
    assert PASS(1) in acts and poch(1, 1) in acts and poch(1, 50) in acts
    assert poch(1, 51) not in acts and hold(1) not in acts
    assert len(acts) == 51
    # After seat 1 poches 5: seat 2 may hold (stack 54 >= 5) or pass, nothing else.
    deal.apply(poch(1, 5))
    assert deal.current_seat == 2
    assert sorted(a["action"] for a in legal(deal)) == ["hold", "pass"]


def test_first_bettor_dealer() -> None:
    # G28 option: the dealer opens the vying. Seat 0 poches 2 (pairs of J, Q, K); then from
    # seat 1: seat 1 passes, seat 2 passes, seat 3 holds. Shown: seat 0's best group the
    # Kings (a pair), seat 3 three aces: seat 3 takes 4 + 2 + 2 = 8.
    # seat 0 46 - 2 = 44; seat 3 46 - 2 + 8 = 52; seats 1, 2 50, 54 (200).
    rec = record(HANDS_A, STOCK_A, "7H", [poch(0, 2), PASS(1), PASS(2), hold(3)],
                 options={"first_bettor": "dealer"})
    deal = stops.replay(dict(rec, actions=[]), partial=True)
    assert deal.current_seat == 0
    deal = stops.replay(rec, partial=True)
    assert deal.stacks == (44, 50, 54, 52)
    assert sorted(e.seat for e in deal.events if e.kind == "vying_showdown") == [0, 3]
    conserved(deal, 200)


def test_a_seat_without_chips_can_only_pass() -> None:
    # G.11 8: seat 1 starts with 0: stakes take him to -8, his claims (ace, ten) to 0. With
    # three 9s he still may not poch: a stack of 0 covers no poch of 1 or more.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", stacks=[50, 0, 50, 50]), partial=True)
    assert deal.stacks[1] == 0
    assert legal(deal) == [PASS(1)]
    assert code_of(deal, poch(1, 1)) == "insufficient_chips"


def test_illegal_vying_decisions_change_nothing() -> None:
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H"), partial=True)
    # a poch beyond the stack (50)
    assert code_of(deal, poch(1, 51)) == "insufficient_chips"
    # a hold with nothing to hold
    assert code_of(deal, hold(1)) == "nothing_to_hold"
    deal.apply(poch(1, 5))
    # a second poch: the first ended that round (no raising, G26)
    assert code_of(deal, poch(2, 6)) == "already_poched"
    # a card before the play
    expect_illegal(deal, play(2, "KH"))


# -- DEAL B: trumps spades (turn-up 7S); carried spaces, tie-breaks ---------------------------
#
# seat 0: QC AC TD 8H JH 9S JS   Jack of trumps; a pair of Jacks; no run
# seat 1: 7C 8C 9C TC JD QH AH   run 7-8-9-T of clubs (4, top T); no pair (highest: AH)
# seat 2: QD KD AD KH 8D 7H TS   ten of trumps; run Q-K-A of diamonds (3, top A); pair of Kings
# seat 3: KS KC 8S 9H TH JC 9D   King of trumps; pairs of Kings (with the trump) and 9s
# stock:  7D 7S QS AS            the ace and Queen of trumps are dead: ace, queen and
#                                marriage (KS without QS) carry over
HANDS_B = hands_of(
    "QC AC TD 8H JH 9S JS",
    "7C 8C 9C TC JD QH AH",
    "QD KD AD KH 8D 7H TS",
    "KS KC 8S 9H TH JC 9D",
)
STOCK_B = stock_of(HANDS_B, "7D 7S QS AS")


def test_dead_honours_carry_and_the_longest_run_wins() -> None:
    # king seat 3 (KS), jack seat 0 (JS), ten seat 2 (TS), 4 each; ace, queen and marriage
    # carry (AS, QS in the stock). length_first (default): seat 1's four clubs beat seat 2's
    # three diamonds, though the diamonds are higher: sequence seat 1.
    # Stacks 46 46 46 46; layout ace 4, queen 4, marriage 4, pochen 4 (200).
    deal = stops.replay(record(HANDS_B, STOCK_B, "7S"), partial=True)
    assert claims(deal) == [(3, "king", 4), (0, "jack", 4), (2, "ten", 4), (1, "sequence", 4)]
    assert deal.stacks == (46, 46, 46, 46)
    assert nonzero(deal) == {"ace": 4, "queen": 4, "marriage": 4, "pochen": 4}
    conserved(deal, 200)


def test_height_first_the_highest_run_wins() -> None:
    # sequence_rank: height_first (G27 option): seat 2's run tops at the ace, seat 1's at the
    # ten: sequence seat 2. Seat 1 42, seat 2 50.
    deal = stops.replay(record(HANDS_B, STOCK_B, "7S",
                               options={"sequence_rank": "height_first"}), partial=True)
    assert claimed(deal, "sequence") == [2]
    assert deal.stacks == (46, 42, 50, 46)


def test_trump_run_needs_the_seven_eight_nine_of_trumps() -> None:
    # sequence_rule: trump_run (CS): the 7S is the turn-up, so nobody holds 7-8-9 of spades:
    # the sequence carries (4), whatever runs are held.
    deal = stops.replay(record(HANDS_B, STOCK_B, "7S", options={"sequence_rule": "trump_run"}),
                        partial=True)
    assert claimed(deal, "sequence") == []
    assert nonzero(deal)["sequence"] == 4


def test_a_poch_needs_a_pair() -> None:
    # G26 default poch_requires: pair. Seat 1 holds no two cards of a rank: he may only pass,
    # and a poch is refused (deal unchanged).
    deal = stops.replay(record(HANDS_B, STOCK_B, "7S"), partial=True)
    assert deal.current_seat == 1
    assert legal(deal) == [PASS(1)]
    assert code_of(deal, poch(1, 2)) == "no_pair"


def test_equal_pairs_the_trump_wins() -> None:
    # Seat 1 passes (no pair); seat 2 poches 2 (46 - 2 = 44, pochen 6). From seat 3: seat 3
    # holds (44, pochen 8), seat 0 passes, seat 1 holds (a holder needs no pair: 44, pochen 10).
    # Shown: seat 2 Kings (KD KH), seat 3 Kings (KS KC), seat 1 no group (highest AH). Pairs
    # beat a hand without a group; the two pairs of Kings are equal, and seat 3's holds the
    # King of trumps: seat 3 takes 10 -> 54.
    # Stacks 46 44 44 54; layout ace 4, queen 4, marriage 4 (200).
    deal = stops.replay(record(HANDS_B, STOCK_B, "7S",
                               [PASS(1), poch(2, 2), hold(3), PASS(0), hold(1)]), partial=True)
    assert claims(deal)[-1] == (3, "pochen", 10)
    assert deal.stacks == (46, 44, 44, 54)
    assert nonzero(deal) == {"ace": 4, "queen": 4, "marriage": 4}
    conserved(deal, 200)


def test_a_seat_whose_stack_is_below_the_poch_can_only_pass() -> None:
    # G.11 8. Seat 3 starts with 10: 10 - 8 = 2 after the stakes, + 4 (king) = 6. Seat 1 passes
    # (no pair); seat 2 poches 8 (46 - 8 = 38, pochen 12). Seat 3 cannot hold 8 with 6: only
    # pass. Seat 0 holds (38, pochen 20), seat 1 passes. Shown: seat 2 Kings, seat 0 Jacks:
    # seat 2 takes 20 -> 58. Stacks 38 46 58 6; layout ace 4, queen 4, marriage 4 (160).
    rec = record(HANDS_B, STOCK_B, "7S", [PASS(1), poch(2, 8)], stacks=[50, 50, 50, 10])
    deal = stops.replay(rec, partial=True)
    assert deal.current_seat == 3 and deal.stacks[3] == 6
    assert legal(deal) == [PASS(3)]
    assert code_of(deal, hold(3)) == "insufficient_chips"
    for a in (PASS(3), hold(0), PASS(1)):
        deal.apply(a)
    assert claims(deal)[-1] == (2, "pochen", 20)
    assert deal.stacks == (38, 46, 58, 6)
    assert nonzero(deal) == {"ace": 4, "queen": 4, "marriage": 4}
    conserved(deal, 160)


# -- DEAL C: no pairs anywhere; equal highest cards ------------------------------------------
#
# seat 0: 7C 8C 9H TH QH KH AH
# seat 1: AC KD QS JH 9C 8D 7S   no pair, highest AC
# seat 2: AD KC QD JS TC 9D 8S   no pair, highest AD
# seat 3: AS KS QC JC TD 9S 8H   no pair, highest AS
# stock:  7H 7D JD TS
HANDS_C = hands_of(
    "7C 8C 9H TH QH KH AH",
    "AC KD QS JH 9C 8D 7S",
    "AD KC QD JS TC 9D 8S",
    "AS KS QC JC TD 9S 8H",
)
STOCK_C = stock_of(HANDS_C, "7H 7D JD TS")
C_VYING = [PASS(1), poch(2, 3), PASS(3), PASS(0), hold(1)]
ANY = {"poch_requires": "any"}


def test_nobody_has_a_pair_so_nobody_may_poch() -> None:
    # poch_requires: pair and no hand holds a pair: every seat may only pass; the pochen (4)
    # carries and play begins.
    deal = stops.replay(record(HANDS_C, STOCK_C, "7H"), partial=True)
    for seat in (1, 2, 3, 0):
        assert deal.current_seat == seat and legal(deal) == [PASS(seat)]
        deal.apply(PASS(seat))
    assert deal.phase == "play"
    assert nonzero(deal) == {"pochen": 4}


def test_equal_highest_cards_go_to_the_seat_nearest_the_dealers_left() -> None:
    # poch_requires: any (G26 option). Trumps hearts: seat 0 holds ace, king, queen, ten,
    # marriage and the sequence (Q-K-A of hearts): 42 + 24 = 66; seat 1 the jack: 46.
    # Vying: seat 1 passes; seat 2 poches 3 with no pair (42 - 3 = 39, pochen 7); from
    # seat 3: seat 3 passes, seat 0 passes, seat 1 holds (46 - 3 = 43, pochen 10).
    # Shown: seat 2 no group, highest AD; seat 1 no group, highest AC. Equal, and neither
    # is a trump: the seat first clockwise from the dealer's left, seat 1, takes 10 -> 53.
    # Stacks 66 53 39 42 (200).
    deal = stops.replay(record(HANDS_C, STOCK_C, "7H", C_VYING, options=ANY), partial=True)
    assert claims(deal)[:6] == [(0, "ace", 4), (0, "king", 4), (0, "queen", 4), (1, "jack", 4),
                                (0, "ten", 4), (0, "marriage", 4)]
    assert claims(deal)[-1] == (1, "pochen", 10)
    assert deal.stacks == (66, 53, 39, 42)
    conserved(deal, 200)


def test_equal_highest_cards_the_trump_wins() -> None:
    # The same hands, turn-up 7D: diamonds are trumps. ace AD seat 2, king KD seat 1, queen
    # QD seat 2, jack (JD dead) carries, ten TD seat 3, marriage (KD and QD apart) carries,
    # sequence seat 0 (Q-K-A of hearts: any suit): 46 46 50 46.
    # Same vying: seat 2 poches 3 (47), seat 1 holds (43). Highest cards AD and AC: the AD is
    # a trump (G.11 7): seat 2 takes 10 -> 57. Stacks 46 43 57 46; jack 4, marriage 4 (200).
    deal = stops.replay(record(HANDS_C, STOCK_C, "7D", C_VYING, options=ANY), partial=True)
    assert claims(deal)[-1] == (2, "pochen", 10)
    assert deal.stacks == (46, 43, 57, 46)
    assert nonzero(deal) == {"jack": 4, "marriage": 4}


# -- DEAL D: the turn-up is an honour (turn-up KH) -------------------------------------------
#
# seat 0 (dealer): TD JD QD KD JC QC QH   Queen of trumps; run T-J-Q-K of diamonds (4)
# seat 1: AH TH 9C 9D 9S 8C 7C             ace and ten of trumps
# seat 2: 7H KC JS QS KS 8D 8S
# seat 3: JH 9H 8H AC AD AS TC             Jack of trumps
# stock:  7D KH 7S TS                      KH turned up
HANDS_D = hands_of(
    "TD JD QD KD JC QC QH",
    "AH TH 9C 9D 9S 8C 7C",
    "7H KC JS QS KS 8D 8S",
    "JH 9H 8H AC AD AS TC",
)
STOCK_D = stock_of(HANDS_D, "7D KH 7S TS")


def test_a_turned_up_honour_pays_nobody_by_default() -> None:
    # G24 default turn_up_honours: nobody. The King of trumps is dead: king carries; marriage
    # (KH dead) carries. ace 1, queen 0, jack 3, ten 1, sequence 0.
    # seat 0 42 + 8 = 50, seat 1 50, seat 2 42, seat 3 46; king 4, marriage 4, pochen 4.
    deal = stops.replay(record(HANDS_D, STOCK_D, "KH"), partial=True)
    assert claims(deal) == [(1, "ace", 4), (0, "queen", 4), (3, "jack", 4), (1, "ten", 4),
                            (0, "sequence", 4)]
    assert deal.stacks == (50, 50, 42, 46)
    assert nonzero(deal) == {"king": 4, "marriage": 4, "pochen": 4}


def test_a_turned_up_honour_pays_the_dealer_under_dealer() -> None:
    # turn_up_honours: dealer: the dealer (seat 0) takes king at the turn-up, before stage
    # one. The marriage is never paid by a turn-up (G.11 8): seat 0 holds QH but not the KH,
    # so it carries. seat 0 42 + 4 + 8 = 54; marriage 4, pochen 4 (200).
    deal = stops.replay(record(HANDS_D, STOCK_D, "KH", options={"turn_up_honours": "dealer"}),
                        partial=True)
    assert claims(deal) == [(0, "king", 4), (1, "ace", 4), (0, "queen", 4), (3, "jack", 4),
                            (1, "ten", 4), (0, "sequence", 4)]
    first = [e.kind for e in deal.events if e.kind in ("turned_up", "claimed")][:2]
    assert first == ["turned_up", "claimed"]
    assert deal.stacks == (54, 50, 42, 46)
    assert nonzero(deal) == {"marriage": 4, "pochen": 4}
    conserved(deal, 200)


def test_a_plain_turn_up_pays_nobody_under_dealer() -> None:
    # Deal A's turn-up 7H is no honour: turn_up_honours: dealer changes nothing.
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", options={"turn_up_honours": "dealer"}),
                        partial=True)
    assert claims(deal) == A_CLAIMS


# -- records -------------------------------------------------------------------------------


def test_a_record_without_turn_up_is_refused() -> None:
    # G.9: a poch record without turn_up is rejected; a turn-up outside the stock too.
    with pytest.raises(stops.RecordError, match="turn_up"):
        stops.replay(record(HANDS_A, STOCK_A, None))
    with pytest.raises(stops.RecordError, match="turn_up"):
        stops.replay(record(HANDS_A, STOCK_A, "AH"))


def test_a_record_replays_to_the_same_deal() -> None:
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", A_VYING + A_PLAY))
    rec = deal.record()
    assert rec["turn_up"] == "7H"
    again = stops.replay(rec)
    assert again.stacks == deal.stacks and plays(again) == plays(deal)


def test_a_shuffled_deal_turns_up_a_card_of_the_stock() -> None:
    # Under deal_shape: table the turn-up is a card of the stock; its suit is trumps and the
    # record names it.
    for seats in (3, 4, 5, 6):
        deal = stops.Table(VARIANT, seats=seats, seed=seats).new_deal()
        rec = deal.record()
        assert len(rec["spare"]) == STOCK_SIZE[seats]
        assert all(len(h) == HAND_SIZE[seats] for h in rec["hands"])
        assert rec["turn_up"] in rec["spare"]
        turned = [str(e.card) for e in deal.events if e.kind == "turned_up"]
        assert turned == [rec["turn_up"]]


# -- sequences: tie-breaks (G27, G.11 7), five-each, 3 players ---------------------------------
#
# five-each: 5 cards each, a stock of 17; 42 each after the stakes, 3 on every space.
# T1: equal runs (three cards, top T) in clubs and diamonds.
# seat 0: AH KS QD JC 7S   no run
# seat 1: 8C 9C TC AS JH   8-9-T of clubs
# seat 2: 8D 9D TD KH 7C   8-9-T of diamonds
HANDS_T1 = hands_of("AH KS QD JC 7S", "8C 9C TC AS JH", "8D 9D TD KH 7C")
STOCK_T1 = five_stock_of(HANDS_T1, "KC QC AC 7D JD KD AD 7H 8H 9H TH QH 8S 9S TS JS QS")
FIVE_EACH = {"five-each": True}


@pytest.mark.parametrize(("turn_up", "dealer", "rank", "winner"), [
    # equal length and top: the trump run wins (diamonds: seat 2) ...
    ("7D", 0, "length_first", 2),
    ("7D", 0, "height_first", 2),
    # ... clubs: seat 1, though seat 2 is first from the dealer's left (dealer 1: 2, 0, 1)
    ("AC", 1, "length_first", 1),
    # neither a trump (hearts): the seat first clockwise from the dealer's left
    ("7H", 0, "length_first", 1),
    ("7H", 1, "length_first", 2),
    ("7H", 1, "height_first", 2),
])
def test_equal_runs_trump_then_seat(turn_up: str, dealer: int, rank: str, winner: int) -> None:
    deal = stops.replay(record(HANDS_T1, STOCK_T1, turn_up, dealer=dealer,
                               options={**FIVE_EACH, "sequence_rank": rank}), partial=True)
    assert claimed(deal, "sequence") == [winner]
    assert deal.layout.get("sequence", 0) == 0


# T2: equal tops (T), different lengths.
# seat 0: AH KS QD JC 7S   no run
# seat 1: 7C 8C 9C TC AS   7-8-9-T of clubs (4)
# seat 2: 8D 9D TD KH JH   8-9-T of diamonds (3)
HANDS_T2 = hands_of("AH KS QD JC 7S", "7C 8C 9C TC AS", "8D 9D TD KH JH")
STOCK_T2 = five_stock_of(HANDS_T2, "QC KC AC 7D JD KD AD 7H 8H 9H TH QH 8S 9S TS JS QS")


@pytest.mark.parametrize("rank", ["length_first", "height_first"])
def test_equal_tops_the_longer_run_before_the_trump(rank: str) -> None:
    # Diamonds trumps (7D). height_first: equal tops are ordered by length before the trump
    # (G.11 7): seat 1's four clubs beat seat 2's three trumps. length_first: longer anyway.
    deal = stops.replay(record(HANDS_T2, STOCK_T2, "7D",
                               options={**FIVE_EACH, "sequence_rank": rank}), partial=True)
    assert claimed(deal, "sequence") == [1]


# T4: the 7-8-9 of trumps against a longer run.
# seat 0: AH KS QH JS 9S   no run
# seat 1: 7C 8C 9C TC JC   7 to J of clubs (5)
# seat 2: 7D 8D 9D AS KH   7-8-9 of diamonds
HANDS_T4 = hands_of("AH KS QH JS 9S", "7C 8C 9C TC JC", "7D 8D 9D AS KH")
STOCK_T4 = five_stock_of(HANDS_T4, "QC KC AC TD JD QD KD AD 7H 8H 9H TH JH 7S 8S TS QS")


@pytest.mark.parametrize(("rule", "turn_up", "winner"), [
    ("best_held", "TD", 1),     # the five clubs are the best run
    ("trump_run", "TD", 2),     # diamonds trumps: seat 2 holds 7-8-9 of trumps
    ("trump_run", "7H", None),  # hearts trumps: the 7H is dead, nobody: the space carries
])
def test_trump_run(rule: str, turn_up: str, winner: int | None) -> None:
    deal = stops.replay(record(HANDS_T4, STOCK_T4, turn_up,
                               options={**FIVE_EACH, "sequence_rule": rule}), partial=True)
    assert claimed(deal, "sequence") == ([] if winner is None else [winner])
    if winner is None:
        assert deal.layout["sequence"] == 3


# T5: ace low (G25 option): A-7-8 is a run in the 32-card pack (G.11 7).
# seat 0: KS QH JS 7S KD   no run
# seat 1: AC 7C 8C 9C QD   ace high: 7-8-9 (3, top 9); ace low: A-7-8-9 (4)
# seat 2: 9D TD JD AH KH   9-T-J of diamonds (3, top J); K-A of hearts only under ace high
HANDS_T5 = hands_of("KS QH JS 7S KD", "AC 7C 8C 9C QD", "9D TD JD AH KH")
STOCK_T5 = five_stock_of(HANDS_T5, "TC JC QC KC 7D 8D AD 7H 8H 9H TH JH 8S 9S TS QS AS")


@pytest.mark.parametrize(("ace", "winner"), [("high", 2), ("low", 1)])
def test_ace_low_runs(ace: str, winner: int) -> None:
    # ace high: seat 1's 7-8-9 and seat 2's 9-T-J are both three long; the J is higher: seat 2.
    # ace low: A-7-8-9 of clubs is four long: seat 1.
    deal = stops.replay(record(HANDS_T5, STOCK_T5, "7H", options={**FIVE_EACH, "ace": ace}),
                        partial=True)
    assert claimed(deal, "sequence") == [winner]


@pytest.mark.parametrize("ace", ["low", "high"])
def test_ace_low_play_the_seven_follows_the_ace(ace: str) -> None:
    # T5 hands; nobody poches (seat 0's pair of Kings passes too). Seat 1 leads AC.
    # ace low (G25: order A 7 8 ... K in the 32-card pack): the 7C follows the AC; seat 1
    # plays 7C, 8C, 9C; the TC is in the stock: seats 2 and 0 are passed over and seat 1
    # leads again. ace high: the AC is the top of clubs, a stop: seat 1 leads again at once.
    vying = [PASS(1), PASS(2), PASS(0), L(1, "AC")]
    deal = stops.replay(record(HANDS_T5, STOCK_T5, "7H", vying,
                               options={**FIVE_EACH, "ace": ace}), partial=True)
    if ace == "high":
        assert [e.kind for e in deal.events][-1] == "stop"
        assert sorted(a["card"] for a in legal(deal)) == ["7C", "8C", "9C", "QD"]
        return
    assert legal(deal) == [play(1, "7C")]
    for card in ("7C", "8C", "9C"):
        deal.apply(play(1, card))
    assert [e.seat for e in deal.events if e.kind == "passed_over"] == [2, 0]
    assert deal.current_seat == 1 and legal(deal) == [L(1, "QD")]


def test_a_shown_hand_is_known_to_every_copy() -> None:
    # After deal A's showdown seat 0 has seen seats 1, 2 and 3's whole hands: every copy
    # deal.clone_for(0) imagines keeps them; only the stock's three hidden cards are dealt
    # again (the turn-up 7H is seen).
    import random

    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", A_VYING), partial=True)
    for k in range(5):
        copy = deal.clone_for(0, random.Random(k))
        for seat in (1, 2, 3):
            assert sorted(map(str, copy.hand(seat))) == sorted(HANDS_A[seat])


def test_a_poch_proves_a_pair_to_every_copy() -> None:
    # Seat 1 poches 3 and nobody holds: his hand is never shown, but under poch_requires:
    # pair the poch proves he held two cards of a rank: every copy seat 2 imagines gives
    # him a pair (his AH and TH were shown by his claims).
    import random

    deal = stops.replay(record(HANDS_A, STOCK_A, "7H",
                               [poch(1, 3), PASS(2), PASS(3), PASS(0)]), partial=True)
    for k in range(20):
        copy = deal.clone_for(2, random.Random(k))
        held = [str(c) for c in copy.hand(1)]
        assert {"AH", "TH"} <= set(held)
        ranks = [c[0] for c in held]
        assert len(set(ranks)) < len(ranks), ranks


def test_five_each_deals_five_cards() -> None:
    # G23 preset five-each: 5 cards each from the 32-card pack, the rest is the stock.
    for seats in (3, 4, 5, 6):
        rec = stops.Table(VARIANT, seats=seats, seed=7, options=FIVE_EACH).new_deal().record()
        assert [len(h) for h in rec["hands"]] == [5] * seats
        assert len(rec["spare"]) == 32 - 5 * seats
    # a stacked deal of 7 cards each is refused under five-each
    with pytest.raises(stops.RecordError):
        stops.replay(record(HANDS_A, STOCK_A, "7H", options=FIVE_EACH))


# -- full-pack (G22): 52 cards; with ace low A-2-3 is a run (G.11 7) --------------------------
#
# Built in the ace-low order A 2 3 ... K so that no hand holds two cards in a row except
# seat 1's A-2-3 of spades (and 4-5 of spades for seat 0, 8-9 of spades for seat 2):
#            A 2 3 4 5 6 7 8 9 T J Q K
# clubs      0 1 2 0 1 2 0 1 2 0 1 2 0
# diamonds   1 2 0 1 2 0 1 2 0 1 2 0 1
# hearts     2 0 1 2 0 1 2 0 1 2 0 1 2
# spades     1 1 1 0 0 2 x 2 2 0 1 2 0      7S turned up: spades are trumps
# Under ace high the ace sits above the King: seat 0's K-A of clubs, seat 1's K-A of
# diamonds and seat 2's K-A of hearts are only two; no hand has a run of three.
FULL_ROWS = {
    "C": "0 1 2 0 1 2 0 1 2 0 1 2 0",
    "D": "1 2 0 1 2 0 1 2 0 1 2 0 1",
    "H": "2 0 1 2 0 1 2 0 1 2 0 1 2",
    "S": "1 1 1 0 0 2 x 2 2 0 1 2 0",
}


def _full_deal() -> tuple[list[list[str]], list[str]]:
    hands: list[list[str]] = [[], [], []]
    stock: list[str] = []
    for suit, row in FULL_ROWS.items():
        for rank, who in zip("A23456789TJQK", row.split(), strict=True):
            (stock if who == "x" else hands[int(who)]).append(rank + suit)
    assert [len(h) for h in hands] == [17, 17, 17] and stock == ["7S"]
    return hands, stock


@pytest.mark.parametrize(("ace", "winner"), [("low", 1), ("high", None)])
def test_full_pack(ace: str, winner: int | None) -> None:
    # full-pack: 17 cards each for three players, one card left: the turn-up (7S, spades).
    # Honours: AS seat 1 (ace), KS seat 0 (king), QS seat 2 (queen), JS seat 1 (jack), TS seat
    # 0 (ten); marriage (KS, QS apart) carries. Sequence: under ace low seat 1's A-2-3 of
    # spades; under ace high nobody has three in a row: it carries. 3 chips a space.
    hands, stock = _full_deal()
    deal = stops.replay(record(hands, stock, "7S", options={"full-pack": True, "ace": ace}),
                        partial=True)
    assert [(s, sp) for s, sp, _ in claims(deal)][:5] == [
        (1, "ace"), (0, "king"), (2, "queen"), (1, "jack"), (0, "ten")]
    assert claimed(deal, "sequence") == ([] if winner is None else [winner])
    assert deal.layout["marriage"] == 3
    rec = stops.Table(VARIANT, seats=4, seed=3, options={"full-pack": True}).new_deal().record()
    assert [len(h) for h in rec["hands"]] == [12] * 4 and len(rec["spare"]) == 4


# -- sessions ------------------------------------------------------------------------------


@pytest.mark.parametrize("options", [{}, FIVE_EACH, {"full-pack": True}, ANY])
def test_sessions_conserve_chips(options: dict[str, Any]) -> None:
    # match_end deals per_player 1: four deals for four players, each dealer once; random
    # decisions; chips are neither made nor lost, stacks plus layout stay 4 x 50.
    import random

    rng = random.Random(5)
    table = stops.Table(VARIANT, seats=4, chips=50, seed=9, dealer=0, options=options)
    dealers = []
    while not table.is_over:
        deal = table.new_deal()
        dealers.append(deal.dealer)
        while not deal.is_terminal:
            acts = deal.legal_actions()
            deal.apply(acts[rng.randrange(len(acts))])
        assert sum(table.stacks) + sum(table.layout.values()) == 200
    assert dealers == [0, 1, 2, 3]


# -- the heuristic bot's play of the vying ---------------------------------------------------


def test_the_bot_poches_and_holds_on_good_groups() -> None:
    # stops.games.poch.vying_advice, from each seat's own observation (deal A, trumps hearts):
    # seat 1 (three 9s) poches; after his poch of 5 (pochen 9) seat 2's best group is a pair
    # of Kings and the poch is more than half the pool: he passes; seat 3 (three aces) holds.
    # Deal B: seat 1 holds no pair and passes.
    from stops.games.poch import vying_advice

    deal = stops.replay(record(HANDS_A, STOCK_A, "7H"), partial=True)
    advice = vying_advice(deal.observe(1), deal.legal_actions())
    assert advice is not None and advice.action == "poch" and 1 <= (advice.chips or 0) <= 5
    deal.apply(poch(1, 5))
    assert vying_advice(deal.observe(2), deal.legal_actions()) == stops.Action(2, "pass")
    deal.apply(PASS(2))
    assert vying_advice(deal.observe(3), deal.legal_actions()) == stops.Action(3, "hold")
    deal = stops.replay(record(HANDS_B, STOCK_B, "7S"), partial=True)
    assert vying_advice(deal.observe(1), deal.legal_actions()) == stops.Action(1, "pass")
    # not a decision of the vying: no advice
    deal = stops.replay(record(HANDS_A, STOCK_A, "7H", A_VYING), partial=True)
    assert vying_advice(deal.observe(1), deal.legal_actions()) is None


# -- the vying at the table: the heuristic bot and the narration ------------------------------


def test_the_heuristic_bot_vies_through_the_phase_and_the_table_hears_it_in_person() -> None:
    """The vying brings its bot play and its narration (its aids): heuristic bots poch and
    hold in a session (the advice poches on a pair of Queens or better), and a player reads
    his own vying in the second person ("you poch", "you hold", "you show")."""
    from stops.apps.terminal import replay_text
    from stops.bots import make_bot, play_deal

    variant = stops.load_variant(VARIANT)
    table = stops.Table(variant, seats=4, chips=50, seed=3, deals=12)
    bots = [make_bot("heuristic", s, variant.registry) for s in range(4)]
    deals = []
    while not table.is_over:
        deal = table.new_deal()
        play_deal(deal, bots)
        deals.append(deal)
    kinds = [e.kind for d in deals for e in d.events]
    assert "poched" in kinds and "held" in kinds
    for seat in range(4):
        mine = [(e.kind, e.seat) for d in deals for e in d.events if e.seat == seat]
        text = "\n".join(replay_text(deals, seat=seat))
        if ("poched", seat) in mine:
            assert "you poch " in text
        if ("held", seat) in mine:
            assert "you hold with " in text
        assert "you poches" not in text and "you holds" not in text and "you shows" not in text


def test_a_sequence_shown_is_its_holders_longest_in_every_copy() -> None:
    # Three players, dealer 0, 10 cards each, the 7S turned up: spades are trumps. By hand,
    # stage one: AS and JS are seat 1's, KS and QS seat 2's (the marriage too), TS seat 0's;
    # the sequence goes to the best run of three or more in one suit, the longest first:
    # seat 0's QH-KH-AH is the only one (seat 1: KD AD, seat 2: 8S 9S, QS KS, 8D 9D are
    # pairs), and the claim shows those three cards. Seat 2 sees it. Had seat 0 held the JH
    # too, his run would have been JH-QH-KH-AH and the claim would have shown four cards:
    # he does not hold it (seat 1 does). Every copy seat 2 imagines must leave the JH out
    # of seat 0's hand, and show the same claim (a copy giving it to him claimed the same
    # space for the same seat, so it was taken for one the seat could be in).
    hands = [["7C", "9C", "JC", "KC", "JD", "QD", "QH", "KH", "AH", "TS"],
             ["8C", "7D", "TD", "KD", "AD", "7H", "9H", "JH", "JS", "AS"],
             ["TC", "QC", "AC", "8D", "9D", "8H", "8S", "9S", "QS", "KS"]]
    deal = stops.replay(record(hands, ["TH", "7S"], "7S"), partial=True)
    shown = [(e.seat, e.space, [str(c) for c in e.cards]) for e in deal.events
             if e.kind == "claimed" and e.space == "sequence"]
    assert shown == [(0, "sequence", ["QH", "KH", "AH"])]
    for k in range(30):
        copy = deal.clone_for(2, random.Random(k))
        assert "JH" not in {str(c) for c in copy.hand(0)}
        again = stops.replay(copy.record(), partial=True)
        assert again.seen_by(2) == deal.seen_by(2)


def _after_claims(seed: int) -> Any:
    """A Poch deal of ``seed`` played at random up to the first decision after its claims
    by holding (published), as a new table's first deal: dealer seat 0."""
    from stops.phases.settle import HeldClaims

    deal = stops.Table(stops.load_variant("poch"), seats=4, seed=seed).new_deal()
    pick = random.Random(seed)
    while deal.result(HeldClaims) is None or deal.current_seat is None:
        legal = deal.legal_actions()
        deal.apply(legal[pick.randrange(len(legal))])
    return deal


def test_what_a_card_wins_held_is_proved_per_trump_suit_not_per_turn_up() -> None:
    """What each card would win held alone is worked out once per dealer, seats and trump
    suit (``TrumpsHeld.held_turn_up``): two deals turning up different cards of one suit
    share it, and each seat's knowledge is what a cold memory gives."""
    from stops.engine.determinize import knowledge
    from stops.phases.turn_up import trump_suit

    deals: dict[int, Any] = {}
    for seed in range(1, 200):
        d = _after_claims(seed)
        first = deals.setdefault(trump_suit(d), d)
        if first is not d and first.last_dealt != d.last_dealt:
            break
    else:
        pytest.fail("no two deals turned up different cards of one suit")
    a, b = first, d
    cache = b.variant.cache

    def cold(deal: Any, seat: int) -> tuple[dict[int, int], dict[int, frozenset[int]]]:
        for k in [k for k in cache if isinstance(k, tuple) and k[:1] == ("knows",)]:
            del cache[k]
        known = knowledge(deal.clone(), seat)
        return known.held, {h: frozenset(cs) for h, cs in known.lacks.items() if cs}

    for seat in range(4):
        alone = cold(b, seat)
        cold(a, seat)  # the proof worked out in the other deal, then read for this one
        known = knowledge(b.clone(), seat)
        assert (known.held, {h: frozenset(cs) for h, cs in known.lacks.items() if cs}) == alone
    # one proof of what each card wins (its key: dealer, seats, trumps) served both deals
    # (beside it, what each deal's own claims leave unclaimed, one per deal)
    proofs = [k for k in cache if isinstance(k, tuple) and k[:2] == ("knows", "held")]
    assert len([k for k in proofs if len(k) == 5]) == 1
