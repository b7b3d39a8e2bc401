"""Hand-derived tests for Peel's Newmarket (`newmarket-peel`, FAMILY-RULINGS-2 G.5, G30-G33,
G.0 items 10 and 11, G.11 item 6).

Every deal is stacked and written as an ownership grid: for each suit one character per rank
in the ace-low order A 2 3 4 5 6 7 8 9 T J Q K, a digit naming the seat that holds the card,
and ``-`` for the 7s, which are not in the 48-card pack. There is no spare hand: the whole
pack goes to the players one card at a time from the dealer's left, the ``48 mod n`` seats
nearest the dealer's left getting one card more (3 players: 16 each; 4: 12 each; 5 players,
dealer 0: seats 1, 2, 3 ten, seats 4 and 0 nine).

The game (G.5): layout AS KC QH JD, each a `card_below` space won by whoever plays the card
one rank below it in its suit (the ace by the King: K♠ wins AS, Q♣ KC, J♥ QH, 10♦ JD); that
claim card is always a stop and its player takes the space at once, then leads. Playing a
layout card itself wins nothing. Ace low in play: every King and every 6 (the 7s are gone)
is a stop, an ace can only be led. Stakes: every player 1 chip on a layout card of his
choice, in turn from the dealer's left, the dealer last with 1 chip more (two `stake`
decisions); when all have staked every layout card must hold chips. The dealer's left leads
any card. Going out: 1 chip per card left from every other player. 50 chips each.
"""

from __future__ import annotations

from functools import partial
from typing import Any

import pytest

import stops
import support
from stops.rules.variant import variant_from_mapping
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

VARIANT = "newmarket-peel"

pytestmark = skip_unless_built(VARIANT)

RANKS_LOW = "A23456789TJQK"
SEVENS = ("7C", "7D", "7H", "7S")
SPACES = ["AS", "JD", "KC", "QH"]  # sorted, as the tests compare them

grid = partial(support.grid, ranks=RANKS_LOW, missing=SEVENS, pack_size=48)
record = partial(make_record, VARIANT)


def stake(seat: int, space: str) -> dict[str, Any]:
    """A stake decision as G.9 writes it: one chip, the amount left out."""
    return {"seat": seat, "action": "stake", "space": space}


def stake_choices(deal: stops.Deal) -> list[str]:
    """The spaces the seat on turn may stake on now (every legal action is a stake)."""
    acts = [a.to_dict() for a in deal.legal_actions()]
    assert all(a["action"] == "stake" and a["chips"] == 1 for a in acts), acts
    return sorted(a["space"] for a in acts)


def claims(deal: stops.Deal) -> list[tuple[int | None, str | None, int]]:
    return [(e.seat, e.space, e.chips) for e in deal.events if e.kind == "claimed"]


def stops_by(deal: stops.Deal) -> list[tuple[int | None, str]]:
    return [(e.seat, str(e.card)) for e in deal.events if e.kind == "stop"]


# -- DEAL_T: 3 players, 16 cards each (for the stakes) ----------------------------------------
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# every   1 2 0 1 2 0 - 1 2 0 1 2 0      (the same row for all four suits)
T_ROW = "1 2 0 1 2 0 - 1 2 0 1 2 0"
HANDS_T, NO_SPARE = grid({s: T_ROW for s in "CDHS"}, (16, 16, 16), 0)


# -- DEAL_P: 4 players, dealer 0, 12 cards each ----------------------------------------------
#
#         A 2 3 4 5 6 7 8 9 T J Q K
# clubs   0 0 0 1 1 2 - 1 2 3 2 3 0
# diams   3 3 1 2 0 1 - 3 2 1 0 2 3
# hearts  2 3 0 1 1 2 - 0 3 1 2 0 3
# spades  1 2 2 3 0 1 - 3 0 0 1 2 3
#
# seat 0: AC 2C 3C KC 5D JD 3H 8H QH 5S 9S TS     seat 1: 4C 5C 8C 3D 6D TD 4H 5H TH AS 6S JS
# seat 2: 6C 9C JC 4D 9D QD AH 6H JH 2S 3S QS     seat 3: TC QC AD 2D 8D KD 2H 9H KH 4S 8S KS
DEAL_P_ROWS = {
    "C": "0 0 0 1 1 2 - 1 2 3 2 3 0",
    "D": "3 3 1 2 0 1 - 3 2 1 0 2 3",
    "H": "2 3 0 1 1 2 - 0 3 1 2 0 3",
    "S": "1 2 2 3 0 1 - 3 0 0 1 2 3",
}
HANDS_P, _ = grid(DEAL_P_ROWS, (12, 12, 12, 12), 0)

