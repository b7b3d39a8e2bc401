"""Hand-derived tests for Spinado, ``spinado``: FAMILY-RULINGS F.0, F.4 (F32-F38) and F1-F6.

Every deal is stacked and its outcome worked out by hand from the rule text, written beside
each test. Unless a test says otherwise:

* 7 players, dealer 0, every stack 50 before the deal, nothing carried on the pools;
* hands of 5 and a widow (the record's ``spare``) of 12: 47 cards, no 2s and no 8D;
* default stakes (F32): the dealer puts 12 on ``matrimony``, 6 on ``intrigue``, 6 on
  ``game``; every other player 3 on ``game``: seat 0 has 26, seats 1-6 have 47; pools
  matrimony 12, intrigue 6, game 6 + 6 x 3 = 24;
* ace low with the 2s gone: A 3 4 ... Q K within one suit. Every ace, every King and the 7D
  are stops; so is a card whose next card is in the widow or already played;
* holder plays: after a lead the holder of the next card plays it automatically, except that
  the A♦ holder gets a ``follow`` decision for a card due from him (F34);
* bonuses (F4, F36) are paid at once by every other player: A♦ (spinado) 3, K♦ 2, other
  Kings 1.

Chips are conserved: sum(stacks) + sum(pools) = 50 x players.
"""

from __future__ import annotations

import json
from functools import partial
from typing import Any

import pytest

import stops
import support
from support import (
    conserved,
    hands_of,
    make_record,
    normalised_legal,
    pack,
    plays,
    prefix_replayer,
    refused,
    rest_of_pack,
    skip_unless_built,
)
from support import nonzero_spaces as pools
from support import play_through as _play

VARIANT = "spinado"

pytestmark = skip_unless_built(VARIANT)


# -- local helpers (shared ones in support.py) ---------------------------------------------

PACK = pack("A3456789TJQK", missing=("8D",))            # ace low, the 2s removed
HAND_SIZE = {2: 15, 3: 11, 4: 9, 5: 7, 6: 6, 7: 5}
WIDOW_SIZE = {2: 17, 3: 14, 4: 11, 5: 12, 6: 11, 7: 12}

# The widow: the rest of the 47-card pack, checked against the deal table and ``expect``.
widow_of = partial(rest_of_pack, pack=PACK, hand_size=HAND_SIZE, rest_size=WIDOW_SIZE,
                   pack_size=47)
record = partial(make_record, VARIANT, keep_empty_layout=True)
# An explicit ``spinado: false`` is the same decision as no ``spinado`` field.
legal = partial(normalised_legal, drop_false=("spinado",))
norm = partial(support.norm, drop_false=("spinado",))


def lead(seat: int, card: str, spinado: bool = False) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": seat, "action": "lead", "card": card}
    if spinado:
        d["spinado"] = True
    return d


def follow(seat: int, card: str, spinado: bool = False) -> dict[str, Any]:
    d: dict[str, Any] = {"seat": seat, "action": "follow", "card": card}
    if spinado:
        d["spinado"] = True
    return d


# -- deal 1: the main deal -------------------------------------------------------------------
#
# seat  hand           role
# 0     AS 3S 4S 7S 8S  dealer; never plays
# 1     9H QH 3D 4D 5D  leads 9H; his QH follows automatically
# 2     TH 8C 9C TC JC  TH follows automatically
# 3     JH QC KC AH 3H  JH follows automatically
# 4     KH 5S 4H 5H 6H  KH follows (bonus 1 each, a stop); leads 5S
# 5     AD 6S JD QD 7H  the spinado: a ``follow`` decision for 6S; intrigue with JD QD
# 6     KD 3C 7D AC 9S  KD follows (bonus 2 each); then stops by the widow, the 7D, an ace
# widow 4C 5C 6C 7C 6D 9D TD 8H TS JS QS KS

