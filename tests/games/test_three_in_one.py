"""Hand-derived tests for the Three-in-One variant (seed 000, ruling 1-27).

Every test stacks the deal (hands + spare = exactly the 52-card pack) and derives the
expected chips, layout, plays and events by hand from the seed text and the rulings; the
comments show the arithmetic. Conventions: seats 0..n-1 clockwise, dealer's left is
(dealer + 1) % n, cards "<rank><suit>".
"""

from __future__ import annotations

from collections import Counter

import pytest

import stops
from support import lead, plays, poker_winners

RANKS = "23456789TJQKA"
SUITS = "CDHS"
PACK = [r + s for s in SUITS for r in RANKS]
SPACES = ("AH", "KH", "QH", "JH", "TH", "KQ", "8-9-10", "pot", "kitty")


# -- helpers ----------------------------------------------------------------------------


def cs(text: str) -> list[str]:
    return text.split()


def rest(hands: list[list[str]], *extra: str) -> list[str]:
    """The cards of the pack not in ``hands`` nor ``extra``: the spare hand."""
    used = {c for h in hands for c in h} | set(extra)
    assert len(used) == sum(len(h) for h in hands) + len(extra), "a card is dealt twice"
    return [c for c in PACK if c not in used]


def start(hands: list[list[str]], spare: list[str] | None = None, *, dealer: int = 0,
          chips: int | list[int] = 50, layout: dict[str, int] | None = None
          ) -> tuple[stops.Table, stops.Deal]:
    if spare is None:
        spare = rest(hands)
    assert sorted([c for h in hands for c in h] + spare) == sorted(PACK)
    table = stops.Table("three-in-one", seats=len(hands), chips=chips, seed=1,
                        dealer=dealer, layout=layout or {})
    return table, table.new_deal(hands=hands, spare=spare)


def names(cards) -> set[str]:
    return {str(c) for c in cards}


def kinds(deal: stops.Deal, *ks: str, public: bool = True) -> list[stops.Event]:
    """Events of the given kinds (public copies only, unless ``public`` is False)."""
    return [e for e in deal.events
            if e.kind in ks and (not public or e.visible_to is None)]


def brief(events) -> list[tuple]:
    return [(e.kind, e.seat, e.chips, e.space, e.to_seat) for e in events]


def select_all(deal: stops.Deal, picks: dict[int, str]) -> None:
    """Each seat from the dealer's left selects its five poker cards."""
    n = len(picks)
    for k in range(1, n + 1):
        seat = (deal.dealer + k) % n
        assert deal.current_seat == seat
        assert deal.phase == "poker"
        deal.apply({"seat": seat, "action": "select", "cards": cs(picks[seat])})


def all_check(deal: stops.Deal, n: int) -> None:
    for k in range(1, n + 1):
        seat = (deal.dealer + k) % n
        assert deal.current_seat == seat
        deal.apply({"seat": seat, "action": "check"})


def snapshot(deal: stops.Deal) -> tuple:
    return (len(deal.events), deal.phase, deal.current_seat, deal.stacks,
            tuple(sorted(deal.layout.items())),
            tuple(tuple(str(c) for c in deal.hand(s)) for s in range(deal.n)),
            len(deal.legal_actions()))


def expect_illegal(deal: stops.Deal, action: dict) -> stops.IllegalAction:
    before = snapshot(deal)
    with pytest.raises(stops.IllegalAction) as info:
        deal.apply(action)
    assert snapshot(deal) == before  # the deal is exactly as it was
    return info.value


# -- deal A: 4 players, dealer 0, no 8-9-10 held by any player ---------------------------
# seat 0: TH + clubs 2-8 + diamonds 2-4            (11)
# seat 1: KH QH + clubs 9-A + diamonds 5-7         (11)
# seat 2: AH + 8D 9D JD QD KD AD + hearts 2-4      (10)  (TD is seat 3's: no 8-9-10)
# seat 3: JH TD + hearts 5-9 + spades 2-4          (10)  (TH is seat 0's: no 8-9-10)
# spare : spades 5-A                               (10)  (8S 9S TS in the dead hand)
DEAL_A = [
    cs("TH 2C 3C 4C 5C 6C 7C 8C 2D 3D 4D"),
    cs("KH QH 9C TC JC QC KC AC 5D 6D 7D"),
    cs("AH 8D 9D JD QD KD AD 2H 3H 4H"),
    cs("JH TD 5H 6H 7H 8H 9H 2S 3S 4S"),
]
SPARE_A = cs("5S 6S 7S 8S 9S TS JS QS KS AS")


def test_stakes_one_on_each_space_added_to_carry_over() -> None:
    # Seed: "each player must place nine chips ... one on each of the labelled spaces ...
    # the new chips ... are added to these". 4 players x 1 chip on each of 9 spaces:
    # every stack 50 - 9 = 41, every space + 4 on top of what was carried over.
    carried = {"AH": 2, "KQ": 5, "8-9-10": 3, "pot": 1, "kitty": 4}
    _, deal = start(DEAL_A, SPARE_A, dealer=1, layout=carried)
    assert deal.phase == "spare_hand"
    assert deal.current_seat == 1  # the dealer decides about the spare hand
    assert deal.stacks == (41, 41, 41, 41)
    assert deal.layout == {"AH": 6, "KH": 4, "QH": 4, "JH": 4, "TH": 4, "KQ": 9,
                           "8-9-10": 7, "pot": 5, "kitty": 8}
    staked = kinds(deal, "staked")
    assert len(staked) == 36
    assert Counter((e.seat, e.space, e.chips) for e in staked) == Counter(
        (s, sp, 1) for s in range(4) for sp in SPACES)
    # chips are conserved: 4 x 50 + 15 carried
    assert sum(deal.stacks) + sum(deal.layout.values()) == 215


