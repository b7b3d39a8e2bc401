"""Hand-derived tests for the seven small variation files of FAMILY-RULINGS-2 G.8 (``spin``,
``epsom``, ``saratoga``, ``commit``, ``ancient-comet``, ``pope-joan-foster``,
``newmarket-1885``), rulings G41-G42 and the clarifications G.11 items 1, 2, 10, 11 and 12.

Each test stacks a deal as an ownership grid (``support.grid``: per suit one character per
rank in the game's order, a digit for the seat holding the card, ``x`` for the spare hand,
talon or cards set aside, ``-`` for a card not in the pack) and derives the outcome by hand
from the ruling before the code ran; the derivation is the comment beside it. Seats 0..n-1
clockwise, dealer 0 unless said, so seat 1 is the dealer's left.
"""

from __future__ import annotations

from functools import partial
from pathlib import Path
from typing import Any

import pytest

import stops
import support
from stops.rules.prose import rules_text
from support import act, expect_illegal, lead_choices, make_record, nonzero, plays
from support import lead_decision as L
from support import plays_written as P

RANKS_LOW = "A23456789TJQK"
LOW_CARDS = tuple(r + s for s in "CDHS" for r in "23456")  # out of Epsom's 32-card pack


def stops_by(deal: stops.Deal) -> list[tuple[int | None, str]]:
    return [(e.seat, str(e.card)) for e in deal.events if e.kind == "stop"]


def claims(deal: stops.Deal) -> list[tuple[int | None, str | None, int]]:
    return [(e.seat, e.space, e.chips) for e in deal.events if e.kind == "claimed"]


# == G.11 item 1: deck.remove in a file that extends replaces the parent's list ===============


def test_deck_remove_in_a_child_file_replaces_the_parents_list(tmp_path: Path) -> None:
    # spinado removes 2C 2D 2H 2S 8D (47 cards); spin says remove [2H, 8D]: replaced, not added
    # to, so 50 cards with the 2C, 2D and 2S in. comet removes the four aces; ancient-comet's
    # remove: [] puts them back (52). newmarket-1885 (boodle removes nothing): 51.
    spin = {str(c) for c in stops.load_variant("spin").deck}
    assert len(spin) == 50
    assert {"2C", "2D", "2S"} <= spin and not {"2H", "8D"} & spin
    ancient = {str(c) for c in stops.load_variant("ancient-comet").deck}
    assert len(ancient) == 52 and {"AC", "AD", "AH", "AS"} <= ancient
    assert len(stops.load_variant("newmarket-1885").deck) == 51
    # the same for a house file two levels down: it replaces whatever the chain had
    child = tmp_path / "my-spin.yaml"
    child.write_text("name: my-spin\nextends: spin\ndeck: {remove: [8D]}\n")
    mine = {str(c) for c in stops.load_variant(str(child)).deck}
    assert len(mine) == 51 and "2H" in mine and "8D" not in mine
    # a child that says nothing about the deck keeps the parent's
    plain = tmp_path / "plain-spin.yaml"
    plain.write_text("name: plain-spin\nextends: spin\n")
    assert len(stops.load_variant(str(plain)).deck) == 50


# == spin (G.8, G41, G.11 items 1-2) ==========================================================
#
# 50 cards (2H 8D out), ace low, 3 players, dealer 0, the whole pack dealt from the dealer's
# left: 50 = 3 x 16 + 2, so seats 1 and 2 (dealt first in each round) hold 17, seat 0 16.
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   1 2 0 1 2 0 1 2 0 1 2 0 1
# diams   2 1 0 1 1 2 0 - 0 1 0 1 2
# hearts  0 - 1 2 0 1 2 0 1 2 0 1 2
# spades  2 2 0 1 2 0 1 2 0 1 2 2 0
SPIN_ROWS = {"C": "1 2 0 1 2 0 1 2 0 1 2 0 1", "D": "2 1 0 1 1 2 0 - 0 1 0 1 2",
             "H": "0 - 1 2 0 1 2 0 1 2 0 1 2", "S": "2 2 0 1 2 0 1 2 0 1 2 2 0"}
