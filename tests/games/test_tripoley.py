"""Hand-derived tests for Tripoley's colour rules (`tripoley-colours`: FAMILY-RULINGS F.7,
F47-F54, the rules `tripoley` played before G.1 of FAMILY-RULINGS-2, which moved them to their
own file; it extends `tripoley`, itself `three-in-one`, so rulings 1-27 of docs/rulings.md
apply where F.7 does not say otherwise). The boxed `tripoley` is tests/games/test_tripoley_box.py.

Every deal is stacked and written as an ownership grid: for each suit one character per rank
2 3 4 5 6 7 8 9 T J Q K A, a digit naming the seat that holds the card or ``x`` for the dead
hand. The grid helper checks that hands + dead hand are exactly the 52-card pack and that each
hand has its size: the whole pack goes one card at a time from the dealer's left into a hand
per player and the dead hand (dealt after the dealer), so the odd cards go to the players
nearest the dealer's left (ruling 1, `after_dealer`):

* 9 players, dealer 0: 52 = 10 x 5 + 2: seats 1 and 2 hold 6, the others 5, dead hand 5.
* 4 players, dealer 0: 52 = 5 x 10 + 2: seats 1 and 2 hold 11, seats 3 and 0 hold 10, dead 10.

Order of a deal (as three-in-one, F.7): stakes (1 on each of the nine spaces AH KH QH JH TH
KQ 8-9-10 pot kitty, from everyone) -> the dealer's spare-hand choice (`swap` or `auction`;
bids clockwise from the dealer's left) -> stage one, claims by holding (automatic) -> one
round of poker betting from the dealer's left (best five cards used automatically) ->
stage three: the dealer's left opens with his lowest black card, holder plays, colours
alternate at every stop (lowest red, lowest black, ...) -> settlement.

9 players x 200 chips: after the stakes every stack is 191 and every space holds 9.
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
    legal,
    make_record,
    nonzero,
    plays,
    skip_unless_built,
)
from support import lead_decision as L
from support import plays_written as P

VARIANT = "tripoley-colours"

pytestmark = skip_unless_built(VARIANT)

NINE = (5, 6, 6, 5, 5, 5, 5, 5, 5)  # 9 players, dealer 0
FOUR = (10, 11, 11, 10)  # 4 players, dealer 0
SPACES = ("AH", "KH", "QH", "JH", "TH", "KQ", "8-9-10", "pot", "kitty")


# -- helpers (shared ones in support.py) -----------------------------------------------------

# Hands and dead hand from an ownership grid (see the module docstring): ace high, 52 cards.
grid = support.grid
record = partial(make_record, VARIANT, chips=200)  # F.7: 200 chips a player


def left_of(dealer: int, n: int) -> list[int]:
    """Seats clockwise from the dealer's left, the dealer last."""
    return [(dealer + k) % n for k in range(1, n + 1)]


def auction_unsold(n: int = 9, dealer: int = 0) -> list[dict[str, Any]]:
    """The dealer auctions the dead hand and every other seat passes: nobody buys, the
    dealer keeps his hand and the dead hand stays as dealt."""
    return [act(dealer, "auction")] + [act(s, "pass") for s in left_of(dealer, n)[:-1]]


def all_check(n: int = 9, dealer: int = 0) -> list[dict[str, Any]]:
    return [act(s, "check") for s in left_of(dealer, n)]


def bet_all_fold(n: int = 9, dealer: int = 0, chips: int = 1) -> list[dict[str, Any]]:
    """The dealer's left bets, everyone else folds: he takes the pot unseen."""
    first, *rest = left_of(dealer, n)
    return [act(first, "bet", chips=chips)] + [act(s, "fold") for s in rest]


def verbs(deal: stops.Deal) -> list[str]:
    return sorted({a["action"] for a in legal(deal)})


