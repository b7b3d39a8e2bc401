"""Hand-derived tests for Nain Jaune (Yellow Dwarf), ``nain-jaune``: FAMILY-RULINGS F.0, F.3.

Every deal here is stacked and its outcome was worked out by hand from the rule text; the
derivation is written beside each test. Unless a test says otherwise:

* 8 players, dealer 0, every stack 50 before the deal, nothing carried on the board;
* hands of 6 and a talon (the record's ``spare``) of 4, so hands + talon = the 52-card pack;
* stakes (F.3): every player puts 1 on TD, 2 on JC, 3 on QS, 4 on KH, 5 on 7D (15 each), so
  every stack is 35 and the board is TD 8, JC 16, QS 24, KH 32, 7D 40 before the first card;
* the turn goes clockwise, seat 1 (dealer's left) leads; ace low, A 2 3 ... Q K, suits ignored;
* card points (F5): A = 1, 2-10 their pips, J Q K = 10.

Total chips are conserved: sum(stacks) + sum(board) = 400 (+ any carried chips).
"""

from __future__ import annotations

import random
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stops
from support import (
    act,
    conserved,
    expect_illegal,
    hands_of,
    lead_choices,
    lead_decision,
    legal,
    make_record,
    pack,
    pass_,
    play_through,
    plays,
    prefix_replayer,
    rest_of_pack,
    skip_unless_built,
)
from support import nonzero_spaces as board

VARIANT = "nain-jaune"

pytestmark = skip_unless_built(VARIANT)


# -- local helpers (shared ones in support.py) ---------------------------------------------

PACK = pack("A23456789TJQK")
HAND_SIZE = {2: 22, 3: 15, 4: 12, 5: 9, 6: 8, 7: 7, 8: 6}
TALON_SIZE = {2: 8, 3: 7, 4: 4, 5: 7, 6: 4, 7: 3, 8: 4}
BOARD = ("TD", "JC", "QS", "KH", "7D")

# The talon: the rest of the 52-card pack, checked against the deal table and ``expect``.
talon_of = partial(rest_of_pack, pack=PACK, hand_size=HAND_SIZE, rest_size=TALON_SIZE)
record = partial(make_record, VARIANT, keep_empty_layout=True)


def play(seat: int, card: str) -> dict[str, Any]:
    return act(seat, "play", card=card)


def same(actions: list[dict[str, Any]], expected: list[dict[str, Any]]) -> bool:
    key = lambda d: sorted(d.items())  # noqa: E731
    return sorted(map(key, actions)) == sorted(map(key, expected))


# -- the main deal -------------------------------------------------------------------------
#
# Seat  hand (6)                 card points of the cards that will be left
# 0     QS 5S 6S 7S KS 8C        all six: 10+5+6+7+10+8 = 46
# 1     5C 6H 7D 4S JS 9S        leads 5C 6H 7D; left 4S JS 9S = 4+10+9 = 23
# 2     AH 2H 3H 4H 5H 7H        all six: 1+2+3+4+5+7 = 22 (no 8)
# 3     8S 9C QH KH AC 2C        plays all six
# 4     JD QD KD AD 2D 3D        all six: 10+10+10+1+2+3 = 36
# 5     JC 3C 4C 6C 7C QC        all six: 10+3+4+6+7+10 = 40
# 6     KC 4D 5D 6D 8D 9D        all six: 10+4+5+6+8+9 = 42
# 7     8H 9H JH AS 2S 3S        all six: 8+9+10+1+2+3 = 33
# talon TC TD TH TS              every ten is dead; the TD box can never be won this deal

MAIN = hands_of(
    "QS 5S 6S 7S KS 8C",
    "5C 6H 7D 4S JS 9S",
    "AH 2H 3H 4H 5H 7H",
    "8S 9C QH KH AC 2C",
    "JD QD KD AD 2D 3D",
    "JC 3C 4C 6C 7C QC",
    "KC 4D 5D 6D 8D 9D",
    "8H 9H JH AS 2S 3S",
)
MAIN_TALON = "TC TD TH TS"
MAIN_ACTIONS = [
    lead_decision(1, "5C"), play(1, "6H"), play(1, "7D"),
    play(3, "8S"), play(3, "9C"),
    lead_decision(3, "QH"), play(3, "KH"),
    lead_decision(3, "AC"), play(3, "2C"),
]
MAIN_PLAYS = [(1, "5C"), (1, "6H"), (1, "7D"), (3, "8S"), (3, "9C"), (3, "QH"), (3, "KH"),
              (3, "AC"), (3, "2C")]
# Final stacks of the main deal under the default rules (derived in test_main_deal_default).
MAIN_FINAL = [-35, 52, 13, 309, -1, -21, -7, 2]


def main_record(**kw: Any) -> dict[str, Any]:
    return record(MAIN, talon_of(MAIN, MAIN_TALON), MAIN_ACTIONS, **kw)