D1 = hands_of(
    "AS 3S 4S 7S 8S",
    "9H QH 3D 4D 5D",
    "TH 8C 9C TC JC",
    "JH QC KC AH 3H",
    "KH 5S 4H 5H 6H",
    "AD 6S JD QD 7H",
    "KD 3C 7D AC 9S",
)
D1_WIDOW = "4C 5C 6C 7C 6D 9D TD 8H TS JS QS KS"
D1_ACTIONS = [
    lead(1, "9H"),
    lead(4, "5S"),
    follow(5, "6S", spinado=True),
    lead(5, "JD"),
    lead(6, "3C"),
    lead(6, "7D"),
    lead(6, "AC"),
    lead(6, "9S"),
]
D1_PLAYS = [(1, "9H"), (2, "TH"), (3, "JH"), (1, "QH"), (4, "KH"), (4, "5S"), (5, "6S"),
            (5, "AD"), (5, "JD"), (5, "QD"), (6, "KD"), (6, "3C"), (6, "7D"), (6, "AC"),
            (6, "9S")]


def test_deal1_default() -> None:
    """Stakes: seat 0 26, seats 1-6 47; matrimony 12, intrigue 6, game 24.

    1. Seat 1 (dealer's left) leads 9H. TH is seat 2's: played automatically; JH seat 3's;
       QH is seat 1's own: automatic; KH seat 4's: automatic. A King: bonus 1 from each
       other player (seat 4 53; seat 0 25, the others 46), and a stop: seat 4 leads. (Seat 5
       holds the A♦ but none of these cards was due from him: no decision.)
    2. Seat 4 leads 5S. 6S is due from seat 5, who holds the A♦: a ``follow`` decision. He
       lays 6S with the spinado: AD straight after 6S, 6S is a stop (7S, seat 0's, is not
       played), each other player pays him 3: seat 5 46 + 18 = 64; seat 0 22, 1-4: 43 (4: 50),
       6: 43. He leads next.
    3. Seat 5 leads JD. QD is his own and he no longer holds the A♦: automatic. He has played
       QD and JD: intrigue (6) is his: 70. KD is seat 6's: automatic, bonus 2 from each:
       seat 6 55; seat 0 20, 1: 41, 2: 41, 3: 41, 4: 48, 5: 68. A King: stop. KD and QD were
       played by different players: matrimony stays.
    4. Seat 6 leads 3C: 4C is in the widow: stop. He leads 7D: always a stop (no 8D). He leads
       AC: an ace is a stop (no 2C). He leads 9S, his last card: out (TS would be in the
       widow anyway).
    Going out (F37 game_plus_per_card): seat 6 takes game 24 and 1 per card left: seat 0 5,
    seat 1 3 (3D 4D 5D), seat 2 4, seat 3 4, seat 4 3 (4H 5H 6H), seat 5 1 (7H) = 20.
    Seat 6: 55 + 24 + 20 = 99. 0: 15, 1: 38, 2: 37, 3: 37, 4: 45, 5: 67. Matrimony 12 stays.
    """
    spare = widow_of(D1, D1_WIDOW)
    deal = stops.replay(record(D1, spare, D1_ACTIONS))
    assert plays(deal) == D1_PLAYS
    assert list(deal.stacks) == [15, 38, 37, 37, 45, 67, 99]
    assert pools(deal.layout) == {"matrimony": 12}
    assert deal.outcome == "went_out"
    assert deal.winner == 6
    conserved(deal, 350)


def test_deal1_decision_points() -> None:
    spare = widow_of(D1, D1_WIDOW)

    at = prefix_replayer(record, D1, spare, D1_ACTIONS)

    d = at(0)
    assert list(d.stacks) == [26, 47, 47, 47, 47, 47, 47]
    assert pools(d.layout) == {"matrimony": 12, "intrigue": 6, "game": 24}
    assert d.current_seat == 1
    assert legal(d) == norm(*(lead(1, c) for c in D1[1]))       # no spinado: no A♦
    # After 9H: the run went through seats 2, 3, 1, 4 with no decision; seat 4 leads.
    d = at(1)
    assert plays(d) == D1_PLAYS[:5]
    assert d.current_seat == 4
    assert list(d.stacks) == [25, 46, 46, 46, 53, 46, 46]
    assert all(json.loads(a)["action"] == "lead" and json.loads(a)["seat"] == 4
               for a in legal(d))
    # After 5S: 6S is due from the A♦ holder: follow with or without the spinado.
    d = at(2)
    assert d.current_seat == 5
    assert legal(d) == norm(follow(5, "6S"), follow(5, "6S", spinado=True))
    # After the spinado: 6S stopped, seat 5 paid 3 by each, and leads (no A♦ any more).
    d = at(3)
    assert plays(d) == D1_PLAYS[:8]
    assert d.current_seat == 5
    assert list(d.stacks) == [22, 43, 43, 43, 50, 64, 43]
    assert legal(d) == norm(lead(5, "JD"), lead(5, "QD"), lead(5, "7H"))
    # After JD: QD automatic, intrigue paid, KD automatic with its bonus; seat 6 leads.
    d = at(4)
    assert plays(d) == D1_PLAYS[:11]
    assert d.current_seat == 6
    assert list(d.stacks) == [20, 41, 41, 41, 48, 68, 55]
    assert pools(d.layout) == {"matrimony": 12, "game": 24}