# -- DEAL_A: 9 players, dealer 0 ---------------------------------------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 1 1 1 1 1 3 3 3 5 5 5 5
# diams   2 3 6 6 6 6 4 4 4 7 7 7 7
# hearts  8 8 8 8 4 0 x 2 x 2 2 2 2
# spades  5 6 3 4 7 8 0 0 x 0 0 x x
#
# seat 1: 2C 3C 4C 5C 6C 7C   (6)  best five 3C-7C: a straight flush
# seat 2: 2D 9H JH QH KH AH   (6)  AH KH QH JH (+ KQ) pay cards; a heart flush
# seat 3: 8C 9C TC 3D 4S           8-9-10 of clubs
# seat 4: 8D 9D TD 6H 5S           8-9-10 of diamonds
# seat 5: JC QC KC AC 2S      seat 6: 4D 5D 6D 7D 3S (a 3-7 straight)
# seat 7: JD QD KD AD 6S      seat 8: 2H 3H 4H 5H 7S      seat 0 (dealer): 7H 8S 9S JS QS
# dead:   8H TH TS KS AS      (the TH lies dead)
DEAL_A_ROWS = {
    "C": "1 1 1 1 1 1 3 3 3 5 5 5 5",
    "D": "2 3 6 6 6 6 4 4 4 7 7 7 7",
    "H": "8 8 8 8 4 0 x 2 x 2 2 2 2",
    "S": "5 6 3 4 7 8 0 0 x 0 0 x x",
}
HANDS_A, DEAD_A = grid(DEAL_A_ROWS, NINE, 5)
A_PLAYS = P("1:2C 1:3C 1:4C 1:5C 1:6C 1:7C")
# Stage three of DEAL_A: seat 1 (dealer's left) holds only clubs 2C-7C; his lowest black card
# is 2C. He plays 2C..7C himself and 7C empties his hand: out at once (F1 / ruling 27),
# although 8C (seat 3) would follow. Cards left: seat 2 six, the seven others five: 41.


def test_table_default_chips_are_200_and_stakes_are_nine() -> None:
    # F.7: 200 chips a player is the variant's default for Table(chips=...). 4 players, the
    # deal DEAL_E below: every player puts 1 on each of the nine spaces: 191 each, 4 a space.
    table = stops.Table(VARIANT, seats=4, seed=1, dealer=0)
    assert list(table.stacks) == [200, 200, 200, 200]
    deal = table.new_deal(hands=HANDS_E, spare=DEAD_E)
    assert deal.stacks == (191, 191, 191, 191)
    assert nonzero(deal) == dict.fromkeys(SPACES, 4)


def test_stakes_on_carry_over_and_the_dealers_choice() -> None:
    # 9 players: 1 on each space from each: +9 a space on top of the carry-over (TH 5,
    # kitty 2): TH 14, kitty 11, the rest 9. The first decision is the dealer's: swap or
    # auction, and no plain keep (F48 default dealer_keep false). The dealer (7H 8S 9S JS QS)
    # holds no pay card, so he may swap (F49).
    deal = stops.replay(record(HANDS_A, DEAD_A, layout={"TH": 5, "kitty": 2}), partial=True)
    assert deal.stacks == (191,) * 9
    assert nonzero(deal) == dict(dict.fromkeys(SPACES, 9), TH=14, kitty=11)
    assert deal.current_seat == 0
    assert verbs(deal) == ["auction", "swap"]
    expect_illegal(deal, act(0, "keep"))
    expect_illegal(deal, act(1, "bid", chips=1))


def test_deal_a_unsold_auction_stage_one_poker_and_going_out() -> None:
    # Dealer auctions; seats 1-8 pass (seats 2, 3 and 4 could only pass: F49). Nobody buys:
    # the dealer keeps his hand, the dead hand stays face down.
    # Stage one (by holding): seat 2 AH KH QH JH and KQ: 5 x 9 = 45 -> 236. 8-9-10: seats 3
    # (clubs) and 4 (diamonds) share 9: 4 each, 1 stays (F50 share) -> 195 each. TH is dead:
    # its 9 stay.
    # Poker, all check: seat 1's best five (3C-7C) is a straight flush; the best of the rest
    # is seat 2's heart flush: seat 1 takes the pot (9) -> 200.
    # Stage three: A_PLAYS; seat 1 goes out: kitty 9 + 41 cards -> 250.
    # Seat 2: 236 - 6 = 230; seats 3, 4: 195 - 5 = 190; seats 5-8 and 0: 191 - 5 = 186.
    actions = auction_unsold() + all_check() + [L(1, "2C")]
    deal = stops.replay(record(HANDS_A, DEAD_A, actions))
    assert plays(deal) == A_PLAYS
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (186, 250, 230, 190, 190, 186, 186, 186, 186)
    assert nonzero(deal) == {"TH": 9, "8-9-10": 1}