SPIN_HANDS, SPIN_SPARE = support.grid(SPIN_ROWS, (16, 17, 17), 0, ranks=RANKS_LOW,
                                      missing=("2H", "8D"), pack_size=50)


def follow(seat: int, card: str, spinado: bool = False) -> dict[str, Any]:
    return act(seat, "follow", card=card, **({"spinado": True} if spinado else {}))


# The play (seat 2 holds the A♦, so every card due from him is his ``follow`` decision):
#  1. seat 1 leads 5D; 6D is due from seat 2 (follow, no spinado); 7D seat 0's: the 8D is out
#     of the pack, so the 7D is a stop (one of PS's six regular stops). Seat 0 leads.
#  2. seat 0 leads AH: the 2H is out: a stop at once. Seat 0 leads again.
#  3. seat 0 leads JD; QD seat 1's; KD due from seat 2 (follow): a King, a stop, and the K♦
#     earns 1 chip from each (kd_bonus 1, not spinado's 2). Matrimony (KD+QD) and intrigue
#     (QD+JD) are not won: their cards were played by different players.
#  4. seat 2 leads the A♦ alone: 3 chips from each (the spinado), and a stop (G.11 item 2)
#     although the 2D is in the pack (seat 1's): the 2D is not played. Seat 2 leads again.
# Stakes: the dealer 2 on matrimony and 1 on intrigue (47), seats 1 and 2 1 each on the game
# (49); layout matrimony 2, intrigue 1, game 2. After 3: seat 2 51, seats 0 and 1 46 and 48.
# After 4: seat 2 57, seat 0 43, seat 1 45 (145 + 5 on the layout = 150).
SPIN_ACTIONS = [L(1, "5D"), follow(2, "6D"), L(0, "AH"), L(0, "JD"), follow(2, "KD"),
                L(2, "AD")]
spin_record = partial(make_record, "spin", SPIN_HANDS, SPIN_SPARE)


def test_spin_pack_deal_and_stakes() -> None:
    v = stops.load_variant("spin")
    assert v.players == (3, 8)
    deal = stops.replay(spin_record([]), partial=True)
    assert [len(h) for h in SPIN_HANDS] == [16, 17, 17]
    assert deal.stacks == (47, 49, 49)
    assert nonzero(deal) == {"matrimony": 2, "intrigue": 1, "game": 2}
    # no spare hand: nothing is set aside, nothing is seen by the dealer
    assert deal.record()["spare"] == []
    # seat 1 leads any card (spinado's any_card lead)
    assert lead_choices(deal) == sorted((1, c) for c in SPIN_HANDS[1])


def test_spin_fixed_stops_kings_and_the_lone_spinado() -> None:
    at = partial(lambda k: stops.replay(spin_record(SPIN_ACTIONS[:k]), partial=True))
    d = at(2)
    assert plays(d) == P("1:5D 2:6D 0:7D")
    assert stops_by(d) == [(0, "7D")] and d.current_seat == 0
    d = at(3)
    assert stops_by(d)[-1] == (0, "AH") and d.current_seat == 0
    d = at(5)
    assert plays(d)[-3:] == P("0:JD 1:QD 2:KD")
    assert d.stacks == (46, 48, 51)
    d = at(6)
    assert plays(d)[-1] == (2, "AD") and stops_by(d)[-1] == (2, "AD")
    assert "2D" in [str(c) for c in d.hand(1)]      # the 2D did not follow the spinado
    assert d.current_seat == 2
    assert d.stacks == (43, 45, 57)
    assert nonzero(d) == {"matrimony": 2, "intrigue": 1, "game": 2}
    support.conserved(d, 150)