def test_stage_one_pay_cards_by_holding() -> None:
    # Seed stage one: "Anyone who holds the ace, king, queen, jack or ten of hearts takes all
    # the chips from that space"; "king and queen ... takes the chips from the king-queen
    # space, in addition". Each space holds 4 (4 players x 1). Dealer keeps.
    #   seat 0: TH -> 4;  seat 1: KH + QH + KQ -> 12;  seat 2: AH -> 4;  seat 3: JH -> 4.
    #   8-9-10: nobody holds one (8S 9S TS are in the spare) -> stays 4; pot, kitty stay 4.
    _, deal = start(DEAL_A, SPARE_A)
    deal.apply({"seat": 0, "action": "keep"})
    assert deal.phase == "poker"
    claims = kinds(deal, "claimed")
    assert Counter((e.seat, e.space, e.chips) for e in claims) == Counter([
        (0, "TH", 4), (1, "KH", 4), (1, "QH", 4), (1, "KQ", 4), (2, "AH", 4), (3, "JH", 4)])
    assert deal.stacks == (45, 53, 45, 45)
    assert deal.layout == {"AH": 0, "KH": 0, "QH": 0, "JH": 0, "TH": 0, "KQ": 0,
                           "8-9-10": 4, "pot": 4, "kitty": 4}
    assert deal.returns() == (-5, 3, -5, -5)


# -- 8-9-10 sharing --------------------------------------------------------------------


def test_eight_nine_ten_shared_equally_remainder_stays() -> None:
    # Seed: "If two or more players have 8-9-10 in different suits they share the chips ...
    # equally, leaving any remainder on the layout". 3 players, 4 carried + 3 staked = 7
    # chips on 8-9-10. Seat 1 holds 8C 9C TC, seat 2 holds 8D 9D TD: 7 // 2 = 3 each, 1 stays.
    # The hearts and spades 8-9-10 are in the dead hand (never claimed, ruling 12).
    hands = [cs("4C 5C 4D 5D 2S"), cs("8C 9C TC 2C 3C"), cs("8D 9D TD 2D 3D")]
    _, deal = start(hands, layout={"8-9-10": 4})
    assert deal.layout["8-9-10"] == 7
    deal.apply({"seat": 0, "action": "keep"})
    claims = kinds(deal, "claimed")
    assert sorted((e.seat, e.space, e.chips) for e in claims) == [
        (1, "8-9-10", 3), (2, "8-9-10", 3)]
    assert deal.stacks == (41, 44, 44)
    assert deal.layout["8-9-10"] == 1
    assert deal.layout == {"AH": 3, "KH": 3, "QH": 3, "JH": 3, "TH": 3, "KQ": 3,
                           "8-9-10": 1, "pot": 3, "kitty": 3}


def test_eight_nine_ten_two_suits_one_player_is_one_share() -> None:
    # ruling 15 (ten_share: per_player): a player holding 8-9-10 in two suits is one
    # claimant. Seat 1 holds clubs and spades 8-9-10, seat 2 diamonds: 2 claimants,
    # 7 // 2 = 3 each, 1 stays (per sequence would have given 2 + 2 + 2 with 1 left).
    hands = [cs("4C 5C 4D 5D 2S"), cs("8C 9C TC 8S 9S TS"), cs("8D 9D TD 2D 3D")]
    _, deal = start(hands, layout={"8-9-10": 4})
    deal.apply({"seat": 0, "action": "keep"})
    assert sorted((e.seat, e.space, e.chips) for e in kinds(deal, "claimed")) == [
        (1, "8-9-10", 3), (2, "8-9-10", 3)]
    assert deal.stacks == (41, 44, 44)
    assert deal.layout["8-9-10"] == 1


# -- deal D: pay cards in the dead hand; a short deal played out to see the carry-over --
# 3 players, dealer 0, carried AH 2 and KQ 1.
# seat 0: TC JC QC KC AD            (5)  straight T-A (mixed suits)
# seat 1: 2C 3C 4C 5C 6C JH         (6)  selects the 2-6 club straight flush
# seat 2: 7C 8C 9C 2D 3D            (5)
# spare : AC, 4D-KD, hearts but JH, all spades (36) - AH KH QH TH and 8S 9S TS lie dead.
DEAL_D = [cs("TC JC QC KC AD"), cs("2C 3C 4C 5C 6C JH"), cs("7C 8C 9C 2D 3D")]


def test_pay_card_in_dead_hand_claims_nothing_and_carries_over() -> None:
    # Stakes: stacks 41 each; AH 2+3=5, KQ 1+3=4, the others 3. Dealer keeps.
    # Stage one: only JH is held (seat 1 +3). AH KH QH TH (and with them KQ) and the spade
    # 8-9-10 are in the dead hand, so those spaces keep their chips (ruling 12).
    table, deal = start(DEAL_D, layout={"AH": 2, "KQ": 1})
    deal.apply({"seat": 0, "action": "keep"})
    assert brief(kinds(deal, "claimed")) == [("claimed", 1, 3, "JH", None)]
    assert deal.layout == {"AH": 5, "KH": 3, "QH": 3, "JH": 0, "TH": 3, "KQ": 4,
                           "8-9-10": 3, "pot": 3, "kitty": 3}
    # Poker, all check: seat 1's straight flush beats seat 0's straight and seat 2's
    # 9-high; seat 1 takes the pot (3) and leads.
    select_all(deal, {1: "2C 3C 4C 5C 6C", 2: "7C 8C 9C 2D 3D", 0: "TC JC QC KC AD"})
    all_check(deal, 3)
    assert poker_winners(deal) == (1,)
    # Stage three: 2C 3C 4C 5C 6C (seat 1), 7C 8C 9C (seat 2), TC JC QC KC (seat 0);
    # AC is dead so KC stops. Seat 0 must change suit and leads AD, its last card: out.
    lead(deal, 1, "2C")
    assert deal.current_seat == 0
    assert [str(a.card) for a in deal.legal_actions()] == ["AD"]
    lead(deal, 0, "AD")
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 0
    # Going out: kitty 3 + seat 1's JH (1) + seat 2's 2D 3D (2) = 6.
    # seat 0: 41 + 6 = 47; seat 1: 41 + 3 (JH) + 3 (pot) - 1 = 46; seat 2: 41 - 2 = 39.
    assert deal.stacks == (47, 46, 39)
    carried = {"AH": 5, "KH": 3, "QH": 3, "JH": 0, "TH": 3, "KQ": 4, "8-9-10": 3,
               "pot": 0, "kitty": 0}
    assert table.layout == carried
    assert table.stacks == (47, 46, 39)
    # The next deal (dealer seat 1) adds 3 to every space on top of the carry-over.
    nxt = table.new_deal(hands=DEAL_D, spare=rest(DEAL_D))
    assert table.dealer == 1 and nxt.current_seat == 1
    assert nxt.layout == {k: v + 3 for k, v in carried.items()}
    assert nxt.stacks == (38, 37, 30)