def test_deal_a_step_by_step_pay_card_holders_cannot_bid() -> None:
    deal = stops.replay(record(HANDS_A, DEAD_A, [act(0, "auction")]), partial=True)
    assert deal.current_seat == 1
    assert "bid" in verbs(deal)
    deal.apply(act(1, "pass"))
    # F49: seat 2 holds AH..JH, seats 3 and 4 an 8-9-10: pass is all they may do.
    for seat in (2, 3, 4):
        assert deal.current_seat == seat
        assert legal(deal) == [act(seat, "pass")]
        expect_illegal(deal, act(seat, "bid", chips=1))
        deal.apply(act(seat, "pass"))
    for seat in (5, 6, 7, 8):
        deal.apply(act(seat, "pass"))
    # stage one done (automatic); poker from the dealer's left, no `select` decision
    assert deal.stacks == (191, 191, 236, 195, 195, 191, 191, 191, 191)
    assert nonzero(deal) == {"TH": 9, "8-9-10": 1, "pot": 9, "kitty": 9}
    assert deal.current_seat == 1
    assert verbs(deal) == ["bet", "check"]
    for a in all_check():
        deal.apply(a)
    assert deal.stacks[1] == 200 and deal.layout["pot"] == 0
    # stage three: the dealer's left opens with his lowest black card, 2C only
    assert deal.current_seat == 1
    assert lead_choices(deal) == [(1, "2C")]
    expect_illegal(deal, L(1, "3C"))
    expect_illegal(deal, L(2, "2D"))


def test_pay_card_restriction_off_lets_a_holder_bid() -> None:
    # F49 option pay_card_blocks_spare false: seat 2 (pay cards) may bid.
    opts = {"pay_card_blocks_spare": False}
    deal = stops.replay(record(HANDS_A, DEAD_A, [act(0, "auction"), act(1, "pass")],
                               options=opts), partial=True)
    assert deal.current_seat == 2
    assert verbs(deal) == ["bid", "pass"]


def test_dealer_swaps_with_the_dead_hand() -> None:
    # The dealer swaps unseen: he now holds TH TS KS AS 8H, and 7H 8S 9S JS QS is the dead
    # hand. Stage one: the dealer holds the TH: +9 -> 200; the rest as before.
    # Poker, all check: seat 1's straight flush still wins (the dealer has a pair of tens).
    # Seat 1 goes out at 7C as before: kitty 9 + 41.
    # Dealer 200 - 5 = 195; seat 1 250; seat 2 230; seats 3, 4 190; seats 5-8 186.
    actions = [act(0, "swap"), *all_check(), L(1, "2C")]
    deal = stops.replay(record(HANDS_A, DEAD_A, actions))
    assert {str(c) for c in deal.observe(0).hand} == {"TH", "TS", "KS", "AS", "8H"}
    assert plays(deal) == A_PLAYS
    assert deal.winner == 1
    assert deal.stacks == (195, 250, 230, 190, 190, 186, 186, 186, 186)
    assert nonzero(deal) == {"8-9-10": 1}


def test_auction_sold_with_a_rebid() -> None:
    # Open ascending auction from the dealer's left (RULINGS 11): 1 pass, 2 3 4 pass (pay
    # cards), 5 bids 2, 6 bids 3, 7 and 8 pass, 5 bids again 4, 6 passes: seat 5 buys the
    # dead hand for 4, paid to the dealer (191 + 4 = 195), and swaps: seat 5 holds TH TS KS
    # AS 8H, his old hand JC QC KC AC 2S is the dead hand. Stage one: seat 5 takes TH (9):
    # 191 - 4 + 9 = 196. Poker, all check: seat 1 wins the pot (9). Seat 1 goes out at 7C:
    # kitty 9 + 41 -> 250. Dealer 195 - 5 = 190; seat 5 196 - 5 = 191; seat 2 230;
    # seats 3, 4 190; seats 6, 7, 8 186.
    auction = [act(0, "auction"), act(1, "pass"), act(2, "pass"), act(3, "pass"),
               act(4, "pass"), act(5, "bid", chips=2), act(6, "bid", chips=3),
               act(7, "pass"), act(8, "pass"), act(5, "bid", chips=4), act(6, "pass")]
    deal = stops.replay(record(HANDS_A, DEAD_A, auction), partial=True)
    assert deal.stacks == (195, 191, 236, 195, 195, 196, 191, 191, 191)
    assert {str(c) for c in deal.observe(5).hand} == {"TH", "TS", "KS", "AS", "8H"}
    assert nonzero(deal) == {"8-9-10": 1, "pot": 9, "kitty": 9}
    deal = stops.replay(record(HANDS_A, DEAD_A, auction + all_check() + [L(1, "2C")]))
    assert plays(deal) == A_PLAYS
    assert deal.stacks == (190, 250, 230, 190, 190, 191, 186, 186, 186)
    assert nonzero(deal) == {"8-9-10": 1}