def test_spin_lone_spinado_option_false_lets_the_2d_follow() -> None:
    # spinado_alone_stops: false: the A♦ led alone is followed by the 2D (seat 1), 3D (seat 0),
    # 4D (seat 1); the 5D was played in step 1, so the 4D is the stop and seat 1 leads.
    rec = spin_record(SPIN_ACTIONS, options={"spinado_alone_stops": False})
    d = stops.replay(rec, partial=True)
    assert plays(d)[-4:] == P("2:AD 1:2D 0:3D 1:4D")
    assert stops_by(d)[-1] == (1, "4D") and d.current_seat == 1


def test_spin_rules_text_names_the_six_stops() -> None:
    text = rules_text(stops.load_variant("spin"))
    assert "a 50-card pack (the 52 without the 8♦ and the 2♥)" in text
    assert "every King (the top of its suit), the A♥ (the 2♥ is out of the pack), the 7♦" in text
    assert "1 chip to whoever plays any King" in text
    assert "The A♦ is always a stop, led on its own too" in text
    assert "widow" not in text and "spare" not in text


# == epsom (G.8, G.11 item 10) ================================================================
#
# 32 cards (2s to 6s out), ace high, 2 players, 12 each and 8 set aside (x).
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   - - - - - 1 1 1 1 1 1 1 1
# diams   - - - - - 0 0 0 0 0 0 0 0
# hearts  - - - - - 1 1 1 0 0 0 0 x
# spades  - - - - - x x x x x x x 1
# seat 0: 7D-AD TH JH QH KH; seat 1: 7C-AC 7H 8H 9H AS; aside AH 7S-KS.
# Stakes: each player 1 on AS KH QC JD (each_space): layout 2 on each, stacks less 4.
EPSOM_ROWS = {"C": "- - - - - 1 1 1 1 1 1 1 1", "D": "- - - - - 0 0 0 0 0 0 0 0",
              "H": "- - - - - 1 1 1 0 0 0 0 x", "S": "- - - - - x x x x x x x 1"}
EPSOM_HANDS, EPSOM_ASIDE = support.grid(EPSOM_ROWS, (12, 12), 8, missing=LOW_CARDS,
                                        pack_size=32)


def test_epsom_non_dealer_leads_and_elimination_pays_as_far_as_the_stack_goes() -> None:
    # Stacks 10 (the dealer, seat 0) and 30: after the stakes 6 and 26.
    # The non-dealer (seat 1) leads any card he holds (G.11 item 10): his twelve; not a card
    # he does not hold (7D), and not seat 0.
    #  1. seat 1 leads 7C and plays on 8C ... AC (all his): QC pays him 2 (28); the AC is a
    #     stop (an ace), he leads again, any card he holds: 7H 8H 9H AS.
    #  2. he leads AS: a stop at once, the AS space pays him 2 (30). He leads again: 7H 8H 9H.
    #  3. 7H 8H 9H: the 9H is his last card, he is out. Seat 0 holds 12 cards and owes 12;
    #     he has 6: he pays 6 (G.11 item 10) and is out of the session; one player is left,
    #     so the session is over. Final stacks 0 and 36; KH 2 and JD 2 stay (40 in all).
    table = stops.Table("epsom", seats=2, chips=[10, 30], seed=1, dealer=0)
    deal = table.new_deal(hands=EPSOM_HANDS, spare=EPSOM_ASIDE)
    assert deal.stacks == (6, 26)
    assert nonzero(deal) == {"AS": 2, "KH": 2, "QC": 2, "JD": 2}
    assert lead_choices(deal) == sorted((1, c) for c in EPSOM_HANDS[1])
    expect_illegal(deal, L(1, "7D"))
    expect_illegal(deal, L(0, "7D"))
    deal.apply(L(1, "7C"))
    assert claims(deal) == [(1, "QC", 2)] and stops_by(deal) == [(1, "AC")]
    assert lead_choices(deal) == [(1, "7H"), (1, "8H"), (1, "9H"), (1, "AS")]
    deal.apply(L(1, "AS"))
    assert claims(deal)[-1] == (1, "AS", 2) and deal.stacks == (6, 30)
    assert lead_choices(deal) == [(1, "7H"), (1, "8H"), (1, "9H")]
    deal.apply(L(1, "7H"))
    assert deal.is_terminal and deal.winner == 1
    assert [(e.seat, e.chips) for e in deal.events if e.kind == "paid"] == [(0, 6)]
    assert table.stacks == (0, 36)
    assert nonzero_table(table) == {"KH": 2, "JD": 2}
    assert table.is_over and table.eliminated == {0}
    assert table.total_chips() == 40


