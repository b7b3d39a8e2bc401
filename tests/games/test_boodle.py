"""Boodle (seed 001, basic rules) played from hands stacked by hand.

Every expected value below is derived by hand from the seed text
(seed 001, see docs/games/boodle.md) and docs/rulings.md items 1-8 and 28-34, never
copied from the engine. Conventions used in the derivations:

* Cards are ``<rank><suit>``; within a suit the next card of ``5C`` is ``6C``; the ace is top.
* Seats are clockwise, the dealer's left is ``(dealer + 1) % n`` and leads first (seed:
  "The game starts with the person sitting on the dealer's left"; ruling 8, 34).
* Stakes (seed; ruling 8): before the deal the dealer puts 2 chips on each of the four boodle
  cards AH, KC, QD, JS and every other player puts 1. With 3 players and chips=50 that leaves
  the dealer 50 - 8 = 42, each other seat 50 - 4 = 46 and 2 + 1 + 1 = 4 chips on each card.
* A stop (ruling 6): an ace, or a card whose next card is in no player's hand (in the spare
  hand or already played). A player who holds the next card plays it, even the one who just
  played (ruling 6).
* After a stop the player of the stop leads again, any suit, the stopped suit included
  (ruling 28), always the lowest card they hold in that suit.
* A boodle card pays all its chips to whoever plays it, led or forced (ruling 31).
* Going out ends play at once, even mid-sequence; each other player pays 1 chip per card
  still held (ruling 30). Chips left on the layout stay for the next deal.

Each test gives a few seats only a handful of cards and puts the rest of the pack in the
spare hand (``new_deal`` accepts any sizes), so every spare card is a stop.
"""

from __future__ import annotations

from typing import Any

import pytest

import stops
from stops import Action, IllegalAction, parse_card
from support import lead_action as lead
from support import plays

PACK = [r + s for s in "CDHS" for r in "23456789TJQKA"]
BOODLE = ("AH", "KC", "QD", "JS")


def spare_for(hands: list[list[str]]) -> list[str]:
    """Every card of the pack not in ``hands``: the spare (dead) hand."""
    used = {c for h in hands for c in h}
    return [c for c in PACK if c not in used]


def new_table(players: int, dealer: int = 0, **kw: Any) -> stops.Table:
    return stops.Table("boodle", seats=players, chips=50, seed=1, dealer=dealer, **kw)


def start(hands: list[list[str]], dealer: int = 0, table: stops.Table | None = None,
          **kw: Any) -> tuple[stops.Table, stops.Deal]:
    t = table if table is not None else new_table(len(hands), dealer, **kw)
    return t, t.new_deal(hands=hands, spare=spare_for(hands))


def leads(deal: stops.Deal) -> list[tuple[int, str]]:
    """The legal decisions as (seat, card) leads."""
    out = []
    for a in deal.legal_actions():
        assert a.action == "lead"
        out.append((a.seat, str(a.card)))
    return out


def brief(events: list[stops.Event]) -> list[tuple[Any, ...]]:
    """Events as short tuples; deal_started / dealt / spare_dealt are left out."""
    out: list[tuple[Any, ...]] = []
    for e in events:
        k = e.kind
        if k in ("deal_started", "dealt", "spare_dealt"):
            continue
        if k in ("led", "played", "stop", "went_out"):
            out.append((k, e.seat, str(e.card)))
        elif k in ("claimed", "staked"):
            out.append((k, e.seat, e.space, e.chips))
        elif k == "paid":
            out.append((k, e.seat, e.to_seat if e.to_seat is not None else e.space, e.chips))
        elif k == "lead_passed":
            out.append((k, e.seat, e.to_seat))
        else:
            out.append((k, e.seat))
    return out


def staked(deal: stops.Deal) -> list[tuple[int, str, int]]:
    return [(e.seat, e.space, e.chips) for e in deal.events if e.kind == "staked"]


def hands_now(deal: stops.Deal) -> list[list[str]]:
    return [[str(c) for c in deal.observe(s).hand] for s in range(deal.n)]


def snapshot(deal: stops.Deal) -> tuple[Any, ...]:
    return (
        len(deal.events), list(deal.events), deal.stacks, deal.layout,
        list(deal.legal_actions()), deal.current_seat, deal.phase, plays(deal),
        hands_now(deal), deal.record()["actions"], deal.is_terminal,
    )


def chips_total(deal: stops.Deal) -> int:
    return sum(deal.stacks) + sum(deal.layout.values())


# 3 players, dealer 0, chips 50 after the stakes (see module docstring)
STAKED3 = (42, 46, 46)
LAYOUT3 = {"AH": 4, "KC": 4, "QD": 4, "JS": 4}