# Stakes, 4 players on a bare layout: 1, 2, 3, then the dealer twice = 5 chips for 4 spaces.
#  seat 1 AS (nothing covered yet; 4 chips to come after his >= 3 empty): legal.
#  seat 2 KC: empty after = QH JD = 2 <= 3 still to come: legal.
#  seat 3 QH: empty after = JD = 1 <= 2: legal.
#  dealer JD: empty after 0 <= 1; dealer JD again: 0 <= 0.
# Layout AS 1, KC 1, QH 1, JD 2; stacks 48 (the dealer), 49, 49, 49.
P_STAKES = [stake(1, "AS"), stake(2, "KC"), stake(3, "QH"), stake(0, "JD"), stake(0, "JD")]

# The play of DEAL_P (ace low; seat 1, the dealer's left, leads any card):
#  1. seat 1 leads AS (the layout card itself: wins nothing) 2S 3S (2) 4S (3) 5S (0) 6S (1):
#     the 7S is out of the pack, so the 6S is a stop. Seat 1 leads again.
#  2. seat 1 leads 8C, 9C (2) TC (3) JC (2) QC (3): the Q♣ is KC's claim card: seat 3 takes
#     KC (1) at once and the QC is a stop, although seat 0 holds the KC. Seat 3 leads.
#  3. seat 3 leads 8S, 9S TS (0) JS (1) QS (2) KS (3): the K♠ wins AS (1) (below_ace: king)
#     and is a stop (a King, and a claim card). Seat 3 leads.
#  4. seat 3 leads 2H, 3H (0) 4H 5H (1) 6H (2): a 6, a stop. Seat 2 leads.
#  5. seat 2 leads 9D, TD (1): the 10♦ wins JD (2): stop; seat 1 leads (the JD, seat 0's,
#     is not played).
#  6. seat 1 leads TH, JH (2): the J♥ wins QH (1): stop; seat 2 leads. Layout empty.
#     Stacks: seat 0 48; seat 1 49 + 2 = 51; seat 2 49 + 1 = 50; seat 3 49 + 1 + 1 = 51.
#  7. seat 2 leads AH: the 2H has been played: stop. Seat 2 leads.
#  8. seat 2 leads QD, KD (3): a King, stop. Seat 3 leads.
#  9. seat 3 leads 2D, 3D (1) 4D (2) 5D (0) 6D (1): a 6, stop. Seat 1 leads.
# 10. seat 1 leads 4C, 5C (1): his last card: he goes out (per_card). Left in hand: seat 0
#     AC 2C 3C KC JD 8H QH (7), seat 2 6C (1), seat 3 AD 8D 9H KH (4): 12 chips to seat 1.
#     Final: seat 0 48 - 7 = 41; seat 1 51 + 12 = 63; seat 2 50 - 1 = 49; seat 3 51 - 4 = 47
#     (= 200).
P_LEADS = [L(1, "AS"), L(1, "8C"), L(3, "8S"), L(3, "2H"), L(2, "9D"), L(1, "TH"),
           L(2, "AH"), L(2, "QD"), L(3, "2D"), L(1, "4C")]
P_PLAYS = P("1:AS 2:2S 2:3S 3:4S 0:5S 1:6S "
            "1:8C 2:9C 3:TC 2:JC 3:QC "
            "3:8S 0:9S 0:TS 1:JS 2:QS 3:KS "
            "3:2H 0:3H 1:4H 1:5H 2:6H "
            "2:9D 1:TD "
            "1:TH 2:JH "
            "2:AH "
            "2:QD 3:KD "
            "3:2D 1:3D 2:4D 0:5D 1:6D "
            "1:4C 1:5C")


def test_the_pack_and_the_deal_of_the_stacked_deals() -> None:
    # 48 cards, the four 7s out; 3 players 16 each, 4 players 12 each, nothing left over.
    assert sorted(c for h in HANDS_P for c in h) == sorted(
        support.pack(RANKS_LOW, missing=SEVENS))
    v = stops.load_variant(VARIANT)
    assert len(v.deck) == 48 and not any(str(c)[0] == "7" for c in v.deck)
    assert v.players == (3, 8)