def nonzero_table(table: stops.Table) -> dict[str, int]:
    return support.nonzero_spaces(table.layout)


def test_epsom_the_stopper_leads_again_and_the_winner_is_paid_per_card() -> None:
    # The same hands, 30 chips each (26 after the stakes).
    #  1. seat 1 leads 7H; 8H 9H his, TH JH QH KH seat 0's: KH pays seat 0 2 (28); the AH is
    #     set aside, so the KH is a stop and seat 0 leads any card he holds: his eight
    #     diamonds.
    #  2. 7D ... AD all his: JD pays him 2 (30); the AD is his last card: out. Seat 1 holds
    #     7C-AC and AS, 9 cards: 9 chips. Final 39 and 17; AS 2 and QC 2 stay (60).
    table = stops.Table("epsom", seats=2, seed=1, dealer=0)
    assert table.stacks == (30, 30)                 # starting_chips: 30
    deal = table.new_deal(hands=EPSOM_HANDS, spare=EPSOM_ASIDE)
    deal.apply(L(1, "7H"))
    assert stops_by(deal) == [(0, "KH")] and claims(deal) == [(0, "KH", 2)]
    assert lead_choices(deal) == sorted((0, c) for c in EPSOM_HANDS[0] if c.endswith("D"))
    deal.apply(L(0, "7D"))
    assert deal.winner == 0 and table.stacks == (39, 17)
    assert nonzero_table(table) == {"AS": 2, "QC": 2}
    assert not table.is_over


def test_epsom_is_for_two_and_its_rules_say_so() -> None:
    v = stops.load_variant("epsom")
    assert v.players == (2, 2) and len(v.deck) == 32
    text = rules_text(v)
    assert "2 players, a 32-card pack" in text
    assert "2 players 12 each" in text
    with pytest.raises(stops.StopsError):
        stops.Table("epsom", seats=3)


# == saratoga (G.8, G.11 item 11) =============================================================
#
# 3 players, dealer 0, 52 / 4 = 13 each and 13 in the dead hand (equal_plus_dead).
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   x x x x x x x x x 0 2 0 1
# diams   0 x 0 0 x 1 2 x 1 2 x 1 0
# hearts  1 0 0 0 1 1 1 1 2 2 2 2 2
# spades  2 0 0 0 1 1 1 1 2 2 2 2 0
SARATOGA_ROWS = {"C": "x x x x x x x x x 0 2 0 1", "D": "0 x 0 0 x 1 2 x 1 2 x 1 0",
                 "H": "1 0 0 0 1 1 1 1 2 2 2 2 2", "S": "2 0 0 0 1 1 1 1 2 2 2 2 0"}
SARATOGA_HANDS, SARATOGA_DEAD = support.grid(SARATOGA_ROWS, (13, 13, 13), 13)