def test_dealer_keep_option() -> None:
    # F48 dealer_keep true: the dealer may also `keep` (same as an unsold auction).
    opts = {"dealer_keep": True}
    deal = stops.replay(record(HANDS_A, DEAD_A, options=opts), partial=True)
    assert verbs(deal) == ["auction", "keep", "swap"]
    actions = [act(0, "keep"), *all_check(), L(1, "2C")]
    deal = stops.replay(record(HANDS_A, DEAD_A, actions, options=opts))
    assert plays(deal) == A_PLAYS
    assert deal.stacks == (186, 250, 230, 190, 190, 186, 186, 186, 186)
    assert nonzero(deal) == {"TH": 9, "8-9-10": 1}


def test_ten_share_lowest_seat() -> None:
    # F50 lowest_seat: of the two 8-9-10 holders (seats 3 and 4) the one nearest the dealer's
    # left (seat 3) takes all 9. Seat 3: 191 + 9 - 5 = 195; seat 4: 191 - 5 = 186.
    actions = auction_unsold() + all_check() + [L(1, "2C")]
    deal = stops.replay(record(HANDS_A, DEAD_A, actions, options={"ten_share": "lowest_seat"}))
    assert deal.stacks == (186, 250, 230, 195, 186, 186, 186, 186, 186)
    assert nonzero(deal) == {"TH": 9}


# DEAL_B: DEAL_A with 9H (seat 2) and AS (dead) exchanged: the dead hand is 8H 9H TH TS KS,
# holding an 8-9-10 of hearts; seat 2 holds 2D JH QH KH AH AS.
DEAL_B_ROWS = dict(DEAL_A_ROWS, H="8 8 8 8 4 0 x x x 2 2 2 2", S="5 6 3 4 7 8 0 0 x 0 0 x 2")
HANDS_B, DEAD_B = grid(DEAL_B_ROWS, NINE, 5)


def test_dead_hand_blocks_the_8_9_10() -> None:
    # F50 dead_hand_blocks true: the dead hand (unchanged after an unsold auction) holds 8H 9H
    # TH, so the 8-9-10 space pays nobody: seats 3 and 4 get nothing, its 9 stay. Seat 2
    # still takes AH KH QH JH KQ (45).
    deal = stops.replay(record(HANDS_B, DEAD_B, auction_unsold(),
                               options={"dead_hand_blocks": True}), partial=True)
    assert deal.stacks == (191, 191, 236, 191, 191, 191, 191, 191, 191)
    assert nonzero(deal) == {"TH": 9, "8-9-10": 9, "pot": 9, "kitty": 9}
    # default false: the two holders share as usual (4 each, 1 stays)
    deal = stops.replay(record(HANDS_B, DEAD_B, auction_unsold()), partial=True)
    assert deal.stacks == (191, 191, 236, 195, 195, 191, 191, 191, 191)
    assert nonzero(deal) == {"TH": 9, "8-9-10": 1, "pot": 9, "kitty": 9}


# -- DEAL_D: a poker tie --------------------------------------------------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 1 1 1 1 4 3 3 3 5 5 5 5
# diams   0 3 6 6 6 6 4 4 4 7 7 7 7
# hearts  2 2 2 2 2 1 x 2 x 8 8 8 8
# spades  5 6 3 4 7 8 0 0 x 0 0 x x
#
# seat 1: 2C 3C 4C 5C 6C 7H -> best five 2C-6C, a six-high straight flush
# seat 2: 2H 3H 4H 5H 6H 9H -> best five 2H-6H, a six-high straight flush: a tie
# seat 8: 7S JH QH KH AH (pay cards); seats 3 and 4: 8-9-10 of clubs / diamonds
DEAL_D_ROWS = {
    "C": "1 1 1 1 1 4 3 3 3 5 5 5 5",
    "D": "0 3 6 6 6 6 4 4 4 7 7 7 7",
    "H": "2 2 2 2 2 1 x 2 x 8 8 8 8",
    "S": "5 6 3 4 7 8 0 0 x 0 0 x x",
}
HANDS_D, DEAD_D = grid(DEAL_D_ROWS, NINE, 5)


def test_poker_tie_splits_odd_chip_stays_no_bet_limit() -> None:
    # Unsold auction. Stage one: seat 8 AH KH QH JH KQ (45) -> 236; seats 3 and 4 share the
    # 8-9-10 (4 each, 1 stays) -> 195; TH dead.
    # Poker: seat 1 bets 50 (no limit but his stack: three-in-one's 10 does not apply),
    # seat 2 calls 50, seats 3-8 and 0 fold. Showdown of seats 1 and 2: equal six-high
    # straight flushes (seat 1's 7H does not make a higher one): they split 9 + 100 = 109:
    # 54 each, the odd chip stays on the pot. Seats 1, 2: 191 - 50 + 54 = 195.
    # Stage three then starts with seat 1's lowest black card, 2C.
    poker = [act(1, "bet", chips=50), act(2, "call")] + [act(s, "fold")
                                                         for s in (3, 4, 5, 6, 7, 8, 0)]
    deal = stops.replay(record(HANDS_D, DEAD_D, auction_unsold() + poker), partial=True)
    assert deal.stacks == (191, 195, 195, 195, 195, 191, 191, 191, 236)
    assert nonzero(deal) == {"TH": 9, "8-9-10": 1, "pot": 1, "kitty": 9}
    assert deal.current_seat == 1
    assert lead_choices(deal) == [(1, "2C")]