# -- deal F: 4 players, dealer 0, the spare holds the hearts --------------------------------
# seat 0: clubs 2-7, diamonds 2-6                          (11)
# seat 1: KH 8C 9C JC QC KC AC 7D 8D 9D 2S                 (11)
# seat 2: TC TD JD QD KD AD 3S 4S 5S 6S                    (10)
# seat 3: 7S 8S 9S JS QS KS AS 2H 3H 4H                    (10)
# spare : AH QH JH TH 9H 8H 7H 6H 5H TS                    (10)
# Nobody's own hand holds an 8-9-10; the spare holds AH QH JH TH and 8H 9H TH.
DEAL_F = [
    cs("2C 3C 4C 5C 6C 7C 2D 3D 4D 5D 6D"),
    cs("KH 8C 9C JC QC KC AC 7D 8D 9D 2S"),
    cs("TC TD JD QD KD AD 3S 4S 5S 6S"),
    cs("7S 8S 9S JS QS KS AS 2H 3H 4H"),
]
SPARE_F = cs("AH QH JH TH 9H 8H 7H 6H 5H TS")


def bid(deal: stops.Deal, seat: int, chips: int) -> None:
    assert deal.current_seat == seat
    deal.apply({"seat": seat, "action": "bid", "chips": chips})


def pass_(deal: stops.Deal, seat: int) -> None:
    assert deal.current_seat == seat
    deal.apply({"seat": seat, "action": "pass"})


def test_auction_with_rebid() -> None:
    # ruling 11: open ascending from the dealer's left, skipping the dealer; a pass is
    # final; an outbid player may bid again. Seat 1 bids 2, seat 2 bids 3, seat 3 passes,
    # seat 1 bids again 5, seat 2 passes -> seat 1 buys the spare for 5, paid to the dealer.
    # Seat 1's old hand (with KH) becomes the dead hand. Stage one then looks at the hands
    # after the exchange (ruling 12): seat 1 holds AH QH JH TH and 8H 9H TH -> 5 x 4 = 20;
    # KH is dead, so KH and KQ stay.
    # Stacks: seat 0 41 + 5 = 46; seat 1 41 - 5 + 20 = 56; seats 2, 3 41.
    _, deal = start(DEAL_F, SPARE_F)
    deal.apply({"seat": 0, "action": "auction"})
    bid(deal, 1, 2)
    bid(deal, 2, 3)
    pass_(deal, 3)
    bid(deal, 1, 5)
    pass_(deal, 2)
    assert deal.phase == "poker"
    assert brief(kinds(deal, "auction_opened", "bid", "passed", "sold", "unsold")) == [
        ("auction_opened", 0, 0, None, None),
        ("bid", 1, 2, None, None), ("bid", 2, 3, None, None), ("passed", 3, 0, None, None),
        ("bid", 1, 5, None, None), ("passed", 2, 0, None, None),
        ("sold", 1, 5, None, 0)]
    assert kinds(deal, "auction_opened")[0].note == "spare"
    assert names(deal.hand(1)) == set(SPARE_F)
    assert names(deal.spare) == set(DEAL_F[1])
    assert Counter((e.seat, e.space, e.chips) for e in kinds(deal, "claimed")) == Counter([
        (1, "AH", 4), (1, "QH", 4), (1, "JH", 4), (1, "TH", 4), (1, "8-9-10", 4)])
    assert deal.stacks == (46, 56, 41, 41)
    assert deal.layout == {"AH": 0, "KH": 4, "QH": 0, "JH": 0, "TH": 0, "KQ": 4,
                           "8-9-10": 0, "pot": 4, "kitty": 4}


def test_unsold_auction_then_swap() -> None:
    # Seed: "if you auction the spare hand and no one wants to buy, you still have the option
    # to swap". Everyone passes -> unsold, no chips move; the dealer may keep or swap, and
    # swaps. The dealer now holds the old spare: AH QH JH TH and 8H 9H TH -> 20; seat 1
    # still holds KH -> 4; KQ is split between seat 1 (KH) and seat 0 (QH) -> stays.
    # Stacks: seat 0 41 + 20 = 61, seat 1 45, seats 2, 3 41.
    _, deal = start(DEAL_F, SPARE_F)
    deal.apply({"seat": 0, "action": "auction"})
    pass_(deal, 1)
    pass_(deal, 2)
    pass_(deal, 3)
    assert deal.current_seat == 0 and deal.phase == "spare_hand"
    assert {a.action for a in deal.legal_actions()} == {"keep", "swap"}
    assert deal.stacks == (41, 41, 41, 41)
    deal.apply({"seat": 0, "action": "swap"})
    assert deal.phase == "poker"
    assert [e.kind for e in kinds(deal, "auction_opened", "passed", "unsold",
                                  "spare_swapped", "sold")] == [
        "auction_opened", "passed", "passed", "passed", "unsold", "spare_swapped"]
    assert names(deal.hand(0)) == set(SPARE_F)
    assert names(deal.spare) == set(DEAL_F[0])
    assert Counter((e.seat, e.space, e.chips) for e in kinds(deal, "claimed")) == Counter([
        (0, "AH", 4), (0, "QH", 4), (0, "JH", 4), (0, "TH", 4), (0, "8-9-10", 4),
        (1, "KH", 4)])
    assert deal.stacks == (61, 45, 41, 41)
    assert deal.layout == {"AH": 0, "KH": 0, "QH": 0, "JH": 0, "TH": 0, "KQ": 4,
                           "8-9-10": 0, "pot": 4, "kitty": 4}