def test_main_deal_default() -> None:
    """Rank-only runs, own runs, "sans X", automatic pass-overs, a dead rank, a King, claims,
    card-point settlement and the board-card penalty, all under the default options.

    Stakes: every stack 50 - 15 = 35; board TD 8, JC 16, QS 24, KH 32, 7D 40.

    Play (clockwise, seat 1 leads):
    1. Seat 1 leads 5C (any card). He holds a 6 (6H) so he must play it: suits are ignored, a
       heart continues a club. He holds a 7 (7D) so he must play it: 7D is the dwarf, he
       takes its 40 chips at once (stack 75). He holds no 8: "sans 8", the turn passes left.
    2. Seat 2 holds no 8: passed over automatically (an event, no decision).
    3. Seat 3 holds 8S: plays it; holds 9C: plays it; holds no ten: "sans 10".
    4. All four tens are in the talon: seats 4, 5, 6, 7, 0, 1, 2 are passed over one after
       another, and the turn comes back to seat 3, the last player who laid a card. He leads
       anew with any card (F25 restart_any).
    5. Seat 3 leads QH, must play his King KH: the KH box pays him 32 (stack 67). A King ends
       the sequence; he leads again at once (F26): AC, then must play 2C, his last card: he
       has gone out. Play ends at once.

    Going out (F28 card_points), every other player pays seat 3 the points left in his hand:
    seat 0 46, seat 1 23, seat 2 22, seat 4 36, seat 5 40, seat 6 42, seat 7 33 = 242.
    Seat 3: 67 + 242 = 309. Seat 0 35-46 = -11, seat 1 75-23 = 52, seat 2 35-22 = 13,
    seat 4 35-36 = -1, seat 5 35-40 = -5, seat 6 35-42 = -7, seat 7 35-33 = 2.

    Penalty (F29 double), in seat order from the winner's left (4, 5, 6, 7, 0, 1, 2):
    seat 5 holds JC and pays the 16 in its box (JC 32, seat 5 -21); seat 0 holds QS and pays
    24 (QS 48, seat 0 -35). The TD is in the talon: never penalised, its box keeps 8. KH and
    7D were claimed (0).

    Seat 3 shed his six cards in one turn, but seat 1 had laid cards before: no grand opéra,
    the board is not swept. Final stacks -35 52 13 309 -1 -21 -7 2; board TD 8, JC 32, QS 48.
    """
    deal = stops.replay(main_record())
    assert plays(deal) == MAIN_PLAYS
    assert list(deal.stacks) == MAIN_FINAL
    assert board(deal.layout) == {"TD": 8, "JC": 32, "QS": 48}
    assert deal.outcome == "went_out"
    assert deal.winner == 3
    assert deal.is_terminal
    conserved(deal, 400)


def test_main_deal_turn_by_turn() -> None:
    """The same deal, checked decision by decision (partial replays)."""
    spare = talon_of(MAIN, MAIN_TALON)

    at = prefix_replayer(record, MAIN, spare, MAIN_ACTIONS)

    # Before any card: stakes are placed by the engine; seat 1 leads any of his six cards.
    d = at(0)
    assert list(d.stacks) == [35] * 8
    assert board(d.layout) == {"TD": 8, "JC": 16, "QS": 24, "KH": 32, "7D": 40}
    assert d.current_seat == 1
    assert same(legal(d), [lead_decision(1, c) for c in MAIN[1]])

    # After 5C: seat 1 must go on with his only 6 (6H); nothing else, no pass.
    d = at(1)
    assert d.current_seat == 1
    assert legal(d) == [play(1, "6H")]

    # After 7D: the dwarf is claimed at once; seat 1 is "sans 8"; seat 2 (no 8) is passed
    # over automatically, so the next decision is seat 3's 8S.
    d = at(3)
    assert d.stacks[1] == 75
    assert board(d.layout) == {"TD": 8, "JC": 16, "QS": 24, "KH": 32}
    assert d.current_seat == 3
    assert legal(d) == [play(3, "8S")]

    # After 9C: the tens are all in the talon; everybody is passed over and the turn comes
    # back to seat 3, who leads anew with any card he holds.
    d = at(5)
    assert d.current_seat == 3
    assert same(legal(d), [lead_decision(3, c) for c in ("QH", "KH", "AC", "2C")])

    # After QH: he must play his King.
    d = at(6)
    assert legal(d) == [play(3, "KH")]

    # After KH: the box is his (32 -> 67) and he leads again at once (the King ends it).
    d = at(7)
    assert d.stacks[3] == 67
    assert d.current_seat == 3
    assert same(legal(d), [lead_decision(3, "AC"), lead_decision(3, "2C")])
    assert not d.is_terminal


def test_illegal_decisions_change_nothing() -> None:
    """Wrong rank, a lead where a play is due, out of turn, and ``pass`` with the default
    ``voluntary_stop: false`` (F24) are refused with IllegalAction; the deal is unchanged."""
    spare = talon_of(MAIN, MAIN_TALON)
    deal = stops.replay(record(MAIN, spare, MAIN_ACTIONS[:1]), partial=True)
    before = deal.record()
    for bad in (
        play(1, "4S"),           # a 4 does not continue a 5
        play(1, "7D"),           # the 7 comes after the 6, not now
        lead_decision(1, "9S"),           # a play is due, not a new lead
        pass_(1),                # holds 6H: must play it (voluntary_stop false)
        play(2, "7H"),           # not seat 2's turn
        play(1, "8S"),           # not his card
    ):
        with pytest.raises(stops.IllegalAction):
            deal.apply(bad)
        assert deal.record() == before
    assert deal.current_seat == 1


def test_record_with_a_refused_pass_is_rejected() -> None:
    """A record whose seat 1 passes while holding a 6 (default voluntary_stop false) does not
    replay: RecordError."""
    spare = talon_of(MAIN, MAIN_TALON)
    actions = [lead_decision(1, "5C"), pass_(1), *MAIN_ACTIONS[1:]]
    with pytest.raises(stops.RecordError):
        stops.replay(record(MAIN, spare, actions))


