"""Hand-derived tests for Comet, ``comet``: FAMILY-RULINGS F.0, F.5 (F39-F46) and F1-F6.

Every deal is stacked and its outcome worked out by hand from the rule text, written beside
each test. Unless a test says otherwise:

* 5 players, dealer 0, every stack 50, no layout (``layout: {}``) and no stakes;
* hands of 9 and 3 cards set aside (the record's ``spare``): 48 cards, the four aces removed;
* the player left of the dealer (seat 1) starts; turns go clockwise; ranks 2 ... K, suits
  ignored; the 9D is the comet;
* card points (F5): 2-10 their pips, J Q K 10; the comet in a hand counts 9.

All payments are seat to seat, so the stacks always sum to 50 x players.
"""

from __future__ import annotations

import json
import random
from functools import partial
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import stops
from support import (
    hands_of,
    make_record,
    norm,
    pack,
    pass_,
    plays,
    prefix_replayer,
    refused,
    rest_of_pack,
    skip_unless_built,
)
from support import normalised_legal as legal

VARIANT = "comet"

pytestmark = skip_unless_built(VARIANT)


# -- local helpers (shared ones in support.py) ---------------------------------------------

PACK = pack("23456789TJQK")          # 48 cards: no aces
HAND_SIZE = {2: 18, 3: 12, 4: 10, 5: 9}
ASIDE_SIZE = {2: 12, 3: 12, 4: 8, 5: 3}

# The cards set aside: the rest of the 48-card pack, checked against the deal table and
# ``expect``.
aside_of = partial(rest_of_pack, pack=PACK, hand_size=HAND_SIZE, rest_size=ASIDE_SIZE,
                   pack_size=48)
# Comet has no layout: every record carries an empty one.
record = partial(make_record, VARIANT, layout={}, keep_empty_layout=True)