def test_swap_then_sell_old_hand() -> None:
    # Seed: "exchange your hand for the spare and then auction your old hand". The dealer
    # swaps, then auctions the old hand: seat 1 passes, seat 2 bids 4, seat 3 passes ->
    # seat 2 buys the dealer's old hand for 4; seat 2's own hand becomes the dead hand.
    # Stage one: seat 0 (old spare) 5 x 4 = 20; seat 1 KH 4.
    # Stacks: seat 0 41 + 4 + 20 = 65, seat 1 45, seat 2 41 - 4 = 37, seat 3 41.
    _, deal = start(DEAL_F, SPARE_F)
    deal.apply({"seat": 0, "action": "swap"})
    assert deal.current_seat == 0
    assert {a.action for a in deal.legal_actions()} == {"keep", "auction"}
    deal.apply({"seat": 0, "action": "auction"})
    assert kinds(deal, "auction_opened")[0].note == "old_hand"
    pass_(deal, 1)
    bid(deal, 2, 4)
    pass_(deal, 3)
    assert deal.phase == "poker"
    assert brief(kinds(deal, "sold")) == [("sold", 2, 4, None, 0)]
    assert names(deal.hand(0)) == set(SPARE_F)
    assert names(deal.hand(2)) == set(DEAL_F[0])
    assert names(deal.spare) == set(DEAL_F[2])
    assert Counter((e.seat, e.space, e.chips) for e in kinds(deal, "claimed")) == Counter([
        (0, "AH", 4), (0, "QH", 4), (0, "JH", 4), (0, "TH", 4), (0, "8-9-10", 4),
        (1, "KH", 4)])
    assert deal.stacks == (65, 45, 37, 41)


def test_dealer_cannot_swap_back() -> None:
    # Seed: "What you cannot do is exchange your hand for the spare and then exchange back".
    _, deal = start(DEAL_F, SPARE_F)
    deal.apply({"seat": 0, "action": "swap"})
    assert names(deal.hand(0)) == set(SPARE_F)
    assert not deal.can({"seat": 0, "action": "swap"})
    expect_illegal(deal, {"seat": 0, "action": "swap"})
    assert names(deal.hand(0)) == set(SPARE_F)
    deal.apply({"seat": 0, "action": "keep"})
    assert deal.phase == "poker"
    assert names(deal.hand(0)) == set(SPARE_F)
    assert names(deal.spare) == set(DEAL_F[0])


def test_bid_above_stack_is_illegal() -> None:
    # ruling 5 and 11: a bid may not exceed the bidder's stack. Seat 2 starts with 12, so
    # after the 9 stakes it has 3: a bid of 4 is refused, 3 is allowed. A bid that does not
    # top the current one is refused too.
    _, deal = start(DEAL_F, SPARE_F, chips=[50, 50, 12, 50])
    assert deal.stacks == (41, 41, 3, 41)
    deal.apply({"seat": 0, "action": "auction"})
    pass_(deal, 1)
    err = expect_illegal(deal, {"seat": 2, "action": "bid", "chips": 4})
    assert err.code == "insufficient_chips"
    bid(deal, 2, 3)
    err = expect_illegal(deal, {"seat": 3, "action": "bid", "chips": 3})
    assert err.code == "bid_too_low"
    pass_(deal, 3)
    assert brief(kinds(deal, "sold")) == [("sold", 2, 3, None, 0)]
    # Seat 2 pays 3 to the dealer (44), then holds the old spare: AH QH JH TH and the heart
    # 8-9-10 pay it 5 x 4 = 20 -> 0 + 20; seat 1 keeps KH -> 45.
    assert deal.stacks == (44, 45, 20, 41)


# -- observe(): the dead hand and a bought hand stay hidden --------------------------------


def event_cards(events) -> set[str]:
    """Cards named by events, except those a stage-one claim shows to everyone (holding a
    pay card or a run is revealed by claiming it)."""
    out: set[str] = set()
    for e in events:
        if e.kind == "claimed":
            continue
        if e.card is not None:
            out.add(str(e.card))
        out |= names(e.cards)
    return out


def test_observe_hides_bought_hand_and_dead_hand() -> None:
    # Seat 1 buys the spare for 1 (everyone else passes). The bought hand (SPARE_F) is seen
    # only by seat 1, and the dead hand (seat 1's dealt hand) only by seat 1, its old holder.
    _, deal = start(DEAL_F, SPARE_F)
    deal.apply({"seat": 0, "action": "auction"})
    bid(deal, 1, 1)
    pass_(deal, 2)
    pass_(deal, 3)
    assert deal.phase == "poker"  # before play: only selections so far
    secret = set(SPARE_F) | set(DEAL_F[1])
    for s in (0, 2, 3):
        obs = deal.observe(s)
        assert names(obs.hand) == set(DEAL_F[s])
        assert obs.spare is None
        assert not event_cards(obs.events) & secret
        assert obs.hand_sizes == (11, 10, 10, 10)
    mine = deal.observe(1)
    assert names(mine.hand) == set(SPARE_F)
    assert mine.spare is not None and names(mine.spare) == set(DEAL_F[1])
    assert not event_cards(deal.log(None)) & secret