# -- (g) the stakes ---------------------------------------------------------------------


def test_stakes_dealer_two_others_one_three_players() -> None:
    # Seed: "the dealer puts two chips on each of the boodle areas, then the other players
    # follow up by placing with one chip on each area". Dealer 0; the engine places stakes
    # from the dealer's left (seats 1, 2, then 0), spaces in layout order AH KC QD JS.
    # Seat 0 pays 4 x 2 = 8 -> 42; seats 1 and 2 pay 4 x 1 = 4 -> 46; each card 2+1+1 = 4.
    _, deal = start([["2C"], ["3C"], ["4C"]])
    assert staked(deal) == [
        (1, "AH", 1), (1, "KC", 1), (1, "QD", 1), (1, "JS", 1),
        (2, "AH", 1), (2, "KC", 1), (2, "QD", 1), (2, "JS", 1),
        (0, "AH", 2), (0, "KC", 2), (0, "QD", 2), (0, "JS", 2),
    ]
    assert deal.stacks == STAKED3
    assert deal.layout == LAYOUT3
    # the stakes are automatic: the first decision is already the lead of seat 1
    assert deal.phase == "play"
    assert deal.current_seat == 1


def test_stakes_dealer_two_others_one_four_players_dealer_two() -> None:
    # 4 players, dealer 2: from the dealer's left the order is 3, 0, 1, then the dealer 2.
    # Seat 2 pays 8 -> 42, seats 0, 1, 3 pay 4 -> 46; each card 2 + 1 + 1 + 1 = 5.
    # The first lead is the dealer's left, seat 3.
    _, deal = start([["2C"], ["3C"], ["4C"], ["5C"]], dealer=2)
    assert staked(deal) == [
        (3, "AH", 1), (3, "KC", 1), (3, "QD", 1), (3, "JS", 1),
        (0, "AH", 1), (0, "KC", 1), (0, "QD", 1), (0, "JS", 1),
        (1, "AH", 1), (1, "KC", 1), (1, "QD", 1), (1, "JS", 1),
        (2, "AH", 2), (2, "KC", 2), (2, "QD", 2), (2, "JS", 2),
    ]
    assert deal.stacks == (46, 46, 42, 46)
    assert deal.layout == {"AH": 5, "KC": 5, "QD": 5, "JS": 5}
    assert deal.current_seat == 3
    assert leads(deal) == [(3, "5C")]


# -- (a) a stop because the next card is in the spare hand ------------------------------


def test_stop_when_next_card_is_in_spare_hand() -> None:
    # seat 0: 5C 2D | seat 1: 2C 3C 3D 9S | seat 2: 4C 7D | spare: the rest (6C, 4D, ...).
    # Seat 1 (dealer's left) may lead its lowest club 2C, lowest diamond 3D or lowest spade
    # 9S. It leads 2C; it also holds 3C and plays it itself (ruling 6); 4C is seat 2's,
    # 5C seat 0's; 6C is in the spare hand, so 5C is a stop and seat 0 leads next.
    _, deal = start([["5C", "2D"], ["2C", "3C", "3D", "9S"], ["4C", "7D"]])
    assert leads(deal) == [(1, "2C"), (1, "3D"), (1, "9S")]
    events = deal.apply({"seat": 1, "action": "lead", "card": "2C"})
    assert brief(events) == [
        ("led", 1, "2C"), ("played", 1, "3C"), ("played", 2, "4C"), ("played", 0, "5C"),
        ("stop", 0, "5C"),
    ]
    assert events[-1].note == "the next card is in the spare hand"
    assert deal.current_seat == 0
    # seat 0's only card left is 2D: a single legal lead (still a decision)
    assert leads(deal) == [(0, "2D")]
    # 2D is seat 0's last card: it goes out at once although seat 1 holds 3D.
    # Seat 1 still holds 3D 9S (2 cards) and pays 2, seat 2 holds 7D and pays 1.
    events = deal.apply(lead(0, "2D"))
    assert brief(events) == [
        ("led", 0, "2D"), ("went_out", 0, "2D"),
        ("paid", 1, 0, 2), ("paid", 2, 0, 1), ("deal_ended", 0),
    ]
    assert deal.outcome == "went_out"
    assert deal.winner == 0
    assert deal.stacks == (42 + 3, 46 - 2, 46 - 1)
    assert deal.layout == LAYOUT3  # no boodle card was played
    assert plays(deal) == [(1, "2C"), (1, "3C"), (2, "4C"), (0, "5C"), (0, "2D")]
    assert chips_total(deal) == 150