def test_deal1_illegal_spinado() -> None:
    """The spinado flag without holding the A♦; the spinado with a card played by someone else;
    the A♦ on its own in the middle of a sequence; a follow of a card not due; acting out of
    turn. All refused, nothing changes."""
    spare = widow_of(D1, D1_WIDOW)
    d = stops.replay(record(D1, spare, []), partial=True)
    refused(d, lead(1, "9H", spinado=True), lead(5, "AD"), lead(5, "6S", spinado=True),
            lead(1, "8C"))
    d = stops.replay(record(D1, spare, D1_ACTIONS[:1]), partial=True)
    # KH was played by seat 4, automatically: seat 5 cannot attach the spinado to it.
    refused(d, follow(5, "KH", spinado=True), follow(4, "KH", spinado=True),
            lead(4, "5S", spinado=True), lead(5, "AD"))
    d = stops.replay(record(D1, spare, D1_ACTIONS[:2]), partial=True)
    refused(d, follow(5, "AD"), follow(5, "7H"), follow(5, "7H", spinado=True),
            lead(5, "6S"), lead(4, "4H"), follow(0, "7S"))


def test_deal1_follow_without_spinado() -> None:
    """Seat 5 follows 6S without the spinado. Then 7S and 8S (seat 0's) and 9S (seat 6's)
    follow automatically: the spinado is never offered for a card due from someone else.
    TS is in the widow: 9S is a stop and seat 6 leads: 3C (stop, 4C in the widow), 7D (stop),
    AC (stop), KD: bonus 2 from each, a King, and his last card: out.

    Stacks after step 1 of the main deal: 0: 25, 1-3: 46, 4: 53, 5: 46, 6: 46.
    KD: seat 6 46 + 12 = 58; 0: 23, 1-3: 44, 4: 51, 5: 44.
    Out: game 24 + cards: seat 0 3 (AS 3S 4S), 1: 3, 2: 4, 3: 4, 4: 3, seat 5 4 (AD JD QD
    7H) = 21. Seat 6: 58 + 24 + 21 = 103; 0: 20, 1: 41, 2: 40, 3: 40, 4: 48, 5: 40.
    Matrimony 12 and intrigue 6 stay.
    """
    spare = widow_of(D1, D1_WIDOW)
    actions = [lead(1, "9H"), lead(4, "5S"), follow(5, "6S"),
               lead(6, "3C"), lead(6, "7D"), lead(6, "AC"), lead(6, "KD")]
    d = stops.replay(record(D1, spare, actions[:3]), partial=True)
    assert d.current_seat == 6
    assert plays(d)[5:] == [(4, "5S"), (5, "6S"), (0, "7S"), (0, "8S"), (6, "9S")]
    deal = stops.replay(record(D1, spare, actions))
    assert plays(deal) == [*D1_PLAYS[:7], (0, "7S"), (0, "8S"), (6, "9S"), (6, "3C"),
                           (6, "7D"), (6, "AC"), (6, "KD")]
    assert list(deal.stacks) == [20, 41, 40, 40, 48, 40, 103]
    assert pools(deal.layout) == {"matrimony": 12, "intrigue": 6}
    assert deal.winner == 6
    conserved(deal, 350)


def test_deal1_going_out_parlett() -> None:
    """F37 option ``parlett``: the pool, 2 from each opponent and 1 more for each King left in
    his hand. Reading: "each King left unplayed" counts the Kings in the paying opponent's
    hand (the widow's KS is nobody's). Seat 3 still holds KC: pays 3; the others pay 2.
    Seat 6: 55 + 24 + 13 = 92; 0: 20-2 = 18, 1: 39, 2: 39, 3: 41-3 = 38, 4: 46, 5: 66.
    """
    spare = widow_of(D1, D1_WIDOW)
    deal = stops.replay(record(D1, spare, D1_ACTIONS,
                               options={"going_out_reward": "parlett"}))
    assert plays(deal) == D1_PLAYS
    assert list(deal.stacks) == [18, 39, 39, 38, 46, 66, 92]
    assert pools(deal.layout) == {"matrimony": 12}
    conserved(deal, 350)