def test_observe_hides_dealer_swap() -> None:
    # The dealer swaps unseen and keeps: the dead hand is the dealer's old hand and the
    # dealer's new hand is the old spare; nobody else sees a card of either.
    _, deal = start(DEAL_F, SPARE_F)
    deal.apply({"seat": 0, "action": "swap"})
    deal.apply({"seat": 0, "action": "keep"})
    secret = set(SPARE_F) | set(DEAL_F[0])
    for s in (1, 2, 3):
        obs = deal.observe(s)
        assert obs.spare is None
        assert not names(obs.hand) & secret
        assert not event_cards(obs.events) & secret
    mine = deal.observe(0)
    assert names(mine.hand) == set(SPARE_F)
    assert mine.spare is not None and names(mine.spare) == set(DEAL_F[0])


# -- deal C: 3 players, dealer 0 -----------------------------------------------------------
# seat 0: 7C TC 2D 2H 3H          (5)  poker: pair of 2s
# seat 1: 6C 3D 4D 6D 7D          (5)  poker: pair of 6s
# seat 2: 5C 8D 9D JD QD KD       (6)  poker: 8D 9D JD QD KD, a king-high flush
# spare : the other 36 cards: 2C 3C 4C 8C 9C JC QC KC AC, 5D TD AD, 4H-AH, all spades.
# Nothing is claimed in stage one (the pay hearts are dead, no 8-9-10 is held).
DEAL_C = [cs("7C TC 2D 2H 3H"), cs("6C 3D 4D 6D 7D"), cs("5C 8D 9D JD QD KD")]
PICKS_C = {1: "6C 3D 4D 6D 7D", 2: "8D 9D JD QD KD", 0: "7C TC 2D 2H 3H"}


def deal_c(**kw) -> tuple[stops.Table, stops.Deal]:
    table, deal = start(DEAL_C, **kw)
    deal.apply({"seat": 0, "action": "keep"})
    assert not kinds(deal, "claimed")
    select_all(deal, PICKS_C)
    return table, deal


def test_poker_all_check_showdown_everyone_best_hand_takes_whole_pot() -> None:
    # ruling 22: everyone checks -> every hand is shown; the pot is the antes (3) plus the
    # carry-over (4) = 7; seat 2's flush beats the pairs of seats 0 and 1 -> seat 2 +7.
    _, deal = deal_c(layout={"pot": 4})
    assert deal.layout["pot"] == 7
    all_check(deal, 3)
    assert brief(kinds(deal, "checked")) == [("checked", 1, 0, None, None),
                                           ("checked", 2, 0, None, None),
                                           ("checked", 0, 0, None, None)]
    shows = kinds(deal, "showdown")
    assert sorted(e.seat for e in shows) == [0, 1, 2]
    assert {e.seat: names(e.cards) for e in shows} == {s: set(cs(p)) for s, p in PICKS_C.items()}
    assert poker_winners(deal) == (2,)
    assert [(e.seat, e.space, e.chips) for e in kinds(deal, "claimed")] == [(2, "pot", 7)]
    assert deal.layout["pot"] == 0
    assert deal.stacks == (41, 41, 48)
    assert deal.phase == "play" and deal.current_seat == 2


def test_poker_all_fold_but_one_no_showdown() -> None:
    # ruling 22: seat 1 bets 3, seats 2 and 0 fold -> seat 1 takes the pot 3 + 3 = 6 with
    # no cards exposed (no showdown event; nobody else sees seat 1's selection); seat 1 leads.
    _, deal = deal_c()
    deal.apply({"seat": 1, "action": "bet", "chips": 3})
    deal.apply({"seat": 2, "action": "fold"})
    deal.apply({"seat": 0, "action": "fold"})
    assert kinds(deal, "showdown", public=False) == []
    assert brief(kinds(deal, "bet", "folded")) == [("bet", 1, 3, "pot", None),
                                                 ("folded", 2, 0, None, None),
                                                 ("folded", 0, 0, None, None)]
    assert poker_winners(deal) == (1,)
    assert [(e.seat, e.space, e.chips) for e in kinds(deal, "claimed")] == [(1, "pot", 6)]
    assert deal.stacks == (41, 44, 41)
    assert deal.layout["pot"] == 0
    assert deal.phase == "play" and deal.current_seat == 1
    # seat 1 may lead its lowest club or its lowest diamond
    assert sorted(str(a.card) for a in deal.legal_actions()) == ["3D", "6C"]
    for s in (0, 2):
        assert not event_cards(deal.observe(s).events) & set(DEAL_C[1])


def test_poker_check_raise_allowed() -> None:
    # ruling 20: a player who checked may raise after a bet. Seat 1 checks, seat 2 bets 2,
    # seat 0 calls 2, seat 1 raises 3 beyond the call (puts in 2 + 3 = 5), seat 2 calls 3,
    # seat 0 folds. Pot 3 + 2 + 2 + 5 + 3 = 15. Showdown seats 1 and 2 only (seat 0 folded):
    # seat 2's flush beats seat 1's pair. Stacks: seat 0 41 - 2 = 39, seat 1 41 - 5 = 36,
    # seat 2 41 - 5 + 15 = 51.
    _, deal = deal_c()
    deal.apply({"seat": 1, "action": "check"})
    deal.apply({"seat": 2, "action": "bet", "chips": 2})
    deal.apply({"seat": 0, "action": "call"})
    assert deal.current_seat == 1
    assert {a.action for a in deal.legal_actions()} == {"fold", "call", "raise"}
    deal.apply({"seat": 1, "action": "raise", "chips": 3})
    deal.apply({"seat": 2, "action": "call"})
    deal.apply({"seat": 0, "action": "fold"})
    assert brief(kinds(deal, "checked", "bet", "called", "raised", "folded")) == [
        ("checked", 1, 0, None, None), ("bet", 2, 2, "pot", None),
        ("called", 0, 2, "pot", None), ("raised", 1, 5, "pot", None),
        ("called", 2, 3, "pot", None), ("folded", 0, 0, None, None)]
    assert sorted(e.seat for e in kinds(deal, "showdown")) == [1, 2]
    assert poker_winners(deal) == (2,)
    assert [(e.seat, e.space, e.chips) for e in kinds(deal, "claimed")] == [(2, "pot", 15)]
    assert deal.stacks == (39, 36, 51)
    assert deal.current_seat == 2 and deal.phase == "play"