def test_saratoga_stakes_change_of_suit_pass_left_and_a_block() -> None:
    # Stakes: every player 1 on each of AH KC QD JS: 46 each, 3 on each card.
    #  1. Seat 1 opens as boodle does (G.11 item 11): the lowest card of a suit he chooses:
    #     AC, 7D, 2H or 6S. He leads 2H; the hearts run 2H ... AH (none is dead); seat 2 plays
    #     AH: AH pays him 3 (49) and the ace stops.
    #  2. Seat 2 must change suit: QC, 8D or 2S (no heart). 2S: the spades run to the AS
    #     (seat 0); seat 2 played the JS: 3 more (52).
    #  3. Seat 0 must leave spades: JC or 2D. JC, then QC (2) KC (0): KC pays seat 0 3 (49);
    #     AC (1) stops. Seat 1 must leave clubs: hearts and spades are gone, so 7D alone.
    #  4. 7D, 8D (2); the 9D is dead: seat 2 stopped in diamonds and holds only diamonds
    #     (JD): the lead passes left to seat 0 (2D 4D 5D AD: only diamonds) and on to seat 1
    #     (TD KD): nobody can change suit, so the deal is blocked and ends with no payment
    #     (block_outcome end_no_payment). Final 49, 46, 52; the QD's 3 stay (dead).
    deal = stops.replay(make_record("saratoga", SARATOGA_HANDS, SARATOGA_DEAD), partial=True)
    assert deal.stacks == (46, 46, 46)
    assert nonzero(deal) == {"AH": 3, "KC": 3, "QD": 3, "JS": 3}
    assert lead_choices(deal) == [(1, "2H"), (1, "6S"), (1, "7D"), (1, "AC")]
    expect_illegal(deal, L(1, "6H"))               # not the lowest heart
    deal.apply(L(1, "2H"))
    assert stops_by(deal) == [(2, "AH")] and deal.stacks == (46, 46, 49)
    assert lead_choices(deal) == [(2, "2S"), (2, "8D"), (2, "QC")]
    expect_illegal(deal, L(2, "TH"))               # he has no heart left anyway
    deal.apply(L(2, "2S"))
    assert stops_by(deal)[-1] == (0, "AS") and deal.stacks == (46, 46, 52)
    assert lead_choices(deal) == [(0, "2D"), (0, "JC")]
    deal.apply(L(0, "JC"))
    assert stops_by(deal)[-1] == (1, "AC") and deal.stacks == (49, 46, 52)
    assert lead_choices(deal) == [(1, "7D")]
    deal.apply(L(1, "7D"))
    assert deal.is_terminal
    assert deal.outcome == "blocked"
    assert [e.seat for e in deal.events if e.kind == "lead_passed"][:3] == [2, 0, 1]
    assert deal.stacks == (49, 46, 52)
    assert nonzero(deal) == {"QD": 3}


# == commit (G.8, G41) ========================================================================
#
# 48 cards (no aces), 3 players, 12 each, 12 aside; rank only; the 9D (the comet) is aside.
# seat 0: TH JH QH KH KS 7C 7D 7H 8H 8S 9H 9S
# seat 1: 5C 6H 7S 2C 2D 2H 2S 3C 3D 4C 4D 4H
# seat 2: 8C 8D 9C 3H 3S 4S 5D 5H 5S 6C 6D 6S
# aside:  TC TD TS JC JD JS QC QD QS KC KD 9D
COMMIT_HANDS = support.hands_of("TH JH QH KH KS 7C 7D 7H 8H 8S 9H 9S",
                                "5C 6H 7S 2C 2D 2H 2S 3C 3D 4C 4D 4H",
                                "8C 8D 9C 3H 3S 4S 5D 5H 5S 6C 6D 6S")
COMMIT_ASIDE = ["TC", "TD", "TS", "JC", "JD", "JS", "QC", "QD", "QS", "KC", "KD", "9D"]


def cards(seat: int, verb: str, *cs: str) -> dict[str, Any]:
    return act(seat, verb, cards=list(cs))


