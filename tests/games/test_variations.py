"""Hand-derived tests for the six built-in variation files (variants/*.yaml that ``extends``).

Each test stacks a deal (hands + spare = exactly the 52-card pack) and derives the expected
result by hand from the seed texts (seed 000 = Three-in-One, 001 = Boodle,
003 = pot-and-kitty) and docs/rulings.md; the comments show the derivation. Nothing here is copied
from the engine's output.

Conventions: seats 0..n-1 clockwise, dealer's left = (dealer + 1) % n; cards
``<rank><suit>`` with ranks 2..9 T J Q K A (ace high, an ace is always a stop); every card
not in a player's hand lies in the spare (dead) hand, so the next card of a suit that is in
the spare hand makes a stop (ruling 6).

Boodle stakes (seed 001, unless free placement): the dealer puts 2 chips on each of AH KC QD
JS and every other player 1. With 3 players and 50 chips: dealer 50 - 8 = 42, the others
50 - 4 = 46, and 2 + 1 + 1 = 4 chips on each boodle card. Boodle's going-out reward is 1 chip
per card still held by each other player (ruling 30).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import stops
from support import lead, plays, poker_winners

PACK = [r + s for s in "CDHS" for r in "23456789TJQKA"]
BOODLE = ("AH", "KC", "QD", "JS")
SIX = (
    "boodle-free-stakes",
    "boodle-spare-auction",
    "boodle-change-suit",
    "boodle-change-suit-pass",
    "three-in-one-on-play",
    "pot-and-kitty-four-kings",
)

# -- helpers -------------------------------------------------------------------------------


def cs(text: str) -> list[str]:
    return text.split()


def spare_for(hands: list[list[str]]) -> list[str]:
    """Every card of the pack not in ``hands`` (checked: no card dealt twice)."""
    used = [c for h in hands for c in h]
    assert len(set(used)) == len(used), "a card is dealt twice"
    return [c for c in PACK if c not in set(used)]


def start(variant: str, hands: list[list[str]], *, dealer: int = 0, chips: int = 50,
          **kw: Any) -> tuple[stops.Table, stops.Deal]:
    spare = spare_for(hands)
    assert sorted([c for h in hands for c in h] + spare) == sorted(PACK)
    table = stops.Table(variant, seats=len(hands), chips=chips, seed=1, dealer=dealer, **kw)
    return table, table.new_deal(hands=hands, spare=spare)


def hand(deal: stops.Deal, seat: int) -> list[str]:
    return sorted(str(c) for c in deal.hand(seat))


def leads(deal: stops.Deal) -> list[tuple[int, str]]:
    out = []
    for a in deal.legal_actions():
        assert a.action == "lead"
        out.append((a.seat, str(a.card)))
    return sorted(out)


def public(deal: stops.Deal, *kinds: str) -> list[stops.Event]:
    return [e for e in deal.events if e.kind in kinds and e.visible_to is None]


def claims(deal: stops.Deal) -> list[tuple[int | None, str | None, int]]:
    return [(e.seat, e.space, e.chips) for e in public(deal, "claimed")]


def stops_at(deal: stops.Deal) -> list[tuple[int | None, str]]:
    return [(e.seat, str(e.card)) for e in public(deal, "stop")]


def total(deal: stops.Deal) -> int:
    return sum(deal.stacks) + sum(deal.layout.values())


def snapshot(deal: stops.Deal) -> tuple[Any, ...]:
    return (len(deal.events), deal.phase, deal.current_seat, deal.stacks,
            tuple(sorted(deal.layout.items())),
            tuple(tuple(hand(deal, s)) for s in range(deal.n)),
            len(deal.legal_actions()), len(deal.record()["actions"]))


def expect_illegal(deal: stops.Deal, action: dict[str, Any]) -> stops.IllegalAction:
    before = snapshot(deal)
    with pytest.raises(stops.IllegalAction) as info:
        deal.apply(action)
    assert snapshot(deal) == before  # the deal is exactly as it was
    return info.value


# == boodle-free-stakes (seed 001 "Free Placement of Chips"; ruling 32) =====================


def test_free_stakes_order_checks_layout_and_boodle_pays_what_was_placed() -> None:
    # ruling 32, stake_rule {use: free, chips: 4}: every seat, the dealer too, places 4 chips
    # on the boodle cards in any split, one seat at a time clockwise from the dealer's left; a
    # seat keeps the turn until its 4 are placed. 4 players, dealer 2: order 3, 0, 1, 2.
    #   seat 3: AH 4                     (all on one card, as the seed allows)
    #   seat 0: AH 1, KC 3
    #   seat 1: QD 2, JS 1, AH 1
    #   seat 2 (dealer): JS 4            (4 like everyone else, no doubling)
    # Layout AH 4+1+1 = 6, KC 3, QD 2, JS 1+4 = 5 (16 = 4 x 4); every stack 50 - 4 = 46.
    hands = [cs("QD KD KH 5C"), cs("AH JS"), cs("TS 3C"), cs("JD 2C")]
    table, deal = start("boodle-free-stakes", hands, dealer=2)
    assert deal.phase == "stake"
    assert deal.current_seat == 3
    assert deal.stacks == (50, 50, 50, 50)
    assert deal.layout == dict.fromkeys(BOODLE, 0)
    # the choices open: any boodle card, 1..4 chips
    assert {(a.space, a.chips) for a in deal.legal_actions()} == {
        (s, k) for s in BOODLE for k in range(1, 5)}
    # a space that is not a boodle card is illegal
    assert expect_illegal(deal, {"seat": 3, "action": "stake", "space": "KH",
                                 "chips": 1}).code == "bad_space"
    # more than the allowance is illegal
    assert expect_illegal(deal, {"seat": 3, "action": "stake", "space": "AH",
                                 "chips": 5}).code == "bad_amount"
    # not seat 0's turn yet
    assert expect_illegal(deal, {"seat": 0, "action": "stake", "space": "AH",
                                 "chips": 1}).code == "not_your_turn"

    order: list[int | None] = []

    def stake(seat: int, space: str, k: int) -> None:
        order.append(deal.current_seat)
        deal.apply({"seat": seat, "action": "stake", "space": space, "chips": k})

    stake(3, "AH", 4)
    assert deal.current_seat == 0
    stake(0, "AH", 1)
    assert deal.current_seat == 0  # 3 chips still to place: seat 0 keeps the turn
    assert {(a.space, a.chips) for a in deal.legal_actions()} == {
        (s, k) for s in BOODLE for k in range(1, 4)}
    # 4 more chips would exceed what is left of seat 0's allowance (3)
    assert expect_illegal(deal, {"seat": 0, "action": "stake", "space": "KC",
                                 "chips": 4}).code == "bad_amount"
    stake(0, "KC", 3)
    stake(1, "QD", 2)
    stake(1, "JS", 1)
    assert deal.current_seat == 1
    stake(1, "AH", 1)
    stake(2, "JS", 4)
    assert order == [3, 0, 0, 1, 1, 1, 2]
    assert [(e.seat, e.space, e.chips) for e in public(deal, "staked")] == [
        (3, "AH", 4), (0, "AH", 1), (0, "KC", 3), (1, "QD", 2), (1, "JS", 1), (1, "AH", 1),
        (2, "JS", 4)]
    assert deal.layout == {"AH": 6, "KC": 3, "QD": 2, "JS": 5}
    assert deal.stacks == (46, 46, 46, 46)

    # Play (spare_protocol none). Seat 3 (dealer's left) leads.
    assert deal.phase == "play"
    assert deal.current_seat == 3
    assert leads(deal) == [(3, "2C"), (3, "JD")]
    # seat 3 leads JD; QD (seat 0) pays QD's 2 chips; KD (seat 0); AD dead: stop at KD.
    lead(deal, 3, "JD")
    # seat 0 leads KH; AH (seat 1) pays AH's 6 chips; an ace is a stop.
    assert leads(deal) == [(0, "5C"), (0, "KH")]
    lead(deal, 0, "KH")
    # seat 1 holds only JS: leads it, JS pays 5, and it is seat 1's last card: out.
    assert leads(deal) == [(1, "JS")]
    lead(deal, 1, "JS")
    assert plays(deal) == [(3, "JD"), (0, "QD"), (0, "KD"), (0, "KH"), (1, "AH"), (1, "JS")]
    assert stops_at(deal) == [(0, "KD"), (1, "AH")]
    assert claims(deal) == [(0, "QD", 2), (1, "AH", 6), (1, "JS", 5)]
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 1
    # per card: seat 0 holds 5C (1), seat 2 TS 3C (2), seat 3 2C (1) -> seat 1 + 4.
    #   seat 0: 46 + 2 - 1 = 47; seat 1: 46 + 6 + 5 + 4 = 61; seat 2: 46 - 2 = 44;
    #   seat 3: 46 - 1 = 45. KC (in the dead hand) keeps its 3 chips.
    assert deal.stacks == (47, 61, 44, 45)
    assert deal.layout == {"AH": 0, "KC": 3, "QD": 0, "JS": 0}
    assert deal.returns() == (-3, 11, -6, -5)
    assert total(deal) == 200
    assert table.layout == {"AH": 0, "KC": 3, "QD": 0, "JS": 0}
    # the record keeps the free stakes and replays to the same result
    rec = deal.record()
    assert [a for a in rec["actions"] if a["action"] == "stake"] == [
        {"seat": 3, "action": "stake", "space": "AH", "chips": 4},
        {"seat": 0, "action": "stake", "space": "AH", "chips": 1},
        {"seat": 0, "action": "stake", "space": "KC", "chips": 3},
        {"seat": 1, "action": "stake", "space": "QD", "chips": 2},
        {"seat": 1, "action": "stake", "space": "JS", "chips": 1},
        {"seat": 1, "action": "stake", "space": "AH", "chips": 1},
        {"seat": 2, "action": "stake", "space": "JS", "chips": 4}]
    again = stops.replay(rec)
    assert again.stacks == (47, 61, 44, 45) and plays(again) == plays(deal)
    # the next deal: the deal has passed to seat 3, so seat 0 places first, on top of the
    # 3 chips carried on KC
    nxt = table.new_deal(hands=hands, spare=spare_for(hands))
    assert nxt.phase == "stake" and nxt.current_seat == 0
    assert nxt.layout == {"AH": 0, "KC": 3, "QD": 0, "JS": 0}
    assert nxt.stacks == (47, 61, 44, 45)


# == boodle-spare-auction (seed 001 "Dealer Takes or Auctions"; ruling 10, 11, 34) ==========

# 3 players, dealer 0 (stakes: 42, 46, 46; 4 on each boodle card).
# seat 0 (dealer): QD 6C        seat 1: 4C JS        spare: 5C KC
# seat 2: the other 46 cards (AH among them).
AUCTION_SPARE = cs("5C KC")
AUCTION_HANDS = [cs("QD 6C"), cs("4C JS")]
AUCTION_HANDS.append([c for c in PACK if c not in
                      {*AUCTION_HANDS[0], *AUCTION_HANDS[1], *AUCTION_SPARE}])


def auction_deal() -> tuple[stops.Table, stops.Deal]:
    table = stops.Table("boodle-spare-auction", seats=3, chips=50, seed=1, dealer=0)
    deal = table.new_deal(hands=AUCTION_HANDS, spare=AUCTION_SPARE)
    assert deal.stacks == (42, 46, 46)
    assert deal.layout == dict.fromkeys(BOODLE, 4)
    assert deal.phase == "spare_hand"
    assert deal.current_seat == 0
    assert sorted(a.action for a in deal.legal_actions()) == ["auction", "keep", "swap"]
    return table, deal


def test_spare_auction_sale_buyer_pays_dealer_and_dealers_left_still_leads() -> None:
    # ruling 11: bidding from the dealer's left, skipping the dealer, open ascending, a pass
    # is final. Seat 1 bids 1, seat 2 bids 2 (a bid of 1 is too low), seat 1 passes: seat 2
    # buys for 2 and pays the dealer (not the layout): stacks 42 + 2 = 44, 46, 46 - 2 = 44.
    # Seat 2 takes 5C KC; its old 46 cards become the dead hand.
    _, deal = auction_deal()
    deal.apply({"seat": 0, "action": "auction"})
    assert deal.current_seat == 1
    deal.apply({"seat": 1, "action": "bid", "chips": 1})
    assert deal.current_seat == 2
    assert expect_illegal(deal, {"seat": 2, "action": "bid", "chips": 1}).code == "bid_too_low"
    deal.apply({"seat": 2, "action": "bid", "chips": 2})
    assert deal.current_seat == 1
    deal.apply({"seat": 1, "action": "pass"})
    sold = public(deal, "sold")
    assert [(e.seat, e.chips, e.to_seat) for e in sold] == [(2, 2, 0)]
    assert deal.stacks == (44, 46, 44)
    assert deal.layout == dict.fromkeys(BOODLE, 4)  # the price does not go to the layout
    assert hand(deal, 2) == ["5C", "KC"]
    assert hand(deal, 0) == ["6C", "QD"] and hand(deal, 1) == ["4C", "JS"]
    # ruling 34: the first leader is still the dealer's left (seat 1).
    assert deal.phase == "play"
    assert deal.current_seat == 1
    assert leads(deal) == [(1, "4C"), (1, "JS")]
    # seat 1 leads 4C; 5C (seat 2, bought); 6C (seat 0); 7C is in the dead hand (seat 2's
    # old hand): stop at 6C. Seat 0 leads QD, its last card: QD pays 4 and seat 0 is out.
    lead(deal, 1, "4C")
    assert plays(deal) == [(1, "4C"), (2, "5C"), (0, "6C")]
    assert stops_at(deal) == [(0, "6C")]
    assert leads(deal) == [(0, "QD")]
    lead(deal, 0, "QD")
    assert deal.winner == 0 and deal.outcome == "went_out"
    assert claims(deal) == [(0, "QD", 4)]
    # per card: seat 1 JS (1), seat 2 KC (1): seat 0 = 44 + 4 + 2 = 50; 45; 43.
    # AH (dead), KC and JS (still held) keep their 4 chips.
    assert deal.stacks == (50, 45, 43)
    assert deal.layout == {"AH": 4, "KC": 4, "QD": 0, "JS": 4}
    assert total(deal) == 150
    again = stops.replay(deal.record())
    assert again.stacks == (50, 45, 43) and plays(again) == plays(deal)


def test_spare_auction_unsold_then_dealer_swaps() -> None:
    # ruling 10 (spare_unsold_dealer_may_swap: true): nobody bids, so the dealer may still
    # keep or swap (not auction again). The dealer swaps: seat 0 holds 5C KC, and QD 6C are
    # dead. No chips move: 42, 46, 46.
    _, deal = auction_deal()
    deal.apply({"seat": 0, "action": "auction"})
    deal.apply({"seat": 1, "action": "pass"})
    assert deal.current_seat == 2
    deal.apply({"seat": 2, "action": "pass"})
    assert [e.seat for e in public(deal, "unsold")] == [0]
    assert deal.current_seat == 0
    assert sorted(a.action for a in deal.legal_actions()) == ["keep", "swap"]
    deal.apply({"seat": 0, "action": "swap"})
    assert hand(deal, 0) == ["5C", "KC"]
    assert deal.stacks == (42, 46, 46)
    assert deal.phase == "play" and deal.current_seat == 1
    # seat 1 leads 4C; 5C (seat 0); 6C is dead now: stop at 5C. Seat 0 leads KC (its last
    # card): KC pays 4 and seat 0 is out. Per card: seat 1 JS (1), seat 2 46 cards (46).
    #   seat 0: 42 + 4 + 1 + 46 = 93; seat 1: 46 - 1 = 45; seat 2: 46 - 46 = 0.
    lead(deal, 1, "4C")
    assert plays(deal) == [(1, "4C"), (0, "5C")]
    assert leads(deal) == [(0, "KC")]
    lead(deal, 0, "KC")
    assert claims(deal) == [(0, "KC", 4)]
    assert deal.winner == 0
    assert deal.stacks == (93, 45, 0)
    assert deal.layout == {"AH": 4, "KC": 0, "QD": 4, "JS": 4}
    assert total(deal) == 150


def test_spare_auction_after_swap_the_old_hand_cannot_be_sold() -> None:
    # spare_sell_old_hand: false (ruling 10): after the dealer swaps, the spare phase is
    # over and play starts at the dealer's left; an auction of the old hand is illegal.
    _, deal = auction_deal()
    deal.apply({"seat": 0, "action": "swap"})
    assert hand(deal, 0) == ["5C", "KC"]
    assert deal.phase == "play"
    assert deal.current_seat == 1
    assert leads(deal) == [(1, "4C"), (1, "JS")]
    expect_illegal(deal, {"seat": 0, "action": "auction"})
    assert public(deal, "auction_opened") == []
    assert deal.stacks == (42, 46, 46)


def test_spare_auction_four_players_bidding_order() -> None:
    # 4 players, dealer 2: stakes dealer 8, others 4 -> (46, 46, 42, 46), 5 on each card.
    # ruling 11: bidders from the dealer's left, skipping the dealer: 3, 0, 1, round and
    # round, a pass is final. 3 bids 1, 0 passes, 1 bids 2, 3 bids 3, 1 passes: 3 buys for
    # 3 and pays the dealer: (46, 46, 45, 43). Seat 3 now holds the 44-card spare, and its
    # old 8C 9C are dead. Seat 3 is also the dealer's left: it leads (TC 2D 2H 2S offered).
    hands = [cs("2C 3C"), cs("4C 5C"), cs("6C 7C"), cs("8C 9C")]
    _, deal = start("boodle-spare-auction", hands, dealer=2)
    assert deal.stacks == (46, 46, 42, 46)
    assert deal.layout == dict.fromkeys(BOODLE, 5)
    assert deal.current_seat == 2
    deal.apply({"seat": 2, "action": "auction"})
    turns = []
    for act in ({"seat": 3, "action": "bid", "chips": 1}, {"seat": 0, "action": "pass"},
                {"seat": 1, "action": "bid", "chips": 2}, {"seat": 3, "action": "bid",
                                                           "chips": 3},
                {"seat": 1, "action": "pass"}):
        turns.append(deal.current_seat)
        deal.apply(act)
    assert turns == [3, 0, 1, 3, 1]
    assert [(e.seat, e.chips, e.to_seat) for e in public(deal, "sold")] == [(3, 3, 2)]
    assert deal.stacks == (46, 46, 45, 43)
    assert len(deal.hand(3)) == 44 and "8C" not in hand(deal, 3)
    assert deal.phase == "play" and deal.current_seat == 3
    assert leads(deal) == [(3, "2D"), (3, "2H"), (3, "2S"), (3, "TC")]


def test_spare_auction_keep() -> None:
    # The dealer keeps: nothing changes and play starts at the dealer's left.
    _, deal = auction_deal()
    deal.apply({"seat": 0, "action": "keep"})
    assert hand(deal, 0) == ["6C", "QD"]
    assert deal.phase == "play" and deal.current_seat == 1
    assert deal.stacks == (42, 46, 46)


# == boodle-change-suit (seed 001 "Required Change of Suit", option 1; ruling 29) ==========


def test_change_suit_required_and_same_suit_as_last_resort() -> None:
    # 3 players, dealer 0 (42, 46, 46; 4 on each boodle card); seat 1 leads.
    #   seat 0: 2H 3H    seat 1: 4C 5C 8C 9D    seat 2: TD QD
    # seat 1 leads 4C, plays 5C too; 6C dead: stop at 5C. The next lead must change suit:
    # seat 1 may lead only 9D (8C is a club) -> 8C raises suit_just_stopped.
    # 9D; TD (seat 2); JD dead: stop at TD. Seat 2 holds only QD, a diamond: as a last resort
    # it leads the stopped suit. QD pays 4; QD was seat 2's last card: out.
    # Per card: seat 0 2 cards, seat 1 1 card (8C): seat 2 = 46 + 4 + 3 = 53; 40; 45.
    hands = [cs("2H 3H"), cs("4C 5C 8C 9D"), cs("TD QD")]
    _, deal = start("boodle-change-suit", hands)
    assert deal.stacks == (42, 46, 46)
    assert deal.current_seat == 1
    assert leads(deal) == [(1, "4C"), (1, "9D")]
    lead(deal, 1, "4C")
    assert stops_at(deal) == [(1, "5C")]
    assert leads(deal) == [(1, "9D")]
    err = expect_illegal(deal, {"seat": 1, "action": "lead", "card": "8C"})
    assert err.code == "suit_just_stopped"
    lead(deal, 1, "9D")
    assert stops_at(deal) == [(1, "5C"), (2, "TD")]
    assert deal.current_seat == 2
    assert leads(deal) == [(2, "QD")]  # only the stopped suit: lead it anyway
    lead(deal, 2, "QD")
    assert public(deal, "lead_passed") == []
    assert plays(deal) == [(1, "4C"), (1, "5C"), (1, "9D"), (2, "TD"), (2, "QD")]
    assert claims(deal) == [(2, "QD", 4)]
    assert deal.winner == 2 and deal.outcome == "went_out"
    assert deal.stacks == (40, 45, 53)
    assert deal.layout == {"AH": 4, "KC": 4, "QD": 0, "JS": 4}
    assert total(deal) == 150


def test_change_suit_applies_after_an_ace() -> None:
    # ruling 29: the rule also applies after an ace. 3 players, dealer 0; seat 1 leads.
    #   seat 0: 2S 3S    seat 1: 5H KH 9C 2D    seat 2: AH 4D
    # seat 1 leads 5H (its lowest heart); 6H dead: stop. Must change: 2D or 9C. 9C; TC dead:
    # stop. Now clubs are barred, hearts allowed: 2D or KH. KH; AH (seat 2) pays AH's 4;
    # an ace is a stop. Seat 2 must change from hearts: 4D, its last card: out.
    # Per card: seat 0 2, seat 1 1 (2D): seat 2 = 46 + 4 + 3 = 53; 40; 45.
    hands = [cs("2S 3S"), cs("KH 5H 9C 2D"), cs("AH 4D")]
    _, deal = start("boodle-change-suit", hands)
    lead(deal, 1, "5H")
    assert leads(deal) == [(1, "2D"), (1, "9C")]
    lead(deal, 1, "9C")
    assert leads(deal) == [(1, "2D"), (1, "KH")]
    lead(deal, 1, "KH")
    assert stops_at(deal)[-1] == (2, "AH")
    assert leads(deal) == [(2, "4D")]
    lead(deal, 2, "4D")
    assert claims(deal) == [(2, "AH", 4)]
    assert deal.winner == 2
    assert deal.stacks == (40, 45, 53)
    assert deal.layout == {"AH": 0, "KC": 4, "QD": 4, "JS": 4}


# == boodle-change-suit-pass (option 2: pass to the left; ruling 24, 29) ===================


def test_change_suit_pass_lead_passed_and_receiver_must_change_suit() -> None:
    # 3 players, dealer 0 (42, 46, 46; 4 on each boodle card, all four in the dead hand).
    #   seat 0: 2H 3H    seat 1: 4C 5C 9C    seat 2: 7C 3D
    # seat 1 leads 4C, 5C; 6C dead: stop at 5C. Seat 1 holds only 9C (a club): the lead
    # passes to seat 2 (event lead_passed 1 -> 2). Seat 2 must also change suit (ruling 24,
    # pass_lead_keeps_forbidden_suit): 3D only; 7C raises suit_just_stopped. 3D; 4D dead:
    # stop. Seat 2 leads 7C (diamonds just stopped, clubs allowed), its last card: out.
    # Per card: seat 0 2, seat 1 1 (9C): seat 2 = 46 + 3 = 49; 40; 45. Layout unchanged.
    hands = [cs("2H 3H"), cs("4C 5C 9C"), cs("7C 3D")]
    _, deal = start("boodle-change-suit-pass", hands)
    lead(deal, 1, "4C")
    assert stops_at(deal) == [(1, "5C")]
    assert [(e.seat, e.to_seat) for e in public(deal, "lead_passed")] == [(1, 2)]
    assert deal.current_seat == 2
    assert leads(deal) == [(2, "3D")]
    err = expect_illegal(deal, {"seat": 2, "action": "lead", "card": "7C"})
    assert err.code == "suit_just_stopped"
    lead(deal, 2, "3D")
    assert leads(deal) == [(2, "7C")]
    lead(deal, 2, "7C")
    assert plays(deal) == [(1, "4C"), (1, "5C"), (2, "3D"), (2, "7C")]
    assert deal.outcome == "went_out" and deal.winner == 2
    assert deal.stacks == (40, 45, 49)
    assert deal.layout == dict.fromkeys(BOODLE, 4)
    assert total(deal) == 150


def test_change_suit_pass_nobody_can_change_blocked_nobody_pays() -> None:
    # 3 players, dealer 0.   seat 0: JC KC    seat 1: 4C 5C 9C    seat 2: 7C
    # seat 1 leads 4C, 5C; 6C dead: stop at 5C. Seat 1 has only clubs -> passes to seat 2,
    # only clubs -> passes to seat 0, only clubs: nobody has another suit, so the round ends
    # (outcome blocked) and "the players do not have to pay for any cards left": the stacks
    # stay as after the stakes (42, 46, 46) and the layout keeps 4 on each card (KC is held
    # by seat 0 but never played, so it pays nothing).
    hands = [cs("JC KC"), cs("4C 5C 9C"), cs("7C")]
    table, deal = start("boodle-change-suit-pass", hands)
    lead(deal, 1, "4C")
    assert deal.is_terminal
    assert deal.outcome == "blocked"
    assert deal.winner is None
    passes = [(e.seat, e.to_seat) for e in public(deal, "lead_passed")]
    assert passes[:2] == [(1, 2), (2, 0)]
    assert len(public(deal, "blocked")) == 1
    assert public(deal, "paid") == [] and claims(deal) == []
    assert deal.stacks == (42, 46, 46)
    assert deal.layout == dict.fromkeys(BOODLE, 4)
    assert deal.returns() == (-8, -4, -4)  # the stakes only
    assert table.stacks == (42, 46, 46)
    assert table.layout == dict.fromkeys(BOODLE, 4)
    assert table.dealer == 1  # a block ends the deal as usual: the deal passes left


# == three-in-one-on-play (seed 000 variation; ruling 16) ==================================


def poker_all_check(deal: stops.Deal, picks: dict[int, str]) -> None:
    """Each seat from the dealer's left selects its five cards, then everyone checks."""
    n = deal.n
    order = [(deal.dealer + k) % n for k in range(1, n + 1)]
    for seat in order:
        assert deal.phase == "poker" and deal.current_seat == seat
        deal.apply({"seat": seat, "action": "select", "cards": cs(picks[seat])})
    for seat in order:
        assert deal.phase == "poker" and deal.current_seat == seat
        deal.apply({"seat": seat, "action": "check"})