# -- (b) a stop on an already-played card ----------------------------------------------


def test_stop_when_next_card_was_already_played() -> None:
    # seat 0: 8D | seat 1: 9C 5H 2S | seat 2: TC 4H 3S | spare: the rest.
    # 1. Seat 1 leads 5H (its lowest heart); 6H is in the spare hand: stop on 5H, seat 1
    #    leads again.
    # 2. Seat 1 leads 2S; seat 2 plays 3S; 4S is spare: stop on 3S, seat 2 leads.
    # 3. Seat 2 leads 4H (its lowest heart); 5H has already been played: stop on 4H
    #    (ruling 6), seat 2 leads again.
    # 4. Seat 2 leads TC, its last card: out. Seats 0 (8D) and 1 (9C) pay 1 each.
    _, deal = start([["8D"], ["9C", "5H", "2S"], ["TC", "4H", "3S"]])
    ev = deal.apply(lead(1, "5H"))
    assert brief(ev) == [("led", 1, "5H"), ("stop", 1, "5H")]
    assert ev[-1].note == "the next card is in the spare hand"
    assert leads(deal) == [(1, "9C"), (1, "2S")]
    ev = deal.apply(lead(1, "2S"))
    assert brief(ev) == [("led", 1, "2S"), ("played", 2, "3S"), ("stop", 2, "3S")]
    assert leads(deal) == [(2, "TC"), (2, "4H")]
    ev = deal.apply(lead(2, "4H"))
    assert brief(ev) == [("led", 2, "4H"), ("stop", 2, "4H")]
    assert ev[-1].note == "the next card has been played"
    assert leads(deal) == [(2, "TC")]
    ev = deal.apply(lead(2, "TC"))
    assert brief(ev) == [
        ("led", 2, "TC"), ("went_out", 2, "TC"),
        ("paid", 0, 2, 1), ("paid", 1, 2, 1), ("deal_ended", 2),
    ]
    assert deal.stacks == (41, 45, 48)
    assert deal.layout == LAYOUT3
    assert chips_total(deal) == 150


# -- (c) a stop on an ace ---------------------------------------------------------------


def test_stop_on_an_ace() -> None:
    # seat 0: 4D 5D | seat 1: QS KS 2D | seat 2: AS 3D 9H | spare: the rest.
    # Seat 1 leads QS and plays KS itself; seat 2 holds AS and plays it. "until the ace is
    # played": AS is a stop, and seat 2 (the player of the ace) leads next: its lowest
    # diamond 3D or lowest heart 9H.
    _, deal = start([["4D", "5D"], ["QS", "KS", "2D"], ["AS", "3D", "9H"]])
    assert leads(deal) == [(1, "2D"), (1, "QS")]
    ev = deal.apply(lead(1, "QS"))
    assert brief(ev) == [
        ("led", 1, "QS"), ("played", 1, "KS"), ("played", 2, "AS"), ("stop", 2, "AS"),
    ]
    assert ev[-1].note == "an ace is the top of its suit"
    assert deal.current_seat == 2
    assert leads(deal) == [(2, "3D"), (2, "9H")]
    assert deal.stacks == STAKED3  # no boodle card (JS is in the spare hand)
    assert deal.layout == LAYOUT3


# -- (d) the same suit led again after a stop (after_stop: any_suit) --------------------

SAME_SUIT_HANDS = [["7C", "9D"], ["2C", "9H"], ["3C", "6C", "2H"]]


def test_same_suit_may_be_led_again_after_a_stop() -> None:
    # seat 0: 7C 9D | seat 1: 2C 9H | seat 2: 3C 6C 2H | 4C and 8C are in the spare hand.
    # Seat 1 leads 2C, seat 2 plays 3C; 4C is spare: stop on 3C. Under basic Boodle
    # ("each player can play any suit they want", ruling 28) seat 2 may lead clubs again
    # (its lowest club 6C) or its lowest heart 2H. It leads 6C; seat 0 plays 7C; 8C is
    # spare: stop on 7C, and seat 0 leads its only card left, 9D.
    _, deal = start(SAME_SUIT_HANDS)
    ev = deal.apply(lead(1, "2C"))
    assert brief(ev) == [("led", 1, "2C"), ("played", 2, "3C"), ("stop", 2, "3C")]
    assert leads(deal) == [(2, "6C"), (2, "2H")]
    ev = deal.apply({"seat": 2, "action": "lead", "card": "6C"})
    assert brief(ev) == [("led", 2, "6C"), ("played", 0, "7C"), ("stop", 0, "7C")]
    assert leads(deal) == [(0, "9D")]
    assert plays(deal) == [(1, "2C"), (2, "3C"), (2, "6C"), (0, "7C")]