# -- stakes (G.0 item 11, G31, G.11 item 6) ---------------------------------------------------


def test_three_players_on_a_bare_layout_every_chip_after_the_first_covers() -> None:
    # G31: 3 players place 3 + 1 = 4 chips on 4 bare spaces, so every chip after the first
    # must go to an empty space.
    deal = stops.replay(record(HANDS_T, NO_SPARE), partial=True)
    # seat 1 (dealer's left) first; 4 empty, 3 chips still to come after his: any space.
    assert deal.current_seat == 1 and stake_choices(deal) == SPACES
    deal.apply(stake(1, "AS"))
    # seat 2: AS again would leave KC QH JD empty (3) with 2 chips to come: only the empties.
    assert deal.current_seat == 2 and stake_choices(deal) == ["JD", "KC", "QH"]
    deal.apply(stake(2, "KC"))
    # the dealer (seat 0) last, first chip: QH JD empty, 1 chip to come after it.
    assert deal.current_seat == 0 and stake_choices(deal) == ["JD", "QH"]
    deal.apply(stake(0, "QH"))
    # the dealer's extra chip: only JD is empty, nothing to come after it.
    assert deal.current_seat == 0 and stake_choices(deal) == ["JD"]
    deal.apply(stake(0, "JD"))
    assert nonzero(deal) == {"AS": 1, "KC": 1, "QH": 1, "JD": 1}
    assert deal.stacks == (48, 49, 49)   # the dealer put 2
    assert deal.phase == "play" and deal.current_seat == 1


def test_an_uncovering_stake_is_refused_and_changes_nothing() -> None:
    # As above: after seat 1's AS, seat 2 on AS would leave 3 spaces empty for 2 chips.
    deal = stops.replay(record(HANDS_T, NO_SPARE, [stake(1, "AS")]), partial=True)
    before = support.snapshot(deal)
    with pytest.raises(stops.IllegalAction) as info:
        deal.apply(stake(2, "AS"))
    assert info.value.code == "must_cover"
    assert "cover" in str(info.value)
    assert support.snapshot(deal) == before
    # the same in a record: replay stops at that decision
    with pytest.raises(stops.StopsError, match="cover"):
        stops.replay(record(HANDS_T, NO_SPARE, [stake(1, "AS"), stake(2, "AS")]))
    # a space that is no layout card, or the wrong seat, is refused as before
    expect_illegal(deal, stake(0, "KC"))
    expect_illegal(deal, stake(2, "pot"))


def test_carried_chips_cover_their_spaces() -> None:
    # G31 / G.11 6: carried chips cover a space. AS 2 and KC 1 carried: 2 empty spaces.
    #  seat 1: 2 empty, 3 chips to come after his: anything (he takes AS).
    #  seat 2: 2 empty, 2 to come: anything still (AS again).
    #  dealer, first chip: 2 empty, 1 to come: QH or JD only; he takes QH.
    #  dealer, second chip: JD only.
    deal = stops.replay(record(HANDS_T, NO_SPARE, layout={"AS": 2, "KC": 1}), partial=True)
    assert stake_choices(deal) == SPACES
    deal.apply(stake(1, "AS"))
    assert stake_choices(deal) == SPACES
    deal.apply(stake(2, "AS"))
    assert stake_choices(deal) == ["JD", "QH"]
    deal.apply(stake(0, "QH"))
    assert stake_choices(deal) == ["JD"]
    deal.apply(stake(0, "JD"))
    assert nonzero(deal) == {"AS": 4, "KC": 1, "QH": 1, "JD": 1}
    assert deal.stacks == (48, 49, 49)