def test_record_stopping_mid_deal_is_rejected_unless_partial() -> None:
    """A record that stops where a seat has a real choice (seat 3 must lead AC or 2C after
    his King) does not replay unless partial. (F.6: a play with a single legal choice may be
    omitted, so a record that leaves out only the final forced 2C replays to the end.)"""
    spare = talon_of(MAIN, MAIN_TALON)
    rec = record(MAIN, spare, MAIN_ACTIONS[:-2])
    with pytest.raises(stops.RecordError):
        stops.replay(rec)
    deal = stops.replay(rec, partial=True)
    assert not deal.is_terminal
    assert deal.current_seat == 3
    assert same(legal(deal), [lead_decision(3, "AC"), lead_decision(3, "2C")])
    deal = stops.replay(record(MAIN, spare, MAIN_ACTIONS[:-1]), partial=True)
    assert not deal.is_terminal
    assert legal(deal) == [play(3, "2C")]
    assert plays(stops.replay(record(MAIN, spare, MAIN_ACTIONS[:-1]))) == MAIN_PLAYS


def test_record_with_wrong_hand_sizes_is_rejected() -> None:
    """Every hand must have the deal table's size (8 players: 6) and hands + spare must be the
    pack: one card moved from seat 1 to seat 2 gives hands of 5 and 7."""
    hands = [list(h) for h in MAIN]
    hands[2].append(hands[1].pop())
    with pytest.raises((stops.StopsError, ValueError)):
        stops.replay(record(hands, MAIN_TALON.split(), MAIN_ACTIONS))
    # a card missing from hands + spare
    with pytest.raises((stops.StopsError, ValueError)):
        stops.replay(record(MAIN, MAIN_TALON.split()[:3], MAIN_ACTIONS))


def test_going_out_payment_per_card() -> None:
    """F28 option ``per_card``: the main deal, each other player pays 1 per card he holds.

    Cards left: seat 0 6, seat 1 3 (4S JS 9S), seat 2 6, seat 4 6, seat 5 6, seat 6 6,
    seat 7 6 = 39. Seat 3: 67 + 39 = 106. Seat 1: 75 - 3 = 72; seats 0, 2, 4, 5, 6, 7:
    35 - 6 = 29. Penalties as in the default: seat 5 pays 16 into JC (13), seat 0 pays 24
    into QS (5). Board TD 8, JC 32, QS 48.
    """
    deal = stops.replay(main_record(options={"going_out_payment": "per_card"}))
    assert plays(deal) == MAIN_PLAYS
    assert list(deal.stacks) == [5, 72, 29, 106, 29, 13, 29, 29]
    assert board(deal.layout) == {"TD": 8, "JC": 32, "QS": 48}
    assert deal.winner == 3
    conserved(deal, 400)


def test_board_card_penalty_none() -> None:
    """F29 option ``none``: as the main deal, but seat 5 (JC) and seat 0 (QS) pay nothing in.

    Stacks after the going-out payments stand: -11 52 13 309 -1 -5 -7 2; the board keeps
    TD 8, JC 16, QS 24 (the unclaimed stakes) for the next deal.
    """
    deal = stops.replay(main_record(options={"board_card_penalty": "none"}))
    assert plays(deal) == MAIN_PLAYS
    assert list(deal.stacks) == [-11, 52, 13, 309, -1, -5, -7, 2]
    assert board(deal.layout) == {"TD": 8, "JC": 16, "QS": 24}
    conserved(deal, 400)


def test_carried_chips_claimed_and_doubled_from_the_box_contents() -> None:
    """F3 and F29: chips carried on the board are added to the stakes; a claim takes the whole
    box; the penalty doubles the box as it stands at that moment, carried chips included.

    Carried: JC 5, 7D 3. After stakes: JC 16 + 5 = 21, 7D 40 + 3 = 43 (TD 8, QS 24, KH 32).
    Seat 1's 7D now takes 43: 35 + 43 - 23 = 55. Seat 5 holds JC and pays 21 (not 16):
    35 - 40 - 21 = -26, JC 42. Everything else as the main deal.
    Total = 400 + 8 = 408.
    """
    deal = stops.replay(main_record(layout={"JC": 5, "7D": 3}))
    assert plays(deal) == MAIN_PLAYS
    assert list(deal.stacks) == [-35, 55, 13, 309, -1, -26, -7, 2]
    assert board(deal.layout) == {"TD": 8, "JC": 42, "QS": 48}
    conserved(deal, 408)