def test_deal1_bonus_amounts() -> None:
    """F36 amounts as options: ``spinado_bonus: 5``, ``kd_bonus: 4``, ``king_bonus: 0``.
    KH pays nothing; the spinado 5 from each (seat 5 +30); KD 4 from each (seat 6 +24).
    0: 26 - 5 - 4 - 5 = 12; 1: 47 - 5 - 4 - 3 = 35; 2: 47 - 9 - 4 = 34; 3: 34; 4: 35;
    5: 47 + 30 + 6 - 4 - 1 = 78; 6: 47 - 5 + 24 + 24 + 20 = 110.
    """
    spare = widow_of(D1, D1_WIDOW)
    opts = {"spinado_bonus": 5, "kd_bonus": 4, "king_bonus": 0}
    deal = stops.replay(record(D1, spare, D1_ACTIONS, options=opts))
    assert list(deal.stacks) == [12, 35, 34, 34, 35, 78, 110]
    assert pools(deal.layout) == {"matrimony": 12}
    conserved(deal, 350)


def test_deal1_stakes_cassell() -> None:
    """F32 option ``cassell``: the dealer 12/6/6, every other player 3 in each of the three
    pools. Seat 0 26, seats 1-6 41; matrimony 30, intrigue 24, game 24.
    Seat 5's intrigue is now 24: 41 - 1 + 18 + 24 - 2 - 1 = 79. Seat 6: 41 - 1 - 3 + 12 + 24 +
    20 = 93. 0: 26 - 1 - 3 - 2 - 5 = 15; 1: 41 - 6 - 3 = 32; 2: 31; 3: 31; 4: 41 + 6 - 5 - 3
    = 39. Matrimony 30 stays.
    """
    spare = widow_of(D1, D1_WIDOW)
    d = stops.replay(record(D1, spare, [], options={"stake_rule": "cassell"}), partial=True)
    assert list(d.stacks) == [26, 41, 41, 41, 41, 41, 41]
    assert pools(d.layout) == {"matrimony": 30, "intrigue": 24, "game": 24}
    deal = stops.replay(record(D1, spare, D1_ACTIONS, options={"stake_rule": "cassell"}))
    assert list(deal.stacks) == [15, 32, 31, 31, 39, 79, 93]
    assert pools(deal.layout) == {"matrimony": 30}
    conserved(deal, 350)


def test_deal1_stakes_one_each() -> None:
    """F32 option ``one_each``: everyone, dealer included, 1 in each pool: stacks 47, pools
    7/7/7. 0: 47 - 1 - 3 - 2 - 5 = 36; 5: 47 - 1 + 18 + 7 - 2 - 1 = 68; 6: 47 - 1 - 3 + 12 +
    7 + 20 = 82; 1: 38; 2: 37; 3: 37; 4: 45. Matrimony 7 stays."""
    spare = widow_of(D1, D1_WIDOW)
    d = stops.replay(record(D1, spare, [], options={"stake_rule": "one_each"}), partial=True)
    assert list(d.stacks) == [47] * 7
    assert pools(d.layout) == {"matrimony": 7, "intrigue": 7, "game": 7}
    deal = stops.replay(record(D1, spare, D1_ACTIONS, options={"stake_rule": "one_each"}))
    assert list(deal.stacks) == [36, 38, 37, 37, 45, 68, 82]
    assert pools(deal.layout) == {"matrimony": 7}
    conserved(deal, 350)


def test_deal1_exempt_seat() -> None:
    """F33, record key ``exempt: [2]``: seat 2 stakes nothing (50 instead of 47), the game pool
    holds 21, so seat 6 takes 3 less: 96. Others as the main deal. Echoed by record()."""
    spare = widow_of(D1, D1_WIDOW)
    d = stops.replay(record(D1, spare, [], exempt=[2]), partial=True)
    assert list(d.stacks) == [26, 47, 50, 47, 47, 47, 47]
    assert pools(d.layout) == {"matrimony": 12, "intrigue": 6, "game": 21}
    deal = stops.replay(record(D1, spare, D1_ACTIONS, exempt=[2]))
    assert list(deal.stacks) == [15, 38, 40, 37, 45, 67, 96]
    assert list(deal.record()["exempt"]) == [2]
    conserved(deal, 350)