def test_four_players_the_dealers_extra_chip() -> None:
    # 4 players: 5 chips for 4 spaces, one to spare. 1 AS; 2 AS (KC QH JD empty, 3 chips to
    # come after his: fine). Seat 3: 3 empty, only 2 to come after his: an empty space only;
    # he takes KC. Dealer's first chip: QH JD empty, 1 to come after: only those two; he
    # takes QH. His extra chip: JD only. Stacks: dealer 50 - 2 = 48.
    deal = stops.replay(record(HANDS_P, NO_SPARE), partial=True)
    deal.apply(stake(1, "AS"))
    assert stake_choices(deal) == SPACES
    deal.apply(stake(2, "AS"))
    assert deal.current_seat == 3 and stake_choices(deal) == ["JD", "KC", "QH"]
    deal.apply(stake(3, "KC"))
    assert deal.current_seat == 0 and stake_choices(deal) == ["JD", "QH"]
    deal.apply(stake(0, "QH"))
    assert deal.current_seat == 0 and stake_choices(deal) == ["JD"]
    deal.apply(stake(0, "JD"))
    assert nonzero(deal) == {"AS": 2, "KC": 1, "QH": 1, "JD": 1}
    assert deal.stacks == (48, 49, 49, 49)
    # With every space covered before the dealer, both his chips may go on one space.
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES[:3]), partial=True)
    assert stake_choices(deal) == SPACES       # JD empty, 1 chip to come after this one
    deal.apply(stake(0, "JD"))
    assert stake_choices(deal) == SPACES       # all covered: anything
    deal.apply(stake(0, "JD"))
    assert nonzero(deal) == {"AS": 1, "KC": 1, "QH": 1, "JD": 2}


def test_cover_all_false_lets_chips_double_up() -> None:
    # Option cover_all: false: seat 2 may put his chip on AS beside seat 1's; the dealer
    # still places 2 (dealer_extra 1), both on AS: AS 4, the other spaces bare.
    opts = {"cover_all": False}
    actions = [stake(1, "AS"), stake(2, "AS"), stake(0, "AS"), stake(0, "AS")]
    deal = stops.replay(record(HANDS_T, NO_SPARE, actions, options=opts), partial=True)
    assert nonzero(deal) == {"AS": 4}
    assert deal.stacks == (48, 49, 49)


def test_dealer_extra_option() -> None:
    # dealer_extra: 2: the dealer makes three stake decisions, 3 chips.
    actions = [stake(1, "AS"), stake(2, "KC"), stake(0, "QH"), stake(0, "JD"), stake(0, "JD")]
    deal = stops.replay(record(HANDS_T, NO_SPARE, actions, options={"dealer_extra": 2}),
                        partial=True)
    assert deal.phase == "play"
    assert nonzero(deal) == {"AS": 1, "KC": 1, "QH": 1, "JD": 2}
    assert deal.stacks == (47, 49, 49)


def test_a_variant_whose_chips_cannot_cover_is_refused_at_load() -> None:
    # dealer_extra 0: 3 players place 3 chips for 4 layout cards: refused, naming the rule.
    with pytest.raises(stops.VariantError) as info:
        stops.load_variant(VARIANT, options={"dealer_extra": 0})
    text = str(info.value)
    assert "cover_all" in text and "3 players" in text
    # ... the same as a house file; from 4 players up 4 chips cover 4 spaces: loads.
    base = {"name": "peel-four-up", "extends": VARIANT, "rules": {"dealer_extra": 0}}
    with pytest.raises(stops.VariantError, match="cover_all"):
        variant_from_mapping(base)
    variant_from_mapping({**base, "players": {"min": 4, "max": 8}})
    # without cover_all nothing needs covering
    stops.load_variant(VARIANT, options={"dealer_extra": 0, "cover_all": False})


# -- the play (G.0 item 10, G.5) --------------------------------------------------------------


def test_stakes_then_the_first_lead_is_any_card() -> None:
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES), partial=True)
    assert nonzero(deal) == {"AS": 1, "KC": 1, "QH": 1, "JD": 2}
    assert deal.stacks == (48, 49, 49, 49)
    # G32 default lead_rule any_card: all twelve of seat 1's cards.
    assert lead_choices(deal) == sorted((1, c) for c in HANDS_P[1])


def test_the_layout_card_itself_wins_nothing_and_a_six_stops() -> None:
    # Lead 1: AS 2S 3S 4S 5S 6S; the AS wins nothing, the 6S stops (no 7S); seat 1 leads.
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + P_LEADS[:1]), partial=True)
    assert plays(deal) == P_PLAYS[:6]
    assert claims(deal) == []
    assert stops_by(deal) == [(1, "6S")]
    assert nonzero(deal) == {"AS": 1, "KC": 1, "QH": 1, "JD": 2}
    assert deal.current_seat == 1