def test_commit_run_turns_and_the_king_bonus() -> None:
    # comet_turn run (F41): seat 1 leads 5C and goes on while he holds the next rank: 6H, 7S;
    # no 8: his turn ends. Seat 2 lays 8C 8D, goes on with 9C; no ten: turn over. Seat 0 lays
    # TH, JH, QH, then KH and KS together: a turn that lays Kings earns 1 chip from each
    # other player, once (king_bonus 1, F44): 52, 49, 49. The King ends the sequence and
    # seat 0 starts a new one at once.
    actions = [cards(1, "lead", "5C"), cards(1, "play", "6H"), cards(1, "play", "7S"),
               cards(2, "play", "8C", "8D"), cards(2, "play", "9C"),
               cards(0, "play", "TH"), cards(0, "play", "JH"), cards(0, "play", "QH"),
               cards(0, "play", "KH", "KS")]
    rec = make_record("commit", COMMIT_HANDS, COMMIT_ASIDE, actions, layout={},
                      keep_empty_layout=True)
    d = stops.replay({**rec, "actions": actions[:1]}, partial=True)
    assert d.current_seat == 1                      # a run: still his turn after the lead
    assert [a.to_dict() for a in d.legal_actions()] == [cards(1, "play", "6H")]
    d = stops.replay(rec, partial=True)
    assert d.stacks == (52, 49, 49)
    assert d.current_seat == 0 and not d.is_terminal
    assert {a.action for a in d.legal_actions()} == {"lead"}
    assert stops.load_variant("commit").players == (3, 5)
    # the parent, one rank a turn: after the 5C it is seat 2's turn (a 6 is needed)
    base = make_record("comet", COMMIT_HANDS, COMMIT_ASIDE, actions[:1], layout={},
                       keep_empty_layout=True)
    assert stops.replay(base, partial=True).current_seat == 2


# == ancient-comet (G.8, G41, G.11 item 1) ====================================================
#
# The full pack, ace low; 3 players and an extra hand, 52 / 4 = 13 each.
# seat 1: AC 2C ... QC and AD;  seat 0: every heart;  seat 2: every spade;
# extra hand: 2D ... KD (the 9D, the comet, among them) and KC.
ANCIENT_HANDS = [
    [r + "H" for r in RANKS_LOW],
    [r + "C" for r in RANKS_LOW[:-1]] + ["AD"],
    [r + "S" for r in RANKS_LOW],
]
ANCIENT_EXTRA = [r + "D" for r in RANKS_LOW[1:]] + ["KC"]


def test_ancient_comet_aces_low_and_count_one() -> None:
    # Seat 1 leads AC and AD together (one rank, several cards), then must go on up (a run
    # turn): 2C, 3C, ... QC; the QC is his last card: he is out (no King was laid, no bonus).
    # Settlement (comet's points, an ace 1): each of seats 0 and 2 holds A (1) + 2..10 (54) +
    # J Q K (30) = 85; nobody holds the comet (it is in the extra hand) and his last turn had
    # none: no multiplier. Seat 1: 50 + 170 = 220; seats 0 and 2: 50 - 85 = -35 (debt).
    actions = [cards(1, "lead", "AC", "AD")] + [cards(1, "play", r + "C")
                                               for r in RANKS_LOW[1:-1]]
    rec = make_record("ancient-comet", ANCIENT_HANDS, ANCIENT_EXTRA, actions, layout={},
                      keep_empty_layout=True)
    d = stops.replay(rec)
    assert d.winner == 1
    assert d.stacks == (-35, 220, -35)
    v = stops.load_variant("ancient-comet")
    assert v.players == (3, 8) and len(v.deck) == 52
    text = rules_text(v)
    assert "plus an extra hand that belongs to nobody" in text
    assert "an ace 1" in text


# == pope-joan-foster (G.8, G41, G42, G.11 item 12) ===========================================
#
# 3 players, dealer 0, 15 each and a talon of 7 (Nain Jaune's table), ace low.
# seat 0: every diamond, 9H TH;  seat 1: every club, AH 2H;  seat 2: every spade, JH QH;
# talon: 3H 4H 5H 6H 7H 8H KH.
FOSTER_HANDS = [
    [r + "D" for r in RANKS_LOW] + ["9H", "TH"],
    [r + "C" for r in RANKS_LOW] + ["AH", "2H"],
    [r + "S" for r in RANKS_LOW] + ["JH", "QH"],
]
FOSTER_TALON = ["3H", "4H", "5H", "6H", "7H", "8H", "KH"]