def test_deal1_exempt_dealer_still_pays() -> None:
    """F33: an exempt dealer still pays his whole stake: ``exempt: [0]`` with dealer 0 changes
    nothing."""
    spare = widow_of(D1, D1_WIDOW)
    deal = stops.replay(record(D1, spare, D1_ACTIONS, exempt=[0]))
    assert list(deal.stacks) == [15, 38, 37, 37, 45, 67, 99]
    assert pools(deal.layout) == {"matrimony": 12}


def test_deal1_exempt_with_cassell() -> None:
    """Reading: under ``cassell`` an exempt non-dealer also stakes nothing (his 9 chips).
    Pools matrimony 27, intrigue 21, game 21. Seat 2: 50 - 1 - 3 - 2 (KH, AD, KD) - 4 (cards)
    = 40; seat 5 takes intrigue 21: 41 - 1 + 18 + 21 - 2 - 1 = 76; seat 6 takes game 21:
    41 - 1 - 3 + 12 + 21 + 20 = 90; others as under cassell."""
    spare = widow_of(D1, D1_WIDOW)
    deal = stops.replay(record(D1, spare, D1_ACTIONS, options={"stake_rule": "cassell"},
                               exempt=[2]))
    assert list(deal.stacks) == [15, 32, 40, 31, 39, 76, 90]
    assert pools(deal.layout) == {"matrimony": 27}
    conserved(deal, 350)


def test_records_outside_the_47_card_pack_are_rejected() -> None:
    """A 2 or the 8D is not in the pack (F.4); hand sizes must follow the deal table."""
    spare = widow_of(D1, D1_WIDOW)
    with_2 = [list(h) for h in D1]
    with_2[0][0] = "2S"                                   # instead of AS
    with pytest.raises((stops.StopsError, ValueError)):
        stops.replay(record(with_2, [*spare, "AS"], D1_ACTIONS))
    with_8d = [list(h) for h in D1]
    with_8d[0][0] = "8D"
    with pytest.raises((stops.StopsError, ValueError)):
        stops.replay(record(with_8d, [*spare, "AS"], D1_ACTIONS))
    sizes = [list(h) for h in D1]
    sizes[1].append(sizes[0].pop())                       # 4 and 6 cards
    with pytest.raises((stops.StopsError, ValueError)):
        stops.replay(record(sizes, spare, D1_ACTIONS))


# -- deal 2: spinado with a lead; matrimony and intrigue on one Queen ------------------------

D2 = hands_of(
    "AS 3S 4S 5S 6S",
    "AD 9C KD JD QD",
    "TC 8C AC 3C 4C",
    "AH 3H 4H 5H 6H",
    "7H 8H 9H TH JH",
    "QH KH 7S 8S 9S",
    "TS JS QS KS 3D",
)
D2_WIDOW = "5C 6C 7C JC QC KC 4D 5D 6D 7D 9D TD"
D2_ACTIONS = [lead(1, "9C", spinado=True), lead(1, "KD"), lead(1, "JD")]
D2_PLAYS = [(1, "9C"), (1, "AD"), (1, "KD"), (1, "JD"), (1, "QD")]


def test_deal2_spinado_lead_and_matrimony_intrigue_on_one_queen() -> None:
    """1. Seat 1 leads 9C with the spinado: AD straight after it; 9C is a stop, so seat 2's TC
       is not played. Each other player pays 3: seat 1 47 + 18 = 65, seats 2-6 44, seat 0 23.
    2. He leads KD: bonus 2 from each (77; 2-6: 42; 0: 21); a King: stop, he leads again.
    3. He leads JD. QD is his own; he no longer holds the A♦, so it follows automatically.
       He has now played K♦ and Q♦ (K first: either order, F18): matrimony 12 (89), and Q♦
       and J♦: intrigue 6 (95), in that order. QD was his last card: out, after the claims
       (F1): game 24 and 1 per card (6 x 5 = 30): 149. Seats 2-6: 42 - 5 = 37; seat 0 16.
    Every pool is empty.
    """
    spare = widow_of(D2, D2_WIDOW)
    d = stops.replay(record(D2, spare, []), partial=True)
    assert legal(d) == norm(lead(1, "AD"),
                            *(lead(1, c) for c in ("9C", "KD", "JD", "QD")),
                            *(lead(1, c, spinado=True) for c in ("9C", "KD", "JD", "QD")))
    d = stops.replay(record(D2, spare, D2_ACTIONS[:1]), partial=True)
    assert plays(d) == [(1, "9C"), (1, "AD")]
    assert d.current_seat == 1
    assert list(d.stacks) == [23, 65, 44, 44, 44, 44, 44]
    deal = stops.replay(record(D2, spare, D2_ACTIONS))
    assert plays(deal) == D2_PLAYS
    assert list(deal.stacks) == [16, 149, 37, 37, 37, 37, 37]
    assert pools(deal.layout) == {}
    assert deal.winner == 1
    conserved(deal, 350)