def test_voluntary_stop_true_allows_pass() -> None:
    """F24 option ``voluntary_stop: true``: a player who could go on may ``pass``.

    Seat 1 leads 5C and plays 6H. He holds 7D but passes: his turn ends (the 7D stays in his
    hand, so the dwarf is not claimed). Seat 2 holds 7H: he could pass too, but plays it; he
    has no 8: "sans 8". Seat 3 plays 8S, 9C; the tens are dead, the turn returns to seat 3 who
    leads QH, plays KH (+32, 67), leads AC, plays 2C and goes out.

    Points left: seat 0 46; seat 1 7D 4S JS 9S = 7+4+10+9 = 30; seat 2 AH..5H = 15;
    seat 4 36; seat 5 40; seat 6 42; seat 7 33: total 242, seat 3 67 + 242 = 309.
    Seat 1 35 - 30 = 5, seat 2 35 - 15 = 20.
    Penalties from seat 4: seat 5 JC 16 (-21, JC 32); seat 0 QS 24 (-35, QS 48);
    seat 1 holds the dwarf: pays 40 (5 - 40 = -35, 7D 80).
    """
    spare = talon_of(MAIN, MAIN_TALON)
    actions = [
        lead_decision(1, "5C"), play(1, "6H"), pass_(1),
        play(2, "7H"),
        play(3, "8S"), play(3, "9C"),
        lead_decision(3, "QH"), play(3, "KH"), lead_decision(3, "AC"), play(3, "2C"),
    ]
    opts = {"voluntary_stop": True}
    # at the point of the pass both choices are offered
    d = stops.replay(record(MAIN, spare, actions[:2], options=opts), partial=True)
    assert same(legal(d), [play(1, "7D"), pass_(1)])
    # after the pass, seat 2 may play his 7 or pass as well
    d = stops.replay(record(MAIN, spare, actions[:3], options=opts), partial=True)
    assert d.current_seat == 2
    assert same(legal(d), [play(2, "7H"), pass_(2)])

    deal = stops.replay(record(MAIN, spare, actions, options=opts))
    assert plays(deal) == [(1, "5C"), (1, "6H"), (2, "7H"), (3, "8S"), (3, "9C"), (3, "QH"),
                           (3, "KH"), (3, "AC"), (3, "2C")]
    assert list(deal.stacks) == [-35, -35, 20, 309, -1, -21, -7, 2]
    assert board(deal.layout) == {"TD": 8, "JC": 32, "QS": 48, "7D": 80}
    assert deal.winner == 3
    conserved(deal, 400)


def test_voluntary_stop_true_no_pass_for_a_lead() -> None:
    """Reading: ``pass`` declines to *continue*; a player who must lead (the first lead, or
    after a King, or when the turn returns to him) cannot pass."""
    spare = talon_of(MAIN, MAIN_TALON)
    d = stops.replay(record(MAIN, spare, [], options={"voluntary_stop": True}), partial=True)
    assert d.current_seat == 1
    assert pass_(1) not in legal(d)
    before = d.record()
    with pytest.raises(stops.IllegalAction):
        d.apply(pass_(1))
    assert d.record() == before


def test_dead_gap_next_rank_up() -> None:
    """F25 option ``dead_gap: next_rank_up``: the missing rank is skipped.

    As the main deal up to seat 3's 9C (seat 1 took the dwarf: 75). Nobody holds a ten; the
    turn comes back to seat 3. The ten is skipped: seat 3 must play a Jack if he holds one. He
    holds QH KH AC 2C: none, so the turn passes round for the Jack, from his left: seat 4 holds
    JD and plays it (a continuation, ``play``), then must play QD and KD (no box for these).
    The King ends the sequence: seat 4 leads AD, plays 2D, 3D: his sixth card, he is out.

    Points left: seat 0 46, seat 1 23, seat 2 22, seat 3 QH KH AC 2C = 23, seat 5 40,
    seat 6 42, seat 7 33: total 229. Seat 4: 35 + 229 = 264. Seat 3: 35 - 23 = 12.
    Penalties from seat 5: seat 5 JC 16 (-5 - 16 = -21, JC 32); seat 0 QS 24 (-11 - 24 = -35,
    QS 48); seat 3 holds KH, never claimed: pays 32 (12 - 32 = -20, KH 64).
    """
    spare = talon_of(MAIN, MAIN_TALON)
    opts = {"dead_gap": "next_rank_up"}
    actions = [
        lead_decision(1, "5C"), play(1, "6H"), play(1, "7D"),
        play(3, "8S"), play(3, "9C"),
        play(4, "JD"), play(4, "QD"), play(4, "KD"),
        lead_decision(4, "AD"), play(4, "2D"), play(4, "3D"),
    ]
    d = stops.replay(record(MAIN, spare, actions[:5], options=opts), partial=True)
    assert d.current_seat == 4
    assert legal(d) == [play(4, "JD")]
    before = d.record()
    with pytest.raises(stops.IllegalAction):
        d.apply(lead_decision(3, "QH"))          # no fresh lead under next_rank_up
    assert d.record() == before

    deal = stops.replay(record(MAIN, spare, actions, options=opts))
    assert plays(deal) == [(1, "5C"), (1, "6H"), (1, "7D"), (3, "8S"), (3, "9C"), (4, "JD"),
                           (4, "QD"), (4, "KD"), (4, "AD"), (4, "2D"), (4, "3D")]
    assert list(deal.stacks) == [-35, 52, 13, -20, 264, -21, -7, 2]
    assert board(deal.layout) == {"TD": 8, "JC": 32, "QS": 48, "KH": 64}
    assert deal.winner == 4
    conserved(deal, 400)


def test_dead_gap_restart_any_is_a_free_lead() -> None:
    """F25 default ``restart_any``: at the same point the last player leads any card, so the
    record of the main deal (QH led) replays, and a Jack-first line is not forced."""
    spare = talon_of(MAIN, MAIN_TALON)
    d = stops.replay(record(MAIN, spare, MAIN_ACTIONS[:5]), partial=True)
    assert d.current_seat == 3
    assert same(legal(d), [lead_decision(3, c) for c in ("QH", "KH", "AC", "2C")])
    before = d.record()
    with pytest.raises(stops.IllegalAction):
        d.apply(play(4, "JD"))
    assert d.record() == before