def test_pope_joan_foster_suits_per_card_payment_and_doubled_board_cards() -> None:
    # Stakes: the dealer alone 1, 2, 3, 4, 5 on TD JC QS KH 7D (35); seats 1 and 2 50.
    # Seat 1 leads AC; the next card is the 2C (same suit: the 2H is not a continuation), his
    # own: one legal choice, so the record may leave it out (G.11 item 12), and so on to the
    # KC; the JC pays him 2 on the way (52). The King ends the sequence and he leads again:
    # AH, then 2H, his last card: he is out. Nobody else had laid a card, but there is no
    # grand opera (grand_opera: none): nothing more.
    # Payment 1 a card (G41): seats 0 and 2 hold 15 each: 82. Then from the winner's left
    # each player still holding a board card doubles its box: seat 2 the QS (3: 47, QS 6),
    # seat 0 the TD (1) and the Pope, 7D (5): 35 - 15 - 6 = 14, TD 2, 7D 10. The KH is in the
    # talon: never penalised (4 stay). 14 + 82 + 32 + 22 = 150.
    actions = [L(1, "AC"), L(1, "AH")]
    rec = make_record("pope-joan-foster", FOSTER_HANDS, FOSTER_TALON, actions)
    d = stops.replay({**rec, "actions": actions[:1]}, partial=True)
    d0 = stops.replay({**rec, "actions": []}, partial=True)
    assert d0.stacks == (35, 50, 50)
    assert nonzero(d0) == {"TD": 1, "JC": 2, "QS": 3, "KH": 4, "7D": 5}
    assert plays(d) == [(1, "AC")]                  # the 2C is the next decision: forced
    assert [a.to_dict() for a in d.legal_actions()] == [act(1, "play", card="2C")]
    d = stops.replay(rec)
    assert d.winner == 1
    assert d.stacks == (14, 82, 32)
    assert nonzero(d) == {"TD": 2, "QS": 6, "KH": 4, "7D": 10}


def test_pope_joan_foster_a_continuation_is_the_next_card_of_the_suit_only() -> None:
    # After AC the only legal play is the 2C: not the 2H (rank alone would allow it).
    rec = make_record("pope-joan-foster", FOSTER_HANDS, FOSTER_TALON, [L(1, "AC")])
    v = stops.load_variant("pope-joan-foster")
    assert v.rules.successor.use == "same_suit"
    d = stops.Table(v, seats=3, seed=1, dealer=0).new_deal(hands=FOSTER_HANDS,
                                                          spare=FOSTER_TALON)
    d.apply(L(1, "AC"))
    assert [a.to_dict() for a in d.legal_actions()] == [act(1, "play", card="2C")]
    expect_illegal(d, act(1, "play", card="2H"))
    assert stops.replay(rec, partial=True).current_seat == 1


# == newmarket-1885 (G.8, G41) ================================================================
#
# 51 cards (8D out), ace high, dealt whole: 3 players 17 each, nothing set aside.
#         2 3 4 5 6 7 8 9 T J Q K A
# clubs   0 1 2 0 1 2 0 1 2 0 1 2 0
# diams   2 2 2 1 2 0 - 0 1 2 0 1 2
# hearts  0 1 2 0 1 2 0 1 2 0 1 2 0
# spades  1 1 0 1 1 0 1 1 2 0 2 2 0
NM_ROWS = {"C": "0 1 2 0 1 2 0 1 2 0 1 2 0", "D": "2 2 2 1 2 0 - 0 1 2 0 1 2",
           "H": "0 1 2 0 1 2 0 1 2 0 1 2 0", "S": "1 1 0 1 1 0 1 1 2 0 2 2 0"}
NM_HANDS, NM_SPARE = support.grid(NM_ROWS, (17, 17, 17), 0, missing=("8D",), pack_size=51)