SPACES_3 = ("AH", "KH", "QH", "JH", "TH", "KQ", "8-9-10", "pot", "kitty")


def test_on_play_pay_cards_pay_the_player_who_plays_them() -> None:
    # Stakes: 3 players x 1 on each of 9 spaces: stacks 50 - 9 = 41, 3 chips on each space.
    #   seat 0 (dealer): JH 2D 3D 4D 6S
    #   seat 1: 8S 9S TS QH KH 8C 8D
    #   seat 2: AH 2C 3C 4C 7D
    #   dead:   everything else (TH among it).
    # No stage one (flow has no claim_held): seat 2 holds AH, seat 1 KH QH and 8-9-10 of
    # spades, yet nothing is paid after the spare phase.
    # Poker (from the dealer's left 1, 2, 0): seat 1 shows 8S 8C 8D KH QH (three eights),
    # seat 2 AH 2C 3C 4C 7D (ace high), seat 0 JH 2D 3D 4D 6S (jack high). All check: seat 1
    # wins the pot 3 -> 44, and leads.
    # Play: 8S, 9S, TS (all seat 1); JS dead: stop at TS. Seat 1 is the first to play 8, 9
    # and 10 of one suit: 8-9-10 pays it the whole space, 3 -> 47.
    # Must change suit: 8C, 8D or QH. QH (+3), KH (+3) and, having played both, KQ (+3)
    # -> 56; AH (seat 2) pays AH 3 -> 44; an ace: stop.
    # Seat 2 must change from hearts: 2C, 3C, 4C; 5C dead: stop at 4C. Must change from
    # clubs: 7D, seat 2's last card: out. Kitty 3 -> 47, seat 0 pays 5 (JH 2D 3D 4D 6S),
    # seat 1 pays 2 (8C 8D): seat 2 = 54, seat 0 = 36, seat 1 = 54.
    # Never played: JH (held by seat 0 when seat 2 went out) and TH (dead hand) collect
    # nothing and carry over with their 3 chips.
    hands = [cs("JH 2D 3D 4D 6S"), cs("8S 9S TS QH KH 8C 8D"), cs("AH 2C 3C 4C 7D")]
    table, deal = start("three-in-one-on-play", hands)
    assert deal.stacks == (41, 41, 41)
    assert deal.layout == dict.fromkeys(SPACES_3, 3)
    assert deal.phase == "spare_hand" and deal.current_seat == 0
    deal.apply({"seat": 0, "action": "keep"})
    assert deal.phase == "poker"
    assert claims(deal) == []  # holding AH (or KH QH, or 8S 9S TS) pays nothing
    assert deal.layout == dict.fromkeys(SPACES_3, 3)
    poker_all_check(deal, {1: "8S 8C 8D KH QH", 2: "AH 2C 3C 4C 7D", 0: "JH 2D 3D 4D 6S"})
    assert poker_winners(deal) == (1,)
    assert claims(deal) == [(1, "pot", 3)]
    assert deal.stacks == (41, 44, 41)
    assert deal.phase == "play" and deal.current_seat == 1
    # the cards are back in the hand: any suit, lowest in it
    assert leads(deal) == [(1, "8C"), (1, "8D"), (1, "8S"), (1, "QH")]
    lead(deal, 1, "8S")
    assert claims(deal)[-1] == (1, "8-9-10", 3)
    assert leads(deal) == [(1, "8C"), (1, "8D"), (1, "QH")]
    lead(deal, 1, "QH")
    assert sorted(claims(deal)[2:]) == [(1, "KH", 3), (1, "KQ", 3), (1, "QH", 3),
                                         (2, "AH", 3)]
    assert deal.stacks == (41, 56, 44)
    assert leads(deal) == [(2, "2C"), (2, "7D")]
    lead(deal, 2, "2C")
    assert leads(deal) == [(2, "7D")]
    lead(deal, 2, "7D")
    assert plays(deal) == [(1, "8S"), (1, "9S"), (1, "TS"), (1, "QH"), (1, "KH"), (2, "AH"),
                           (2, "2C"), (2, "3C"), (2, "4C"), (2, "7D")]
    assert deal.outcome == "went_out" and deal.winner == 2
    assert claims(deal)[-1] == (2, "kitty", 3)
    assert deal.stacks == (36, 54, 54)
    assert deal.layout == {"AH": 0, "KH": 0, "QH": 0, "JH": 3, "TH": 3, "KQ": 0,
                           "8-9-10": 0, "pot": 0, "kitty": 0}
    assert deal.returns() == (-14, 4, 4)
    assert total(deal) == 150
    assert table.layout["JH"] == 3 and table.layout["TH"] == 3  # carried over
    again = stops.replay(deal.record())
    assert again.stacks == (36, 54, 54) and plays(again) == plays(deal)


