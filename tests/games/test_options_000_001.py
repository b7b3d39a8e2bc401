"""Hand-derived tests for the non-default options of docs/rulings.md for seeds 000 (Three-in-One)
and 001 (Boodle): rulings 1-34, option names as in docs/house-rules.md.

Every test stacks the deal (hands + spare = exactly the 52-card pack, dealer given) unless it
is about the shuffled deal itself, and derives the expected chips, layout, events and legal
actions by hand in comments. Where it makes the point, the same deal is also run under the
default to show that the option changes the outcome.

Conventions: seats 0..n-1 clockwise; dealer's left = (dealer + 1) % n; cards "<rank><suit>".
Three-in-One stakes are 1 chip on each of its 9 spaces (9 per seat); Boodle stakes are dealer
2, others 1 on each of its 4 boodle cards (8 and 4 per seat).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import stops
from support import lead, plays, poker_winners

RANKS = "23456789TJQKA"
SUITS = "CDHS"
PACK = [r + s for s in SUITS for r in RANKS]
TIO = "three-in-one"
TIO_SPACES = ("AH", "KH", "QH", "JH", "TH", "KQ", "8-9-10", "pot", "kitty")
BOODLE_SPACES = ("AH", "KC", "QD", "JS")


# -- helpers ----------------------------------------------------------------------------


def cs(text: str) -> list[str]:
    return text.split()


def rest(*groups: list[str]) -> list[str]:
    """The cards of the pack in none of ``groups``, in pack order (C, D, H, S; 2..A)."""
    used = [c for g in groups for c in g]
    assert len(used) == len(set(used)), "a card is used twice"
    assert set(used) <= set(PACK)
    taken = set(used)
    return [c for c in PACK if c not in taken]


def check_pack(hands: list[list[str]], spare: list[str]) -> None:
    assert sorted([c for h in hands for c in h] + spare) == sorted(PACK)


def stacked(variant: Any, hands: list[list[str]], spare: list[str], *, dealer: int = 0,
            chips: int | list[int] = 50, options: dict[str, Any] | None = None,
            layout: dict[str, int] | None = None, deals: int | None = None,
            ) -> tuple[stops.Table, stops.Deal]:
    check_pack(hands, spare)
    table = stops.Table(variant, seats=len(hands), chips=chips, seed=1, dealer=dealer,
                        layout=layout or {}, options=options, deals=deals)
    return table, table.new_deal(hands=hands, spare=spare)


def public(deal: stops.Deal, *kinds: str) -> list[stops.Event]:
    return [e for e in deal.events if e.kind in kinds and e.visible_to is None]


def brief(events: list[stops.Event]) -> list[tuple[Any, ...]]:
    return [(e.kind, e.seat, e.chips, e.space, e.to_seat) for e in events]


def legal(deal: stops.Deal) -> list[dict[str, Any]]:
    return [a.to_dict() for a in deal.legal_actions()]


def hand(deal: stops.Deal, seat: int) -> set[str]:
    return {str(c) for c in deal.observe(seat).hand}


def total(deal: stops.Deal) -> int:
    return sum(deal.stacks) + sum(deal.layout.values())


def expect_illegal(deal: stops.Deal, action: dict[str, Any], code: str) -> None:
    before = (deal.stacks, deal.layout, len(deal.events), deal.current_seat, deal.phase)
    with pytest.raises(stops.IllegalAction) as info:
        deal.apply(action)
    assert info.value.code == code
    assert (deal.stacks, deal.layout, len(deal.events), deal.current_seat,
            deal.phase) == before


def keep(deal: stops.Deal) -> None:
    """Three-in-One: the dealer keeps their hand (spare-hand phase)."""
    assert deal.phase == "spare_hand" and deal.current_seat == deal.dealer
    deal.apply({"seat": deal.dealer, "action": "keep"})


def select_all(deal: stops.Deal, picks: dict[int, str]) -> None:
    """Seats select their poker cards in the order given (from the dealer's left)."""
    for seat, cards in picks.items():
        assert deal.phase == "poker" and deal.current_seat == seat
        deal.apply({"seat": seat, "action": "select", "cards": cs(cards)})


def all_check(deal: stops.Deal, seats: list[int]) -> None:
    for seat in seats:
        assert deal.phase == "poker" and deal.current_seat == seat
        deal.apply({"seat": seat, "action": "check"})


def quick_boodle(dealer: int, n: int = 3) -> tuple[list[list[str]], list[str]]:
    """A Boodle deal that ends at the first lead: the dealer's left holds only 2C (so leading
    it goes out at once), the spare is 3C, and the 50 other cards are split 25 / 25 between
    the other two seats (the next seat clockwise gets the first 25 in pack order: 4C..AC,
    2D..AD, 2H; the dealer the last 25: 3H..AH, 2S..AS). No boodle card is ever played."""
    assert n == 3
    left, second = (dealer + 1) % n, (dealer + 2) % n
    others = rest(["2C", "3C"])
    hands: list[list[str]] = [[], [], []]
    hands[left] = ["2C"]
    hands[second] = others[:25]
    hands[dealer] = others[25:]
    return hands, ["3C"]


def play_quick(table: stops.Table) -> stops.Deal:
    hands, spare = quick_boodle(table.dealer)
    deal = table.new_deal(hands=hands, spare=spare)
    left = (table.dealer + 1) % 3
    assert deal.current_seat == left and legal(deal) == [
        {"seat": left, "action": "lead", "card": "2C"}]
    lead(deal, left, "2C")
    assert deal.is_terminal and deal.winner == left
    return deal


# -- ruling 1: deal_spare_position -----------------------------------------------------


def test_deal_spare_position_first_spare_takes_the_first_extra_card() -> None:
    def dealt(options: dict[str, Any] | None, dealer: int
              ) -> tuple[tuple[int, ...], int, list[set[str]], set[str]]:
        deal = stops.Table("boodle", seats=4, seed=7, dealer=dealer,
                           options=options).new_deal()
        obs = deal.observe(0)
        hands = [hand(deal, s) for s in range(4)]
        spare = set(PACK) - set().union(*hands)
        assert len(spare) == obs.spare_size
        return obs.hand_sizes, obs.spare_size, hands, spare

    # 4 players + spare = 5 recipients; 52 = 5 * 10 + 2: the first two recipients of each
    # round (counting from the dealer's left) get 11, the rest 10.
    # Default (a): seat 1, seat 2, seat 3, seat 0, spare -> seats 1 and 2 get 11.
    sizes_d, spare_d_size, hands_d, spare_d = dealt(None, 0)
    assert sizes_d == (10, 11, 11, 10) and spare_d_size == 10
    # first (b): spare, seat 1, seat 2, seat 3, seat 0 -> the spare and seat 1 get 11.
    first = {"deal_spare_position": "first"}
    sizes_f, spare_f_size, hands_f, spare_f = dealt(first, 0)
    assert sizes_f == (10, 11, 10, 10) and spare_f_size == 11
    # Same seed, same shuffled pack, dealt one card at a time: each card goes to the same
    # place in the round, and that place is taken by the next recipient along.
    assert spare_f == hands_d[1]
    assert (hands_f[1], hands_f[2], hands_f[3]) == (hands_d[2], hands_d[3], hands_d[0])
    assert hands_f[0] == spare_d
    # Dealer 2 under first: spare, seat 3, seat 0, seat 1, seat 2 -> spare and seat 3 get 11.
    sizes_2, spare_2, _, _ = dealt(first, 2)
    assert sizes_2 == (10, 10, 10, 11) and spare_2 == 11


# -- ruling 2: dealer_rotation, first_dealer -------------------------------------------


@pytest.mark.parametrize(("options", "dealers", "after"), [
    (None, [0, 1, 2], 0),                          # clockwise: 0 -> 1 -> 2 -> 0
    ({"dealer_rotation": "fixed"}, [0, 0, 0], 0),  # fixed: seat 0 deals every time
])
def test_dealer_rotation_fixed_keeps_the_dealer(options: dict[str, Any] | None,
                                                dealers: list[int], after: int) -> None:
    table = stops.Table("boodle", seats=3, chips=100, seed=1, dealer=0, options=options)
    seen = []
    for _ in range(3):
        deal = play_quick(table)
        seen.append(deal.dealer)
        assert deal.events[0].kind == "deal_started" and deal.events[0].seat == deal.dealer
        # the dealer of that deal stakes 2 on each boodle card, the others 1
        staked = {(e.seat, e.space): e.chips for e in public(deal, "staked")}
        assert staked == {(s, sp): (2 if s == deal.dealer else 1)
                          for s in range(3) for sp in BOODLE_SPACES}
    assert seen == dealers
    assert table.dealer == after
    if options:
        # every deal: seat 1 (dealer's left) went out holding 1 card; seats 2 and 0 paid 25
        # each. 3 deals: seat 0: 100 - 3 * (8 + 25) = 1; seat 1: 100 + 3 * (50 - 4) = 238;
        # seat 2: 100 - 3 * (4 + 25) = 13.
        assert table.stacks == (1, 238, 13)


def test_first_dealer_random_is_seeded_and_a_given_dealer_overrides() -> None:
    rnd = {"first_dealer": "random"}
    dealers = [stops.Table("boodle", seats=4, seed=s, options=rnd).dealer for s in range(40)]
    # deterministic: the same seed draws the same first dealer
    assert dealers == [stops.Table("boodle", seats=4, seed=s, options=rnd).dealer
                       for s in range(40)]
    # a draw standing in for the cut: over 40 seeds every seat is drawn at least once
    assert set(dealers) == {0, 1, 2, 3}
    # default first_dealer: given, and with no dealer given the first dealer is seat 0
    assert {stops.Table("boodle", seats=4, seed=s).dealer for s in range(40)} == {0}
    # a dealer given by the caller overrides the draw
    assert {stops.Table("boodle", seats=4, seed=s, dealer=2, options=rnd).dealer
            for s in range(40)} == {2}
    # the first deal is dealt by the drawn dealer
    table = stops.Table("boodle", seats=4, seed=3, options=rnd)
    drawn = table.dealer
    deal = table.new_deal()
    assert deal.dealer == drawn and deal.events[0].seat == drawn


# -- ruling 5: chip_shortfall, short_call ----------------------------------------------


def shortfall_deal(options: dict[str, Any] | None) -> stops.Deal:
    # Boodle, dealer 0. Seat 1 holds only 2C; spare 3C 4C 5C; seats 2 and 0 hold 24 each.
    spare = cs("3C 4C 5C")
    others = rest(["2C"], spare)
    hands = [others[24:], ["2C"], others[:24]]
    _, deal = stacked("boodle", hands, spare, chips=[50, 50, 5], options=options)
    lead(deal, 1, "2C")
    return deal


def test_chip_shortfall_pay_what_you_can_pays_the_whole_stack_and_no_more() -> None:
    # Stakes: seat 0 (dealer) 2 x 4 = 8 -> 42; seat 1: 4 -> 46; seat 2: 4 -> 1.
    # Layout 2 + 1 + 1 = 4 on each boodle card (16). Seat 1 leads 2C, its only card: out.
    # Per card (ruling 30), from the winner's left: seat 2 owes 24 but has 1 -> pays 1
    # (-> 0); seat 0 owes 24 -> 18. Seat 1: 46 + 1 + 24 = 71. 18 + 71 + 0 + 16 = 105.
    deal = shortfall_deal({"chip_shortfall": "pay_what_you_can"})
    assert deal.outcome == "went_out" and deal.winner == 1
    assert brief(public(deal, "paid")) == [("paid", 2, 1, None, 1), ("paid", 0, 24, None, 1)]
    assert deal.stacks == (18, 71, 0)
    assert deal.layout == dict.fromkeys(BOODLE_SPACES, 4)
    assert deal.returns() == (-32, 21, -5)
    assert total(deal) == 105
    # default debt: seat 2 pays the full 24 and goes to 1 - 24 = -23; seat 1 gets 94
    deal = shortfall_deal(None)
    assert brief(public(deal, "paid")) == [("paid", 2, 24, None, 1), ("paid", 0, 24, None, 1)]
    assert deal.stacks == (18, 94, -23)
    assert total(deal) == 105


def short_call_deal(options: dict[str, Any] | None) -> stops.Deal:
    # Three-in-One, dealer 0, chips 50 / 50 / 12. Every pay card and the 8s of C, D, S lie in
    # the spare, so stage one claims nothing (TH is in the spare too: no heart 8-9-10).
    spare = cs("AH KH QH JH TH 8C 8D 8S")
    s1 = cs("4C 5D 6H 7S 9C")                  # high card 9
    s2 = cs("2C 2D 2H 2S 3C")                  # four twos
    s0 = rest(spare, s1, s2)                   # 34 cards
    _, deal = stacked(TIO, [s0, s1, s2], spare, chips=[50, 50, 12], options=options)
    keep(deal)
    assert public(deal, "claimed") == []
    select_all(deal, {1: "4C 5D 6H 7S 9C", 2: "2C 2D 2H 2S 3C", 0: "6C 7D 9S JS QD"})
    # stakes 9 each: 41 / 41 / 3; pot 3. Seat 1 opens with a bet of 10 -> 31, pot 13.
    deal.apply({"seat": 1, "action": "bet", "chips": 10})
    assert deal.stacks == (41, 31, 3) and deal.current_seat == 2
    return deal


def test_short_call_all_in_no_side_pot_short_stack_calls_and_wins_whole_pot() -> None:
    deal = short_call_deal({"short_call": "all_in_no_side_pot"})
    # seat 2 has 3 chips and faces 10: it may fold or call all-in (no chips left to raise)
    assert legal(deal) == [{"seat": 2, "action": "fold"}, {"seat": 2, "action": "call"}]
    deal.apply({"seat": 2, "action": "call"})       # puts in its 3 -> 0, pot 16
    deal.apply({"seat": 0, "action": "fold"})
    assert brief(public(deal, "called")) == [("called", 2, 3, "pot", None)]
    # showdown 1 vs 2: four twos beat 9-high; no side pot, so seat 2 takes all 16,
    # seat 1's 7 unmatched chips included: seat 2 0 + 16 = 16; seat 1 stays at 31.
    assert [e.seat for e in public(deal, "showdown")] == [1, 2]
    assert poker_winners(deal) == (2,)
    assert brief(public(deal, "claimed")) == [("claimed", 2, 16, "pot", None)]
    assert deal.stacks == (41, 31, 16)
    assert deal.layout["pot"] == 0
    assert total(deal) == 112
    assert deal.phase == "play" and deal.current_seat == 2   # the poker winner leads


def test_short_call_default_fold_only() -> None:
    deal = short_call_deal(None)
    # fold_only: 3 chips cannot cover 10, so fold is the only choice
    assert legal(deal) == [{"seat": 2, "action": "fold"}]
    expect_illegal(deal, {"seat": 2, "action": "call"}, "insufficient_chips")


# -- ruling 9-11: the spare hand (Three-in-One) ----------------------------------------


def auction_hands(buyer: int) -> tuple[list[list[str]], list[str]]:
    """4 players. The buyer's own hand holds every pay card and the 8s of C, D, S, so once it
    becomes the dead hand stage one claims nothing anywhere."""
    pay = cs("AH KH QH JH TH 8C 8D 8S")
    others = rest(pay)                                   # 44 cards
    sizes = [11, 11, 10, 10]
    hands: list[list[str]] = []
    k = 0
    for seat in range(4):
        extra = sizes[seat] - (8 if seat == buyer else 0)
        hands.append((pay if seat == buyer else []) + others[k:k + extra])
        k += extra
    return hands, others[k:]                             # spare: 52 - 42 = 10 cards


def test_auction_one_round_each_bids_once_tie_goes_to_first_from_dealers_left() -> None:
    hands, spare = auction_hands(buyer=2)
    opts = {"auction_format": "one_round"}
    _, deal = stacked(TIO, hands, spare, dealer=0, options=opts)
    deal.apply({"seat": 0, "action": "auction"})
    # bidders from the dealer's left, each once: 1 bids 3, 2 bids 5, 3 bids 5 (a tie)
    deal.apply({"seat": 1, "action": "bid", "chips": 3})
    deal.apply({"seat": 2, "action": "bid", "chips": 5})
    assert deal.current_seat == 3
    deal.apply({"seat": 3, "action": "bid", "chips": 5})
    # everyone has bid once: the auction is over (seat 1 is not asked again); the tie at 5
    # goes to seat 2, first from the dealer's left. Seat 2 pays the dealer 5:
    # stakes 9 each -> 41; seat 0 41 + 5 = 46; seat 2 41 - 5 = 36.
    assert brief(public(deal, "bid")) == [("bid", 1, 3, None, None), ("bid", 2, 5, None, None),
                                          ("bid", 3, 5, None, None)]
    assert brief(public(deal, "sold")) == [("sold", 2, 5, None, 0)]
    assert deal.stacks == (46, 41, 36, 41)
    assert hand(deal, 2) == set(spare)
    obs = deal.observe(2)
    assert obs.spare is not None and {str(c) for c in obs.spare} == set(hands[2])
    assert public(deal, "claimed") == []                 # pay cards all in the dead hand
    assert deal.phase == "poker" and deal.current_seat == 1
    # the same bids under the default open_ascending: seat 3 must top 5
    _, deal = stacked(TIO, hands, spare, dealer=0)
    deal.apply({"seat": 0, "action": "auction"})
    deal.apply({"seat": 1, "action": "bid", "chips": 3})
    deal.apply({"seat": 2, "action": "bid", "chips": 5})
    expect_illegal(deal, {"seat": 3, "action": "bid", "chips": 5}, "bid_too_low")


def test_auction_sealed_bids_hidden_until_the_end() -> None:
    hands, spare = auction_hands(buyer=0)
    _, deal = stacked(TIO, hands, spare, dealer=2, options={"auction_format": "sealed"})
    deal.apply({"seat": 2, "action": "auction"})

    def bids_seen(seat: int) -> list[tuple[int | None, int]]:
        return [(e.seat, e.chips) for e in deal.observe(seat).events
                if e.kind == "bid" and e.chips]

    # bidders from the dealer's left: 3, 0, 1
    deal.apply({"seat": 3, "action": "bid", "chips": 2})
    deal.apply({"seat": 0, "action": "bid", "chips": 6})
    # before the end each seat sees only its own amount
    assert bids_seen(1) == []
    assert bids_seen(2) == []
    assert bids_seen(3) == [(3, 2)]
    assert bids_seen(0) == [(0, 6)]
    # a sealed bid need not top anything: seat 1 could bid 1
    assert deal.current_seat == 1
    assert {"seat": 1, "action": "bid", "chips": 1} in legal(deal)
    deal.apply({"seat": 1, "action": "bid", "chips": 6})
    # the end: every amount is shown; 6 and 6 tie, seat 0 is first from the dealer's left
    for seat in range(4):
        assert set(bids_seen(seat)) == {(0, 6), (1, 6), (3, 2)}
    assert brief(public(deal, "sold")) == [("sold", 0, 6, None, 2)]
    # stakes 41 each; seat 0 pays the dealer (seat 2) 6: 35 and 47
    assert deal.stacks == (35, 41, 47, 41)
    assert hand(deal, 0) == set(spare)
    assert public(deal, "claimed") == []
    assert deal.phase == "poker" and deal.current_seat == 3


def simple_tio_hands() -> tuple[list[list[str]], list[str]]:
    """3 players, 13 cards each and 13 in the spare, dealt by suit."""
    return [PACK[0:13], PACK[13:26], PACK[26:39]], PACK[39:52]


def test_spare_sell_old_hand_false_swap_ends_the_spare_phase() -> None:
    hands, spare = simple_tio_hands()
    _, deal = stacked(TIO, hands, spare, options={"spare_sell_old_hand": False})
    assert legal(deal) == [{"seat": 0, "action": "keep"}, {"seat": 0, "action": "swap"},
                           {"seat": 0, "action": "auction"}]
    deal.apply({"seat": 0, "action": "swap"})
    # no offer of the old hand: the dealer holds the spare and poker begins at seat 1
    assert hand(deal, 0) == set(spare)
    assert public(deal, "auction_opened") == []
    assert deal.phase == "poker" and deal.current_seat == 1
    # default (true): after the swap the dealer may still keep or auction the old hand
    _, deal = stacked(TIO, hands, spare)
    deal.apply({"seat": 0, "action": "swap"})
    assert deal.phase == "spare_hand" and deal.current_seat == 0
    assert legal(deal) == [{"seat": 0, "action": "keep"}, {"seat": 0, "action": "auction"}]


def test_spare_unsold_dealer_may_swap_false_unsold_spare_ends_the_phase() -> None:
    hands, spare = simple_tio_hands()
    _, deal = stacked(TIO, hands, spare, options={"spare_unsold_dealer_may_swap": False})
    deal.apply({"seat": 0, "action": "auction"})
    deal.apply({"seat": 1, "action": "pass"})
    deal.apply({"seat": 2, "action": "pass"})
    # nobody bought: the dealer may not swap now; the dealer keeps the dealt hand
    assert brief(public(deal, "unsold")) == [("unsold", 0, 0, None, None)]
    assert hand(deal, 0) == set(hands[0])
    assert deal.phase == "poker" and deal.current_seat == 1
    # default (true): the dealer chooses keep or swap after the unsold auction
    _, deal = stacked(TIO, hands, spare)
    deal.apply({"seat": 0, "action": "auction"})
    deal.apply({"seat": 1, "action": "pass"})
    deal.apply({"seat": 2, "action": "pass"})
    assert deal.phase == "spare_hand" and deal.current_seat == 0
    assert legal(deal) == [{"seat": 0, "action": "keep"}, {"seat": 0, "action": "swap"}]


# -- ruling 15-16: ten_share, on_play_ten ----------------------------------------------


def ten_share_deal(options: dict[str, Any] | None) -> stops.Deal:
    # Seat 1 holds 8-9-10 of clubs and of diamonds, seat 2 8-9-10 of spades; TH (and every
    # other heart pay card) is in the spare, so there is no heart run and no card claim.
    s1 = cs("8C 9C TC 8D 9D TD")
    s2 = cs("8S 9S TS")
    sp = cs("AH KH QH JH TH")
    others = rest(s1, s2, sp)                            # 38 cards
    hands = [others[25:], s1 + others[:7], s2 + others[7:17]]
    spare = sp + others[17:25]
    _, deal = stacked(TIO, hands, spare, options=options, layout={"8-9-10": 6})
    keep(deal)
    return deal


def test_ten_share_per_sequence_two_runs_two_shares() -> None:
    # 8-9-10 space: 6 + 3 stakes = 9. per_sequence: three runs held (C and D by seat 1,
    # S by seat 2) -> 9 // 3 = 3 a run: seat 1 gets 6, seat 2 gets 3, nothing is left.
    deal = ten_share_deal({"ten_share": "per_sequence"})
    claims = public(deal, "claimed")
    assert {e.space for e in claims} == {"8-9-10"}
    assert sorted((e.seat, e.chips) for e in claims) == [(1, 3), (1, 3), (2, 3)]
    assert deal.stacks == (41, 47, 44)
    assert deal.layout["8-9-10"] == 0
    # default per_player: two claimants -> 9 // 2 = 4 each, 1 stays on the space
    deal = ten_share_deal(None)
    assert sorted((e.seat, e.chips) for e in public(deal, "claimed")) == [(1, 4), (2, 4)]
    assert deal.stacks == (41, 45, 45)
    assert deal.layout["8-9-10"] == 1


def on_play_ten_deal(options: dict[str, Any] | None) -> stops.Deal:
    # Three-in-One-on-play, dealer 0, 8-9-10 space 4 + 3 stakes = 7.
    s1 = cs("7D 8C 9C TC JC")                  # a straight: the best poker hand
    s2 = cs("7C 8D 9D TD 2S 3S")
    spare = cs("JD 2H 3H 4H 5H 6H 7H 8H 9H TH JH QH KH")
    s0 = rest(s1, s2, spare)                   # 28 cards
    _, deal = stacked("three-in-one-on-play", [s0, s1, s2], spare, options=options,
                      layout={"8-9-10": 4})
    keep(deal)
    select_all(deal, {1: "7D 8C 9C TC JC", 2: "7C 8D 9D TD 2S", 0: "2C 4D 6C 9S KD"})
    all_check(deal, [1, 2, 0])
    assert poker_winners(deal) == (1,)          # straight; pot 3 -> seat 1: 41 + 3 = 44
    assert deal.current_seat == 1
    # seat 1 leads 7D; seat 2 must play 8D 9D TD (its own 8-9-10); JD is in the spare: stop
    lead(deal, 1, "7D")
    assert plays(deal) == [(1, "7D"), (2, "8D"), (2, "9D"), (2, "TD")]
    # seat 2 must change suit: its lowest club or spade; it leads 7C and seat 1 plays
    # 8C 9C TC (its own 8-9-10) and JC, its last card: out
    assert legal(deal) == [{"seat": 2, "action": "lead", "card": "7C"},
                           {"seat": 2, "action": "lead", "card": "2S"}]
    lead(deal, 2, "7C")
    assert plays(deal)[4:] == [(2, "7C"), (1, "8C"), (1, "9C"), (1, "TC"), (1, "JC")]
    assert deal.outcome == "went_out" and deal.winner == 1
    return deal


def test_on_play_ten_share_at_end_every_player_of_a_run_shares() -> None:
    # share_at_end: seats 2 and 1 both played an 8-9-10: 7 // 2 = 3 each, 1 stays.
    # Going out: seat 1 takes the kitty (3), seat 2 pays 2 (2S 3S), seat 0 pays 28.
    # seat 0: 41 - 28 = 13; seat 1: 44 + 3 + 3 + 2 + 28 = 80; seat 2: 41 + 3 - 2 = 42.
    deal = on_play_ten_deal({"on_play_ten": "share_at_end"})
    runs = [e for e in public(deal, "claimed") if e.space == "8-9-10"]
    assert sorted((e.seat, e.chips) for e in runs) == [(1, 3), (2, 3)]
    assert deal.layout["8-9-10"] == 1
    assert deal.stacks == (13, 80, 42)
    assert total(deal) == 154
    # default first_takes_all: seat 2 played 8D 9D TD first and took all 7 at once
    # seat 1: 44 + 3 + 2 + 28 = 77; seat 2: 41 + 7 - 2 = 46.
    deal = on_play_ten_deal(None)
    runs = [e for e in public(deal, "claimed") if e.space == "8-9-10"]
    assert [(e.seat, e.chips) for e in runs] == [(2, 7)]
    assert deal.layout["8-9-10"] == 0
    assert deal.stacks == (13, 77, 46)
    assert total(deal) == 154


# -- ruling 17-18: poker_selection, short_poker_hand -----------------------------------


def test_poker_selection_best_only_best_hands_are_legal() -> None:
    # Seat 1: four 7s, two kings and junk; no five of a suit in sequence, so the best hand is
    # four 7s with a king kicker, in two ways (KC or KD).
    s1 = cs("7C 7D 7H 7S KC KD 2C 3D 4S 5H 9D JS QD")
    others = rest(s1)
    hands = [others[:13], s1, others[13:26]]
    spare = others[26:]
    _, deal = stacked(TIO, hands, spare, options={"poker_selection": "best"})
    keep(deal)
    assert deal.phase == "poker" and deal.current_seat == 1
    assert sorted(tuple(sorted(a["cards"])) for a in legal(deal)) == [
        ("7C", "7D", "7H", "7S", "KC"), ("7C", "7D", "7H", "7S", "KD")]
    expect_illegal(deal, {"seat": 1, "action": "select", "cards": cs("7C 7D 7H 7S QD")},
                   "not_best_hand")
    expect_illegal(deal, {"seat": 1, "action": "select", "cards": cs("7C 7D 7H KC KD")},
                   "not_best_hand")
    deal.apply({"seat": 1, "action": "select", "cards": cs("7C 7D 7H 7S KD")})
    assert deal.current_seat == 2
    # default free: any 5 of the 13 cards, C(13, 5) = 1287, the full house included
    _, deal = stacked(TIO, hands, spare)
    keep(deal)
    assert len(deal.legal_actions()) == 1287
    assert frozenset(cs("7C 7D 7H KC KD")) in {frozenset(a["cards"]) for a in legal(deal)}


NINE_HANDS = {
    1: "AC AD AS KC KD",        # full house: the best hand
    2: "2C 3D 4H 5S 7C",
    3: "2D 3H 4S 6C",           # only 4 cards
    4: "2H 3S 5C 6D 9C",
    5: "2S 4C 5D 6H 9D",
    6: "3C 4D 5H 7D 9H",
    7: "6S 7H 8H TC JC",
    8: "7S 9S TD JD QC",
    0: "TS JS QD QS KS",
}
NINE_SPARE = "AH KH QH JH TH 8C 8D 8S"   # every pay card and run breaker: no stage-one claim


def nine_player_deal(tmp_path: Path, options: dict[str, Any] | None) -> stops.Deal:
    path = tmp_path / "three-in-one-nine.yaml"
    path.write_text("name: three-in-one-nine\n"
                    "extends: three-in-one\n"
                    "players: {min: 3, max: 9}\n"
                    "rules:\n"
                    "  short_poker_hand: sit_out\n")
    variant = stops.load_variant(str(path), options=options)
    hands = [cs(NINE_HANDS[s]) for s in range(9)]
    _, deal = stacked(variant, hands, cs(NINE_SPARE))
    keep(deal)
    assert public(deal, "claimed") == []
    return deal


def test_short_poker_hand_sit_out_four_cards_neither_select_nor_bet(tmp_path: Path) -> None:
    deal = nine_player_deal(tmp_path, None)
    # every seat from the dealer's left selects, seat 3 (4 cards) is skipped
    in_poker = [1, 2, 4, 5, 6, 7, 8, 0]
    select_all(deal, {s: NINE_HANDS[s] for s in in_poker})
    all_check(deal, in_poker)
    assert [e.seat for e in deal.events if e.kind == "selected" and e.cards] == in_poker
    assert [e.seat for e in public(deal, "checked")] == in_poker
    assert [e.seat for e in public(deal, "showdown")] == in_poker
    # seat 1's full house wins the pot: 9 seats x 1 = 9; everyone else 50 - 9 = 41
    assert poker_winners(deal) == (1,)
    assert deal.stacks == (41, 50, 41, 41, 41, 41, 41, 41, 41)
    assert deal.layout["pot"] == 0
    assert deal.phase == "play" and deal.current_seat == 1
    assert deal.observe(3).hand_sizes[3] == 4             # seat 3 still plays the stops


def test_short_poker_hand_default_plays_all_four_cards(tmp_path: Path) -> None:
    deal = nine_player_deal(tmp_path, {"short_poker_hand": "play_all_cards"})
    select_all(deal, {1: NINE_HANDS[1], 2: NINE_HANDS[2]})
    assert deal.current_seat == 3
    assert legal(deal) == [{"seat": 3, "action": "select", "cards": cs("6C 2D 3H 4S")}]


# -- ruling 24-29: leads after a stop (Three-in-One) -----------------------------------


def club_stop_deal(options: dict[str, Any] | None) -> stops.Deal:
    # dealer 0. 5C is in the spare with every pay card and the 8s of D and S (no claim).
    s1 = cs("2C 3C 4C 9C TC")                 # a flush: the best poker hand
    s2 = cs("6C 7C 8C 2D 3D")
    spare = cs("5C AH KH QH JH TH 8D 8S")
    s0 = rest(s1, s2, spare)                  # 34 cards
    _, deal = stacked(TIO, [s0, s1, s2], spare, options=options)
    keep(deal)
    assert public(deal, "claimed") == []
    select_all(deal, {1: "2C 3C 4C 9C TC", 2: "6C 7C 8C 2D 3D", 0: "4D 6D 9S JS KD"})
    all_check(deal, [1, 2, 0])
    # seat 1 wins the pot (3): 44. It leads 2C, plays 3C 4C itself; 5C is dead: stop at 4C.
    # Seat 1 now holds 9C TC, only the stopped suit.
    assert poker_winners(deal) == (1,) and deal.current_seat == 1
    lead(deal, 1, "2C")
    assert plays(deal) == [(1, "2C"), (1, "3C"), (1, "4C")]
    assert brief(public(deal, "stop")) == [("stop", 1, 0, None, None)]
    return deal


def test_pass_lead_keeps_forbidden_suit_false_receiver_may_lead_stopped_suit() -> None:
    deal = club_stop_deal({"pass_lead_keeps_forbidden_suit": False})
    # seat 1 cannot change suit: the lead passes to seat 2, who is now free to lead clubs
    assert brief(public(deal, "lead_passed")) == [("lead_passed", 1, 0, None, 2)]
    assert deal.current_seat == 2
    assert legal(deal) == [{"seat": 2, "action": "lead", "card": "6C"},
                           {"seat": 2, "action": "lead", "card": "2D"}]
    # 6C: seat 2 plays 7C 8C, seat 1 plays 9C and TC, its last card: out.
    lead(deal, 2, "6C")
    assert plays(deal)[3:] == [(2, "6C"), (2, "7C"), (2, "8C"), (1, "9C"), (1, "TC")]
    assert deal.winner == 1
    # seat 1: 44 + kitty 3 + 2 (seat 2 holds 2D 3D) + 34 (seat 0) = 83;
    # seat 2: 41 - 2 = 39; seat 0: 41 - 34 = 7; layout: 7 spaces x 3 = 21.
    assert deal.stacks == (7, 83, 39)
    assert deal.layout == {**dict.fromkeys(TIO_SPACES, 3), "pot": 0, "kitty": 0}
    # default (true): the receiver must avoid clubs too: only its lowest diamond
    deal = club_stop_deal(None)
    assert deal.current_seat == 2
    assert legal(deal) == [{"seat": 2, "action": "lead", "card": "2D"}]
    expect_illegal(deal, {"seat": 2, "action": "lead", "card": "6C"}, "suit_just_stopped")


def test_change_suit_fallback_same_suit_stopper_leads_the_stopped_suit() -> None:
    deal = club_stop_deal({"change_suit_fallback": "same_suit"})
    # no passing: seat 1 has only clubs and must lead its lowest, 9C
    assert public(deal, "lead_passed") == []
    assert deal.current_seat == 1
    assert legal(deal) == [{"seat": 1, "action": "lead", "card": "9C"}]
    lead(deal, 1, "9C")                       # 9C, TC by seat 1: out
    assert plays(deal)[3:] == [(1, "9C"), (1, "TC")]
    assert deal.winner == 1
    # seat 1: 44 + 3 + 5 (seat 2) + 34 (seat 0) = 86; seat 2: 36; seat 0: 7
    assert deal.stacks == (7, 86, 36)
    # default pass_left (Three-in-One): the lead passes to seat 2
    deal = club_stop_deal(None)
    assert brief(public(deal, "lead_passed")) == [("lead_passed", 1, 0, None, 2)]
    assert deal.current_seat == 2


# -- ruling 26, 29, 45: block_outcome ---------------------------------------------------


def block_deal(options: dict[str, Any] | None) -> tuple[stops.Table, stops.Deal]:
    # Only clubs are dealt to players; everything else and 7C is in the spare (40 cards).
    s2 = cs("2C 4C 6C 9C AC")                 # ace-high flush: the best poker hand
    s1 = cs("3C 5C 8C TC QC")                 # queen-high flush
    s0 = cs("JC KC")
    spare = rest(s0, s1, s2)
    table, deal = stacked(TIO, [s0, s1, s2], spare, options=options)
    keep(deal)
    select_all(deal, {1: "3C 5C 8C TC QC", 2: "2C 4C 6C 9C AC", 0: "JC KC"})
    all_check(deal, [1, 2, 0])
    assert poker_winners(deal) == (2,)         # pot 3 -> seat 2: 44
    # seat 2 leads 2C: 3C(1) 4C(2) 5C(1) 6C(2); 7C is dead: stop. Nobody holds anything but
    # clubs: the lead passes 2 -> 0 -> 1 -> 2 and play is blocked with 2, 2 and 3 cards held.
    lead(deal, 2, "2C")
    assert plays(deal) == [(2, "2C"), (1, "3C"), (2, "4C"), (1, "5C"), (2, "6C")]
    assert brief(public(deal, "lead_passed")) == [
        ("lead_passed", 2, 0, None, 0), ("lead_passed", 0, 0, None, 1),
        ("lead_passed", 1, 0, None, 2)]
    assert deal.outcome == "blocked" and deal.winner is None and deal.is_terminal
    return table, deal


def test_block_outcome_end_no_payment_three_in_one() -> None:
    table, deal = block_deal({"block_outcome": "end_no_payment"})
    # nobody pays for cards left: 41 / 41 / 44, the kitty keeps its 3
    assert public(deal, "paid") == []
    assert deal.stacks == (41, 41, 44)
    assert deal.layout["kitty"] == 3
    assert table.dealer == 1                  # the next deal as usual
    nxt = table.new_deal()
    assert nxt.dealer == 1 and len(public(nxt, "staked")) == 27
    # default kitty_per_card: 3 + 2 + 2 chips into the kitty, from the dealer's left
    table, deal = block_deal(None)
    assert brief(public(deal, "paid")) == [("paid", 1, 3, "kitty", None),
                                           ("paid", 2, 2, "kitty", None),
                                           ("paid", 0, 2, "kitty", None)]
    assert deal.stacks == (39, 38, 42)
    assert deal.layout["kitty"] == 10
    assert table.dealer == 1


def test_block_outcome_redeal_same_round_same_dealer_no_new_stakes() -> None:
    table, deal = block_deal({"block_outcome": "redeal_same_round"})
    assert public(deal, "paid") == []
    assert deal.stacks == (41, 41, 44)
    layout = {**dict.fromkeys(TIO_SPACES, 3), "pot": 0}
    assert deal.layout == layout
    # the same dealer deals again and nobody stakes: the layout is as the block left it
    assert table.dealer == 0
    nxt = table.new_deal()
    assert nxt.dealer == 0
    assert [e for e in nxt.events if e.kind == "staked"] == []
    assert nxt.layout == layout and nxt.stacks == (41, 41, 44)


# -- ruling 27, 30: going_out_reward ----------------------------------------------------


def going_out_deal(options: dict[str, Any] | None) -> stops.Deal:
    s1 = cs("2C 3C 4C 5C 6C")                 # straight flush: the best poker hand
    spare = cs("AH KH QH JH TH 8C 8D 8S")     # no stage-one claim
    others = rest(s1, spare)                  # 39 cards
    s2, s0 = others[:10], others[10:]         # 10 and 29 cards
    _, deal = stacked(TIO, [s0, s1, s2], spare, options=options, layout={"kitty": 5})
    keep(deal)
    assert public(deal, "claimed") == []
    select_all(deal, {1: "2C 3C 4C 5C 6C", 2: "7C 9C 2D 3D 4D", 0: "5D 6D 9D 2H 3H"})
    all_check(deal, [1, 2, 0])
    # seat 1 wins the pot (3): 44; the kitty holds 5 + 3 = 8. Seat 1 leads 2C and plays
    # 3C..6C itself: out with 10 cards left in seat 2's hand and 29 in seat 0's.
    assert deal.current_seat == 1
    lead(deal, 1, "2C")
    assert deal.winner == 1
    return deal


@pytest.mark.parametrize(("reward", "stacks", "kitty"), [
    # per_card: 44 + 10 + 29 = 83; the kitty stays
    ("per_card", (12, 83, 31), 8),
    # kitty_only: 44 + 8 = 52; nobody pays for cards left
    ("kitty_only", (41, 52, 41), 0),
    # default kitty_plus_per_card: 44 + 8 + 10 + 29 = 91
    (None, (12, 91, 31), 0),
])
def test_going_out_reward_three_in_one(reward: str | None, stacks: tuple[int, ...],
                                       kitty: int) -> None:
    deal = going_out_deal({"going_out_reward": reward} if reward else None)
    assert deal.stacks == stacks
    assert deal.layout["kitty"] == kitty
    assert total(deal) == 155


# -- ruling 32, 35-36: stake_rule, stake_unit, stake_frequency -------------------------


@pytest.mark.parametrize(("options", "dealer_each", "other_each"), [
    # {dealer: 3, others: 1} units of stake_unit 2: dealer 6, others 2 per boodle card
    ({"stake_rule": {"use": "dealer_two_others_one", "dealer": 3, "others": 1},
      "stake_unit": 2}, 6, 2),
    # stake_unit 2 alone: dealer 2 x 2 = 4, others 2
    ({"stake_unit": 2}, 4, 2),
    # the parameters alone: dealer 3, others 1
    ({"stake_rule": {"use": "dealer_two_others_one", "dealer": 3, "others": 1}}, 3, 1),
    # default: dealer 2, others 1
    (None, 2, 1),
])
def test_stake_rule_params_and_stake_unit(options: dict[str, Any] | None, dealer_each: int,
                                          other_each: int) -> None:
    hands = [PACK[0:11], PACK[11:22], PACK[22:32], PACK[32:42]]
    _, deal = stacked("boodle", hands, PACK[42:], dealer=1, options=options)
    staked = brief(public(deal, "staked"))
    # from the dealer's left: seats 2, 3, 0, then the dealer 1, each on AH KC QD JS
    assert staked == [("staked", s, dealer_each if s == 1 else other_each, sp, None)
                      for s in (2, 3, 0, 1) for sp in BOODLE_SPACES]
    assert deal.layout == dict.fromkeys(BOODLE_SPACES, dealer_each + 3 * other_each)
    other = 50 - 4 * other_each
    assert deal.stacks == (other, 50 - 4 * dealer_each, other, other)


@pytest.mark.parametrize(("options", "second_stakes", "stacks", "each"), [
    # once_per_match: no stakes before deal 2; seat 2 goes out and seats 0, 1 pay 25 each
    ({"stake_frequency": "once_per_match"}, 0, [42, 121, 121], 4),
    # default every_deal: dealer 1 stakes 8, seats 2 and 0 stake 4 each before deal 2 (16)
    (None, 16, [38, 113, 117], 8),
])
def test_stake_frequency_once_per_match(options: dict[str, Any] | None, second_stakes: int,
                                        stacks: list[int], each: int) -> None:
    table = stops.Table("boodle", seats=3, chips=100, seed=1, dealer=0, options=options)
    first = play_quick(table)
    # deal 1 (dealer 0): stakes 8 / 4 / 4, 4 on each card; seat 1 goes out, seats 2 and 0
    # pay 25 each: 100 - 8 - 25 = 67; 100 - 4 + 50 = 146; 100 - 4 - 25 = 71
    assert sum(e.chips for e in public(first, "staked")) == 16
    assert table.stacks == (67, 146, 71)
    second = play_quick(table)                 # dealer 1, seat 2 goes out
    assert sum(e.chips for e in public(second, "staked")) == second_stakes
    assert list(table.stacks) == stacks
    assert table.layout == dict.fromkeys(BOODLE_SPACES, each)
    assert table.total_chips() == 300


# -- ruling 4, 38: match_end, leftover_at_match_end ------------------------------------


def test_match_end_never_keeps_going_and_deal_limit_still_stops() -> None:
    table = stops.Table("boodle", seats=3, chips=1000, seed=1, dealer=0,
                        options={"match_end": "never"})
    for _ in range(12):
        play_quick(table)
        assert not table.is_over
    assert table.deals_played == 12
    # with a deal limit of 3 it stops after the third deal
    table = stops.Table("boodle", seats=3, chips=1000, seed=1, dealer=0, deals=3,
                        options={"match_end": "never"})
    for _ in range(3):
        assert not table.is_over
        play_quick(table)
    assert table.is_over
    with pytest.raises(stops.SessionOver):
        table.new_deal()
    # default {use: deals, count: 10}: over after the tenth deal
    table = stops.Table("boodle", seats=3, chips=1000, seed=1, dealer=0)
    for _ in range(10):
        assert not table.is_over
        play_quick(table)
    assert table.is_over
    with pytest.raises(stops.SessionOver):
        table.new_deal()


@pytest.mark.parametrize(("options", "stacks", "layout"), [
    # share, all_layout_equal: 17 on the layout -> 5 each, the 2 odd chips to seats 1 and 2
    # (clockwise from the last dealer's left): 17 + 5, 96 + 6, 21 + 6
    ({"leftover_at_match_end": "share", "final_share": "all_layout_equal"},
     [22, 102, 27], dict.fromkeys(BOODLE_SPACES, 0)),
    # default stays: the chips stay on the layout
    (None, [17, 96, 21], {"AH": 5, "KC": 4, "QD": 4, "JS": 4}),
])
def test_leftover_at_match_end_share_all_layout_equal(options: dict[str, Any] | None,
                                                      stacks: list[int],
                                                      layout: dict[str, int]) -> None:
    # Boodle, one deal, AH starts with 1. Stakes: AH 1 + 4 = 5, KC QD JS 4 each (17).
    # Seat 1 goes out: seats 2 and 0 pay 25 each. 50 - 8 - 25 = 17; 50 - 4 + 50 = 96;
    # 50 - 4 - 25 = 21. No boodle card is played, so all 17 chips are left.
    table = stops.Table("boodle", seats=3, chips=50, seed=1, dealer=0, deals=1,
                        layout={"AH": 1}, options=options)
    play_quick(table)
    assert table.is_over
    assert list(table.stacks) == stacks
    assert table.layout == layout
    assert table.total_chips() == 151