def test_fold_before_any_bet_is_illegal() -> None:
    # ruling 20: "Nobody may fold while no bet is outstanding."
    _, deal = deal_c()
    assert {a.action for a in deal.legal_actions()} == {"check", "bet"}
    expect_illegal(deal, {"seat": 1, "action": "fold"})


def test_fold_before_any_bet_code_nothing_to_fold() -> None:
    _, deal = deal_c()
    err = expect_illegal(deal, {"seat": 1, "action": "fold"})
    assert err.code == "nothing_to_fold"


def test_bet_and_raise_over_limit_illegal() -> None:
    # bet_limit 10 (ruling 20): a bet of 11 is refused, 10 allowed; a raise of 11 beyond the
    # call is refused, a raise of 10 puts in 10 + 10 = 20.
    _, deal = deal_c()
    err = expect_illegal(deal, {"seat": 1, "action": "bet", "chips": 11})
    assert err.code == "over_limit"
    deal.apply({"seat": 1, "action": "bet", "chips": 10})
    err = expect_illegal(deal, {"seat": 2, "action": "raise", "chips": 11})
    assert err.code == "over_limit"
    deal.apply({"seat": 2, "action": "raise", "chips": 10})
    assert brief(kinds(deal, "bet", "raised")) == [("bet", 1, 10, "pot", None),
                                                 ("raised", 2, 20, "pot", None)]
    assert deal.stacks == (41, 31, 21)
    assert deal.layout["pot"] == 33


def test_poker_tie_odd_pot_remainder_stays_and_first_winner_from_dealers_left_leads() -> None:
    # 4 players, dealer 2, 3 carried on the pot: pot 3 + 4 = 7. All check. Seats 3 and 0
    # hold equal A-K-Q-J-9 high cards (no flush, no straight); seats 1, 2 lower.
    # ruling 23: 7 // 2 = 3 each, 1 stays on the pot. Order from the dealer's left is
    # 3, 0, 1, 2: seat 3 is the first winner and leads (not seat 0, the lower number).
    hands = [cs("AD KC QD JC 9D"), cs("2C 3D 4S 6C 7D"), cs("2D 3S 4C 6D 8S"),
             cs("AC KD QC JD 9S")]
    _, deal = start(hands, dealer=2, layout={"pot": 3})
    deal.apply({"seat": 2, "action": "keep"})
    assert not kinds(deal, "claimed")
    select_all(deal, {s: " ".join(h) for s, h in enumerate(hands)})
    all_check(deal, 4)
    assert sorted(e.seat for e in kinds(deal, "showdown")) == [0, 1, 2, 3]
    assert set(poker_winners(deal)) == {0, 3}
    assert sorted((e.seat, e.space, e.chips) for e in kinds(deal, "claimed")) == [
        (0, "pot", 3), (3, "pot", 3)]
    assert deal.layout["pot"] == 1
    assert deal.stacks == (44, 41, 41, 44)
    assert deal.phase == "play" and deal.current_seat == 3


def test_poker_tie_with_dealer_dealer_leads_last() -> None:
    # ruling 23: "If the dealer is among the tied winners, the dealer comes last". 3 players,
    # dealer 0, pot 3. Seats 0 and 1 tie with A-K-Q-J-9; seat 2 has 7-high. 3 // 2 = 1 each,
    # 1 stays; order from the dealer's left is 1, 2, 0, so seat 1 leads (not seat 0).
    hands = [cs("AD KC QD JC 9D"), cs("AC KD QC JD 9S"), cs("2C 3D 4S 6C 7D")]
    _, deal = start(hands)
    deal.apply({"seat": 0, "action": "keep"})
    select_all(deal, {s: " ".join(h) for s, h in enumerate(hands)})
    all_check(deal, 3)
    assert set(poker_winners(deal)) == {0, 1}
    assert sorted((e.seat, e.space, e.chips) for e in kinds(deal, "claimed")) == [
        (0, "pot", 1), (1, "pot", 1)]
    assert deal.layout["pot"] == 1
    assert deal.stacks == (42, 42, 41)
    assert deal.current_seat == 1


# -- stage three on deal C (all check: seat 2 wins the poker and leads) ---------------------


def deal_c_to_play(**kw) -> tuple[stops.Table, stops.Deal]:
    table, deal = deal_c(**kw)
    all_check(deal, 3)
    assert poker_winners(deal) == (2,)
    return table, deal


def test_poker_winner_leads_lowest_card_of_chosen_suit() -> None:
    # Seed: "The winner of the pot in the poker stage begins the play ... must be the lowest
    # card that they hold in that suit". Seat 2 (not the dealer's left) leads; it holds 5C and
    # 8D 9D JD QD KD, so it may lead 5C or 8D, not 9D.
    _, deal = deal_c_to_play()
    assert deal.current_seat == 2
    assert sorted(str(a.card) for a in deal.legal_actions()) == ["5C", "8D"]
    err = expect_illegal(deal, {"seat": 2, "action": "lead", "card": "9D"})
    assert err.code == "not_lowest_in_suit"
    err = expect_illegal(deal, {"seat": 1, "action": "lead", "card": "6C"})
    assert err.code == "not_your_turn"
    # 5C led; 6C (seat 1) and 7C (seat 0) are forced; 8C is dead so 7C is a stop.
    out = lead(deal, 2, "5C")
    assert [(e.kind, e.seat, str(e.card)) for e in out if e.kind in ("led", "played", "stop")
            ] == [("led", 2, "5C"), ("played", 1, "6C"), ("played", 0, "7C"),
                  ("stop", 0, "7C")]
    assert deal.current_seat == 0