# -- deal 3: the A♦ led alone; going out in the middle of a sequence (F1) ---------------------

D3 = hands_of(
    "9H 4D 5D 6D 7D",
    "AD 3C 3D 3H 3S",
    "4C 5C 6C 9S 8H",
    "TS JS AC 8C 9C",
    "QS TC JC QC KC",
    "KS 6H AH 4H 5H",
    "7H 4S 5S 6S 7S",
)
D3_WIDOW = "7C 9D TD JD QD KD TH JH QH KH AS 8S"
D3_ACTIONS = [lead(1, "AD"), lead(1, "3C"), lead(2, "9S"), lead(5, "6H")]


def test_deal3_ad_led_alone_and_out_mid_sequence() -> None:
    """1. Seat 1 leads the A♦ on its own (no flag): a stop, and 3 from each other player:
       seat 1 65; seat 0 23; seats 2-6 44. He leads again.
    2. He leads 3C: 4C, 5C, 6C are seat 2's, played automatically one after another; 7C is in
       the widow: 6C is a stop, seat 2 leads.
    3. Seat 2 leads 9S: TS, JS seat 3's; QS seat 4's; KS seat 5's: bonus 1 from each (seat 5
       50; 0: 22, 1: 64, 2: 43, 3: 43, 4: 43, 6: 43); a stop, seat 5 leads.
    4. Seat 5 leads 6H: 7H seat 6's; 8H is seat 2's last card: he is out at once (F1), and
       9H (seat 0's) is never played.
    Going out: game 24 and 1 per card: seat 0 5, seat 1 3, seat 3 3 (AC 8C 9C), seat 4 4,
    seat 5 3 (AH 4H 5H), seat 6 4 = 22. Seat 2: 43 + 24 + 22 = 89; 0: 17, 1: 61, 3: 40,
    4: 39, 5: 47, 6: 39. Matrimony 12 and intrigue 6 stay (their cards are in the widow).
    """
    spare = widow_of(D3, D3_WIDOW)
    d = stops.replay(record(D3, spare, D3_ACTIONS[:1]), partial=True)
    assert d.current_seat == 1
    assert list(d.stacks) == [23, 65, 44, 44, 44, 44, 44]
    deal = stops.replay(record(D3, spare, D3_ACTIONS))
    assert plays(deal) == [(1, "AD"), (1, "3C"), (2, "4C"), (2, "5C"), (2, "6C"), (2, "9S"),
                           (3, "TS"), (3, "JS"), (4, "QS"), (5, "KS"), (5, "6H"), (6, "7H"),
                           (2, "8H")]
    assert list(deal.stacks) == [17, 61, 89, 40, 39, 47, 39]
    assert pools(deal.layout) == {"matrimony": 12, "intrigue": 6}
    assert deal.winner == 2
    assert deal.outcome == "went_out"
    conserved(deal, 350)


# -- deal 4: the A♦ holder's own follow; K♦ + spinado as the last card ----------------------

D4 = hands_of(
    "AS 3S 4S 5S 6S",
    "3C 4C QD KD AD",
    "6C 7C 8C 9C TC",
    "AH 3H 4H 5H 6H",
    "7H 8H 9H TH JH",
    "QH KH 7S 8S 9S",
    "TS JS QS KS 3D",
)
D4_WIDOW = "AC 5C JC QC KC 4D 5D 6D 7D 9D TD JD"
D4_ACTIONS = [lead(1, "3C"), follow(1, "4C"), lead(1, "QD"), follow(1, "KD", spinado=True)]


