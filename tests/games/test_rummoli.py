"""Hand-derived tests for Rummoli (`rummoli`, FAMILY-RULINGS-2 G.2, rulings G10-G14).

Every deal is stacked and written as an ownership grid: for each suit one character per rank
2 3 4 5 6 7 8 9 T J Q K A, a digit naming the seat holding the card, ``x`` for the widow.
The grid helper checks that hands + widow are the 52-card pack and each hand has its dealt
size: the pack goes one card at a time from the dealer's left into a hand per player and the
widow (dealt after the dealer), so with 4 players and dealer 0 (52 = 5 x 10 + 2) seats 1 and 2
hold 11, seats 3 and 0 hold 10, the widow 10.

The game (G.2): layout TS JD QC KH AS (card spaces), AKD (A♦ and K♦ by one player), 7-8-9
(a 7, 8 and 9 of one suit by one player), pot (the poker), rummoli (the kitty). Everyone puts
1 chip on each of the nine spaces: 4 players x 50 chips -> 41 each, 4 on every space. The
dealer swaps with the widow unseen or auctions it (no plain keep); a player holding a pay card
may not take it (G12). Poker: each player selects five cards (from the dealer's left), one
round of limit betting from the dealer's left (G14); best hand takes the pot. The poker winner
leads the lowest card in his hand (G10); holder plays; after a stop the lowest card of the
other colour across both its suits; a player who holds none pays 1 chip into the rummoli and
the duty passes left with the same colour (G11). Spaces pay whoever plays their cards, at once
(G13). The first player out takes the rummoli and 1 chip per card left from everyone.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import stops
import support
from support import (
    act,
    expect_illegal,
    lead_choices,
    make_record,
    nonzero,
    plays,
    skip_unless_built,
)
from support import lead_decision as L
from support import plays_written as P

VARIANT = "rummoli"

pytestmark = skip_unless_built(VARIANT)

FOUR = (10, 11, 11, 10)  # 4 players, dealer 0
SPACES = ("TS", "JD", "QC", "KH", "AS", "AKD", "7-8-9", "pot", "rummoli")

grid = partial(support.grid, sizes=FOUR, spare_size=10)
record = partial(make_record, VARIANT)


def verbs(deal: stops.Deal) -> list[str]:
    return sorted({a["action"] for a in support.legal(deal)})


def code_of(deal: stops.Deal, action: dict[str, Any]) -> str:
    """The IllegalAction code ``action`` would be refused with (asserted refused)."""
    why = deal.explain(action)
    assert not why.legal, action
    return why.code


def unsold() -> list[dict[str, Any]]:
    """The dealer auctions the widow and seats 1, 2, 3 pass: it stays unused."""
    return [act(0, "auction"), act(1, "pass"), act(2, "pass"), act(3, "pass")]


def select(seat: int, cards: str) -> dict[str, Any]:
    return act(seat, "select", cards=cards.split())


def all_check() -> list[dict[str, Any]]:
    return [act(s, "check") for s in (1, 2, 3, 0)]


# -- DEAL_A: the poker winner runs his clubs and goes out ---------------------------------------
#
#          2 3 4 5 6 7 8 9 T J Q K A
# clubs    1 1 1 1 1 1 1 1 1 1 1 2 x
# diams    0 0 0 2 2 2 x x x 2 0 3 3
# hearts   3 3 3 0 0 0 2 2 x x x 0 3
# spades   2 2 3 3 3 0 0 x x 3 2 2 x
#
# seat 1: 2C..QC (11)          pay cards: QC, the 7-8-9 of clubs
# seat 2: KC 5D 6D 7D JD 8H 9H 2S 3S QS KS   pay card JD
# seat 3: KD AD 2H 3H 4H AH 4S 5S 6S JS      pay card: A♦ and K♦ together
# seat 0 (dealer): 2D 3D 4D QD 5H 6H 7H KH 7S 8S   pay card KH
# widow: AC 8D 9D TD TH JH QH 9S TS AS
ROWS_A = {
    "C": "1 1 1 1 1 1 1 1 1 1 1 2 x",
    "D": "0 0 0 2 2 2 x x x 2 0 3 3",
    "H": "3 3 3 0 0 0 2 2 x x x 0 3",
    "S": "2 2 3 3 3 0 0 x x 3 2 2 x",
}
HANDS_A, WIDOW_A = grid(ROWS_A)
SELECT_A = [select(1, "8C 9C TC JC QC"), select(2, "5D 6D 7D 8H 9H"),
            select(3, "2H 3H 4H AH JS"), select(0, "2D 3D 4D 7S 8S")]


def test_deal_a_every_player_holds_a_pay_card_so_the_widow_stays_unused() -> None:
    # G12 (read as F49): the dealer holds the K♥ (a card space): he may not swap, only
    # auction (no plain keep). Seat 1 holds the Q♣ and a 7-8-9 of clubs, seat 2 the J♦,
    # seat 3 the A♦ with the K♦: each may only pass. A bid by any of them is refused
    # (holds_pay_card) and changes nothing; so is a pass by the dealer.
    deal = stops.replay(record(HANDS_A, WIDOW_A), partial=True)
    assert deal.stacks == (41, 41, 41, 41)
    assert nonzero(deal) == dict.fromkeys(SPACES, 4)
    assert deal.current_seat == 0 and verbs(deal) == ["auction"]
    assert code_of(deal, act(0, "swap")) == "holds_pay_card"
    expect_illegal(deal, act(0, "swap"))
    assert code_of(deal, act(0, "keep")) == "no_keep"
    deal.apply(act(0, "auction"))
    for seat in (1, 2, 3):
        assert deal.current_seat == seat and verbs(deal) == ["pass"]
        assert code_of(deal, act(seat, "bid", chips=1)) == "holds_pay_card"
        expect_illegal(deal, act(seat, "bid", chips=1))
        deal.apply(act(seat, "pass"))
    # nobody bought: the hands are as dealt; the poker begins with seat 1's selection
    assert deal.hand(0) == stops.replay(record(HANDS_A, WIDOW_A), partial=True).hand(0)
    assert deal.current_seat == 1 and verbs(deal) == ["select"]


def test_deal_a_the_winner_runs_his_clubs_collects_on_play_and_goes_out() -> None:
    # Poker, all check: seat 1's 8C-QC straight flush beats seat 2's 5-9 straight, seat 3's
    # hearts and seat 0's 2D 3D 4D 7S 8S (eight high): pot 4 -> 45.
    # G10: seat 1 leads the lowest card in his hand, 2C (his only choice). Holder plays: he
    # holds 3C..QC and plays them all; at 9C he has played a 7, 8 and 9 of clubs: 7-8-9 pays
    # him 4 (first_takes_all); at QC the Q♣ space pays him 4. QC is his last card: he is out
    # at once (the K♣, seat 2's, is never played).
    # Going out: the rummoli 4 and 1 chip per card left: seat 2 11, seats 3 and 0 10: 31.
    # Seat 1: 41 + 4 + 4 + 4 + 4 + 31 = 88; seat 2: 41 - 11 = 30; seats 3, 0: 41 - 10 = 31.
    # Left on the layout: TS JD KH AS AKD 4 each (sum 88 + 30 + 31 + 31 + 20 = 200).
    actions = unsold() + SELECT_A + all_check() + [L(1, "2C")]
    deal = stops.replay(record(HANDS_A, WIDOW_A, actions))
    assert plays(deal) == P("1:2C 1:3C 1:4C 1:5C 1:6C 1:7C 1:8C 1:9C 1:TC 1:JC 1:QC")
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (31, 88, 30, 31)
    assert nonzero(deal) == dict.fromkeys(("TS", "JD", "KH", "AS", "AKD"), 4)
    claims = [(e.seat, e.space) for e in deal.events if e.kind == "claimed"]
    assert claims == [(1, "pot"), (1, "7-8-9"), (1, "QC"), (1, "rummoli")]


def test_deal_a_the_first_lead_is_compulsory_and_the_lowest_card() -> None:
    # Bad input (issue 23): seat 1 passing where his lead is compulsory is refused with
    # must_lead; a lead other than his lowest card (3C) is refused too; neither changes
    # anything. Another seat may not lead (not_your_turn).
    deal = stops.replay(record(HANDS_A, WIDOW_A, unsold() + SELECT_A + all_check()),
                        partial=True)
    assert lead_choices(deal) == [(1, "2C")]
    assert code_of(deal, act(1, "pass")) == "must_lead"
    expect_illegal(deal, act(1, "pass"))
    expect_illegal(deal, L(1, "3C"))
    assert code_of(deal, L(2, "KC")) == "not_your_turn"


def test_g14_option_the_dealer_opens_the_betting() -> None:
    # G14 option first_bettor: dealer (OPR): after the selections the dealer (seat 0) is
    # first to check or bet; by default seat 1 (the dealer's left).
    deal = stops.replay(record(HANDS_A, WIDOW_A, unsold() + SELECT_A,
                               options={"first_bettor": "dealer"}), partial=True)
    assert deal.current_seat == 0 and verbs(deal) == ["bet", "check"]
    deal = stops.replay(record(HANDS_A, WIDOW_A, unsold() + SELECT_A), partial=True)
    assert deal.current_seat == 1 and verbs(deal) == ["bet", "check"]


# -- DEAL_C: a tie for the lowest card, a failed lead, the ace-king of diamonds ------------------
#
#          2 3 4 5 6 7 8 9 T J Q K A
# clubs    1 0 x 2 2 0 x 0 0 0 x 1 x
# diams    2 3 3 x 3 3 1 1 1 1 0 1 1
# hearts   3 3 3 3 3 3 1 2 2 2 2 2 0
# spades   2 1 0 0 0 2 2 1 x x x x x
#
# seat 1: 2C KC 8D 9D TD JD KD AD 8H 3S 9S    pay cards JD, A♦ with K♦
# seat 2: 5C 6C 2D 9H TH JH QH KH 2S 7S 8S    pay card KH; a 9-K heart straight flush
# seat 3: 3D 4D 6D 7D 2H 3H 4H 5H 6H 7H      no black card, no pay card
# seat 0 (dealer): 3C 7C 9C TC JC QD AH 4S 5S 6S   no pay card
# widow: 4C 8C QC AC 5D TS JS QS KS AS
ROWS_C = {
    "C": "1 0 x 2 2 0 x 0 0 0 x 1 x",
    "D": "2 3 3 x 3 3 1 1 1 1 0 1 1",
    "H": "3 3 3 3 3 3 1 2 2 2 2 2 0",
    "S": "2 1 0 0 0 2 2 1 x x x x x",
}
HANDS_C, WIDOW_C = grid(ROWS_C)
SELECT_C = [select(1, "2C KC 8H 3S 9S"), select(2, "9H TH JH QH KH"),
            select(3, "3D 4D 6D 2H 3H"), select(0, "3C 7C 9C TC JC")]
BEFORE_PLAY_C = unsold() + SELECT_C + all_check()
# The play of DEAL_C (after seat 2's 2D):
#   2D (seat 2) -> 3D, 4D (seat 3); the 5D is in the widow: 4D is a stop, seat 3 leads.
#   Diamonds stopped: seat 3 must lead the lowest black card; he holds none: he pays 1 chip
#   into the rummoli and the duty passes to seat 0, still black (G11).
#   Seat 0's lowest black card is the 3C (4S 5S 6S are higher): the 4C is in the widow, so
#   the 3C is a stop at once. Clubs stopped: seat 0 leads his lowest red card, the QD (the
#   AH is higher). KD, AD follow from seat 1: he has played both, AKD pays him 4; the AD
#   (an ace) is a stop, and seat 1 must lead black: his 2C (3S, 9S, KC higher).
C_TRACE = [L(2, "2D"), L(0, "3C"), L(0, "QD")]


def test_deal_c_dealer_without_a_pay_card_may_swap_and_a_holder_may_not_bid() -> None:
    # The dealer holds no pay card: swap or auction. He auctions: seat 1 (J♦; A♦ with K♦)
    # and seat 2 (K♥) may only pass; seat 3 holds none and may bid.
    deal = stops.replay(record(HANDS_C, WIDOW_C), partial=True)
    assert verbs(deal) == ["auction", "swap"]
    deal.apply(act(0, "auction"))
    assert verbs(deal) == ["pass"]
    assert code_of(deal, act(1, "bid", chips=2)) == "holds_pay_card"
    expect_illegal(deal, act(1, "bid", chips=2))
    deal.apply(act(1, "pass"))
    expect_illegal(deal, act(2, "bid", chips=2))
    deal.apply(act(2, "pass"))
    assert verbs(deal) == ["bid", "pass"]


def test_g12_option_a_pay_card_holder_may_bid() -> None:
    # G12 option pay_card_blocks_spare: false: seat 1 may bid although he holds pay cards.
    deal = stops.replay(record(HANDS_C, WIDOW_C, [act(0, "auction")],
                               options={"pay_card_blocks_spare": False}), partial=True)
    assert deal.current_seat == 1 and verbs(deal) == ["bid", "pass"]


def test_deal_c_a_bought_widow_is_paid_to_the_dealer() -> None:
    # Seat 3 bids 2, nobody else may or will: he pays the dealer 2 (41 -> 39, dealer 43) and
    # takes the widow, leaving his hand in its place.
    actions = [act(0, "auction"), act(1, "pass"), act(2, "pass"), act(3, "bid", chips=2)]
    deal = stops.replay(record(HANDS_C, WIDOW_C, actions), partial=True)
    assert deal.stacks == (43, 41, 41, 39)
    assert sorted(map(str, deal.hand(3))) == sorted(WIDOW_C)


def test_deal_c_lowest_tie_fined_lead_and_ace_king() -> None:
    # Poker, all check: seat 2's K-high straight flush in hearts wins: pot 4 -> 45.
    # G10, G2: his lowest cards are the 2D and 2S: he chooses (lowest_tie player_choice).
    deal = stops.replay(record(HANDS_C, WIDOW_C, BEFORE_PLAY_C), partial=True)
    assert deal.stacks == (41, 41, 45, 41)
    assert lead_choices(deal) == [(2, "2D"), (2, "2S")]
    deal.apply(C_TRACE[0])
    # seat 3's failed lead (G11): 1 chip into the rummoli, the duty to seat 0, still black
    passed = [(e.seat, e.to_seat) for e in deal.events if e.kind == "lead_passed"]
    assert passed == [(3, 0)]
    assert deal.stacks == (41, 41, 45, 40) and deal.layout["rummoli"] == 5
    assert lead_choices(deal) == [(0, "3C")]
    assert code_of(deal, act(0, "pass")) == "must_lead"
    expect_illegal(deal, act(0, "pass"))
    expect_illegal(deal, L(0, "4S"))
    deal.apply(C_TRACE[1])
    assert lead_choices(deal) == [(0, "QD")]  # clubs stopped: the lowest red card
    deal.apply(C_TRACE[2])
    assert plays(deal) == P("2:2D 3:3D 3:4D 0:3C 0:QD 1:KD 1:AD")
    claims = [(e.seat, e.space, e.chips) for e in deal.events if e.kind == "claimed"]
    assert claims == [(2, "pot", 4), (1, "AKD", 4)]
    assert deal.stacks == (41, 45, 45, 40)
    assert nonzero(deal) == {
        "TS": 4, "JD": 4, "QC": 4, "KH": 4, "AS": 4, "7-8-9": 4, "rummoli": 5}
    assert lead_choices(deal) == [(1, "2C")]  # diamonds stopped: the lowest black card


def test_g2_option_suit_order_breaks_the_tie() -> None:
    # lowest_tie: suit_order_HCDS: of the 2D and 2S the first in the order H C D S is the
    # 2D: the only choice.
    deal = stops.replay(record(HANDS_C, WIDOW_C, BEFORE_PLAY_C,
                               options={"lowest_tie": "suit_order_HCDS"}), partial=True)
    assert lead_choices(deal) == [(2, "2D")]


def test_g10_option_lowest_of_suit() -> None:
    # first_lead_card: lowest_of_suit: seat 2 leads the lowest card he holds of a suit he
    # chooses: 5C, 2D, 9H or 2S.
    deal = stops.replay(record(HANDS_C, WIDOW_C, BEFORE_PLAY_C,
                               options={"first_lead_card": "lowest_of_suit"}), partial=True)
    assert lead_choices(deal) == [(2, "2D"), (2, "2S"), (2, "5C"), (2, "9H")]


def test_g11_option_no_fine() -> None:
    # lead_pass_penalty: 0: seat 3's failed lead costs nothing; the duty still passes.
    deal = stops.replay(record(HANDS_C, WIDOW_C, [*BEFORE_PLAY_C, C_TRACE[0]],
                               options={"lead_pass_penalty": 0}), partial=True)
    assert deal.stacks == (41, 41, 45, 41) and deal.layout["rummoli"] == 4
    assert lead_choices(deal) == [(0, "3C")]


def test_rules_text_reads_as_rummoli() -> None:
    from stops.rules.prose import rules_text

    text = rules_text(stops.load_variant(VARIANT), width=None)
    assert "\nPoker\n" in text and "Stage two" not in text and "Stage one" not in text
    assert "widow" in text and "spare hand" not in text
    assert "A player holding a pay card" in text
    assert "the lowest card in his hand" in text