# -- DEAL_C: stage three, colour alternation, penalties and the flip ------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 1 2 2 3 3 4 4 5 5 6 6 7
# diams   7 x 5 x 1 1 2 3 4 7 8 x x
# hearts  0 0 2 4 6 6 7 8 x 8 6 5 0
# spades  7 8 8 0 0 1 1 2 2 3 3 4 5
#
# seat 0 (dealer): 2H 3H AH 5S 6S        seat 1: 2C 3C 6D 7D 7S 8S
# seat 2: 4C 5C 8D 4H 9S TS              seat 3: 6C 7C 9D JS QS
# seat 4: 8C 9C TD 5H KS                 seat 5: TC JC 4D KH AS
# seat 6: QC KC 6H 7H QH                 seat 7: AC 2D JD 8H 2S
# seat 8: QD 9H JH 3S 4S                 dead:   3D 5D KD AD TH
# No hand holds an 8-9-10. Pay cards: AH (seat 0), KH (5), QH (6), JH (8); TH dead.
DEAL_C_ROWS = {
    "C": "1 1 2 2 3 3 4 4 5 5 6 6 7",
    "D": "7 x 5 x 1 1 2 3 4 7 8 x x",
    "H": "0 0 2 4 6 6 7 8 x 8 6 5 0",
    "S": "7 8 8 0 0 1 1 2 2 3 3 4 5",
}
HANDS_C, DEAD_C = grid(DEAL_C_ROWS, NINE, 5)
# Before stage three (default options): the dealer holds the AH, so he cannot swap (F49): he
# auctions, everyone passes (seats 5, 6, 8 must). Stage one: AH, KH, QH, JH: 9 each to seats
# 0, 5, 6, 8 -> 200; TH (dead), KQ (split), 8-9-10 (none) keep 9. Poker: seat 1 bets 1,
# everyone folds: seat 1 takes 9 + 1 -> 200. Stacks: 200 200 191 191 191 200 200 191 200.
C_BEFORE = auction_unsold() + bet_all_fold()
# Stage three:
#  1. Seat 1 opens with his lowest black card, 2C. Clubs 2C 3C (1) 4C 5C (2) 6C 7C (3) 8C 9C
#     (4) TC JC (5) QC KC (6) AC (7): ace, stop.
#  2. Seat 7 must lead his lowest red card: 2D (JD 8H are higher). 3D is dead: stop.
#  3. Seat 7 must lead his lowest black card: 2S. Spades 2S (7) 3S 4S (8) 5S 6S (0) 7S 8S
#     (1) 9S TS (2) JS QS (3) KS (4) AS (5): ace, stop.
#  4. Seat 5 must lead his lowest red card: 4D (KH is higher). 5D is dead: stop.
#  5. Seat 5 must lead black; every black card has been played. He pays 1 to the kitty and
#     the duty passes left: 6, 7, 8, 0, 1, 2, 3, 4 hold no black either and pay 1 each
#     (F51): 9 chips. Round complete: the colour flips (F52) and the duty returns to seat 5,
#     who leads his lowest red card: KH, his last card: he is out.
#     Reading: "all the way round" is one failed lead (and one penalty) per seat, the first
#     duty-holder included; after the flip he does not pay again.
C_PLAY = [L(1, "2C"), L(7, "2D"), L(7, "2S"), L(5, "4D"), L(5, "KH")]
C_PLAYS = P("1:2C 1:3C 2:4C 2:5C 3:6C 3:7C 4:8C 4:9C 5:TC 5:JC 6:QC 6:KC 7:AC 7:2D "
            "7:2S 8:3S 8:4S 0:5S 0:6S 1:7S 1:8S 2:9S 2:TS 3:JS 3:QS 4:KS 5:AS 5:4D 5:KH")
# Cards left when seat 5 goes out: seat 0 3 (AH 2H 3H), 1 2 (6D 7D), 2 2 (8D 4H), 3 1 (9D),
# 4 2 (TD 5H), 6 3 (QH 6H 7H), 7 2 (JD 8H), 8 3 (QD 9H JH): 18.


