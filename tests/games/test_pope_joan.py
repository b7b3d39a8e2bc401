"""Hand-derived tests for Pope Joan (`pope-joan`, FAMILY-RULINGS F.0, F.2, F14-F21).

Every deal is stacked and written as an ownership grid: for each suit one character per rank
in the ace-low order A 2 3 4 5 6 7 8 9 T J Q K, a digit naming the seat that holds the card,
``x`` for the dead hand (the spare, turn-up included) and ``-`` for the 8D, which is not in
the 51-card pack. The grid helper checks that hands + dead hand are exactly the 51-card pack
and that each hand has the size of the deal shape:

* equal_plus_dead (default): 8 players 5 each + 11 dead; 3 players 12 each + 15 dead.
* n_plus_one (F15), 8 players, dealer 0: 51 = 9 x 5 + 6, so the first six seats from the
  dealer's left (1-6) hold 6, seats 7 and 0 hold 5, the dead hand 5 (Reading: RULINGS 1's
  `after_dealer` order, the dead hand dealt last in each round, applied to 51 cards).

Unless a test says otherwise: dealer 0, so seat 1 leads; 50 chips each; the dealer alone
dresses the board (F17): pope 6, matrimony 2, intrigue 2, ace 1, king 1, queen 1, jack 1,
game 1 = 15, so the dealer starts play with 35.

Holder plays (F.0): after a lead, whoever holds the next card up in the suit plays it at once.
Ace low: every King is a stop; the 8D is missing, so the 7D is always a stop and the 9D can
only be led. Claims on a card (F18): its own compartment, then matrimony, then intrigue.
Going out: `game` and 1 chip per card still held from each other player, except the holder of
the 9D (F19).
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

import stops
import support
from support import (
    expect_illegal,
    lead_choices,
    make_record,
    nonzero,
    plays,
    skip_unless_built,
)
from support import lead_decision as L
from support import plays_written as P

VARIANT = "pope-joan"

pytestmark = skip_unless_built(VARIANT)

RANKS_LOW = "A23456789TJQK"
EIGHT = (5,) * 8  # equal_plus_dead, 8 players: 5 each, 11 dead
DRESSED = {"pope": 6, "matrimony": 2, "intrigue": 2, "ace": 1, "king": 1, "queen": 1,
           "jack": 1, "game": 1}


# -- helpers (shared ones in support.py) -----------------------------------------------------

# Hands and dead hand from an ownership grid (see the module docstring): ace low, the 8D
# marked "-" and not in the 51-card pack.
grid = partial(support.grid, ranks=RANKS_LOW, missing=("8D",), pack_size=51)


def record(hands: list[list[str]], dead: list[str], turn_up: str | None,
           actions: list[dict[str, Any]] | None = None, **kw: Any) -> dict[str, Any]:
    """The record of a stacked deal; ``turn_up`` (the trump card) is written when given."""
    return make_record(VARIANT, hands, dead, actions, turn_up=turn_up, **kw)


claims = partial(support.claims, public_only=True)


# -- DEAL_A: trumps hearts (turn-up 2H); seat 1 wins every trump compartment -----------------
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   2 2 2 2 2 3 3 3 3 3 4 4 4
# diams   4 4 5 5 5 5 5 - 1 1 x 6 6
# hearts  6 x 6 6 7 7 7 7 7 0 1 1 1
# spades  0 0 0 0 x x x x x x x x x
#
# seat 1: 9D TD JH QH KH      seat 2: AC 2C 3C 4C 5C     seat 3: 6C 7C 8C 9C TC
# seat 4: JC QC KC AD 2D      seat 5: 3D 4D 5D 6D 7D     seat 6: QD KD AH 3H 4H
# seat 7: 5H 6H 7H 8H 9H      seat 0: TH AS 2S 3S 4S     dead: JD 2H 5S-KS (11)
DEAL_A_ROWS = {
    "C": "2 2 2 2 2 3 3 3 3 3 4 4 4",
    "D": "4 4 5 5 5 5 5 - 1 1 x 6 6",
    "H": "6 x 6 6 7 7 7 7 7 0 1 1 1",
    "S": "0 0 0 0 x x x x x x x x x",
}
HANDS_A, DEAD_A = grid(DEAL_A_ROWS, EIGHT, 11)
A_ACTIONS = [L(1, "KH"), L(1, "JH"), L(1, "9D")]
A_PLAYS = P("1:KH 1:JH 1:QH 1:9D 1:TD")


def test_dressing_by_the_dealer_and_the_first_lead() -> None:
    # F17 default: the dealer alone puts 15 chips (6/2/2/1/1/1/1/1) on top of the carry-over
    # (pope 4, game 3 here). Turn-up 2H is no honour: nothing is paid. Seat 1 (dealer's left)
    # leads any card (F20): all five of his cards.
    deal = stops.replay(record(HANDS_A, DEAD_A, "2H", layout={"pope": 4, "game": 3}),
                        partial=True)
    assert deal.stacks == (35, 50, 50, 50, 50, 50, 50, 50)
    assert nonzero(deal) == dict(DRESSED, pope=10, game=4)
    assert deal.current_seat == 1
    assert lead_choices(deal) == [(1, "9D"), (1, "JH"), (1, "KH"), (1, "QH"), (1, "TD")]


def test_one_trump_queen_completes_matrimony_and_intrigue() -> None:
    # Trumps hearts. Seat 1 leads KH: `king` (1) -> 51; a King is always a stop; matrimony
    # is not yet won (QH unplayed): it still holds 2.
    deal = stops.replay(record(HANDS_A, DEAD_A, "2H", A_ACTIONS[:1]), partial=True)
    assert plays(deal) == [(1, "KH")]
    assert deal.stacks[1] == 51
    assert deal.layout["matrimony"] == 2 and deal.layout["intrigue"] == 2
    assert deal.current_seat == 1
    # Seat 1 leads JH: `jack` (1); QH is his too and follows at once: `queen` (1), then
    # matrimony (KH + QH both played by seat 1: 2), then intrigue (QH + JH: 2), in that
    # order (F18). KH is played: QH stops. Seat 1: 51 + 1 + 1 + 2 + 2 = 57.
    deal.apply(L(1, "JH"))
    assert plays(deal) == P("1:KH 1:JH 1:QH")
    assert claims(deal) == [(1, "king", 1), (1, "jack", 1), (1, "queen", 1),
                            (1, "matrimony", 2), (1, "intrigue", 2)]
    assert deal.stacks == (35, 57, 50, 50, 50, 50, 50, 50)
    assert nonzero(deal) == {"pope": 6, "ace": 1, "game": 1}
    assert deal.current_seat == 1


def test_deal_a_played_out_pope_and_game() -> None:
    # ... then seat 1 leads 9D: `pope` (6); TD (his) follows and empties his hand: he goes out
    # (JD is dead anyway). `game` (1) and 1 per card from every other player: 7 x 5 = 35
    # (nobody holds the 9D: it has been played). Seat 1: 50 + 1+1+1+2+2 + 6 + 1 + 35 = 99.
    # Seats 2-7: 50 - 5 = 45; the dealer 35 - 5 = 30. The AH (seat 6) was never played:
    # `ace` (1) carries over.
    deal = stops.replay(record(HANDS_A, DEAD_A, "2H", A_ACTIONS))
    assert plays(deal) == A_PLAYS
    assert claims(deal) == [(1, "king", 1), (1, "jack", 1), (1, "queen", 1),
                            (1, "matrimony", 2), (1, "intrigue", 2), (1, "pope", 6),
                            (1, "game", 1)]
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (30, 99, 45, 45, 45, 45, 45, 45)
    assert nonzero(deal) == {"ace": 1}


def test_turn_up_sets_trumps_queen_turned_up_pays_the_dealer() -> None:
    # The same deal with the QS turned up instead (it is in the dead hand): trumps are
    # spades, so the heart honours win nothing. F21: the turned-up Queen of trumps pays the
    # dealer `queen` (1) at once, before the first lead: 35 + 1 = 36.
    deal = stops.replay(record(HANDS_A, DEAD_A, "QS"), partial=True)
    assert deal.current_seat == 1 and plays(deal) == []
    assert deal.stacks == (36, 50, 50, 50, 50, 50, 50, 50)
    assert nonzero(deal) == {k: v for k, v in DRESSED.items() if k != "queen"}
    # Played as before: KH, JH, QH win nothing (not trumps; and with the QS dead matrimony
    # and intrigue cannot be won anyway); 9D wins `pope` (6), TD goes out: `game` (1) + 35.
    # Seat 1: 50 + 6 + 1 + 35 = 92; dealer 36 - 5 = 31; seats 2-7: 45.
    deal = stops.replay(record(HANDS_A, DEAD_A, "QS", A_ACTIONS))
    assert plays(deal) == A_PLAYS
    assert claims(deal) == [(0, "queen", 1), (1, "pope", 6), (1, "game", 1)]
    assert deal.stacks == (31, 92, 45, 45, 45, 45, 45, 45)
    assert nonzero(deal) == {"matrimony": 2, "intrigue": 2, "ace": 1, "king": 1, "jack": 1}


def test_dead_hand_is_seen_by_the_dealer_only() -> None:
    # "only the dealer may look at it during play": the dealer's observation lists the 11
    # dead cards; seat 1's does not, and no event seat 1 can see names a dead card other than
    # the turn-up (which is face up). Reading: the dealer's Observation.spare is the dead hand
    # (the turn-up included), another seat's is None (or at most the turn-up).
    deal = stops.replay(record(HANDS_A, DEAD_A, "2H"), partial=True)
    dealer_view = deal.observe(0)
    assert dealer_view.spare is not None
    assert {str(c) for c in dealer_view.spare} == set(DEAD_A)
    other = deal.observe(1)
    assert other.spare is None or {str(c) for c in other.spare} <= {"2H"}
    seen: set[str] = set()
    for e in other.events:
        if e.card is not None:
            seen.add(str(e.card))
        seen.update(str(c) for c in e.cards)
    assert seen & set(DEAD_A) <= {"2H"}
    assert {str(c) for c in other.hand} == set(HANDS_A[1])


def test_record_checks_pack_turn_up_and_sizes() -> None:
    # F.6 / F.0: a record without `turn_up`, with a turn-up that is not a dead card, with the
    # 8D in it (a 52-card pack), or with a hand of the wrong size is rejected.
    with pytest.raises(stops.RecordError):
        stops.replay(record(HANDS_A, DEAD_A, None, A_ACTIONS))
    with pytest.raises(stops.RecordError):
        stops.replay(record(HANDS_A, DEAD_A, "KH", A_ACTIONS))
    with pytest.raises(stops.RecordError):
        stops.replay(record(HANDS_A, [*DEAD_A, "8D"], "2H", A_ACTIONS))
    hands = [list(h) for h in HANDS_A]
    hands[2].append("5S")  # seat 2 with 6 cards, the dead hand with 10
    with pytest.raises(stops.RecordError):
        stops.replay(record(hands, [c for c in DEAD_A if c != "5S"], "2H", A_ACTIONS))


# DEAL_A2: DEAL_A with QH (seat 1) and 4H (seat 6) exchanged: seat 1 9D TD 4H JH KH,
# seat 6 QD KD AH 3H QH.
DEAL_A2_ROWS = dict(DEAL_A_ROWS, H="6 x 6 1 7 7 7 7 7 0 1 6 1")
HANDS_A2, DEAD_A2 = grid(DEAL_A2_ROWS, EIGHT, 11)


def test_matrimony_and_intrigue_need_the_same_player() -> None:
    # Seat 1 leads KH (`king` 1, stop), then JH (`jack` 1); the QH is seat 6's and follows:
    # `queen` (1) to seat 6. KH and JH were played by seat 1, QH by seat 6: neither matrimony
    # nor intrigue is won (F18). KH is played: QH stops, and seat 6 leads next.
    deal = stops.replay(record(HANDS_A2, DEAD_A2, "2H", [L(1, "KH"), L(1, "JH")]),
                        partial=True)
    assert plays(deal) == P("1:KH 1:JH 6:QH")
    assert claims(deal) == [(1, "king", 1), (1, "jack", 1), (6, "queen", 1)]
    assert deal.stacks == (35, 52, 50, 50, 50, 50, 51, 50)
    assert nonzero(deal) == {"pope": 6, "matrimony": 2, "intrigue": 2, "ace": 1, "game": 1}
    assert deal.current_seat == 6


# -- DEAL_B: trumps clubs from a turned-up JC; the Pope holder is excused --------------------
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   2 2 2 2 2 3 3 3 3 3 x 1 1
# diams   4 4 4 4 4 5 5 - 5 5 5 6 6
# hearts  6 6 6 7 7 7 7 7 0 0 0 0 0
# spades  1 1 1 x x x x x x x x x x
#
# seat 1: QC KC AS 2S 3S      seat 5: 6D 7D 9D TD JD (holds the Pope)
# dead: JC (turn-up) 4S-KS
DEAL_B_ROWS = {
    "C": "2 2 2 2 2 3 3 3 3 3 x 1 1",
    "D": "4 4 4 4 4 5 5 - 5 5 5 6 6",
    "H": "6 6 6 7 7 7 7 7 0 0 0 0 0",
    "S": "1 1 1 x x x x x x x x x x",
}
HANDS_B, DEAD_B = grid(DEAL_B_ROWS, EIGHT, 11)
B_ACTIONS = [L(1, "QC"), L(1, "AS")]
B_PLAYS = P("1:QC 1:KC 1:AS 1:2S 1:3S")


def test_turned_up_jack_pays_the_dealer_before_the_first_lead() -> None:
    # F21: the JC is turned up, so clubs are trumps and the dealer takes `jack` (1) at once:
    # 35 + 1 = 36, before seat 1's first lead.
    deal = stops.replay(record(HANDS_B, DEAD_B, "JC"), partial=True)
    assert deal.current_seat == 1 and plays(deal) == []
    assert deal.stacks == (36, 50, 50, 50, 50, 50, 50, 50)
    assert deal.layout["jack"] == 0


def test_matrimony_queen_then_king_intrigue_dead_pope_holder_excused() -> None:
    # Seat 1 leads QC: `queen` (1); KC (his) follows: `king` (1) then matrimony (QC + KC by
    # seat 1: 2), paid on the second card; KC is a stop. Intrigue needs the JC, which is dead
    # (the turn-up): it cannot be won (F18) and keeps its 2. Seat 1 leads AS; 2S 3S are his:
    # 3S empties his hand (4S is dead anyway): out. `game` (1), and 1 per card from the
    # others: seats 2, 3, 4, 6, 7 and 0 hold 5 each (30); seat 5 holds the 9D and pays
    # nothing (F19 default pope_holder_pays false).
    # Seat 1: 50 + 1 + 1 + 2 + 1 + 30 = 85. Dealer 36 - 5 = 31. Seat 5 50. Others 45.
    # Left: pope 6 (the 9D is in seat 5's hand), intrigue 2, ace 1 (AC is seat 2's).
    deal = stops.replay(record(HANDS_B, DEAD_B, "JC", B_ACTIONS))
    assert plays(deal) == B_PLAYS
    assert claims(deal) == [(0, "jack", 1), (1, "queen", 1), (1, "king", 1),
                            (1, "matrimony", 2), (1, "game", 1)]
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (31, 85, 45, 45, 45, 50, 45, 45)
    assert nonzero(deal) == {"pope": 6, "intrigue": 2, "ace": 1}


def test_pope_holder_pays_option() -> None:
    # F19 option pope_holder_pays true: seat 5 pays his 5 like everyone: seat 1 85 + 5 = 90.
    deal = stops.replay(record(HANDS_B, DEAD_B, "JC", B_ACTIONS,
                               options={"pope_holder_pays": True}))
    assert plays(deal) == B_PLAYS
    assert deal.winner == 1
    assert deal.stacks == (31, 90, 45, 45, 45, 45, 45, 45)
    assert nonzero(deal) == {"pope": 6, "intrigue": 2, "ace": 1}


# -- DEAL_C: trumps clubs (turn-up 5C); ace low vs ace high (F14) ---------------------------
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   1 2 2 2 x 2 2 3 3 3 3 1 1
# diams   3 4 4 4 4 4 5 - 5 5 5 5 6
# hearts  6 1 1 x 6 6 6 7 7 7 7 7 0
# spades  0 0 0 0 x x x x x x x x x
#
# seat 1: AC QC KC 2H 3H      seat 5: 7D 9D TD JD QD (the Pope)      dead: 5C 4H 5S-KS
DEAL_C_ROWS = {
    "C": "1 2 2 2 x 2 2 3 3 3 3 1 1",
    "D": "3 4 4 4 4 4 5 - 5 5 5 5 6",
    "H": "6 1 1 x 6 6 6 7 7 7 7 7 0",
    "S": "0 0 0 0 x x x x x x x x x",
}
HANDS_C, DEAD_C = grid(DEAL_C_ROWS, EIGHT, 11)
C_ACTIONS = [L(1, "QC"), L(1, "2H")]


def test_ace_high_option_king_is_not_a_stop() -> None:
    # F14 ace high: QC (1) `queen` 1; KC (1) `king` 1 + matrimony 2; the KC is no longer a
    # stop: AC (1) follows, `ace` 1, and is the top of the suit: stop. Seat 1 leads 2H; 3H
    # (his) empties his hand: out. `game` 1 + 30 (seat 5 holds the 9D: excused).
    # Seat 1: 50 + 1 + 1 + 2 + 1 + 1 + 30 = 86; dealer 35 - 5 = 30; seat 5 50; others 45.
    # Left: pope 6, intrigue 2 (JC unplayed, in seat 3's hand), jack 1.
    deal = stops.replay(record(HANDS_C, DEAD_C, "5C", C_ACTIONS, options={"ace": "high"}))
    assert plays(deal) == P("1:QC 1:KC 1:AC 1:2H 1:3H")
    assert claims(deal) == [(1, "queen", 1), (1, "king", 1), (1, "matrimony", 2),
                            (1, "ace", 1), (1, "game", 1)]
    assert deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (30, 86, 45, 45, 45, 50, 45, 45)
    assert nonzero(deal) == {"pope": 6, "intrigue": 2, "jack": 1}


def test_ace_low_default_king_stops_ace_stays() -> None:
    # Default ace low, same decisions: QC, KC (stop: the King is the top), then 2H 3H (his);
    # 4H is dead: stop. Seat 1 still holds the AC: not out; he must lead it (his only card).
    # Seat 1: 50 + 1 (queen) + 1 (king) + 2 (matrimony) = 54.
    deal = stops.replay(record(HANDS_C, DEAD_C, "5C", C_ACTIONS), partial=True)
    assert plays(deal) == P("1:QC 1:KC 1:2H 1:3H")
    assert not deal.is_terminal
    assert deal.stacks == (35, 54, 50, 50, 50, 50, 50, 50)
    assert nonzero(deal) == {"pope": 6, "intrigue": 2, "ace": 1, "jack": 1, "game": 1}
    assert lead_choices(deal) == [(1, "AC")]


# -- DEAL_D: the Pope (9D) turned up; trumps diamonds (F16) ---------------------------------
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   2 3 3 3 3 3 4 4 4 4 4 5 5
# diams   1 1 1 1 1 x x - x 2 2 2 2
# hearts  5 5 5 6 6 6 6 6 7 7 7 7 7
# spades  0 0 0 0 x x x x x x x x 0
#
# seat 1: AD 2D 3D 4D 5D      dead: 9D (turn-up) 6D 7D 5S-QS
DEAL_D_ROWS = {
    "C": "2 3 3 3 3 3 4 4 4 4 4 5 5",
    "D": "1 1 1 1 1 x x - x 2 2 2 2",
    "H": "5 5 5 6 6 6 6 6 7 7 7 7 7",
    "S": "0 0 0 0 x x x x x x x x 0",
}
HANDS_D, DEAD_D = grid(DEAL_D_ROWS, EIGHT, 11)


def test_pope_turned_up_compartment_only() -> None:
    # F16 default: the dealer takes `pope` (6) at once: 35 + 6 = 41; play goes on.
    deal = stops.replay(record(HANDS_D, DEAD_D, "9D"), partial=True)
    assert deal.stacks == (41, 50, 50, 50, 50, 50, 50, 50)
    assert deal.layout["pope"] == 0
    assert deal.current_seat == 1
    # Seat 1 leads AD, the ace of trumps: `ace` (1); 2D 3D 4D 5D are his: out at 5D.
    # `game` (1) + 35 (nobody holds the 9D). Seat 1: 50 + 1 + 1 + 35 = 87; dealer 41 - 5 =
    # 36; others 45. Left: matrimony 2, intrigue 2, king 1, queen 1, jack 1.
    deal = stops.replay(record(HANDS_D, DEAD_D, "9D", [L(1, "AD")]))
    assert plays(deal) == P("1:AD 1:2D 1:3D 1:4D 1:5D")
    assert claims(deal) == [(0, "pope", 6), (1, "ace", 1), (1, "game", 1)]
    assert deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (36, 87, 45, 45, 45, 45, 45, 45)
    assert nonzero(deal) == {"matrimony": 2, "intrigue": 2, "king": 1, "queen": 1, "jack": 1}


def test_pope_turned_up_game_and_per_card() -> None:
    # F16 game_and_per_card: the dealer takes `pope` (6) and `game` (1), each other player
    # pays him 1 per card dealt to him (5 x 7 = 35), and the deal ends without play.
    # Reading: the Pope-holder excuse (F19) does not arise: the 9D is the turn-up.
    # Dealer: 35 + 6 + 1 + 35 = 77; others 45.
    deal = stops.replay(record(HANDS_D, DEAD_D, "9D",
                               options={"pope_turn_up": "game_and_per_card"}))
    assert deal.is_terminal
    assert plays(deal) == []
    assert deal.stacks == (77, 45, 45, 45, 45, 45, 45, 45)
    assert nonzero(deal) == {"matrimony": 2, "intrigue": 2, "ace": 1, "king": 1, "queen": 1,
                             "jack": 1}


def test_pope_turned_up_redeal_moves_nothing() -> None:
    # F16 redeal: the dealer takes nothing and the deal is abandoned: no plays, the dressing
    # stays on the board. Reading: the abandoned deal is terminal with no winner.
    deal = stops.replay(record(HANDS_D, DEAD_D, "9D", options={"pope_turn_up": "redeal"}))
    assert deal.is_terminal
    assert plays(deal) == []
    assert deal.winner is None
    assert deal.stacks == (35, 50, 50, 50, 50, 50, 50, 50)
    assert nonzero(deal) == DRESSED


def test_pope_turned_up_redeal_same_dealer_no_new_dressing() -> None:
    # In a session: after the abandoned deal the same dealer (0) deals again and does not
    # dress the board again (F16). The new deal is DEAL_A (turn-up 2H): it starts from the
    # board as dressed once (15) and the dealer's 35, and plays out as DEAL_A does.
    # Reading: a stacked deal's turn-up is given to Table.new_deal as `turn_up=`, the name of
    # the record key.
    table = stops.Table(VARIANT, seats=8, chips=50, seed=1, dealer=0,
                        options={"pope_turn_up": "redeal"})
    first = table.new_deal(hands=HANDS_D, spare=DEAD_D, turn_up="9D")
    assert first.is_terminal and plays(first) == []
    assert table.dealer == 0
    assert table.deals_played == 0  # thrown in: it counts neither here nor for deals(per_player)
    second = table.new_deal(hands=HANDS_A, spare=DEAD_A, turn_up="2H")
    assert second.dealer == 0
    assert second.stacks == (35, 50, 50, 50, 50, 50, 50, 50)
    assert nonzero(second) == DRESSED
    for action in A_ACTIONS:
        second.apply(action)
    assert second.is_terminal and second.winner == 1
    assert list(table.stacks) == [30, 99, 45, 45, 45, 45, 45, 45]
    assert table.deals_played == 1 and len(table.records) == 2


# -- DEAL_F: Kings and the 7D always stop, the 9D is only ever led; the lead rule (F20) -----
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   4 4 x 4 4 5 5 5 5 5 6 6 6
# diams   6 6 7 7 7 1 1 - 1 x 7 7 0
# hearts  0 0 0 x x x x x x x x x 0
# spades  2 2 2 2 2 3 3 3 3 3 4 1 1
#
# seat 1: 6D 7D 9D QS KS      dead: 3C (turn-up: trumps clubs) TD 4H-QH
DEAL_F_ROWS = {
    "C": "4 4 x 4 4 5 5 5 5 5 6 6 6",
    "D": "6 6 7 7 7 1 1 - 1 x 7 7 0",
    "H": "0 0 0 x x x x x x x x x 0",
    "S": "2 2 2 2 2 3 3 3 3 3 4 1 1",
}
HANDS_F, DEAD_F = grid(DEAL_F_ROWS, EIGHT, 11)
F_ACTIONS = [L(1, "6D"), L(1, "QS"), L(1, "9D")]


def test_seven_of_diamonds_stops_and_the_pope_is_not_played_after_it() -> None:
    # Seat 1 leads 6D; 7D (his) follows; the 8D is out of the pack, so the 7D is a stop and
    # seat 1's 9D is NOT played after it: he leads again.
    deal = stops.replay(record(HANDS_F, DEAD_F, "3C", F_ACTIONS[:1]), partial=True)
    assert plays(deal) == P("1:6D 1:7D")
    assert deal.current_seat == 1
    assert lead_choices(deal) == [(1, "9D"), (1, "KS"), (1, "QS")]
    # QS, then KS (his): with the ace low the King is the top of the suit, a stop (the AS,
    # seat 2's, is the bottom of spades and never follows a King).
    deal.apply(L(1, "QS"))
    assert plays(deal) == P("1:6D 1:7D 1:QS 1:KS")
    assert lead_choices(deal) == [(1, "9D")]


def test_the_pope_led_last_pays_pope_then_game() -> None:
    # ... seat 1 leads 9D, his last card: `pope` (6), then he is out: `game` (1) + 35.
    # Nothing else is a trump (clubs). Seat 1: 50 + 6 + 1 + 35 = 92; dealer 30; others 45.
    deal = stops.replay(record(HANDS_F, DEAD_F, "3C", F_ACTIONS))
    assert plays(deal) == P("1:6D 1:7D 1:QS 1:KS 1:9D")
    assert claims(deal) == [(1, "pope", 6), (1, "game", 1)]
    assert deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (30, 92, 45, 45, 45, 45, 45, 45)
    assert nonzero(deal) == {"matrimony": 2, "intrigue": 2, "ace": 1, "king": 1, "queen": 1,
                             "jack": 1}


def test_lead_rule_lowest_of_suit_option() -> None:
    # F20 lowest_of_suit: seat 1 may lead only the lowest card of a suit he holds: 6D or QS
    # (not 7D, 9D or KS). The same three leads are all lowest-of-suit when made, so the deal
    # ends exactly as under any_card.
    opts = {"lead_rule": "lowest_of_suit"}
    deal = stops.replay(record(HANDS_F, DEAD_F, "3C", options=opts), partial=True)
    assert lead_choices(deal) == [(1, "6D"), (1, "QS")]
    expect_illegal(deal, L(1, "9D"))
    expect_illegal(deal, L(1, "KS"))
    deal = stops.replay(record(HANDS_F, DEAD_F, "3C", F_ACTIONS, options=opts))
    assert plays(deal) == P("1:6D 1:7D 1:QS 1:KS 1:9D")
    assert deal.stacks == (30, 92, 45, 45, 45, 45, 45, 45)


def test_illegal_leads_are_refused_and_change_nothing() -> None:
    # Not your turn (seat 2), a card seat 1 does not hold (AS), and after the 7D stop a card
    # already played (7D).
    deal = stops.replay(record(HANDS_F, DEAD_F, "3C"), partial=True)
    expect_illegal(deal, L(2, "AS"))
    expect_illegal(deal, L(1, "AS"))
    expect_illegal(deal, L(0, "KD"))
    deal.apply(L(1, "6D"))
    expect_illegal(deal, L(1, "7D"))
    expect_illegal(deal, L(7, "3D"))
    assert deal.current_seat == 1


# -- three players: 12 each, 15 dead; dressing by everyone (F17) ------------------------------
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   1 1 1 1 1 1 1 1 1 1 1 1 2
# diams   2 2 2 2 2 2 2 - 2 2 2 2 0
# hearts  0 0 0 0 0 0 0 0 0 0 0 x x
# spades  x x x x x x x x x x x x x
#
# seat 1: AC-QC (12)   seat 2: KC AD-7D 9D-QD (12, with the Pope)   seat 0: KD AH-JH (12)
# dead: QH KH and the 13 spades (15); turn-up 5S: trumps spades.
DEAL_3_ROWS = {
    "C": "1 1 1 1 1 1 1 1 1 1 1 1 2",
    "D": "2 2 2 2 2 2 2 - 2 2 2 2 0",
    "H": "0 0 0 0 0 0 0 0 0 0 0 x x",
    "S": "x x x x x x x x x x x x x",
}
HANDS_3, DEAD_3 = grid(DEAL_3_ROWS, (12, 12, 12), 15)
PLAYS_3 = [(1, r + "C") for r in "A23456789TJQ"]


def test_three_players_dealer_dresses() -> None:
    # Seat 1 leads AC and plays every club up to QC: out (KC, seat 2's, is never played: F1).
    # `game` (1) + 12 from the dealer; seat 2 holds the 9D: excused.
    # Seat 1: 50 + 1 + 12 = 63; seat 2: 50; dealer: 35 - 12 = 23.
    deal = stops.replay(record(HANDS_3, DEAD_3, "5S", [L(1, "AC")]))
    assert plays(deal) == PLAYS_3
    assert deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (23, 63, 50)
    assert nonzero(deal) == {k: v for k, v in DRESSED.items() if k != "game"}


def test_three_players_everyone_dresses() -> None:
    # F17 each_player: every player puts 6/2/2/1/1/1/1/1 (15): 35 each; the board holds
    # pope 18, matrimony 6, intrigue 6, ace/king/queen/jack/game 3 each.
    opts = {"dressing": "each_player"}
    deal = stops.replay(record(HANDS_3, DEAD_3, "5S", options=opts), partial=True)
    assert deal.stacks == (35, 35, 35)
    assert nonzero(deal) == {k: 3 * v for k, v in DRESSED.items()}
    # Seat 1 goes out as before: 35 + 3 (game) + 12 (dealer) = 50; seat 2 (Pope) 35;
    # dealer 35 - 12 = 23.
    deal = stops.replay(record(HANDS_3, DEAD_3, "5S", [L(1, "AC")], options=opts))
    assert plays(deal) == PLAYS_3
    assert deal.stacks == (23, 50, 35)
    assert nonzero(deal) == {k: 3 * v for k, v in DRESSED.items() if k != "game"}


def test_dressing_may_drive_the_dealer_below_zero() -> None:
    # F2: the dealer has 10 chips and must dress 15: -5. Seat 1 goes out as in the test above
    # and the dealer pays his 12 cards: -17. Seat 1: 63; seat 2 (the Pope): 50.
    deal = stops.replay(record(HANDS_3, DEAD_3, "5S", [L(1, "AC")], stacks=[10, 50, 50]))
    assert plays(deal) == PLAYS_3
    assert deal.stacks == (-17, 63, 50)
    assert nonzero(deal) == {k: v for k, v in DRESSED.items() if k != "game"}


# -- deal shape n_plus_one (F15) --------------------------------------------------------------
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   1 1 1 1 1 1 2 2 2 2 2 2 3
# diams   3 3 3 3 3 4 4 - 7 4 4 4 4
# hearts  5 5 5 5 5 5 6 6 6 6 6 6 7
# spades  7 x 7 7 0 0 0 0 0 x x x x
#
# seats 1-6: 6 cards, seats 7 and 0: 5, dead 5 (2S turn-up: trumps spades; TS JS QS KS).
DEAL_N_ROWS = {
    "C": "1 1 1 1 1 1 2 2 2 2 2 2 3",
    "D": "3 3 3 3 3 4 4 - 7 4 4 4 4",
    "H": "5 5 5 5 5 5 6 6 6 6 6 6 7",
    "S": "7 x 7 7 0 0 0 0 0 x x x x",
}
HANDS_N, DEAD_N = grid(DEAL_N_ROWS, (5, 6, 6, 6, 6, 6, 6, 5), 5)


def test_deal_shape_n_plus_one() -> None:
    # Seat 1 leads AC and plays AC-6C: out (7C is seat 2's). `game` (1) + per card: seats 2-6
    # hold 6 each (30), the dealer 5; seat 7 holds the 9D: excused. Seat 1: 50 + 1 + 35 = 86;
    # dealer 35 - 5 = 30; seats 2-6: 44; seat 7: 50.
    opts = {"deal_shape": "n_plus_one"}
    deal = stops.replay(record(HANDS_N, DEAD_N, "2S", [L(1, "AC")], options=opts))
    assert plays(deal) == [(1, r + "C") for r in "A23456"]
    assert deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (30, 86, 44, 44, 44, 44, 44, 50)
    assert nonzero(deal) == {k: v for k, v in DRESSED.items() if k != "game"}


def test_n_plus_one_sizes_are_refused_under_the_default_shape() -> None:
    # Under equal_plus_dead every hand must hold 5 (8 players): this record is rejected.
    with pytest.raises(stops.RecordError):
        stops.replay(record(HANDS_N, DEAD_N, "2S", [L(1, "AC")]))


# DEAL_N4: 4 players, dealer 3, under n_plus_one (F15). 51 = 5 x 10 + 1: the deal goes from
# the dealer's left (seat 0), the dead hand last in each round, so seat 0 gets the one odd
# card: seat 0 11, seats 1, 2, 3 10 each, the dead hand 10 (turn-up KS, its last card).
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   0 0 0 0 0 0 0 0 0 0 0 1 1
# diams   1 1 1 1 1 1 1 - 1 2 2 2 2
# hearts  2 2 2 2 2 2 3 3 3 3 3 3 3
# spades  3 3 3 x x x x x x x x x x
DEAL_N4_ROWS = {
    "C": "0 0 0 0 0 0 0 0 0 0 0 1 1",
    "D": "1 1 1 1 1 1 1 - 1 2 2 2 2",
    "H": "2 2 2 2 2 2 3 3 3 3 3 3 3",
    "S": "3 3 3 x x x x x x x x x x",
}
HANDS_N4, DEAD_N4 = grid(DEAL_N4_ROWS, (11, 10, 10, 10), 10)


def test_n_plus_one_record_must_have_the_dealt_sizes() -> None:
    # F.0 / F15: under n_plus_one the deal gives 11/10/10/10 (above), so a record with hands
    # 12/10/10/9 (seat 3's 3S moved to seat 0) is refused, naming seat 0 (the first seat from
    # the dealer's left whose size is wrong) and both sizes, 12 held and 11 dealt. The record
    # as dealt replays: seat 0 leads AC and runs the clubs to JC, his eleventh and last card:
    # he is out (F1) before seat 1's QC.
    opts = {"deal_shape": "n_plus_one"}
    rec = partial(record, dealer=3, options=opts)
    deal = stops.replay(rec(HANDS_N4, DEAD_N4, "KS", [L(0, "AC")]), partial=True)
    assert plays(deal) == [(0, r + "C") for r in "A23456789TJ"]
    assert deal.outcome == "went_out" and deal.winner == 0
    hands = [list(h) for h in HANDS_N4]
    hands[0].append(hands[3].pop(hands[3].index("3S")))
    assert [len(h) for h in hands] == [12, 10, 10, 9]
    with pytest.raises(stops.RecordError, match=r"seat 0 holds 12 cards.* 11\b") as info:
        stops.replay(rec(hands, DEAD_N4, "KS", [L(0, "AC")]))
    assert info.value.seat == 0
    # the parlett variant deals n_plus_one by its own rules: the same
    with pytest.raises(stops.RecordError, match=r"seat 0 holds 12 cards") as info:
        stops.replay(dict(rec(hands, DEAD_N4, "KS"), variant="pope-joan-parlett",
                          options={}))
    assert info.value.seat == 0


# -- session ------------------------------------------------------------------------------------


def test_session_one_deal_per_player() -> None:
    # match_end deals(players): with 3 players the session is over after 3 deals, dealt by
    # seats 0, 1, 2 in turn. Shuffled deals played with the first legal decision each time;
    # every deal ends (a block cannot happen) and chips are conserved.
    table = stops.Table(VARIANT, seats=3, chips=50, seed=11, dealer=0)
    dealers = []
    while not table.is_over:
        deal = table.new_deal()
        dealers.append(deal.dealer)
        steps = 0
        while not deal.is_terminal:
            deal.apply(deal.legal_actions()[0])
            steps += 1
            assert steps < 60
        assert sum(table.stacks) + sum(table.layout.values()) == 150
        assert len(dealers) <= 3
    assert dealers == [0, 1, 2]