def test_a_claim_card_takes_its_space_at_once_and_stops() -> None:
    # Lead 2: 8C 9C TC JC QC: the QC wins KC (1) for seat 3 and stops, although seat 0
    # holds the KC; seat 3 leads. The claim comes before the stop in the log.
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + P_LEADS[:2]), partial=True)
    assert plays(deal) == P_PLAYS[:11]
    assert claims(deal) == [(3, "KC", 1)]
    assert stops_by(deal)[-1] == (3, "QC")
    kinds = [e.kind for e in deal.events]
    qc = next(i for i, e in enumerate(deal.events) if e.kind == "played" and str(e.card) == "QC")
    assert kinds[qc + 1] == "claimed" and kinds[qc + 2] == "stop"
    assert deal.stacks == (48, 49, 49, 50)
    assert deal.current_seat == 3
    assert nonzero(deal) == {"AS": 1, "QH": 1, "JD": 2}


def test_the_king_of_spades_claims_the_ace() -> None:
    # Lead 3: 8S .. KS: the K♠ wins AS (below_ace: king) for seat 3: 49 + 1 + 1 = 51.
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + P_LEADS[:3]), partial=True)
    assert plays(deal) == P_PLAYS[:17]
    assert claims(deal) == [(3, "KC", 1), (3, "AS", 1)]
    assert deal.stacks == (48, 49, 49, 51)
    assert deal.current_seat == 3


def test_all_four_claims_then_going_out_per_card() -> None:
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + P_LEADS[:6]), partial=True)
    assert claims(deal) == [(3, "KC", 1), (3, "AS", 1), (1, "JD", 2), (2, "QH", 1)]
    assert deal.stacks == (48, 51, 50, 51)
    assert nonzero(deal) == {}
    assert deal.current_seat == 2
    # the JD and QH are still in seat 0's hand: they were never needed
    assert {"JD", "QH", "KC"} <= {str(c) for c in deal.hand(0)}
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + P_LEADS))
    assert plays(deal) == P_PLAYS
    assert [s for s, _ in stops_by(deal)] == [1, 3, 3, 2, 1, 2, 2, 3, 1]
    assert deal.outcome == "went_out" and deal.winner == 1
    assert deal.stacks == (41, 63, 49, 47)
    assert sum(deal.stacks) == 200 and nonzero(deal) == {}


def test_the_record_replays_to_the_same_deal() -> None:
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + P_LEADS))
    again = stops.replay(deal.record())
    assert plays(again) == P_PLAYS and again.stacks == deal.stacks
    stakes = [a for a in deal.record()["actions"] if a["action"] == "stake"]
    assert [a["seat"] for a in stakes] == [1, 2, 3, 0, 0]


def test_a_layout_card_led_before_its_claim_card_leaves_the_chips() -> None:
    # Carried KC 3: layout KC 4 after the stakes. Seat 1 leads AS (as lead 1), then 8C: the
    # QC (seat 3) wins KC 4. Had seat 0 led the KC first it would have won nothing; here the
    # KC stays in seat 0's hand and the 4 chips go to the claim card.
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + P_LEADS[:2],
                               layout={"KC": 3}), partial=True)
    assert claims(deal) == [(3, "KC", 4)]
    assert deal.stacks == (48, 49, 49, 53)


# -- options ---------------------------------------------------------------------------------


def test_ace_high_every_ace_stops_and_the_king_of_spades_still_claims() -> None:
    # G33 option ace: high. Lead AS: now the top of spades, a stop at once (no claim); seat 1
    # leads again.
    opts = {"ace": "high"}
    deal = stops.replay(record(HANDS_P, NO_SPARE, [*P_STAKES, L(1, "AS")], options=opts),
                        partial=True)
    assert plays(deal) == [(1, "AS")] and claims(deal) == []
    assert deal.current_seat == 1
    # Another line: 1 leads 8C .. QC (QC wins KC, 1 -> seat 3); 3 leads 8S .. KS: the K♠
    # wins AS (1) and stops although the AS (seat 1's) would follow under ace high;
    # 3 leads 2H .. 6H (a 6 still stops: no 7H); 2 leads QD: KD (3) is no stop now, the AD
    # (3) follows and stops (an ace, the top). Seat 3: 49 + 1 + 1 = 51, and leads.
    leads = [L(1, "8C"), L(3, "8S"), L(3, "2H"), L(2, "QD")]
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + leads, options=opts),
                        partial=True)
    assert plays(deal) == P("1:8C 2:9C 3:TC 2:JC 3:QC 3:8S 0:9S 0:TS 1:JS 2:QS 3:KS "
                            "3:2H 0:3H 1:4H 1:5H 2:6H 2:QD 3:KD 3:AD")
    assert claims(deal) == [(3, "KC", 1), (3, "AS", 1)]
    assert stops_by(deal) == [(3, "QC"), (3, "KS"), (2, "6H"), (3, "AD")]
    assert deal.stacks == (48, 49, 49, 51)
    assert deal.current_seat == 3