def test_dealer_holding_a_pay_card_cannot_swap() -> None:
    deal = stops.replay(record(HANDS_C, DEAD_C), partial=True)
    assert deal.current_seat == 0
    assert verbs(deal) == ["auction"]
    expect_illegal(deal, act(0, "swap"))
    deal = stops.replay(record(HANDS_C, DEAD_C, C_BEFORE), partial=True)
    assert deal.stacks == (200, 200, 191, 191, 191, 200, 200, 191, 200)
    assert nonzero(deal) == {"TH": 9, "KQ": 9, "8-9-10": 9, "kitty": 9}
    assert lead_choices(deal) == [(1, "2C")]


def test_pay_card_restriction_off_dealer_swaps_his_ace_into_the_dead_hand() -> None:
    # F49 false: the dealer may swap although he holds the AH. He takes 3D 5D KD AD TH; his
    # old hand (with the AH) is dead. Stage one: dealer TH (9); KH, QH, JH as before; AH is
    # dead now: its 9 stay.
    deal = stops.replay(record(HANDS_C, DEAD_C, [act(0, "swap")],
                               options={"pay_card_blocks_spare": False}), partial=True)
    assert {str(c) for c in deal.observe(0).hand} == {"3D", "5D", "KD", "AD", "TH"}
    assert deal.stacks == (200, 191, 191, 191, 191, 200, 200, 191, 200)
    assert nonzero(deal) == {"AH": 9, "KQ": 9, "8-9-10": 9, "pot": 9, "kitty": 9}


def test_colour_alternation_step_by_step() -> None:
    deal = stops.replay(record(HANDS_C, DEAD_C, C_BEFORE + C_PLAY[:1]), partial=True)
    assert plays(deal) == C_PLAYS[:13]
    assert deal.current_seat == 7
    assert lead_choices(deal) == [(7, "2D")]  # lowest red: 2D, not JD or 8H
    expect_illegal(deal, L(7, "JD"))
    expect_illegal(deal, L(7, "2S"))  # black: the wrong colour
    deal.apply(L(7, "2D"))
    assert lead_choices(deal) == [(7, "2S")]  # lowest black now
    deal.apply(L(7, "2S"))
    assert plays(deal) == C_PLAYS[:27]
    assert lead_choices(deal) == [(5, "4D")]
    deal.apply(L(5, "4D"))
    # the failed round: nine penalties of 1 into the kitty, the colour flips, seat 5 leads red
    assert deal.layout["kitty"] == 18
    assert deal.stacks == (199, 199, 190, 190, 190, 199, 199, 190, 199)
    assert deal.current_seat == 5
    assert lead_choices(deal) == [(5, "KH")]


def test_going_out_after_the_colour_flip_kitty_plus_per_card() -> None:
    # Defaults: lead_pass_penalty 1, colour_flip true, going_out_reward kitty_plus_per_card.
    # Seat 5: 199 + kitty 18 + 18 cards = 235. Everyone else: stack after the penalty minus
    # his cards: 199-3, 199-2, 190-2, 190-1, 190-2, 199-3, 190-2, 199-3.
    deal = stops.replay(record(HANDS_C, DEAD_C, C_BEFORE + C_PLAY))
    assert plays(deal) == C_PLAYS
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 5
    assert deal.stacks == (196, 197, 188, 189, 188, 235, 196, 188, 196)
    assert nonzero(deal) == {"TH": 9, "KQ": 9, "8-9-10": 9}


def test_no_kitty_penalty() -> None:
    # F51 lead_pass_penalty 0: the failed round costs nothing; kitty 9.
    # Seat 5: 200 + 9 + 18 = 227; others: 200-3, 200-2, 191-2, 191-1, 191-2, 200-3, 191-2,
    # 200-3.
    deal = stops.replay(record(HANDS_C, DEAD_C, C_BEFORE + C_PLAY,
                               options={"lead_pass_penalty": 0}))
    assert plays(deal) == C_PLAYS
    assert deal.winner == 5
    assert deal.stacks == (197, 198, 189, 190, 189, 227, 197, 189, 197)
    assert nonzero(deal) == {"TH": 9, "KQ": 9, "8-9-10": 9}


def test_going_out_kitty_only() -> None:
    # F53 kitty_only: seat 5 takes the kitty (18) only: 199 + 18 = 217; the others keep
    # their stacks after the penalties.
    deal = stops.replay(record(HANDS_C, DEAD_C, C_BEFORE + C_PLAY,
                               options={"going_out_reward": "kitty_only"}))
    assert plays(deal) == C_PLAYS
    assert deal.winner == 5
    assert deal.stacks == (199, 199, 190, 190, 190, 217, 199, 190, 199)
    assert nonzero(deal) == {"TH": 9, "KQ": 9, "8-9-10": 9}