def test_newmarket_1885_whole_pack_7d_stop_and_its_boodle_cards() -> None:
    # Boodle's stakes (G41): the dealer 2 on each of AS KH QC JD (42), the others 1 (46);
    # 4 on each card. Seat 1 leads the lowest card of a suit: 3C, 5D, 3H or 2S.
    #  1. 5D, 6D (2), 7D (0): the 8D is out of the pack: a stop; seat 0 leads.
    #  2. seat 0 leads 9D (his lowest diamond), TD (1), JD (2): the JD pays seat 2 4 (50),
    #     QD (0), KD (1), AD (2): an ace, a stop. Seat 2 leads.
    deal = stops.replay(make_record("newmarket-1885", NM_HANDS, NM_SPARE), partial=True)
    assert deal.stacks == (42, 46, 46)
    assert nonzero(deal) == {"AS": 4, "KH": 4, "QC": 4, "JD": 4}
    assert lead_choices(deal) == [(1, "2S"), (1, "3C"), (1, "3H"), (1, "5D")]
    deal.apply(L(1, "5D"))
    assert stops_by(deal) == [(0, "7D")]
    assert lead_choices(deal)[0][0] == 0 and (0, "9D") in lead_choices(deal)
    deal.apply(L(0, "9D"))
    assert plays(deal)[3:] == P("0:9D 1:TD 2:JD 0:QD 1:KD 2:AD")
    assert claims(deal) == [(2, "JD", 4)] and deal.stacks == (42, 46, 50)
    assert stops_by(deal)[-1] == (2, "AD") and deal.current_seat == 2
    text = rules_text(stops.load_variant("newmarket-1885"))
    assert "spare hand" not in text and "a 51-card pack (the 52 without the 8♦)" in text


def test_diff_sees_parameters_set_by_their_flat_names() -> None:
    # commit sets comet_turn: run and king_bonus: 1 by their flat names over comet's inline
    # turn_order and wild_card: stops diff must list both, with the values in force.
    from stops.rules.diff import diff_lines

    lines = diff_lines(stops.load_variant("commit"), stops.load_variant("comet"))
    assert len(lines) == 3
    turn = next(x for x in lines if x.startswith("turn_order"))
    assert "commit: {use: rotation, direction: clockwise, per_turn: run," in turn
    wild = next(x for x in lines if x.startswith("wild_card"))
    assert "commit: {use: comet, comet_bonus: 2, king_bonus: 1}" in wild


# == every file: its rules read as its own game ===============================================


@pytest.mark.parametrize("name", ["spin", "epsom", "saratoga", "commit", "ancient-comet",
                                  "pope-joan-foster", "newmarket-1885"])
def test_each_file_loads_checks_and_cites_g8(name: str) -> None:
    v = stops.load_variant(name)
    assert "G.8" in v.spec.source
    text = rules_text(v)
    assert "_" not in text                          # no setting names
    assert " None" not in text and "null" not in text


G8 = {"spin": 4, "epsom": 2, "saratoga": 4, "commit": 3, "ancient-comet": 5,
      "pope-joan-foster": 4, "newmarket-1885": 3}


@pytest.mark.parametrize("name", sorted(G8))
def test_pettingzoo_masked_random_play_conserves_chips(name: str) -> None:
    # Each file through the PettingZoo adapter at a table size it allows (Epsom: two), two
    # deals an episode with masked random actions: every index decodes to a legal decision
    # and no chip is made or lost.
    pytest.importorskip("pettingzoo")
    import numpy as np

    from stops.interop.pettingzoo import env

    n = G8[name]
    for seed in range(3):
        e = env(variant=name, players=n, chips=30, deals_per_episode=2)
        e.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for _agent in e.agent_iter(100_000):
            obs, _, term, trunc, _ = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        table = e.unwrapped.table
        assert table is not None
        assert sum(table.stacks) + sum(table.layout.values()) == 30 * n