def test_after_stop_lead_must_change_suit() -> None:
    # Seed: "They can lead any suit except the suit just played". After the 7C stop, seat 0
    # holds TC 2D 2H 3H: TC (its lowest club) is refused with suit_just_stopped; 2D or 2H.
    _, deal = deal_c_to_play()
    lead(deal, 2, "5C")
    assert deal.current_seat == 0
    assert sorted(str(a.card) for a in deal.legal_actions()) == ["2D", "2H"]
    err = expect_illegal(deal, {"seat": 0, "action": "lead", "card": "TC"})
    assert err.code == "suit_just_stopped"
    lead(deal, 0, "2D")
    assert plays(deal) == [(2, "5C"), (1, "6C"), (0, "7C"), (0, "2D"), (1, "3D"), (1, "4D")]


def test_lead_passed_left_twice_then_deal_played_out() -> None:
    # 2D (seat 0) -> 3D 4D (seat 1); 5D is dead: 4D stops with seat 1. Seat 1 holds only
    # 6D 7D, seat 2 only 8D 9D JD QD KD: the lead passes 1 -> 2 -> 0 (ruling 24). Seat 0
    # (TC 2H 3H) leads TC, a stop (JC dead); it must change suit: 2H, then 3H is forced -
    # its own card - and it is its last: seat 0 goes out (4H would have been a stop).
    # Reward: kitty 3 + seat 1's 2 cards + seat 2's 5 cards = 10.
    # Stacks: seat 0 41 + 10 = 51, seat 1 41 - 2 = 39, seat 2 41 + 3 (pot) - 5 = 39.
    table, deal = deal_c_to_play()
    lead(deal, 2, "5C")
    out = lead(deal, 0, "2D")
    assert brief([e for e in out if e.kind == "lead_passed"]) == [
        ("lead_passed", 1, 0, None, 2), ("lead_passed", 2, 0, None, 0)]
    assert deal.current_seat == 0
    assert sorted(str(a.card) for a in deal.legal_actions()) == ["2H", "TC"]
    out = lead(deal, 0, "TC")
    assert [(e.kind, e.seat, str(e.card)) for e in out] == [("led", 0, "TC"),
                                                           ("stop", 0, "TC")]
    assert [str(a.card) for a in deal.legal_actions()] == ["2H"]
    lead(deal, 0, "2H")
    assert plays(deal) == [(2, "5C"), (1, "6C"), (0, "7C"), (0, "2D"), (1, "3D"), (1, "4D"),
                           (0, "TC"), (0, "2H"), (0, "3H")]
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 0
    assert [(e.kind, e.seat) for e in kinds(deal, "went_out")] == [("went_out", 0)]
    assert deal.stacks == (51, 39, 39)
    assert table.stacks == (51, 39, 39)
    assert deal.layout == {"AH": 3, "KH": 3, "QH": 3, "JH": 3, "TH": 3, "KQ": 3,
                           "8-9-10": 3, "pot": 0, "kitty": 0}


def test_lead_receiver_must_also_change_suit() -> None:
    # ruling 24: the player who receives a passed lead must also avoid the stopped suit.
    # Deal C with TD moved from the spare to seat 0: after the 4D stop and the passes
    # 1 -> 2 -> 0, seat 0 holds TC TD 2H 3H and may lead TC or 2H, not TD.
    hands = [cs("7C TC TD 2D 2H 3H"), DEAL_C[1], DEAL_C[2]]
    _, deal = start(hands)
    deal.apply({"seat": 0, "action": "keep"})
    select_all(deal, PICKS_C)
    all_check(deal, 3)
    lead(deal, 2, "5C")
    lead(deal, 0, "2D")
    assert [(e.seat, e.to_seat) for e in kinds(deal, "lead_passed")] == [(1, 2), (2, 0)]
    assert deal.current_seat == 0
    assert sorted(str(a.card) for a in deal.legal_actions()) == ["2H", "TC"]
    err = expect_illegal(deal, {"seat": 0, "action": "lead", "card": "TD"})
    assert err.code == "suit_just_stopped"


def test_record_replays_to_same_result() -> None:
    _, deal = deal_c_to_play()
    lead(deal, 2, "5C")
    lead(deal, 0, "2D")
    lead(deal, 0, "TC")
    lead(deal, 0, "2H")
    assert deal.is_terminal
    rec = deal.record()
    again = stops.replay(rec)
    assert again.is_terminal
    assert again.stacks == deal.stacks == (51, 39, 39)
    assert again.layout == deal.layout
    assert plays(again) == plays(deal)
    assert again.events == deal.events
    assert (again.outcome, again.winner, poker_winners(again)) == ("went_out", 0, (2,))
    assert again.returns() == deal.returns() == (1, -11, -11)


# -- deal B: a block ---------------------------------------------------------------------------
# 3 players, dealer 0, 2 carried on the kitty.
# seat 0: TS JS QS KS AS      seat 1: 2D 3D 4D 2S 9S      seat 2: 3S 4S 5S 6S 8S
# spare : 7S, 5D-AD, all clubs, all hearts (37).
DEAL_B = [cs("TS JS QS KS AS"), cs("2D 3D 4D 2S 9S"), cs("3S 4S 5S 6S 8S")]