def test_on_play_kq_needs_both_cards_and_first_eight_nine_ten_takes_all() -> None:
    # Stakes as above (41 each, 3 on every space).
    #   seat 0 (dealer): 2H 3H 4S 6S 7S           (seven high)
    #   seat 1: 8C 9C TC QH 2D 2S                 (selects 2D 2S 8C 9C TC: a pair of twos)
    #   seat 2: KH 8D 9D TD 5S                    (king high)
    #   dead: the rest (AH among it).
    # Poker all check: seat 1 wins the pot 3 -> 44 and leads.
    # 8C 9C TC (seat 1); JC dead: stop. Seat 1 is first with 8-9-10: the whole space, 3 -> 47.
    # Must change: QH (+3 -> 50); KH (seat 2, +3 -> 44); AH dead: stop at KH. QH and KH were
    # played by different players: KQ pays nobody.
    # Seat 2 must change from hearts: 8D or 5S. 8D 9D TD (seat 2); JD dead: stop. Seat 2 also
    # played 8-9-10 of one suit, but the first player took the whole space: nothing.
    # Seat 2 leads 5S (its last card): out. Kitty 3 -> 47; seat 0 pays 5; seat 1 pays 2
    # (2D 2S): seat 2 = 54, seat 0 = 36, seat 1 = 48. AH (dead), JH, TH (dead), KQ keep 3.
    hands = [cs("2H 3H 4S 6S 7S"), cs("8C 9C TC QH 2D 2S"), cs("KH 8D 9D TD 5S")]
    _, deal = start("three-in-one-on-play", hands)
    deal.apply({"seat": 0, "action": "keep"})
    assert claims(deal) == []
    poker_all_check(deal, {1: "2D 2S 8C 9C TC", 2: "KH 8D 9D TD 5S", 0: "2H 3H 4S 6S 7S"})
    assert poker_winners(deal) == (1,)
    assert deal.current_seat == 1
    lead(deal, 1, "8C")
    lead(deal, 1, "QH")
    assert stops_at(deal)[-1] == (2, "KH")
    assert leads(deal) == [(2, "5S"), (2, "8D")]
    lead(deal, 2, "8D")
    assert leads(deal) == [(2, "5S")]
    lead(deal, 2, "5S")
    assert deal.winner == 2
    assert claims(deal) == [(1, "pot", 3), (1, "8-9-10", 3), (1, "QH", 3), (2, "KH", 3),
                            (2, "kitty", 3)]
    assert deal.stacks == (36, 48, 54)
    assert deal.layout == {"AH": 3, "KH": 0, "QH": 0, "JH": 3, "TH": 3, "KQ": 3,
                           "8-9-10": 0, "pot": 0, "kitty": 0}
    assert total(deal) == 150