def lead(seat: int, *cards: str, as_rank: str | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": seat, "action": "lead", "cards": list(cards)}
    if as_rank is not None:
        d["as_rank"] = as_rank
    return d


def play(seat: int, *cards: str, as_rank: str | None = None) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": seat, "action": "play", "cards": list(cards)}
    if as_rank is not None:
        d["as_rank"] = as_rank
    return d


def seq(*turns: tuple[int, str]) -> list[tuple[int, str]]:
    """(seat, "C1 C2 ...") turns flattened into plays."""
    return [(s, c) for s, cards in turns for c in cards.split()]


# -- deal 1: several cards a turn, pass-overs, a pass, a King, loser holding the comet --------

D1 = hands_of(
    "9D 2S 3S 4S 6S TS QC KH KS",
    "8C 8S JS 2C 2D 2H 3C 3D 3H",
    "9H 4C 4D 4H 6C 6D 6H 7C 7D",
    "QH 7H 7S 8D 8H 9C 9S JC JD",
    "TC TD TH KC KD 5C 5D 5H 5S",
)
D1_ASIDE = "JH QD QS"
D1_ACTIONS = [
    lead(1, "8C", "8S"),
    play(2, "9H"),
    play(4, "TC", "TD", "TH"),
    pass_(0),
    play(1, "JS"),
    play(3, "QH"),
    play(4, "KC", "KD"),
    lead(4, "5C", "5D", "5H", "5S"),
]
D1_PLAYS = seq((1, "8C 8S"), (2, "9H"), (4, "TC TD TH"), (1, "JS"), (3, "QH"), (4, "KC KD"),
               (4, "5C 5D 5H 5S"))


def test_deal1_points_and_comet_holder_pays_double() -> None:
    """Seat 1 leads two 8s (one rank, several cards). Needed 9: seat 2 holds 9H, a natural,
    so must play it. Needed T: seat 3 holds no ten and no comet: passed over automatically.
    Seat 4 plays three tens. Needed J: seat 0 has no natural Jack, only the comet: he may use
    it or pass, and passes. Seat 1 holds JS: must play. Needed Q: seat 2 has none (passed
    over); seat 3 plays QH. Needed K: seat 4 plays KC KD; a King ends the sequence and its
    player starts a new one at once: seat 4 leads 5C 5D 5H 5S, his last four cards: out.

    Settlement (points): seat 0 9D 2S 3S 4S 6S TS QC KH KS = 9+2+3+4+6+10+10+10+10 = 64,
    doubled because he still holds the comet: 128. Seat 1 2C 2D 2H 3C 3D 3H = 15. Seat 2
    4C 4D 4H 6C 6D 6H 7C 7D = 44. Seat 3 7H 7S 8D 8H 9C 9S JC JD = 68. The winner's last
    turn had no comet: no other multiplier. Seat 4: 50 + 255 = 305; 0: -78, 1: 35, 2: 6,
    3: -18. No comet was laid: no comet bonus.
    """
    spare = aside_of(D1, D1_ASIDE)
    deal = stops.replay(record(D1, spare, D1_ACTIONS))
    assert plays(deal) == D1_PLAYS
    assert list(deal.stacks) == [-78, 35, 6, -18, 305]
    assert {k: v for k, v in dict(deal.layout).items() if v} == {}
    assert deal.outcome == "went_out"
    assert deal.winner == 4
    assert sum(deal.stacks) == 250


def test_deal1_turn_by_turn() -> None:
    spare = aside_of(D1, D1_ASIDE)

    at = prefix_replayer(record, D1, spare, D1_ACTIONS)

    d = at(0)
    assert d.current_seat == 1
    assert list(d.stacks) == [50] * 5                      # no stakes in Comet
    # After the 8s: seat 2 holds one natural 9 and no comet: one legal play, no pass.
    d = at(1)
    assert d.current_seat == 2
    assert legal(d) == norm(play(2, "9H"))
    # After 9H: seat 3 (no ten, no comet) is passed over automatically.
    d = at(2)
    assert d.current_seat == 4
    # After the tens: seat 0's only way on is the comet: comet as J, or pass.
    d = at(3)
    assert d.current_seat == 0
    assert legal(d) == norm(play(0, "9D", as_rank="J"), pass_(0))
    # After the pass: seat 1 holds JS: must play it (no pass).
    d = at(4)
    assert d.current_seat == 1
    assert legal(d) == norm(play(1, "JS"))
    # After KC KD: seat 4 leads again at once.
    d = at(7)
    assert d.current_seat == 4
    assert all(json.loads(a)["action"] == "lead" for a in legal(d))


def test_deal1_illegal_decisions() -> None:
    """At seat 0's turn (needed J, only the comet): as_rank that is no rank ("1", "A": aces
    are not in the pack, "Z"), as_rank not the needed rank, a natural of the wrong rank, a
    card he does not hold, and a lead are refused. At seat 1's turn (holds JS) a pass is
    refused. Nothing changes."""
    spare = aside_of(D1, D1_ASIDE)
    d = stops.replay(record(D1, spare, D1_ACTIONS[:3]), partial=True)
    refused(
        d,
        play(0, "9D", as_rank="1"),
        play(0, "9D", as_rank="A"),
        play(0, "9D", as_rank="Z"),
        play(0, "9D", as_rank="T"),
        play(0, "9D", as_rank="Q"),
        play(0, "QC"),
        play(0, "JS"),
        lead(0, "2S"),
        play(1, "JS"),                     # not seat 1's turn yet
    )
    d = stops.replay(record(D1, spare, D1_ACTIONS[:4]), partial=True)
    refused(d, pass_(1), play(1, "JS", "2C"), play(1, "2C"), play(1, "8C"))


def test_deal1_settlement_per_card() -> None:
    """F45 option ``per_card``: 1 per card, no multipliers. Seat 0 holds 9 cards, seat 1 6,
    seat 2 8, seat 3 8: 31 to seat 4. 0: 41, 1: 44, 2: 42, 3: 42, 4: 81."""
    spare = aside_of(D1, D1_ASIDE)
    deal = stops.replay(record(D1, spare, D1_ACTIONS, options={"settlement": "per_card"}))
    assert plays(deal) == D1_PLAYS
    assert list(deal.stacks) == [41, 44, 42, 42, 81]
    assert deal.winner == 4


def test_deal1_king_bonus_1() -> None:
    """F44 option ``king_bonus: 1``: seat 4's turn of KC KD (natural Kings) is paid once, 1
    from each other player: seat 4 +4, others -1. Then the settlement of deal 1:
    0: -79, 1: 34, 2: 5, 3: -19, 4: 309."""
    spare = aside_of(D1, D1_ASIDE)
    deal = stops.replay(record(D1, spare, D1_ACTIONS, options={"king_bonus": 1}))
    assert plays(deal) == D1_PLAYS
    assert list(deal.stacks) == [-79, 34, 5, -19, 309]


def test_deal1_record_with_illegal_pass_is_rejected() -> None:
    spare = aside_of(D1, D1_ASIDE)
    actions = [*D1_ACTIONS[:4], pass_(1), *D1_ACTIONS[4:]]
    with pytest.raises(stops.RecordError):
        stops.replay(record(D1, spare, actions))


def test_record_with_an_ace_is_rejected() -> None:
    """F39: the pack has no aces; a record dealing AS (instead of 2S) is rejected."""
    hands = [list(h) for h in D1]
    hands[0][hands[0].index("2S")] = "AS"
    spare = ["2S", *D1_ASIDE.split()[1:]]
    with pytest.raises((stops.StopsError, ValueError)):
        stops.replay(record(hands, spare, D1_ACTIONS))


def test_record_with_wrong_hand_sizes_is_rejected() -> None:
    hands = [list(h) for h in D1]
    hands[1].append(hands[0].pop())                       # 8 and 10 cards
    with pytest.raises((stops.StopsError, ValueError)):
        stops.replay(record(hands, D1_ASIDE.split(), D1_ACTIONS))


# -- deal 2: the comet alone as a continuation, a stop, the bonus ----------------------------

D2 = hands_of(
    "9S TC TD TH TS JC JD JH JS",
    "3C 2C 2D 2H 2S 3D 3H 3S 4H",
    "4C 4D 4S 5C 5D 5H 5S 6H 6S",
    "9D QC QD QH QS 7C 7D 7H 7S",
    "KH 6C 6D 8C 8D 8H 8S 9C 9H",
)
D2_ASIDE = "KC KD KS"
D2_ACTIONS = [
    lead(1, "3C"),
    play(2, "4C", "4D"),
    play(3, "9D", as_rank="5"),
    lead(3, "QC", "QD", "QH", "QS"),
    play(4, "KH"),
    lead(4, "6C", "6D"),
    play(3, "7C", "7D", "7H", "7S"),
]
D2_PLAYS = seq((1, "3C"), (2, "4C 4D"), (3, "9D"), (3, "QC QD QH QS"), (4, "KH"), (4, "6C 6D"),
               (3, "7C 7D 7H 7S"))


def test_deal2_comet_as_continuation_is_a_stop_and_pays_2_each() -> None:
    """Seat 1 leads 3C. Needed 4: seat 2 must, plays 4C 4D (he keeps 4S). Needed 5: seat 3 has
    no natural 5, so the comet is optional: he lays it alone as a 5. Each other player pays him
    2 at once (F44: 58, the others 48). The comet is a stop: seat 3 starts a new sequence at
    once, without the turn going round: QC QD QH QS. Needed K: seat 4 holds KH, must play it;
    the King ends the sequence and he leads again: 6C 6D. Needed 7: seats 0, 1, 2 have none
    (passed over); seat 3 plays his four 7s, his last cards: out.

    Points left: seat 0 9S + four tens + four Jacks = 9+40+40 = 89; seat 1 2C 2D 2H 2S 3D 3H
    3S 4H = 21; seat 2 4S 5C 5D 5H 5S 6H 6S = 36; seat 4 8C 8D 8H 8S 9C 9H = 50: 196, no
    multiplier (nobody holds the comet, the last turn had none). Seat 3: 58 + 196 = 254;
    0: 48 - 89 = -41; 1: 27; 2: 12; 4: -2.
    """
    spare = aside_of(D2, D2_ASIDE)
    d = stops.replay(record(D2, spare, D2_ACTIONS[:2]), partial=True)
    assert d.current_seat == 3
    assert legal(d) == norm(play(3, "9D", as_rank="5"), pass_(3))
    d = stops.replay(record(D2, spare, D2_ACTIONS[:3]), partial=True)
    assert d.current_seat == 3                      # the comet is a stop: he leads at once
    assert list(d.stacks) == [48, 48, 48, 58, 48]   # bonus paid at once
    assert all(json.loads(a)["action"] == "lead" for a in legal(d))

    deal = stops.replay(record(D2, spare, D2_ACTIONS))
    assert plays(deal) == D2_PLAYS
    assert list(deal.stacks) == [-41, 27, 12, 254, -2]
    assert deal.winner == 3
    assert sum(deal.stacks) == 250


def test_deal2_illegal_comet_decisions() -> None:
    """Out of turn (at seat 2's turn), as a rank other than the needed 5, two ranks in one lay,
    and a lead naming another rank than the naturals laid with the comet are refused."""
    spare = aside_of(D2, D2_ASIDE)
    d = stops.replay(record(D2, spare, D2_ACTIONS[:1]), partial=True)
    assert d.current_seat == 2
    refused(d, play(3, "9D", as_rank="4"), play(2, "4C", "5C"), pass_(2))
    d = stops.replay(record(D2, spare, D2_ACTIONS[:2]), partial=True)
    refused(d, play(3, "9D", as_rank="6"), play(3, "9D", as_rank="4"),
            play(3, "7C", "9D", as_rank="5"), play(3, "7C"))
    d = stops.replay(record(D2, spare, D2_ACTIONS[:3]), partial=True)
    refused(d, lead(3, "QC", "7C"), lead(3, "QC", "QD", "7C"), play(3, "QC"))


def test_deal2_comet_bonus_0() -> None:
    """F44 ``comet_bonus: 0``: no bonus; 0: -39, 1: 29, 2: 14, 3: 50 + 196 = 246, 4: 0."""
    spare = aside_of(D2, D2_ASIDE)
    deal = stops.replay(record(D2, spare, D2_ACTIONS, options={"comet_bonus": 0}))
    assert plays(deal) == D2_PLAYS
    assert list(deal.stacks) == [-39, 29, 14, 246, 0]


def test_deal2_king_bonus_1() -> None:
    """``king_bonus: 1``: seat 4's KH pays him 1 from each: 0: -42, 1: 26, 2: 11, 3: 253,
    4: -2 + 4 = 2."""
    spare = aside_of(D2, D2_ASIDE)
    deal = stops.replay(record(D2, spare, D2_ACTIONS, options={"king_bonus": 1}))
    assert list(deal.stacks) == [-42, 26, 11, 253, 2]


def test_comet_turn_run() -> None:
    """F41 option ``comet_turn: run``, deal 2's hands. Reading: the run applies after a lead
    too (as in Nain Jaune); each further rank is a ``play`` decision of the same seat; with
    only the comet for the next rank he may lay it or ``pass`` (ending his turn).

    Seat 1 leads 3C and must go on with his natural 4H; no 5: turn ends. Seat 2 (needed 5)
    plays four 5s, must go on: 6H 6S; no 7: turn ends. Seat 3 plays four 7s; needed 8: only
    the comet, he passes. Seat 4 plays four 8s, must go on: 9C 9H; no ten. Seat 0 plays four
    tens, then four Jacks; no Queen. Seats 1 and 2 have no Queen (passed over). Seat 3 plays
    four Queens, then the comet as the King: it is his last card: out.

    Comet bonus: 2 from each (seat 3 58, the others 48). The winner's last turn included the
    comet named as a King (not 9): every payment doubled. Points left: seat 0 9S = 9;
    seat 1 2C 2D 2H 2S 3D 3H 3S = 17; seat 2 4C 4D 4S = 12; seat 4 KH 6C 6D = 22.
    Doubled: 18, 34, 24, 44 = 120. Seat 3 178; 0: 30, 1: 14, 2: 24, 4: 4.
    """
    spare = aside_of(D2, D2_ASIDE)
    actions = [
        lead(1, "3C"), play(1, "4H"),
        play(2, "5C", "5D", "5H", "5S"), play(2, "6H", "6S"),
        play(3, "7C", "7D", "7H", "7S"), pass_(3),
        play(4, "8C", "8D", "8H", "8S"), play(4, "9C", "9H"),
        play(0, "TC", "TD", "TH", "TS"), play(0, "JC", "JD", "JH", "JS"),
        play(3, "QC", "QD", "QH", "QS"), play(3, "9D", as_rank="K"),
    ]
    opts = {"comet_turn": "run"}
    d = stops.replay(record(D2, spare, actions[:1], options=opts), partial=True)
    assert d.current_seat == 1
    assert legal(d) == norm(play(1, "4H"))
    deal = stops.replay(record(D2, spare, actions, options=opts))
    assert plays(deal) == seq((1, "3C"), (1, "4H"), (2, "5C 5D 5H 5S"), (2, "6H 6S"),
                              (3, "7C 7D 7H 7S"), (4, "8C 8D 8H 8S"), (4, "9C 9H"),
                              (0, "TC TD TH TS"), (0, "JC JD JH JS"), (3, "QC QD QH QS"),
                              (3, "9D"))
    assert list(deal.stacks) == [30, 14, 24, 178, 4]
    assert deal.winner == 3


def test_one_rank_is_the_default_turn() -> None:
    """Default ``one_rank``: after leading 3C seat 1's turn is over although he holds 4H; the
    turn passes to seat 2 (who must play a 4)."""
    spare = aside_of(D2, D2_ASIDE)
    d = stops.replay(record(D2, spare, [lead(1, "3C")]), partial=True)
    assert d.current_seat == 2
    refused(d, play(1, "4H"))


# -- deal 3: going out with the comet (x2 / x4) --------------------------------------------

D3 = hands_of(
    "9C 8S TH TS JD JH JS KD KH",
    "6C 6D 2D 2H 2S 4C 4D 4H 4S",
    "TC TD 5C 5D 5H 5S 6H 6S 8H",
    "7C 7D 7H 7S QC QD QH QS 9D",
    "8C JC KC 2C 8D 3C 3D 3H 3S",
)
D3_ASIDE = "9H 9S KS"
D3_COMMON = [
    lead(1, "6C", "6D"),
    play(3, "7C", "7D", "7H", "7S"),
    play(4, "8C"),
    play(0, "9C"),
    play(2, "TC", "TD"),
    pass_(3),
    play(4, "JC"),
    play(3, "QC", "QD", "QH", "QS"),
    play(4, "KC"),
]
D3_COMMON_PLAYS = seq((1, "6C 6D"), (3, "7C 7D 7H 7S"), (4, "8C"), (0, "9C"), (2, "TC TD"),
                      (4, "JC"), (3, "QC QD QH QS"), (4, "KC"))
# Common start: seat 1 leads 6C 6D. Needed 7: seat 2 has none (passed over); seat 3 plays
# all four 7s. Needed 8: seat 4 plays 8C (keeps 8D). Needed 9: seat 0 plays 9C. Needed T:
# seat 1 has none; seat 2 plays TC TD. Needed J: seat 3 has only the comet: passes. Seat 4
# plays JC. Needed Q: seats 0, 1, 2 have none; seat 3 plays four Queens. Needed K: seat 4
# plays KC; the King ends the sequence, seat 4 leads again. Seat 3 holds only the comet.


def test_deal3_out_with_comet_named_not_9_doubles() -> None:
    """Common start (comment above D3_COMMON): ... seat 4 plays KC and leads again.
    Seat 4 leads 2C. Needed 3: seats 0, 1, 2 have none (seat 4 holds the 3s); seat 3 lays
    the comet as a 3: bonus 2 from each (58; the others 48), and it was his last card: out.
    The last turn included the comet named as a rank other than 9: every payment x2.

    Points left: seat 0 8S TH TS JD JH JS KD KH = 78 -> 156; seat 1 2D 2H 2S 4C 4D 4H 4S = 22
    -> 44; seat 2 5C 5D 5H 5S 6H 6S 8H = 40 -> 80; seat 4 8D 3C 3D 3H 3S = 20 -> 40.
    Seat 3: 58 + 320 = 378; 0: -108, 1: 4, 2: -32, 4: 8.
    """
    spare = aside_of(D3, D3_ASIDE)
    actions = [*D3_COMMON, lead(4, "2C"), play(3, "9D", as_rank="3")]
    d = stops.replay(record(D3, spare, actions[:-1]), partial=True)
    assert d.current_seat == 3
    assert legal(d) == norm(play(3, "9D", as_rank="3"), pass_(3))
    deal = stops.replay(record(D3, spare, actions))
    assert plays(deal) == [*D3_COMMON_PLAYS, (4, "2C"), (3, "9D")]
    assert list(deal.stacks) == [-108, 4, -32, 378, 8]
    assert deal.winner == 3
    assert sum(deal.stacks) == 250


def test_deal3_out_with_comet_named_9_quadruples() -> None:
    """Seat 4 leads 8D instead. Needed 9: seat 0 (9C gone), seats 1 and 2 have no 9 (9H 9S
    are set aside); seat 3 lays the comet as a natural 9: bonus 2 each, out. Named 9: every
    payment x4 (F.5). Seat 4 still holds 2C 3C 3D 3H 3S = 14.
    Points: 78 x4 = 312, 22 x4 = 88, 40 x4 = 160, 14 x4 = 56: 616.
    Seat 3: 58 + 616 = 674; 0: 48 - 312 = -264; 1: -40; 2: -112; 4: -8.
    """
    spare = aside_of(D3, D3_ASIDE)
    actions = [*D3_COMMON, lead(4, "8D"), play(3, "9D", as_rank="9")]
    deal = stops.replay(record(D3, spare, actions))
    assert plays(deal) == [*D3_COMMON_PLAYS, (4, "8D"), (3, "9D")]
    assert list(deal.stacks) == [-264, -40, -112, 674, -8]
    assert deal.winner == 3


def test_deal3_comet_bonus_0_still_doubles() -> None:
    """``comet_bonus: 0`` with the 2C line: no bonus, the x2 stays: 3: 50 + 320 = 370;
    0: -106, 1: 6, 2: -30, 4: 10."""
    spare = aside_of(D3, D3_ASIDE)
    actions = [*D3_COMMON, lead(4, "2C"), play(3, "9D", as_rank="3")]
    deal = stops.replay(record(D3, spare, actions, options={"comet_bonus": 0}))
    assert list(deal.stacks) == [-106, 6, -30, 370, 10]


def test_deal3_comet_with_naturals_as_last_turn() -> None:
    """Seat 3 lays the comet together with his four Queens (needed Q), named Q, the comet
    listed last. That is his last card: bonus 2 each (58), out, x2 for everyone.

    Plays up to seat 4's JC as the common start. Points left: seat 0 78 -> 156; seat 1 22 ->
    44; seat 2 40 -> 80; seat 4 2C 3C 3D 3H 3S 8D KC = 2+12+8+10 = 32 -> 64: 344.
    Seat 3: 58 + 344 = 402; 0: -108, 1: 4, 2: -32, 4: 48 - 64 = -16.
    The comet appears last in ``plays`` (F6).
    """
    spare = aside_of(D3, D3_ASIDE)
    actions = [*D3_COMMON[:7], play(3, "QC", "QD", "QH", "QS", "9D", as_rank="Q")]
    d = stops.replay(record(D3, spare, actions[:-1]), partial=True)
    refused(d,
            play(3, "QC", "QD", "QH", "QS", "9D", as_rank="K"),
            play(3, "QC", "9D", as_rank="9"),
            play(3, "QC", "9D", as_rank="J"))
    deal = stops.replay(record(D3, spare, actions))
    assert plays(deal) == [*D3_COMMON_PLAYS[:11], (3, "QC"), (3, "QD"), (3, "QH"), (3, "QS"),
                           (3, "9D")]
    assert list(deal.stacks) == [-108, 4, -32, 402, -16]
    assert deal.winner == 3


# -- the cards of one decision in any order (F6) -------------------------------------------


def test_cards_of_a_turn_in_any_order_are_the_same_decision() -> None:
    """A lead or play of several cards is the same decision whatever order its cards are
    listed in; ``plays`` keeps the order the decision gave (F6), the comet last.

    Deal 1 with seat 1's lead written 8S 8C, seat 4's tens TH TC TD and his fives 5S 5H 5D 5C:
    the same deal as test_deal1 (the same stacks, -78 35 6 -18 305), the plays in the order
    written. Deal 3 with seat 3's last turn written 9D QS QH QD QC (the comet first): the same
    as test_deal3_comet_with_naturals_as_last_turn (402 for seat 3), the comet laid last.
    """
    spare = aside_of(D1, D1_ASIDE)
    actions = list(D1_ACTIONS)
    actions[0] = lead(1, "8S", "8C")
    actions[2] = play(4, "TH", "TC", "TD")
    actions[7] = lead(4, "5S", "5H", "5D", "5C")
    d = stops.replay(record(D1, spare, []), partial=True)
    d.apply(actions[0])                                   # accepted as given
    assert plays(d) == [(1, "8S"), (1, "8C")]
    deal = stops.replay(record(D1, spare, actions))
    assert plays(deal) == seq((1, "8S 8C"), (2, "9H"), (4, "TH TC TD"), (1, "JS"), (3, "QH"),
                              (4, "KC KD"), (4, "5S 5H 5D 5C"))
    assert list(deal.stacks) == [-78, 35, 6, -18, 305]
    assert deal.record()["actions"][0]["cards"] == ["8S", "8C"]  # echoed as given

    spare = aside_of(D3, D3_ASIDE)
    last = play(3, "9D", "QS", "QH", "QD", "QC", as_rank="Q")
    deal = stops.replay(record(D3, spare, [*D3_COMMON[:7], last]))
    assert plays(deal) == [*D3_COMMON_PLAYS[:11], (3, "QS"), (3, "QH"), (3, "QD"), (3, "QC"),
                           (3, "9D")]
    assert list(deal.stacks) == [-108, 4, -32, 402, -16]


def _state(d: stops.Deal) -> tuple[Any, ...]:
    """What a decision leaves behind, but the order of the cards laid (which F6 keeps)."""
    return (d.stacks, dict(d.layout), [sorted(map(str, d.hand(s))) for s in range(d.n)],
            d.current_seat, d.is_terminal, d.outcome, d.winner, sorted(plays(d)), legal(d))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(2, 5), st.integers(0, 2**32), st.integers(0, 2**32),
       st.sampled_from([{}, {"comet_turn": "run"}, {"king_bonus": 1},
                        {"stop_cards": ["7S", "QH"]}]))