def test_must_change_suit_option_forbids_the_stopped_suit() -> None:
    # The same deal under the house rule "Required Change of Suit" (option after_stop:
    # must_change_suit): after the stop on 3C seat 2 must lead another suit if it can, so
    # its only lead is 2H, and leading 6C is refused with code suit_just_stopped.
    _, deal = start(SAME_SUIT_HANDS, options={"after_stop": "must_change_suit"})
    deal.apply(lead(1, "2C"))
    assert leads(deal) == [(2, "2H")]
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as exc:
        deal.apply({"seat": 2, "action": "lead", "card": "6C"})
    assert exc.value.code == "suit_just_stopped"
    assert snapshot(deal) == before


def test_must_change_suit_fallback_defaults_to_same_suit_in_boodle() -> None:
    # ruling 29: for 001 the default is change_suit_fallback: same_suit ("As a last resort,
    # you can play the same suit"), read as "must".
    # seat 0: 4C 7C | seat 1: 2C 6C | seat 2: 3C 9H | 5C is in the spare hand.
    # Seat 1 leads 2C, seat 2 plays 3C, seat 0 plays 4C; 5C spare: stop on 4C. Seat 0 holds
    # only clubs (7C), so as a last resort it leads 7C itself: no lead_passed event.
    _, deal = start([["4C", "7C"], ["2C", "6C"], ["3C", "9H"]],
                    options={"after_stop": "must_change_suit"})
    ev = deal.apply(lead(1, "2C"))
    assert brief(ev) == [
        ("led", 1, "2C"), ("played", 2, "3C"), ("played", 0, "4C"), ("stop", 0, "4C"),
    ]
    assert deal.current_seat == 0
    assert leads(deal) == [(0, "7C")]


# -- (e) a boodle card left in the spare hand carries over -------------------------------


def test_boodle_chips_left_on_layout_carry_over_to_next_deal() -> None:
    # Deal 1, dealer 0. seat 0: 4H QD | seat 1: QC 2H | seat 2: KC 3H | spare: the rest,
    # including AH, JS and AC. Stakes: stacks 42/46/46, 4 chips on each boodle card.
    # Seat 1 leads QC; seat 2 plays KC and takes its 4 chips (ruling 31); AC is spare:
    # stop on KC. Seat 2 leads 3H, its last card: out at once (4H, held by seat 0, is never
    # played). Seat 0 holds 4H QD and pays 2, seat 1 holds 2H and pays 1.
    # AH and JS (spare) and QD (held) were never played: their 4 chips each stay.
    table, deal = start([["4H", "QD"], ["QC", "2H"], ["KC", "3H"]])
    ev = deal.apply(lead(1, "QC"))
    assert brief(ev) == [
        ("led", 1, "QC"), ("played", 2, "KC"), ("claimed", 2, "KC", 4), ("stop", 2, "KC"),
    ]
    ev = deal.apply(lead(2, "3H"))
    assert brief(ev) == [
        ("led", 2, "3H"), ("went_out", 2, "3H"),
        ("paid", 0, 2, 2), ("paid", 1, 2, 1), ("deal_ended", 2),
    ]
    assert deal.stacks == (40, 45, 53)
    assert table.stacks == (40, 45, 53)
    assert table.layout == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}
    assert table.dealer == 1

    # Deal 2, dealer 1: seat 2, seat 0, then the dealer 1 (2 chips) stake on top of the
    # chips left: AH 4+4 = 8, KC 0+4 = 4, QD 8, JS 8. Stacks: seat 0 40-4 = 36,
    # seat 1 45-8 = 37, seat 2 53-4 = 49.
    # seat 0: AH 3C | seat 1: 5D | seat 2: KH 2C. Seat 2 leads KH, seat 0 plays AH and takes
    # all 8 chips on it (the carried 4 included); the ace is a stop; seat 0 leads 3C, its
    # last card: out. Seat 1 (5D) and seat 2 (2C) pay 1 each.
    deal2 = table.new_deal(hands=[["AH", "3C"], ["5D"], ["KH", "2C"]],
                           spare=spare_for([["AH", "3C"], ["5D"], ["KH", "2C"]]))
    assert staked(deal2) == [
        (2, "AH", 1), (2, "KC", 1), (2, "QD", 1), (2, "JS", 1),
        (0, "AH", 1), (0, "KC", 1), (0, "QD", 1), (0, "JS", 1),
        (1, "AH", 2), (1, "KC", 2), (1, "QD", 2), (1, "JS", 2),
    ]
    assert deal2.layout == {"AH": 8, "KC": 4, "QD": 8, "JS": 8}
    assert deal2.stacks == (36, 37, 49)
    assert deal2.current_seat == 2
    ev = deal2.apply(lead(2, "KH"))
    assert brief(ev) == [
        ("led", 2, "KH"), ("played", 0, "AH"), ("claimed", 0, "AH", 8), ("stop", 0, "AH"),
    ]
    ev = deal2.apply(lead(0, "3C"))
    assert brief(ev) == [
        ("led", 0, "3C"), ("went_out", 0, "3C"),
        ("paid", 1, 0, 1), ("paid", 2, 0, 1), ("deal_ended", 0),
    ]
    assert deal2.stacks == (46, 36, 48)
    assert table.layout == {"AH": 0, "KC": 4, "QD": 8, "JS": 8}
    assert sum(table.stacks) + sum(table.layout.values()) == 150

    # the record of deal 2 starts from the carried-over chips and replays to the same end
    rec = deal2.record()
    assert rec["dealer"] == 1
    assert rec["stacks"] == [40, 45, 53]
    assert rec["layout"] == {"AH": 4, "QD": 4, "JS": 4}
    again = stops.replay(rec)
    assert again.stacks == (46, 36, 48)
    assert again.layout == {"AH": 0, "KC": 4, "QD": 8, "JS": 8}