# == pot-and-kitty-four-kings (seed 003 "the four Kings"; ruling 35, 47) =====================


def test_four_kings_key_card_pays_only_its_exact_card() -> None:
    # Layout KH KC KD KS pot kitty. 3 players, dealer 0, 20 chips. Stakes (ruling 35) from
    # the dealer's left: seat 1 KC, seat 2 KC, seat 0 KD, each + 1 pot + 1 kitty:
    # KC 2, KD 1, pot 3, kitty 3; stacks 17 each. Everyone keeps their hand.
    #   seat 0: 6S 7S    seat 1: 2H QC 5H    seat 2: KC 5D
    # seat 1 opens 2H; 3H dead: stop. Switch to black: QC (its only black card). QC is not a
    # key card here: it pays nothing (the KC space is not paid by QC). KC (seat 2) follows
    # and pays KC's 2 chips; AC dead: stop. Seat 2 switches to red: 5D, its last card: out,
    # and wins the kitty 3 (kitty_only, ruling 44). QC-KC is not one player's run.
    # seat 2 = 17 + 2 + 3 = 22; KC and kitty are won and retire; KD 1 and pot 3 stay.
    table = stops.Table("pot-and-kitty-four-kings", seats=3, chips=20, seed=1, dealer=0)
    assert table.layout == dict.fromkeys(["KH", "KC", "KD", "KS", "pot", "kitty"], 0)
    hands = [cs("6S 7S"), cs("2H QC 5H"), cs("KC 5D")]
    deal = table.new_deal(hands=hands, spare=spare_for(hands))
    assert deal.phase == "stake" and deal.current_seat == 1
    assert [a.space for a in deal.legal_actions()] == ["KH", "KC", "KD", "KS"]
    assert expect_illegal(deal, {"seat": 1, "action": "stake", "space": "QC"}).code == (
        "bad_space")
    for seat, space in ((1, "KC"), (2, "KC"), (0, "KD")):
        assert deal.current_seat == seat
        deal.apply({"seat": seat, "action": "stake", "space": space})
    assert deal.layout == {"KH": 0, "KC": 2, "KD": 1, "KS": 0, "pot": 3, "kitty": 3}
    assert deal.stacks == (17, 17, 17)
    while deal.phase == "spare_hand":
        seat = deal.current_seat
        assert seat is not None
        deal.apply({"seat": seat, "action": "keep"})
    assert deal.phase == "play" and deal.current_seat == 1
    events = lead(deal, 1, "2H")
    assert [(e.seat, str(e.card)) for e in events if e.kind in ("led", "played")] == [
        (1, "2H")]
    assert leads(deal) == [(1, "QC")]
    events = lead(deal, 1, "QC")
    # QC is played first and pays nothing; the KC claim comes with the king itself
    kinds = [(e.kind, e.seat, str(e.card) if e.card is not None else e.space)
             for e in events if e.visible_to is None
             and e.kind in ("led", "played", "claimed", "went_out")]
    assert kinds[:3] == [("led", 1, "QC"), ("played", 2, "KC"), ("claimed", 2, "KC")]
    assert leads(deal) == [(2, "5D")]
    lead(deal, 2, "5D")
    assert plays(deal) == [(1, "2H"), (1, "QC"), (2, "KC"), (2, "5D")]
    assert claims(deal) == [(2, "KC", 2), (2, "kitty", 3)]
    assert deal.winner == 2
    assert deal.stacks == (17, 17, 22)
    assert deal.layout == {"KH": 0, "KC": 0, "KD": 1, "KS": 0, "pot": 3, "kitty": 0}
    assert deal.retired == {"KC", "kitty"}
    assert total(deal) == 60