def test_direction_anticlockwise_mirrors_the_main_deal() -> None:
    """F23 option ``anticlockwise``: the player right of the dealer starts and turns pass to
    the right. Seat s of the main deal sits at seat -s mod 8 here (0->0, 1->7, 2->6, 3->5,
    4->4, 5->3, 6->2, 7->1), so the whole deal is the main deal mirrored:
    seat 7 leads 5C, 6H, 7D (claims 40), "sans 8"; seat 6 (to his right) has no 8; seat 5
    plays 8S 9C; the tens are dead; back to seat 5, who leads QH, KH (+32), AC, 2C: out.
    Payments and penalties mirror: final stacks [-35, 2, -7, -21, -1, 309, 13, 52].
    (Clockwise, these hands would make seat 1 lead 8H... instead: a different deal.)
    """
    mirror = [(-s) % 8 for s in range(8)]
    hands: list[list[str]] = [[] for _ in range(8)]
    for s in range(8):
        hands[mirror[s]] = MAIN[s]
    spare = talon_of(hands, MAIN_TALON)
    actions = [dict(a, seat=mirror[a["seat"]]) for a in MAIN_ACTIONS]
    opts = {"direction": "anticlockwise"}
    d = stops.replay(record(hands, spare, [], options=opts), partial=True)
    assert d.current_seat == 7
    deal = stops.replay(record(hands, spare, actions, options=opts))
    assert plays(deal) == [(mirror[s], c) for s, c in MAIN_PLAYS]
    assert list(deal.stacks) == [-35, 2, -7, -21, -1, 309, 13, 52]
    assert board(deal.layout) == {"TD": 8, "JC": 32, "QS": 48}
    assert deal.winner == 5
    conserved(deal, 400)


# -- successor: same_suit (F22) ------------------------------------------------------------

SUIT = hands_of(
    "8S 9S TS JS QS KS",
    "5C 6D 7D 8D 9D TD",
    "6C 7C 8C 9C QH KH",
    "AC 2C 3C 4C JC QC",
    "KC AD 3D 4D 5D JD",
    "QD KD AH 3H 4H 5H",
    "6H 7H 8H 9H TH JH",
    "AS 3S 4S 5S 6S 7S",
)
SUIT_TALON = "TC 2D 2H 2S"


def test_successor_same_suit() -> None:
    """F22 option ``successor: same_suit``: a sequence climbs within one suit.

    Seat 1 leads 5C. The next card is 6C; he holds 6D (which would continue under rank_only)
    but not 6C: "sans 6C", turn to seat 2, who holds 6C: plays it, then 7C, 8C, 9C. TC is in
    the talon: nobody can follow, the turn comes back round to seat 2, who leads QH and must
    play KH (the next card of hearts): the KH box (32) is his, and it was his last card.

    Seat 2: 35 + 32 = 67. Points left: seat 0 8S..KS = 8+9+10+10+10+10 = 57; seat 1
    6D 7D 8D 9D TD = 40; seat 3 AC 2C 3C 4C JC QC = 30; seat 4 KC AD 3D 4D 5D JD = 33;
    seat 5 QD KD AH 3H 4H 5H = 33; seat 6 6H..JH = 50; seat 7 AS 3S..7S = 26: 269.
    Seat 2: 67 + 269 = 336. Others: 0: -22, 1: -5, 3: 5, 4: 2, 5: 2, 6: -15, 7: 9.
    Penalties from seat 3: seat 3 JC 16 (-11, JC 32); seat 0 QS 24 (-46, QS 48); seat 1 TD 8
    and 7D 40 (-5 - 48 = -53; TD 16, 7D 80).
    """
    spare = talon_of(SUIT, SUIT_TALON)
    actions = [
        lead_decision(1, "5C"),
        play(2, "6C"), play(2, "7C"), play(2, "8C"), play(2, "9C"),
        lead_decision(2, "QH"), play(2, "KH"),
    ]
    opts = {"successor": "same_suit"}
    d = stops.replay(record(SUIT, spare, actions[:1], options=opts), partial=True)
    assert d.current_seat == 2
    assert legal(d) == [play(2, "6C")]
    deal = stops.replay(record(SUIT, spare, actions, options=opts))
    assert plays(deal) == [(1, "5C"), (2, "6C"), (2, "7C"), (2, "8C"), (2, "9C"), (2, "QH"),
                           (2, "KH")]
    assert list(deal.stacks) == [-46, -53, 336, -11, 2, 2, -15, 9]
    assert board(deal.layout) == {"TD": 16, "JC": 32, "QS": 48, "7D": 80}
    assert deal.winner == 2
    conserved(deal, 400)


def test_rank_only_is_the_default_successor() -> None:
    """Same hands, default rules: after 5C seat 1 must go on with his 6D (any suit)."""
    spare = talon_of(SUIT, SUIT_TALON)
    d = stops.replay(record(SUIT, spare, [lead_decision(1, "5C")]), partial=True)
    assert d.current_seat == 1
    assert legal(d) == [play(1, "6D")]


# -- successor: same_suit with dead_gap: next_rank_up (F22 x F25) -----------------------------
#
# Three players, dealer 2: seat 0 (dealer's left) leads. Hands of 15, a talon of 7 (F.3).
# Clubs: seat 0 AC 2C 3C 4C 9C; seat 1 5C 6C JC QC; seat 2 7C 8C KC; the TC is in the talon.

GAP3 = hands_of(
    "9C AC 2C 3C 4C AD 2D 3D 4D 5D 6D AH 2H 3H 4H",
    "JC QC 5C 6C 7D 8D 9D TD 5H 6H 7H 8H AS 2S 3S",
    "KC 7C 8C JD QD KD 9H TH JH QH KH 4S 5S 6S 7S",
)
GAP3_TALON = "TC 8S 9S TS JS QS KS"
SUIT_GAP = {"successor": "same_suit", "dead_gap": "next_rank_up"}