def test_lead_rule_lowest_of_suit_option() -> None:
    # G32 option lowest_of_suit: seat 1 may lead only the lowest card he holds of a suit:
    # 4C (clubs 4C 5C 8C), 3D (3D 6D TD), 4H (4H 5H TH), AS (AS 6S JS; ace low).
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES,
                               options={"lead_rule": "lowest_of_suit"}), partial=True)
    assert lead_choices(deal) == [(1, "3D"), (1, "4C"), (1, "4H"), (1, "AS")]
    expect_illegal(deal, L(1, "8C"))


def test_below_ace_king_is_accepted_as_an_option() -> None:
    deal = stops.replay(record(HANDS_P, NO_SPARE, P_STAKES + P_LEADS[:3],
                               options={"below_ace": "king"}), partial=True)
    assert claims(deal) == [(3, "KC", 1), (3, "AS", 1)]


# -- the deal --------------------------------------------------------------------------------


def _to_play(deal: stops.Deal) -> None:
    while deal.phase == "stake":
        deal.apply(deal.legal_actions()[0])


def test_the_odd_cards_go_to_the_seats_nearest_the_dealers_left() -> None:
    # 5 players, dealer 0: 48 = 5 x 9 + 3, so seats 1, 2, 3 get 10, seats 4 and 0 get 9.
    table = stops.Table(VARIANT, seats=5, chips=50, seed=11, dealer=0)
    deal = table.new_deal()
    _to_play(deal)
    assert [len(deal.hand(s)) for s in range(5)] == [9, 10, 10, 10, 9]
    # dealer 3: seats 4, 0, 1 get 10
    table = stops.Table(VARIANT, seats=5, chips=50, seed=11, dealer=3)
    deal = table.new_deal()
    _to_play(deal)
    assert [len(deal.hand(s)) for s in range(5)] == [10, 10, 9, 9, 10]
    # a record must keep those sizes (stacked_sizes: as_dealt)
    order = support.pack(RANKS_LOW, missing=SEVENS)
    hands: list[list[str]] = [[] for _ in range(5)]
    for i, c in enumerate(order):
        hands[(1 + i) % 5].append(c)
    assert [len(h) for h in hands] == [9, 10, 10, 10, 9]
    stops.replay(record(hands, NO_SPARE), partial=True)
    wrong = [h[:] for h in hands]
    wrong[4].append(wrong[3].pop())
    with pytest.raises(stops.StopsError):
        stops.replay(record(wrong, NO_SPARE), partial=True)


def test_whole_sessions_conserve_chips() -> None:
    for seats in (3, 5, 8):
        table = stops.Table(VARIANT, seats=seats, chips=50, seed=seats)
        deals = 0
        while not table.is_over:
            deal = table.new_deal()
            while not deal.is_terminal:
                legal = deal.legal_actions()
                deal.apply(legal[(deals * 7 + len(deal.plays)) % len(legal)])
            deals += 1
            assert sum(table.stacks) + sum(dict(table.layout).values()) == 50 * seats
        assert deals == 10


def test_a_save_in_the_middle_of_the_stakes_restores_the_covering_rule() -> None:
    # DEAL_T's stakes: after seat 1 AS and seat 2 KC the dealer's first chip may go only to
    # QH or JD (see above). A table saved there and restored offers the same, and the
    # restored deal plays on to the same end as the original.
    table = stops.Table(VARIANT, seats=3, chips=50, seed=4, dealer=0)
    deal = table.new_deal()
    deal.apply(stake(1, "AS"))
    deal.apply(stake(2, "KC"))
    again = stops.Table.from_dict(table.to_dict())
    copy = again.deal
    assert copy is not None and stake_choices(copy) == ["JD", "QH"] == stake_choices(deal)
    for d in (deal, copy):
        while not d.is_terminal:
            d.apply(d.legal_actions()[0])
    assert copy.stacks == deal.stacks and plays(copy) == plays(deal)
    assert copy.record() == deal.record()