def test_four_kings_queen_played_king_dead_pays_nothing() -> None:
    # Same stakes (KC 2, KD 1, pot 3, kitty 3; 17 each). KC lies in the dead hand.
    #   seat 0: 6S 7S    seat 1: 2H QC 5H    seat 2: 4D 5D
    # 2H (seat 1); 3H dead: stop. Black: QC; KC dead: stop. QC pays nothing: KC keeps its 2.
    # Red: 5H (seat 1's lowest red, its last card): out, kitty 3 -> seat 1 = 20.
    table = stops.Table("pot-and-kitty-four-kings", seats=3, chips=20, seed=1, dealer=0)
    hands = [cs("6S 7S"), cs("2H QC 5H"), cs("4D 5D")]
    deal = table.new_deal(hands=hands, spare=spare_for(hands))
    for seat, space in ((1, "KC"), (2, "KC"), (0, "KD")):
        deal.apply({"seat": seat, "action": "stake", "space": space})
    while deal.phase == "spare_hand":
        seat = deal.current_seat
        assert seat is not None
        deal.apply({"seat": seat, "action": "keep"})
    lead(deal, 1, "2H")
    lead(deal, 1, "QC")
    assert stops_at(deal) == [(1, "2H"), (1, "QC")]
    assert leads(deal) == [(1, "5H")]
    lead(deal, 1, "5H")
    assert claims(deal) == [(1, "kitty", 3)]
    assert deal.stacks == (17, 20, 17)
    assert deal.layout == {"KH": 0, "KC": 2, "KD": 1, "KS": 0, "pot": 3, "kitty": 0}