def test_any_order_of_a_legal_decisions_cards_is_the_same_decision(
        seats: int, seed: int, agent: int, options: dict[str, Any]) -> None:
    """Property: at every decision of random deals, each legal decision of several cards,
    its cards shuffled (the comet anywhere), is accepted and leaves the same state as the
    decision in the engine's order; ``plays`` lists the cards as given, the comet last."""
    deal = stops.Table(VARIANT, seats=seats, seed=seed, options=options).new_deal()
    rng = random.Random(agent)
    while not deal.is_terminal:
        acts = list(deal.legal_actions())
        a = rng.choice(acts)
        if a.cards is not None and len(a.cards) > 1:
            given = [str(c) for c in a.cards]
            rng.shuffle(given)
            typed = {**a.to_dict(), "cards": given}
            assert stops.Action.from_dict(typed) == a
            assert hash(stops.Action.from_dict(typed)) == hash(a)
            other = deal.clone()
            before = len(other.plays)
            other.apply(typed)
            laid = [c for c in given if c != "9D"] + [c for c in given if c == "9D"]
            assert plays(other)[before:before + len(laid)] == [(a.seat, c) for c in laid]
            deal.apply(a)
            assert _state(other) == _state(deal)
        else:
            deal.apply(a)


# -- two players (F40) ---------------------------------------------------------------------