def test_same_suit_next_rank_up_skips_the_missing_card() -> None:
    """F22 ``same_suit`` with F25 ``next_rank_up``: the missing card of the suit is skipped.

    Seat 0 leads 9C. Under same_suit only the TC continues it, and the TC is in the talon.
    Seat 0 holds no TC ("sans 10"); seats 1 and 2 hold none: passed over; the turn is back at
    seat 0, the last player who laid a card. F25: the missing rank is skipped, the JC is needed
    now. Seat 0 holds no JC, so the turn goes round for it: seat 1 holds the JC and must play it
    (his only choice; his 9D, a nine of another suit, does not count). He then holds the QC, the
    next card: he must play it too. Nobody else has laid since: the KC is needed, seat 1 holds
    none, the turn passes to seat 2 who holds the KC and must play it. The King ends the
    sequence and seat 2 leads again with any card.
    Under ``restart_any`` (the default) seat 0 would lead again after the 9C instead.
    """
    spare = talon_of(GAP3, GAP3_TALON)
    d = stops.replay(record(GAP3, spare, [lead_decision(0, "9C")], dealer=2, options=SUIT_GAP),
                     partial=True)
    assert d.current_seat == 1
    assert legal(d) == [play(1, "JC")]
    expect_illegal(d, lead_decision(0, "AC"))  # no fresh lead: the TC is skipped, not a stop
    d.apply(play(1, "JC"))
    assert d.current_seat == 1
    assert legal(d) == [play(1, "QC")]
    d.apply(play(1, "QC"))
    assert d.current_seat == 2
    assert legal(d) == [play(2, "KC")]
    d.apply(play(2, "KC"))
    assert d.current_seat == 2
    assert lead_choices(d) == sorted((2, c) for c in GAP3[2] if c != "KC")
    assert plays(d) == [(0, "9C"), (1, "JC"), (1, "QC"), (2, "KC")]

    # the default restart_any: back at seat 0 after the 9C, he leads anew
    d = stops.replay(record(GAP3, spare, [lead_decision(0, "9C")], dealer=2,
                            options={"successor": "same_suit"}), partial=True)
    assert d.current_seat == 0
    assert lead_choices(d) == sorted((0, c) for c in GAP3[0] if c != "9C")


def test_same_suit_next_rank_up_skips_a_card_already_played() -> None:
    """As above, with the TC in seat 0's hand and made a fixed stop (``stop_cards: [TC]``), so
    that it can be played without the JC following it (the JC is held by seat 1).

    Seat 0 leads TC: a fixed stop, the sequence ends, seat 0 leads again: 9C. The TC that
    would continue it has been played: nobody holds it; seats 1 and 2 are passed over, the turn
    is back at seat 0, the ten is skipped and the JC is needed; seat 0 holds none; seat 1 holds
    it and must play it, then his QC; seat 2 plays the KC, and leads again.
    """
    hands = [list(GAP3[0]), list(GAP3[1]), list(GAP3[2])]
    hands[0][hands[0].index("4H")] = "TC"
    spare = talon_of(hands, "4H 8S 9S TS JS QS KS")
    opts = {**SUIT_GAP, "stop_cards": ["TC"]}
    d = stops.replay(record(hands, spare, [lead_decision(0, "TC")], dealer=2, options=opts),
                     partial=True)
    assert d.current_seat == 0                # the TC is a stop: seat 0 leads again
    d.apply(lead_decision(0, "9C"))
    assert d.current_seat == 1
    assert legal(d) == [play(1, "JC")]
    for a in (play(1, "JC"), play(1, "QC"), play(2, "KC")):
        assert legal(d) == [a]
        d.apply(a)
    assert d.current_seat == 2
    assert plays(d) == [(0, "TC"), (0, "9C"), (1, "JC"), (1, "QC"), (2, "KC")]


ACE_LOW = "A23456789TJQK"


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(3, 8), st.integers(0, 2**32), st.integers(0, 2**32))
def test_same_suit_next_rank_up_any_deal(seats: int, seed: int, agent: int) -> None:
    """Property of F22 x F25 over random deals and play: after a card that is not a King, the
    next card of the sequence is the lowest card above it in its suit that a player holds, and
    its holder must play it (his only choice, ``voluntary_stop`` being false); the cards
    skipped between are in no hand (talon or played). When no player holds a higher card of
    the suit, the player of the last card leads anew."""
    table = stops.Table(VARIANT, seats=seats, seed=seed, options=SUIT_GAP)
    deal = table.new_deal()
    rng = random.Random(agent)
    while not deal.is_terminal:
        acts = legal(deal)
        if deal.plays and deal.phase == "play":
            seat, last = plays(deal)[-1]
            holder = {str(c): s for s in range(seats) for c in deal.hand(s)}
            above = [r + last[1] for r in ACE_LOW[ACE_LOW.index(last[0]) + 1:]]
            held = [c for c in above if c in holder]
            if last[0] == "K" or not held:
                assert {(a["seat"], a["action"]) for a in acts} == {(seat, "lead")}, acts
            else:
                assert acts == [play(holder[held[0]], held[0])], (last, held, acts)
        deal.apply(rng.choice(acts))


# -- grand opéra (F30) ---------------------------------------------------------------------

OPERA = hands_of(
    "AC 3C 4C 5C 6C 7C",
    "9S TH JH QH KS AS",
    "TD 8C 9C TC QC KC",
    "AD 3D 4D 5D 6D 8D",
    "JC QS 9D JD QD KD",
    "AH 3H 4H 5H 6H 7H",
    "8H 9H 2S 3S 4S 5S",
    "KH 6S 7S 8S TS JS",
)
OPERA_TALON = "7D 2C 2D 2H"
OPERA_ACTIONS = [lead_decision(1, "9S"), play(1, "TH"), play(1, "JH"), play(1, "QH"), play(1, "KS"),
                 lead_decision(1, "AS")]