def test_deal4_own_follow_and_order_of_payments_on_one_card() -> None:
    """1. Seat 1 leads 3C. 4C is due from him, and he holds the A♦: even his own next card is
       a ``follow`` decision (F34). He follows without the spinado. 5C is in the widow: stop,
       he leads again.
    2. He leads QD. KD is due from him: a follow decision; he lays KD with the spinado. On
       that one card, in order: the K♦ bonus (2 from each: 47 + 12 = 59), matrimony (he has
       played K♦ and Q♦: 12, 71), then the A♦ (3 from each: 89), then going out (his hand is
       empty): game 24 and 1 per card (6 x 5 = 30): 143. Intrigue: JD is in the widow, the
       pool (6) stays. Seats 2-6: 47 - 2 - 3 - 5 = 37; seat 0 26 - 10 = 16.
    (The order cannot change the totals; the test checks that all of them are paid although
    the card ends the deal.)
    """
    spare = widow_of(D4, D4_WIDOW)
    d = stops.replay(record(D4, spare, D4_ACTIONS[:1]), partial=True)
    assert d.current_seat == 1
    assert legal(d) == norm(follow(1, "4C"), follow(1, "4C", spinado=True))
    d = stops.replay(record(D4, spare, D4_ACTIONS[:3]), partial=True)
    assert legal(d) == norm(follow(1, "KD"), follow(1, "KD", spinado=True))
    deal = stops.replay(record(D4, spare, D4_ACTIONS))
    assert plays(deal) == [(1, "3C"), (1, "4C"), (1, "QD"), (1, "KD"), (1, "AD")]
    assert list(deal.stacks) == [16, 143, 37, 37, 37, 37, 37]
    assert pools(deal.layout) == {"intrigue": 6}
    assert deal.winner == 1
    conserved(deal, 350)


def test_missing_follow_decision_is_a_record_error() -> None:
    """A record that leaves out seat 1's follow decision does not replay (it is a decision,
    with two legal choices)."""
    spare = widow_of(D4, D4_WIDOW)
    actions = [lead(1, "3C"), lead(1, "QD"), follow(1, "KD", spinado=True)]
    with pytest.raises(stops.RecordError):
        stops.replay(record(D4, spare, actions))


# -- two players ---------------------------------------------------------------------------

TWO = hands_of(
    "5S 6S KD 3H AD 3S 9S TS JS QS KS 6D 7D 9D TD",
    "3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 4S 4H 3D",
)
TWO_WIDOW = "4D 5D JD QD AH 5H 6H 7H 8H 9H TH JH QH KH AS 7S 8S"


def test_two_players() -> None:
    """2 players: 15 each, widow 17. Dealer 0 stakes 12/6/6 (26), seat 1 3 on game (47);
    matrimony 12, intrigue 6, game 9.
    1. Seat 1 leads 3C and all of 4C ... KC are his own: automatic; KC bonus 1 from seat 0
       (48 / 25); a stop.
    2. He leads AC: stop. He leads 4S: 5S is due from seat 0, who holds the A♦: follow,
       without the spinado; 6S is due from him again: follow, with the spinado: 6S is a stop
       and seat 1 pays him 3 (28 / 45). Seat 0 leads.
    3. Seat 0 leads KD: bonus 2 (30 / 43), a stop. He leads 3H: 4H is seat 1's: automatic;
       5H is in the widow: stop, seat 1 leads 3D, his last card: out.
    Seat 1 takes game 9 and 1 per card of seat 0's 10: 43 + 19 = 62. Seat 0: 20.
    """
    spare = widow_of(TWO, TWO_WIDOW)
    actions = [lead(1, "3C"), lead(1, "AC"), lead(1, "4S"), follow(0, "5S"),
               follow(0, "6S", spinado=True), lead(0, "KD"), lead(0, "3H"), lead(1, "3D")]
    deal = stops.replay(record(TWO, spare, actions))
    own = hands_of("3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC 4S")[0]
    assert plays(deal) == [*((1, c) for c in own), (0, "5S"), (0, "6S"), (0, "AD"), (0, "KD"),
                           (0, "3H"), (1, "4H"), (1, "3D")]
    assert list(deal.stacks) == [20, 62]
    assert pools(deal.layout) == {"matrimony": 12, "intrigue": 6}
    assert deal.winner == 1
    conserved(deal, 100)