# -- (f) going out in the middle of a sequence ----------------------------------------


def test_going_out_mid_sequence_ends_play_at_once() -> None:
    # seat 0: TD 4S 5S | seat 1: 9D 2S | seat 2: 3S | spare: the rest.
    # Seat 1 leads 2S; seat 2 must play 3S, its last card, and is out: "The game concludes
    # when a player runs out of cards" and play stops at once (ruling 30), although seat 0
    # holds the next card 4S. Seat 0 still holds TD 4S 5S and pays 3; seat 1 holds 9D and
    # pays 1. Stacks 42-3 = 39, 46-1 = 45, 46+4 = 50.
    _, deal = start([["TD", "4S", "5S"], ["9D", "2S"], ["3S"]])
    ev = deal.apply(lead(1, "2S"))
    assert brief(ev) == [
        ("led", 1, "2S"), ("played", 2, "3S"), ("went_out", 2, "3S"),
        ("paid", 0, 2, 3), ("paid", 1, 2, 1), ("deal_ended", 2),
    ]
    assert deal.is_terminal
    assert deal.current_seat is None
    assert deal.phase == "over"
    assert len(deal.legal_actions()) == 0
    assert deal.outcome == "went_out"
    assert deal.winner == 2
    assert plays(deal) == [(1, "2S"), (2, "3S")]
    assert hands_now(deal) == [["TD", "4S", "5S"], ["9D"], []]
    assert deal.stacks == (39, 45, 50)
    assert deal.returns() == (-11, -5, 0)
    assert deal.layout == LAYOUT3


# -- (h) a boodle card pays the player who plays it -------------------------------------


def test_boodle_card_paid_when_played_led_or_forced() -> None:
    # seat 0: 5C 6C | seat 1: 2C KH JS | seat 2: 3C 4C AH | spare: the rest (QS, ...).
    # 1. Seat 1 leads JS (its lowest spade) and takes the 4 chips on JS; QS is spare: stop.
    # 2. Seat 1 leads KH; seat 2 is forced to play AH and takes the 4 chips on AH; the ace
    #    is a stop.
    # 3. Seat 2 leads 3C, its only legal lead, and plays its own 4C: its last card, out.
    #    Seat 0 holds 5C 6C and pays 2, seat 1 holds 2C and pays 1.
    # Stacks: seat 0 42-2 = 40, seat 1 46+4-1 = 49, seat 2 46+4+3 = 53; KC, QD keep 4.
    _, deal = start([["5C", "6C"], ["2C", "KH", "JS"], ["3C", "4C", "AH"]])
    assert leads(deal) == [(1, "2C"), (1, "KH"), (1, "JS")]
    ev = deal.apply(lead(1, "JS"))
    assert brief(ev) == [("led", 1, "JS"), ("claimed", 1, "JS", 4), ("stop", 1, "JS")]
    assert ev[1].note == "played JS"
    assert deal.stacks == (42, 50, 46)
    assert deal.layout == {"AH": 4, "KC": 4, "QD": 4, "JS": 0}
    assert leads(deal) == [(1, "2C"), (1, "KH")]
    ev = deal.apply(lead(1, "KH"))
    assert brief(ev) == [
        ("led", 1, "KH"), ("played", 2, "AH"), ("claimed", 2, "AH", 4), ("stop", 2, "AH"),
    ]
    assert deal.stacks == (42, 50, 50)
    assert leads(deal) == [(2, "3C")]
    ev = deal.apply(lead(2, "3C"))
    assert brief(ev) == [
        ("led", 2, "3C"), ("played", 2, "4C"), ("went_out", 2, "4C"),
        ("paid", 0, 2, 2), ("paid", 1, 2, 1), ("deal_ended", 2),
    ]
    assert deal.stacks == (40, 49, 53)
    assert deal.layout == {"AH": 0, "KC": 4, "QD": 4, "JS": 0}
    assert chips_total(deal) == 150