def test_no_colour_flip_blocks_as_three_in_one() -> None:
    # F52 colour_flip false (with lead_pass_penalty 0, so only the block pays): after the 4D
    # stop nobody holds a black card: the deal is blocked and everyone puts 1 chip per card
    # left into the kitty (three-in-one, RULINGS 26): 3+2+2+1+2+1+3+2+3 = 19 (seat 5 still
    # holds KH). Kitty 9 + 19 = 28. Nobody wins.
    opts = {"colour_flip": False, "lead_pass_penalty": 0}
    deal = stops.replay(record(HANDS_C, DEAD_C, C_BEFORE + C_PLAY[:4], options=opts))
    assert plays(deal) == C_PLAYS[:-1]
    assert deal.is_terminal and deal.outcome == "blocked" and deal.winner is None
    assert deal.stacks == (197, 198, 189, 190, 189, 199, 197, 189, 197)
    assert nonzero(deal) == {"TH": 9, "KQ": 9, "8-9-10": 9, "kitty": 28}


def test_no_colour_flip_with_the_kitty_penalty() -> None:
    # F52 false with the default penalty. Reading: the nine failed leads of the full round
    # each still pay 1 (F51) before the block is declared; then the block payments (19).
    # Kitty 9 + 9 + 19 = 37.
    deal = stops.replay(record(HANDS_C, DEAD_C, C_BEFORE + C_PLAY[:4],
                               options={"colour_flip": False}))
    assert plays(deal) == C_PLAYS[:-1]
    assert deal.outcome == "blocked" and deal.winner is None
    assert deal.stacks == (196, 197, 188, 189, 188, 198, 196, 188, 196)
    assert nonzero(deal) == {"TH": 9, "KQ": 9, "8-9-10": 9, "kitty": 37}


def test_home_table_preset_collects_pay_cards_on_play_and_lets_the_dealer_keep() -> None:
    # F54 preset home-table (switched on like pot-and-kitty's four-kings: an option set to
    # true): pay_collection on_play and dealer_keep true. Reading: whether F49 still stops a
    # dealer holding a pay card from swapping under on_play is left open: only `keep` is
    # asserted to be offered. The dealer keeps; there is no
    # stage-one claim, so the pot is still 9: seat 1 bets 1, all fold: 190 + 10 = 200.
    # Stage three as C_PLAYS. The only pay card played is the KH, seat 5's last card: he takes
    # KH (9), then goes out: kitty 9 + 9 penalties = 18, + 18 cards.
    # Seat 5: 191 - 1 + 9 + 18 + 18 = 235. Others: 191 - 1 - cards (seat 1: 200 - 1 - 2).
    # AH, QH, JH (never played), TH (dead), KQ and 8-9-10 stay.
    opts = {"home-table": True}
    deal = stops.replay(record(HANDS_C, DEAD_C, options=opts), partial=True)
    assert "keep" in verbs(deal)
    actions = [act(0, "keep"), *bet_all_fold(), *C_PLAY]
    deal = stops.replay(record(HANDS_C, DEAD_C, actions[:1], options=opts), partial=True)
    assert deal.stacks == (191,) * 9  # nothing claimed by holding
    deal = stops.replay(record(HANDS_C, DEAD_C, actions, options=opts))
    assert plays(deal) == C_PLAYS
    assert deal.winner == 5
    assert deal.stacks == (187, 197, 188, 189, 188, 235, 187, 188, 187)
    assert nonzero(deal) == {"AH": 9, "QH": 9, "JH": 9, "TH": 9, "KQ": 9, "8-9-10": 9}


# DEAL_C2: DEAL_C with seat 7's red cards (2D JD 8H) and seat 4's 8C 9C KS exchanged:
# seat 7 AC 8C 9C 2S KS (no red card), seat 4 2D TD JD 5H 8H.
DEAL_C2_ROWS = {
    "C": "1 1 2 2 3 3 7 7 5 5 6 6 7",
    "D": "4 x 5 x 1 1 2 3 4 4 8 x x",
    "H": "0 0 2 4 6 6 4 8 x 8 6 5 0",
    "S": "7 8 8 0 0 1 1 2 2 3 3 7 5",
}
HANDS_C2, DEAD_C2 = grid(DEAL_C2_ROWS, NINE, 5)