# == all six: registered, loadable, 20 seeded random deals with chips conserved =============


def test_list_variants_has_the_six_variations() -> None:
    names = set(stops.list_variants())
    assert set(SIX) <= names
    for name in SIX:
        assert stops.load_variant(name).name == name


@pytest.mark.parametrize("name", SIX)
def test_twenty_random_deals_conserve_chips(name: str) -> None:
    rng = random.Random(f"variations/{name}")
    seats, chips = 4, 50
    table = stops.Table(name, seats=seats, chips=chips, seed=2024, dealer=0)
    grand = seats * chips
    for i in range(20):
        if table.is_over:  # a session limit (e.g. 10 deals) was reached: carry on anew
            table = stops.Table(name, seats=seats, chips=list(table.stacks), seed=2024 + i,
                                dealer=table.dealer, layout=table.layout)
        assert table.total_chips() == grand
        deal = table.new_deal()
        steps = 0
        while not deal.is_terminal:
            legal = deal.legal_actions()
            assert len(legal) > 0
            deal.apply(legal[rng.randrange(len(legal))])
            steps += 1
            assert steps < 5000
            assert total(deal) == grand
        assert deal.phase == "over"
        assert deal.outcome in ("went_out", "blocked", "redeal")
        assert total(deal) == grand
        assert table.total_chips() == grand