def test_boodle_card_as_last_card_pays_then_goes_out() -> None:
    # seat 0: 5C | seat 1: QD | seat 2: KD 2H | spare: the rest.
    # Seat 1 leads QD, its only card: it takes the 4 chips on QD ("while the game is being
    # played"), then is out; KD (seat 2) is never played. Seat 0 pays 1, seat 2 pays 2.
    _, deal = start([["5C"], ["QD"], ["KD", "2H"]])
    ev = deal.apply(lead(1, "QD"))
    assert brief(ev) == [
        ("led", 1, "QD"), ("claimed", 1, "QD", 4), ("went_out", 1, "QD"),
        ("paid", 2, 1, 2), ("paid", 0, 1, 1), ("deal_ended", 1),
    ]
    assert deal.stacks == (41, 46 + 4 + 3, 44)
    assert deal.layout == {"AH": 4, "KC": 4, "QD": 0, "JS": 4}


# -- (i) per-card payment from each loser -----------------------------------------------


def test_each_loser_pays_one_chip_per_card_held() -> None:
    # 4 players, dealer 0. Stakes: seat 0 pays 8 -> 42, seats 1-3 pay 4 -> 46, 5 per card.
    # seat 0: 2C 3C 4C 5C 6C | seat 1: 9D | seat 2: TD 2H 3H | seat 3: 2S 3S.
    # Seat 1 leads 9D, its only card, and is out at once (TD, held by seat 2, is not
    # played). Each other player pays 1 per card held (ruling 30), in seat order from the
    # winner's left: seat 2 pays 3, seat 3 pays 2, seat 0 pays 5; seat 1 gets 10.
    _, deal = start([["2C", "3C", "4C", "5C", "6C"], ["9D"], ["TD", "2H", "3H"], ["2S", "3S"]])
    assert deal.stacks == (42, 46, 46, 46)
    ev = deal.apply(lead(1, "9D"))
    assert brief(ev) == [
        ("led", 1, "9D"), ("went_out", 1, "9D"),
        ("paid", 2, 1, 3), ("paid", 3, 1, 2), ("paid", 0, 1, 5), ("deal_ended", 1),
    ]
    assert [e.note for e in ev if e.kind == "paid"] == ["1 per card left"] * 3
    assert deal.stacks == (37, 56, 43, 44)
    assert deal.returns() == (-13, 6, -7, -6)
    assert deal.layout == {"AH": 5, "KC": 5, "QD": 5, "JS": 5}
    assert chips_total(deal) == 200


# -- (j) illegal decisions leave the deal unchanged --------------------------------------

ILLEGAL_HANDS = [["4C", "9D"], ["2C", "5C", "3H"], ["3C", "6C", "8H"]]