def test_block_everyone_pays_per_card_into_kitty() -> None:
    # Stakes: 41 each, kitty 2 + 3 = 5. No claims. Poker: seat 1 bets 2, seats 2 and 0 fold:
    # seat 1 takes 3 + 2 = 5 (41 - 2 + 5 = 44) and leads.
    # 2D -> 3D 4D (seat 1's own); 5D dead: stop. Seat 1 must change suit: 2S -> 3S 4S 5S 6S
    # (seat 2); 7S dead: stop with seat 2. Everyone now holds only spades: the lead passes
    # 2 -> 0 -> 1 -> 2 and play is blocked (seed: "If no one has any other suit the play
    # ends, and everyone puts into the kitty a chip for each card they have left").
    # Left: seat 0 5 cards, seat 1 1 (9S), seat 2 1 (8S) -> kitty 5 + 7 = 12.
    # Stacks: seat 0 41 - 5 = 36, seat 1 44 - 1 = 43, seat 2 41 - 1 = 40.
    table, deal = start(DEAL_B, layout={"kitty": 2})
    deal.apply({"seat": 0, "action": "keep"})
    assert not kinds(deal, "claimed")
    select_all(deal, {s: " ".join(h) for s, h in enumerate(DEAL_B)})
    deal.apply({"seat": 1, "action": "bet", "chips": 2})
    deal.apply({"seat": 2, "action": "fold"})
    deal.apply({"seat": 0, "action": "fold"})
    assert deal.stacks == (41, 44, 41)
    assert deal.current_seat == 1
    assert sorted(str(a.card) for a in deal.legal_actions()) == ["2D", "2S"]
    lead(deal, 1, "2D")
    assert [str(a.card) for a in deal.legal_actions()] == ["2S"]
    out = lead(deal, 1, "2S")
    assert plays(deal) == [(1, "2D"), (1, "3D"), (1, "4D"), (1, "2S"), (2, "3S"), (2, "4S"),
                           (2, "5S"), (2, "6S")]
    assert brief([e for e in out if e.kind == "lead_passed"]) == [
        ("lead_passed", 2, 0, None, 0), ("lead_passed", 0, 0, None, 1),
        ("lead_passed", 1, 0, None, 2)]
    assert [e.kind for e in out if e.kind in ("blocked", "deal_ended")] == [
        "blocked", "deal_ended"]
    assert deal.is_terminal and deal.outcome == "blocked" and deal.winner is None
    assert sorted((e.seat, e.space, e.chips) for e in kinds(deal, "paid")) == [
        (0, "kitty", 5), (1, "kitty", 1), (2, "kitty", 1)]
    assert deal.stacks == (36, 43, 40)
    assert deal.layout == {"AH": 3, "KH": 3, "QH": 3, "JH": 3, "TH": 3, "KQ": 3,
                           "8-9-10": 3, "pot": 0, "kitty": 12}
    assert table.layout["kitty"] == 12


# -- deal G: going out in mid-sequence ----------------------------------------------------------
# 3 players, dealer 0, 5 carried on the kitty.
# seat 0: QD KD AD 7C 8C 9C         (6)
# seat 1: 2D 4D 6D 8D TD 2C 3C 4C 5C 6C   (10) poker: 2C-6C straight flush
# seat 2: 3D 5D 7D 9D JD            (5)  poker: the same five, a flush
# spare : TC JC QC KC AC, all hearts, all spades (31).
DEAL_G = [cs("QD KD AD 7C 8C 9C"), cs("2D 4D 6D 8D TD 2C 3C 4C 5C 6C"),
          cs("3D 5D 7D 9D JD")]


def test_going_out_mid_sequence_wins_kitty_and_per_card() -> None:
    # Stakes: 41 each; kitty 5 + 3 = 8. No claims. All check: seat 1's straight flush wins
    # the pot 3 (44). Seat 1 leads 2D; the diamonds alternate 3D (2) 4D (1) ... TD (1) JD (2):
    # JD is seat 2's last card, so it goes out there although QD (seat 0) would follow
    # (seed + ruling 27: "the play ends immediately"). Reward: kitty 8 + seat 1's 5 cards
    # left (its poker cards 2C-6C) + seat 0's 6 cards = 19.
    # Stacks: seat 0 41 - 6 = 35, seat 1 44 - 5 = 39, seat 2 41 + 19 = 60.
    table, deal = start(DEAL_G, layout={"kitty": 5})
    deal.apply({"seat": 0, "action": "keep"})
    assert not kinds(deal, "claimed")
    select_all(deal, {1: "2C 3C 4C 5C 6C", 2: "3D 5D 7D 9D JD", 0: "QD KD AD 7C 8C"})
    all_check(deal, 3)
    assert poker_winners(deal) == (1,)
    assert deal.current_seat == 1
    lead(deal, 1, "2D")
    assert plays(deal) == [(1, "2D"), (2, "3D"), (1, "4D"), (2, "5D"), (1, "6D"), (2, "7D"),
                           (1, "8D"), (2, "9D"), (1, "TD"), (2, "JD")]
    assert kinds(deal, "stop") == []
    assert [(e.seat, str(e.card)) for e in kinds(deal, "went_out")] == [(2, "JD")]
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 2
    assert names(deal.hand(0)) == set(DEAL_G[0])  # QD was never played
    assert names(deal.hand(1)) == set(cs("2C 3C 4C 5C 6C"))
    assert [(e.seat, e.space, e.chips) for e in kinds(deal, "claimed")][-1] == (
        2, "kitty", 8)
    assert sorted((e.seat, e.to_seat, e.chips) for e in kinds(deal, "paid")
                  if e.to_seat is not None) == [(0, 2, 6), (1, 2, 5)]
    assert deal.stacks == (35, 39, 60)
    assert deal.returns() == (-15, -11, 10)
    assert deal.layout == {"AH": 3, "KH": 3, "QH": 3, "JH": 3, "TH": 3, "KQ": 3,
                           "8-9-10": 3, "pot": 0, "kitty": 0}
    assert table.stacks == (35, 39, 60)