OPERA_PLAYS = [(1, "9S"), (1, "TH"), (1, "JH"), (1, "QH"), (1, "KS"), (1, "AS")]



def test_grand_opera_sweep_board() -> None:
    """F30 default ``sweep_board``, after the payments (F28) and penalties (F29).

    Carried: 7D 4. After stakes every stack 35; board TD 8, JC 16, QS 24, KH 32, 7D 44.
    Seat 1 leads 9S and must go on: TH, JH, QH, KS (none is a board card). The King ends the
    sequence, he leads again at once: AS, his last card. He is out before anyone else laid a
    card: a grand opera.
    Points left: seat 0 AC 3C..7C = 26; seat 2 TD 8C 9C TC QC KC = 57; seat 3 AD 3D 4D 5D 6D
    8D = 27; seat 4 JC QS 9D JD QD KD = 59; seat 5 AH 3H..7H = 26; seat 6 8H 9H 2S..5S = 31;
    seat 7 KH 6S 7S 8S TS JS = 51; total 277.
    Payments: seat 1 35 + 277 = 312; 0: 9, 2: -22, 3: 8, 4: -24, 5: 9, 6: 4, 7: -16.
    Penalties from seat 2: seat 2 TD 8 (-30, TD 16); seat 4 JC 16 and QS 24 (-64, JC 32,
    QS 48); seat 7 KH 32 (-48, KH 64). The 7D is in the talon: not penalised (44).
    Sweep: seat 1 takes the whole board 16 + 32 + 48 + 64 + 44 = 204: 516. Board empty.
    Total 404.
    """
    spare = talon_of(OPERA, OPERA_TALON)
    deal = stops.replay(record(OPERA, spare, OPERA_ACTIONS, layout={"7D": 4}))
    assert plays(deal) == OPERA_PLAYS
    assert list(deal.stacks) == [9, 516, -30, 8, -64, 9, 4, -48]
    assert board(deal.layout) == {}
    assert deal.winner == 1
    assert deal.outcome == "went_out"
    conserved(deal, 404)


def test_grand_opera_double_payment() -> None:
    """F30 option ``double_payment``: the F28 payments are doubled, the board is not swept.

    Carried: 7D 4. After stakes every stack 35; board TD 8, JC 16, QS 24, KH 32, 7D 44.
    Seat 1 leads 9S and must go on: TH, JH, QH, KS (none is a board card). The King ends the
    sequence, he leads again at once: AS, his last card. He is out before anyone else laid a
    card: a grand opera.
    Points left: seat 0 AC 3C..7C = 26; seat 2 TD 8C 9C TC QC KC = 57; seat 3 AD 3D 4D 5D 6D
    8D = 27; seat 4 JC QS 9D JD QD KD = 59; seat 5 AH 3H..7H = 26; seat 6 8H 9H 2S..5S = 31;
    seat 7 KH 6S 7S 8S TS JS = 51; total 277.
    Doubled: 554 to seat 1 (35 + 554 = 589); 0: 35-52 = -17; 2: 35-114 = -79, TD penalty 8:
    -87; 3: 35-54 = -19; 4: 35-118 = -83, JC 16 + QS 24: -123; 5: -17; 6: 35-62 = -27;
    7: 35-102 = -67, KH 32: -99. Board TD 16, JC 32, QS 48, KH 64, 7D 44 (204). Total 404.
    """
    spare = talon_of(OPERA, OPERA_TALON)
    deal = stops.replay(record(OPERA, spare, OPERA_ACTIONS, layout={"7D": 4},
                               options={"grand_opera": "double_payment"}))
    assert plays(deal) == OPERA_PLAYS
    assert list(deal.stacks) == [-17, 589, -87, -19, -123, -17, -27, -99]
    assert board(deal.layout) == {"TD": 16, "JC": 32, "QS": 48, "KH": 64, "7D": 44}
    conserved(deal, 404)


def test_grand_opera_none() -> None:
    """F30 option ``none``: plain payments and penalties, no sweep.

    Carried: 7D 4. After stakes every stack 35; board TD 8, JC 16, QS 24, KH 32, 7D 44.
    Seat 1 leads 9S and must go on: TH, JH, QH, KS (none is a board card). The King ends the
    sequence, he leads again at once: AS, his last card. He is out before anyone else laid a
    card: a grand opera.
    Points left: seat 0 AC 3C..7C = 26; seat 2 TD 8C 9C TC QC KC = 57; seat 3 AD 3D 4D 5D 6D
    8D = 27; seat 4 JC QS 9D JD QD KD = 59; seat 5 AH 3H..7H = 26; seat 6 8H 9H 2S..5S = 31;
    seat 7 KH 6S 7S 8S TS JS = 51; total 277.
    Seat 1 312; 0: 9, 2: -30, 3: 8, 4: -64, 5: 9, 6: 4, 7: -48; board as doubled (204)."""
    spare = talon_of(OPERA, OPERA_TALON)
    deal = stops.replay(record(OPERA, spare, OPERA_ACTIONS, layout={"7D": 4},
                               options={"grand_opera": "none"}))
    assert plays(deal) == OPERA_PLAYS
    assert list(deal.stacks) == [9, 312, -30, 8, -64, 9, 4, -48]
    assert board(deal.layout) == {"TD": 16, "JC": 32, "QS": 48, "KH": 64, "7D": 44}
    conserved(deal, 404)