@pytest.mark.parametrize(
    ("action", "code"),
    [
        ({"seat": 2, "action": "lead", "card": "3C"}, "not_your_turn"),
        ({"seat": 0, "action": "lead", "card": "4C"}, "not_your_turn"),
        (Action(2, "lead", card=parse_card("3C")), "not_your_turn"),
        ({"seat": 7, "action": "lead", "card": "2C"}, "bad_seat"),
        ({"seat": 1, "action": "lead", "card": "5C"}, "not_lowest_in_suit"),
        ({"seat": 1, "action": "lead", "card": "3C"}, "not_in_hand"),  # seat 2 holds it
        ({"seat": 1, "action": "lead", "card": "AH"}, "not_in_hand"),  # in the spare hand
        ({"seat": 1, "action": "discard", "card": "2C"}, "malformed_action"),
        ({"seat": 1, "action": "lead", "card": "1X"}, "malformed_action"),
        ({"seat": 1, "action": "lead", "card": "2Z"}, "malformed_action"),
        ({"seat": 1, "action": "lead", "card": 0}, "malformed_action"),
        ({"seat": 1, "action": "lead"}, "malformed_action"),
        ({"seat": "1", "action": "lead", "card": "2C"}, "malformed_action"),
        ({"seat": 1, "action": "lead", "card": "2C", "chips": 1}, "malformed_action"),
        ({"seat": 1, "card": "2C"}, "malformed_action"),
        ({"seat": 1, "action": "bid", "chips": 3}, "wrong_action"),
        ({"seat": 1, "action": "keep"}, "wrong_action"),
    ],
)
def test_illegal_decision_raises_and_changes_nothing(action: Any, code: str) -> None:
    # seat 0: 4C 9D | seat 1: 2C 5C 3H | seat 2: 3C 6C 8H. Seat 1 is to lead; its legal
    # leads are its lowest club 2C and lowest heart 3H. 5C is not its lowest club, 3C is
    # seat 2's, AH is in the spare hand.
    _, deal = start(ILLEGAL_HANDS)
    assert leads(deal) == [(1, "2C"), (1, "3H")]
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as exc:
        deal.apply(action)
    assert exc.value.code == code
    assert str(exc.value).startswith(f"[{code}] ")
    assert snapshot(deal) == before
    assert deal.can(action) is False
    # the deal goes on normally afterwards: 2C 3C 4C 5C 6C, 7C is spare -> stop on 6C
    ev = deal.apply(lead(1, "2C"))
    assert brief(ev) == [
        ("led", 1, "2C"), ("played", 2, "3C"), ("played", 0, "4C"), ("played", 1, "5C"),
        ("played", 2, "6C"), ("stop", 2, "6C"),
    ]


def test_illegal_decisions_mid_play_and_after_the_end() -> None:
    # Same hands. After 2C..6C (stop on 6C, 7C spare) seat 2's only card is 8H. Mid-play,
    # seat 1 is out of turn and 6C (played) / 9H (spare) are not seat 2's to lead. Seat 2
    # leads 8H and is out; seat 0 (9D) and seat 1 (3H) pay 1 each.
    _, deal = start(ILLEGAL_HANDS)
    deal.apply(lead(1, "2C"))
    assert leads(deal) == [(2, "8H")]
    for bad, code in [
        ({"seat": 1, "action": "lead", "card": "3H"}, "not_your_turn"),
        ({"seat": 2, "action": "lead", "card": "6C"}, "not_in_hand"),  # already played
        ({"seat": 2, "action": "lead", "card": "9H"}, "not_in_hand"),  # spare
    ]:
        before = snapshot(deal)
        with pytest.raises(IllegalAction) as exc:
            deal.apply(bad)
        assert exc.value.code == code
        assert snapshot(deal) == before
    deal.apply(lead(2, "8H"))
    # stakes 42/46/46; seat 0 and seat 1 pay 1 each to seat 2
    assert deal.stacks == (41, 45, 48)
    before = snapshot(deal)
    with pytest.raises(IllegalAction) as exc:
        deal.apply({"seat": 0, "action": "lead", "card": "9D"})
    assert exc.value.code == "deal_over"
    assert snapshot(deal) == before


# -- (k) the dealer rotates; records replay --------------------------------------------

H_DEAL1 = [["5C", "6C"], ["2C", "KH", "JS"], ["3C", "4C", "AH"]]