def test_failed_lead_pays_the_kitty_and_the_receiver_keeps_the_colour() -> None:
    # Clubs 2C 3C (1) 4C 5C (2) 6C 7C (3) 8C 9C (7) TC JC (5) QC KC (6) AC (7): stop. Seat 7
    # must lead red and holds none: he pays 1 to the kitty (191 -> 190; kitty 10) and the duty
    # passes to seat 8 (QD 9H JH 3S 4S), who must lead HIS lowest red card: 9H - not QD, and
    # not a black card.
    deal = stops.replay(record(HANDS_C2, DEAD_C2, [*C_BEFORE, L(1, "2C")]), partial=True)
    assert plays(deal) == P("1:2C 1:3C 2:4C 2:5C 3:6C 3:7C 7:8C 7:9C 5:TC 5:JC 6:QC 6:KC 7:AC")
    assert deal.stacks == (200, 200, 191, 191, 191, 200, 200, 190, 200)
    assert nonzero(deal) == {"TH": 9, "KQ": 9, "8-9-10": 9, "kitty": 10}
    assert deal.current_seat == 8
    assert lead_choices(deal) == [(8, "9H")]
    expect_illegal(deal, L(8, "QD"))
    expect_illegal(deal, L(8, "3S"))
    expect_illegal(deal, L(7, "8C"))


# -- DEAL_E: 4 players, short stacks (F47) ------------------------------------------------------
#
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   1 1 1 1 1 1 1 1 1 1 1 2 2
# diams   2 2 2 2 2 2 2 2 3 2 3 3 3
# hearts  0 0 0 0 x x x x x x x x x
# spades  3 3 3 3 3 3 0 0 x 0 0 0 0
#
# seat 1: 2C-QC (11, an 8-9-10 of clubs)   seat 2: KC AC 2D-9D JD (11)
# seat 3: TD QD KD AD 2S-7S (10)            seat 0: 2H-5H 8S 9S JS-AS (10)
# dead:   6H-AH TS (10): every heart pay card lies dead.
DEAL_E_ROWS = {
    "C": "1 1 1 1 1 1 1 1 1 1 1 2 2",
    "D": "2 2 2 2 2 2 2 2 3 2 3 3 3",
    "H": "0 0 0 0 x x x x x x x x x",
    "S": "3 3 3 3 3 3 0 0 x 0 0 0 0",
}
HANDS_E, DEAD_E = grid(DEAL_E_ROWS, FOUR, 10)


def test_short_stacks_pay_in_layout_order_and_are_eliminated() -> None:
    # F47 default chip_shortfall eliminate. Stacks 4, 200, 4, 4: seats 0, 2 and 3 can pay only
    # AH KH QH JH (layout order), then have 0; seat 1 pays all nine: 191.
    # Reading: a seat brought to 0 by its stakes still plays this deal (it has been dealt
    # in; at 0 it can only pass in the auction and fold in the poker) and leaves the session
    # when the deal ends, still at 0.
    # Layout: AH KH QH JH 4 each; TH KQ 8-9-10 pot kitty 1 each.
    stacks = [4, 200, 4, 4]
    deal = stops.replay(record(HANDS_E, DEAD_E, stacks=stacks), partial=True)
    assert deal.stacks == (0, 191, 0, 0)
    assert nonzero(deal) == {"AH": 4, "KH": 4, "QH": 4, "JH": 4, "TH": 1, "KQ": 1,
                             "8-9-10": 1, "pot": 1, "kitty": 1}
    # The dealer auctions; seat 1 (8-9-10) and seats 2, 3 (no chips) pass. Stage one: seat 1
    # takes the 8-9-10 (1) -> 192. Poker: seat 1 bets 1, seats 2, 3, 0 fold: he takes the pot
    # 1 + 1 -> 193. Stage three: seat 1's lowest black card is 2C; he plays 2C..QC, out
    # (KC is seat 2's): the kitty (1) -> 194; the others have no chips and pay nothing for
    # their cards ("as far as his stack allows").
    actions = auction_unsold(4) + bet_all_fold(4) + [L(1, "2C")]
    table = stops.Table(VARIANT, seats=4, chips=stacks, seed=1, dealer=0)
    deal = table.new_deal(hands=HANDS_E, spare=DEAD_E)
    for a in actions:
        deal.apply(a)
    assert plays(deal) == [(1, r + "C") for r in "23456789TJQ"]
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (0, 194, 0, 0)
    assert nonzero(deal) == {"AH": 4, "KH": 4, "QH": 4, "JH": 4, "TH": 1, "KQ": 1}
    # three seats at 0 leave the session; one player is left: the match is over.
    assert table.is_over