TWO = hands_of(
    "3C 3D 5C 5D 7C 7D 3H 5H 7H TC TD TH TS JC JD JH QC KH",
    "2C 2D 2H 2S 4C 4D 4H 4S 6C 6D 6H 6S 8C 8D 8H 8S KC 9D",
)
TWO_ASIDE = "3S 5S 7S 9C 9H 9S JS KD QD QH QS KS"


def test_two_players_and_comet_led_as_9_is_a_stop() -> None:
    """2 players: 18 each, 12 set aside; they simply alternate. Dealer 0, seat 1 starts.

    Seat 1 leads the comet alone, named 9: seat 0 pays him 2 (52 / 48). It is a stop even as
    a 9 (F43): seat 1 leads again at once; seat 0 is not asked for a ten although he holds
    four. Seat 1 leads four 2s; seat 0 must play a 3 (holds 3C 3D 3H), plays 3C 3D; seat 1
    four 4s; seat 0 5C 5D; seat 1 four 6s; seat 0 7C 7D; seat 1 four 8s. Needed 9: seat 0 has
    none and no comet: passed over; the turn is back with seat 1, who leads KC, his last card:
    out (no comet in that turn: no multiplier).
    Seat 0 keeps 3H 5H 7H TC TD TH TS JC JD JH QC KH = 3+5+7+90 = 105.
    Seat 1: 52 + 105 = 157; seat 0: 48 - 105 = -57.
    """
    spare = aside_of(TWO, TWO_ASIDE)
    actions = [
        lead(1, "9D", as_rank="9"),
        lead(1, "2C", "2D", "2H", "2S"), play(0, "3C", "3D"),
        play(1, "4C", "4D", "4H", "4S"), play(0, "5C", "5D"),
        play(1, "6C", "6D", "6H", "6S"), play(0, "7C", "7D"),
        play(1, "8C", "8D", "8H", "8S"),
        lead(1, "KC"),
    ]
    d = stops.replay(record(TWO, spare, actions[:1]), partial=True)
    assert d.current_seat == 1
    assert list(d.stacks) == [48, 52]
    assert all(json.loads(a)["action"] == "lead" for a in legal(d))
    refused(d, play(0, "TC"))
    deal = stops.replay(record(TWO, spare, actions))
    assert plays(deal) == seq((1, "9D"), (1, "2C 2D 2H 2S"), (0, "3C 3D"), (1, "4C 4D 4H 4S"),
                              (0, "5C 5D"), (1, "6C 6D 6H 6S"), (0, "7C 7D"),
                              (1, "8C 8D 8H 8S"), (1, "KC"))
    assert list(deal.stacks) == [-57, 157]
    assert deal.winner == 1
    assert deal.outcome == "went_out"


# -- session (F46) -------------------------------------------------------------------------


def _first_non_pass(deal: stops.Deal) -> Any:
    acts = list(deal.legal_actions())
    for a in acts:
        if a.to_dict()["action"] != "pass":
            return a
    return acts[0]


@pytest.mark.parametrize("seats", [2, 3])
def test_match_end_two_deals_per_player(seats: int) -> None:
    """F46 default ``deals(2 x players)``: each player deals twice. Shuffled deals played by a
    fixed policy; the session is over after exactly 2 x seats deals, and chips are conserved
    (no layout)."""
    table = stops.Table(VARIANT, seats=seats, chips=50, seed=11, dealer=0)
    played = 0
    while not table.is_over:
        assert played < 2 * seats
        deal = table.new_deal()
        guard = 0
        while not deal.is_terminal:
            deal.apply(_first_non_pass(deal))
            guard += 1
            assert guard < 500
        assert deal.outcome == "went_out"
        played += 1
        assert sum(table.stacks) == 50 * seats
    assert played == 2 * seats
    with pytest.raises(stops.SessionOver):
        table.new_deal()