def test_dealer_rotates_clockwise_and_records_replay() -> None:
    # Deal 1 (dealer 0) is the deal of test_boodle_card_paid_when_played_led_or_forced:
    # leads JS (seat 1, 3 choices), KH (seat 1, 2 choices), 3C (seat 2, its only lead).
    # Final stacks 40/49/53, JS and AH taken, KC and QD keep 4.
    table, deal = start(H_DEAL1)
    deal.apply(lead(1, "JS"))
    deal.apply(lead(1, "KH"))
    deal.apply(lead(2, "3C"))
    assert deal.stacks == (40, 49, 53)
    rec = deal.record()
    assert rec["variant"] == "boodle"
    assert rec["players"] == 3
    assert rec["dealer"] == 0
    assert rec["stacks"] == [50, 50, 50]
    assert rec["layout"] == {}
    assert rec["hands"] == [["5C", "6C"], ["2C", "KH", "JS"], ["3C", "4C", "AH"]]
    assert rec["spare"] == spare_for(H_DEAL1)
    assert rec["actions"] == [
        {"seat": 1, "action": "lead", "card": "JS"},
        {"seat": 1, "action": "lead", "card": "KH"},
        {"seat": 2, "action": "lead", "card": "3C"},
    ]
    assert rec["result"] == {"stacks": [40, 49, 53], "layout": {"KC": 4, "QD": 4}}

    again = stops.replay(rec)
    assert again.stacks == deal.stacks
    assert again.layout == deal.layout
    assert plays(again) == plays(deal) == [
        (1, "JS"), (1, "KH"), (2, "AH"), (2, "3C"), (2, "4C"),
    ]
    assert again.events == deal.events

    # the forced single-choice lead (seat 2's 3C) may be left out: replay fills it in
    short = dict(rec, actions=rec["actions"][:2])
    again = stops.replay(short)
    assert again.stacks == (40, 49, 53)
    assert again.layout == deal.layout
    assert plays(again) == plays(deal)
    # but a lead with a choice (seat 1's KH, against 2C) may not be left out
    with pytest.raises(stops.RecordError) as exc:
        stops.replay(dict(rec, actions=[rec["actions"][0], rec["actions"][2]]))
    assert exc.value.index == 1
    assert exc.value.seat == 2

    # the deal moves to the left: dealer 1, so seat 2 leads and seat 1 stakes 2
    assert table.dealer == 1
    hands2 = [["3D", "4D"], ["5D"], ["2D"]]
    deal2 = table.new_deal(hands=hands2, spare=spare_for(hands2))
    assert deal2.dealer == 1
    assert deal2.current_seat == 2
    assert [s for s, _, chips in staked(deal2) if chips == 2] == [1, 1, 1, 1]
    # stacks 40/49/53 -> stakes 36/41/49, layout AH 4, KC 8, QD 8, JS 4; seat 2 leads 2D,
    # its only card, and is out: seat 0 pays 2 (3D 4D), seat 1 pays 1 (5D)
    assert deal2.stacks == (36, 41, 49)
    deal2.apply(lead(2, "2D"))
    assert deal2.stacks == (34, 40, 52)
    rec2 = deal2.record()
    assert rec2["dealer"] == 1
    assert rec2["stacks"] == [40, 49, 53]
    assert rec2["layout"] == {"KC": 4, "QD": 4}
    # its only decision is forced, so a record without any action replays too
    again2 = stops.replay(dict(rec2, actions=[]))
    assert again2.stacks == (34, 40, 52)
    assert again2.layout == {"AH": 4, "KC": 8, "QD": 8, "JS": 4}
    assert plays(again2) == [(2, "2D")]

    # dealer 2 next, then back to 0 (clockwise wraps round)
    assert table.dealer == 2
    hands3 = [["2H"], ["3H"], ["4H"]]
    deal3 = table.new_deal(hands=hands3, spare=spare_for(hands3))
    assert deal3.dealer == 2
    assert deal3.current_seat == 0
    assert deal3.stacks == (34 - 4, 40 - 4, 52 - 8)
    with pytest.raises(stops.DealInProgress):
        table.new_deal(hands=hands3, spare=spare_for(hands3))
    # seat 0 leads 2H, its only card: out; seats 1 and 2 pay 1 each
    deal3.apply(lead(0, "2H"))
    assert deal3.stacks == (32, 35, 43)
    assert table.dealer == 0


# -- ruling 1 and 3: shuffled deal sizes and the number of players ----------------------


@pytest.mark.parametrize(
    ("players", "dealer", "sizes", "spare"),
    [
        (3, 0, (13, 13, 13), 13),
        # 4 players: 52 = 5 x 10 + 2, the first two from the dealer's left get 11
        (4, 0, (10, 11, 11, 10), 10),
        (4, 3, (11, 11, 10, 10), 10),
        # 5 players: 52 = 6 x 8 + 4: seats 1-4 get 9, the dealer 8, spare 8
        (5, 0, (8, 9, 9, 9, 9), 8),
        # 6 players: 52 = 7 x 7 + 3: seats 3, 4, 5 (dealer 2's left) get 8
        (6, 2, (7, 7, 7, 8, 8, 8), 7),
    ],
)
def test_shuffled_deal_sizes(players: int, dealer: int, sizes: tuple[int, ...],
                             spare: int) -> None:
    deal = new_table(players, dealer).new_deal()
    obs = deal.observe(0)
    assert obs.hand_sizes == sizes
    assert obs.spare_size == spare
    assert obs.spare is None  # nobody has seen the spare hand


@pytest.mark.parametrize("players", [2, 9])
def test_player_count_outside_three_to_eight_is_refused(players: int) -> None:
    with pytest.raises(stops.TableError):
        new_table(players)


def test_stacked_hands_must_be_the_whole_pack() -> None:
    t = new_table(3)
    hands = [["2C"], ["3C"], ["4C"]]
    with pytest.raises(stops.TableError):
        t.new_deal(hands=hands, spare=spare_for(hands)[1:])