# -- a session: the winner's exemption (F33) -------------------------------------------------


def _rotated(hands: list[list[str]], k: int) -> list[list[str]]:
    n = len(hands)
    return [hands[(s - k) % n] for s in range(n)]


def test_session_winner_exempt_unless_dealing() -> None:
    """Three deals at one table (7 seats, 50 each, dealer 0).

    Deal 1 (dealer 0): the main deal: 15 38 37 37 45 67 99, seat 6 wins; matrimony 12 carries.
    Deal 2 (dealer 1): seat 6 won and is not dealing: exempt. Seat 1 stakes 12/6/6 (14);
    seats 0, 2, 3, 4, 5 3 on game (12, 34, 34, 42, 64); seat 6 nothing (99). Pools:
    matrimony 24, intrigue 6, game 21. Deal 2's hands are deal 2 above moved one seat on, so
    seat 2 holds AD 9C KD JD QD: 9C + spinado (+18, others -3), KD (+12, others -2), JD, QD:
    matrimony 24, intrigue 6, out: game 21 + 30. Seat 2: 34 + 18 + 12 + 24 + 6 + 21 + 30 =
    145; 0: 12 - 10 = 2; 1: 4; 3: 24; 4: 32; 5: 54; 6: 89.
    Deal 3 (dealer 2): seat 2 won deal 2 but deals it: he pays the whole dealer stake (121).
    Others 3 on game: -1, 1, 21, 29, 51, 86. Pools 12 / 6 / 24. Deal 2's hands two seats on:
    seat 3 wins the same way: 21 + 18 + 12 + 12 + 6 + 24 + 30 = 123; 0: -11, 1: -9,
    2: 111, 4: 19, 5: 41, 6: 76.
    """
    table = stops.Table(VARIANT, seats=7, chips=50, seed=1, dealer=0)
    d1 = table.new_deal(hands=D1, spare=widow_of(D1, D1_WIDOW))
    _play(d1, D1_ACTIONS)
    assert list(table.stacks) == [15, 38, 37, 37, 45, 67, 99]
    assert pools(table.layout) == {"matrimony": 12}

    h2 = _rotated(D2, 1)
    d2 = table.new_deal(hands=h2, spare=widow_of(h2, D2_WIDOW))
    assert list(d2.stacks) == [12, 14, 34, 34, 42, 64, 99]
    assert pools(d2.layout) == {"matrimony": 24, "intrigue": 6, "game": 21}
    assert list(d2.record().get("exempt", [])) == [6]
    _play(d2, [dict(a, seat=(a["seat"] + 1) % 7) for a in D2_ACTIONS])
    assert d2.winner == 2
    assert list(table.stacks) == [2, 4, 145, 24, 32, 54, 89]
    assert pools(table.layout) == {}

    h3 = _rotated(D2, 2)
    d3 = table.new_deal(hands=h3, spare=widow_of(h3, D2_WIDOW))
    assert list(d3.stacks) == [-1, 1, 121, 21, 29, 51, 86]
    assert pools(d3.layout) == {"matrimony": 12, "intrigue": 6, "game": 24}
    assert list(d3.record().get("exempt", [])) == []
    _play(d3, [dict(a, seat=(a["seat"] + 2) % 7) for a in D2_ACTIONS])
    assert list(table.stacks) == [-11, -9, 111, 123, 19, 41, 76]
    assert sum(table.stacks) + sum(dict(table.layout).values()) == 350


def test_session_winner_exempt_false() -> None:
    """``winner_exempt: false``: in deal 2 seat 6 pays his 3 like everyone: game 24, so seat 2
    ends with 148 and seat 6 with 86; the rest as with the exemption."""
    table = stops.Table(VARIANT, seats=7, chips=50, seed=1, dealer=0,
                        options={"winner_exempt": False})
    d1 = table.new_deal(hands=D1, spare=widow_of(D1, D1_WIDOW))
    _play(d1, D1_ACTIONS)
    h2 = _rotated(D2, 1)
    d2 = table.new_deal(hands=h2, spare=widow_of(h2, D2_WIDOW))
    assert list(d2.stacks) == [12, 14, 34, 34, 42, 64, 96]
    _play(d2, [dict(a, seat=(a["seat"] + 1) % 7) for a in D2_ACTIONS])
    assert list(table.stacks) == [2, 4, 148, 24, 32, 54, 86]