# -- sessions (F31) --------------------------------------------------------------------------


def test_until_short_ends_after_a_deal_leaving_a_stack_below_15() -> None:
    """F31 default ``until_short``: the main deal at a table of 50 each leaves seat 0 at -35
    (below the 15-chip stake): the session is over and no further deal can start."""
    table = stops.Table(VARIANT, seats=8, chips=50, seed=1, dealer=0)
    d = table.new_deal(hands=MAIN, spare=talon_of(MAIN, MAIN_TALON))
    play_through(d, MAIN_ACTIONS)
    assert list(table.stacks) == MAIN_FINAL
    assert board(table.layout) == {"TD": 8, "JC": 32, "QS": 48}
    assert table.is_over
    with pytest.raises(stops.SessionOver):
        table.new_deal(hands=MAIN, spare=talon_of(MAIN, MAIN_TALON))


@pytest.mark.parametrize("chips, over", [(100, False), (99, True)])
def test_until_short_boundary(chips: int, over: bool) -> None:
    """With 100 each the main deal ends at MAIN_FINAL + 50 = 15 102 63 359 49 29 43 52: the
    lowest stack is exactly 15, enough for the next stake, so play goes on. With 99 each seat 0
    ends at 14 < 15: the session is over."""
    table = stops.Table(VARIANT, seats=8, chips=chips, seed=1, dealer=0)
    d = table.new_deal(hands=MAIN, spare=talon_of(MAIN, MAIN_TALON))
    play_through(d, MAIN_ACTIONS)
    assert list(table.stacks) == [x + chips - 50 for x in MAIN_FINAL]
    assert table.is_over is over


def test_until_short_before_the_first_deal() -> None:
    """Reading: "before a deal" includes the first one: with seat 0 at 14 chips no deal can
    start (the engine may refuse at the table or at the deal)."""
    with pytest.raises(stops.StopsError):
        table = stops.Table(VARIANT, seats=8, chips=[14] + [50] * 7, seed=1, dealer=0)
        table.new_deal(hands=MAIN, spare=talon_of(MAIN, MAIN_TALON))


def test_match_end_deals_two_and_carry_over() -> None:
    """F31 option ``deals(N)`` with N = 2 (written ``{use: deals, count: 2}``, the library's
    form of ``deals(N)``), and F3 carry-over between deals.

    Deal 1 (dealer 0) is the main deal: stacks -35 52 13 309 -1 -21 -7 2, board TD 8, JC 32,
    QS 48. Under deals(2) the negative stacks do not end the session.

    Deal 2: the dealer moves left to seat 1, so seat 2 leads. The main hands are dealt one
    seat further on (seat s+1 gets the main deal's seat s hand), so seat 2 plays 5C 6H 7D,
    seat 3 is passed over, seat 4 plays 8S 9C, leads QH, KH, AC, 2C and goes out.
    Stakes: every stack -15: -50 37 -2 294 -16 -36 -22 -13; board TD 16, JC 48, QS 72,
    KH 32, 7D 40. Claims: seat 2 7D 40 (38), seat 4 KH 32 (16).
    Points paid to seat 4 (242): seat 0 33 (-83), seat 1 46 (-9), seat 2 23 (15), seat 3 22
    (272), seat 5 36 (-72), seat 6 40 (-62), seat 7 42 (-55); seat 4 16 + 242 = 258.
    Penalties from seat 5: seat 6 holds JC, pays 48 (-110, JC 96); seat 1 holds QS, pays 72
    (-81, QS 144). Board TD 16, JC 96, QS 144. Two deals played: the session is over.
    """
    table = stops.Table(VARIANT, seats=8, chips=50, seed=1, dealer=0,
                        options={"match_end": {"use": "deals", "count": 2}})
    d = table.new_deal(hands=MAIN, spare=talon_of(MAIN, MAIN_TALON))
    play_through(d, MAIN_ACTIONS)
    assert list(table.stacks) == MAIN_FINAL
    assert not table.is_over

    hands2 = [MAIN[(s - 1) % 8] for s in range(8)]
    actions2 = [dict(a, seat=(a["seat"] + 1) % 8) for a in MAIN_ACTIONS]
    d2 = table.new_deal(hands=hands2, spare=talon_of(hands2, MAIN_TALON))
    assert d2.current_seat == 2
    play_through(d2, actions2)
    assert plays(d2) == [((s + 1) % 8, c) for s, c in MAIN_PLAYS]
    assert list(table.stacks) == [-83, -81, 15, 272, 258, -72, -110, -55]
    assert board(table.layout) == {"TD": 16, "JC": 96, "QS": 144}
    assert sum(table.stacks) + sum(dict(table.layout).values()) == 400
    assert table.is_over


def test_the_stakes_priced_per_position_are_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # what until_short prices is kept per (seats, dealer, retired spaces, seats out): a long
    # run of positions never met before must not grow the variant's memory without end
    from stops.policies import session

    monkeypatch.setattr(session, "MAX_PRICED", 3)
    v = stops.load_variant("nain-jaune")
    v.cache.pop("stakes due", None)
    for dealer in range(6):
        table = stops.Table(v, seats=6, chips=50, seed=1, dealer=dealer)
        assert list(session.stakes_due(table)) == list(session._price_stakes(table))
        priced = v.cache["stakes due"]
        assert isinstance(priced, dict) and 1 <= len(priced) <= 3
