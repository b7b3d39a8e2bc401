"""Hand-derived tests for Royal Rummy (`royal-rummy`, FAMILY-RULINGS-2 G.3, G15-G21, G.0 items
14-15, G.9, G.11 item 14).

Every deal is stacked and its outcome worked out by hand from the rulings before the code
ran; the derivation is written beside each test. Unless a test says otherwise:

* 4 players, dealer 0; 50 chips each; the 52-card pack dealt clockwise from seat 1 into four
  hands and the extra hand (after the dealer): 52 = 5 x 10 + 2, so seats 1 and 2 (dealt
  first in each round) hold 11 cards, seats 3 and 0 and the extra hand 10;
* the stake: 1 chip from every player on each of the eight spaces (AH KH QH JH TH KQ 6-7-8
  pot): every stack is 42, every space holds 4. With ``ace_bet: true`` the four wager spaces
  ace-C ace-D ace-H ace-S are added and nobody stakes on them (G21);
* flow: stake, ace_bet (the side-bet, ``before_deal``), deal, spare_hand (the dealer swaps
  or auctions; he may not keep), ace_claim (the holder of the ace as dealt takes its space
  if he bet), play, settle.
"""

from __future__ import annotations

from typing import Any

import pytest

import stops
from stops.rules.prose import rules_text
from support import (
    act,
    conserved,
    expect_illegal,
    grid,
    make_record,
    nonzero,
    skip_unless_built,
)
from support import pass_ as PASS

VARIANT = "royal-rummy"

pytestmark = skip_unless_built(VARIANT)

SIZES = (10, 11, 11, 10)
ACE_BET = {"ace_bet": True}

# -- DEAL A: the aces AC to seat 0, AD AH AS to seat 3 -------------------------------------
#          2345678 9TJQKA
HANDS_A, SPARE_A = grid({
    "C": "1111222233330",   # 2-5C seat 1, 6-9C seat 2, T-KC seat 3, AC seat 0
    "D": "0000111122223",   # 2-5D seat 0, 6-9D seat 1, T-KD seat 2, AD seat 3
    "H": "xxxx000011133",   # 2-5H extra, 6-9H seat 0, T-QH seat 1, KH AH seat 3
    "S": "xxxxxx0222333",   # 2-7S extra, 8S seat 0, 9-JS seat 2, QS KS AS seat 3
}, SIZES, 10)

# -- DEAL B: as A, but the AS is in the extra hand (and 7S to seat 0, 8S to seat 2) --------
HANDS_B, SPARE_B = grid({
    "C": "1111222233330",
    "D": "0000111122223",
    "H": "xxxx000011133",
    "S": "xxxxx0222333x",   # 2-6S extra, 7S seat 0, 8-TS seat 2, J-KS seat 3, AS extra
}, SIZES, 10)


def record(hands: list[list[str]], spare: list[str], actions: list[dict[str, Any]],
           **kw: Any) -> dict[str, Any]:
    return make_record(VARIANT, hands, spare, actions, **kw)


def wager(space: str, chips: int, seat: int = 0) -> dict[str, Any]:
    return act(seat, "wager", space=space, chips=chips)


def cover(seat: int) -> dict[str, Any]:
    return act(seat, "cover")


SWAP = act(0, "swap")


def claims(deal: stops.Deal) -> list[tuple[int | None, str | None, int]]:
    return [(e.seat, e.space, e.chips) for e in deal.events
            if e.kind == "claimed" and e.visible_to is None]


def code_of(deal: stops.Deal, action: dict[str, Any]) -> str:
    """The code of the IllegalAction ``action`` raises (the deal checked unchanged)."""
    expect_illegal(deal, action)
    with pytest.raises(stops.IllegalAction) as info:
        deal.apply(action)
    return info.value.code


# -- the game without the side-bet ---------------------------------------------------------


def test_stakes_and_the_dealers_choice() -> None:
    # Eight spaces, 1 chip each from four players: stacks 42, each space 4 (32 + 168 = 200).
    # No side-bet: the first decision is the dealer's, swap or auction (dealer_keep: false).
    deal = stops.replay(record(HANDS_A, SPARE_A, []), partial=True)
    assert deal.stacks == (42, 42, 42, 42)
    assert nonzero(deal) == {s: 4 for s in ("AH", "KH", "QH", "JH", "TH", "KQ", "6-7-8",
                                            "pot")}
    assert deal.phase == "spare_hand" and deal.current_seat == 0
    assert sorted(a["action"] for a in _legal(deal)) == ["auction", "swap"]


def _legal(deal: stops.Deal) -> list[dict[str, Any]]:
    return [a.to_dict() for a in deal.legal_actions()]


def test_first_lead_is_the_lowest_of_a_suit_the_leader_chooses() -> None:
    # After the dealer's swap, seat 1 (the dealer's left) leads. He holds 2-5C, 6-9D, T-QH:
    # the lowest of each suit he holds is 2C, 6D, TH, his only choices (first_lead_card:
    # lowest_of_suit).
    deal = stops.replay(record(HANDS_A, SPARE_A, [SWAP]), partial=True)
    assert deal.phase == "play" and deal.current_seat == 1
    assert sorted(a["card"] for a in _legal(deal)) == ["2C", "6D", "TH"]


def test_auction_by_single_chips() -> None:
    # G.0 item 14 (auction_increment: one). The dealer auctions the extra hand; bids go
    # clockwise from seat 1: the first bid must be exactly 1, each later bid exactly 1 more.
    # Seat 1 bids 1, seat 2 bids 2, seat 3 passes (final), seat 1 bids 3, seat 2 passes:
    # seat 1 buys for 3 chips paid to the dealer: stacks 42 + 3 = 45, 42 - 3 = 39, 42, 42.
    deal = stops.replay(record(HANDS_A, SPARE_A, [act(0, "auction")]), partial=True)
    assert deal.current_seat == 1
    assert [a.get("chips") for a in _legal(deal) if a["action"] == "bid"] == [1]
    assert code_of(deal, act(1, "bid", chips=2)) == "bid_not_one_more"
    deal.apply(act(1, "bid", chips=1))
    assert [a.get("chips") for a in _legal(deal) if a["action"] == "bid"] == [2]
    assert code_of(deal, act(2, "bid", chips=3)) == "bid_not_one_more"
    assert code_of(deal, act(2, "bid", chips=1)) == "bid_not_one_more"
    for a in (act(2, "bid", chips=2), PASS(3), act(1, "bid", chips=3), PASS(2)):
        deal.apply(a)
    sold = [e for e in deal.events if e.kind == "sold"]
    assert [(e.seat, e.chips) for e in sold] == [(1, 3)]
    assert deal.stacks == (45, 39, 42, 42)
    assert sorted(str(c) for c in deal.hand(1)) == sorted(SPARE_A)
    assert deal.phase == "play"
    conserved(deal, 200)


def test_a_bid_beyond_the_stack_under_single_chips() -> None:
    # Seat 1 starts with 9 chips: 1 after the stakes. Seat 2 bids... seat 1 may bid 1 (he
    # has it); after seat 2's 2 and seat 3's 3, seat 1 would have to bid 4: he can only pass.
    deal = stops.replay(record(HANDS_A, SPARE_A, [act(0, "auction"), act(1, "bid", chips=1),
                                                  act(2, "bid", chips=2),
                                                  act(3, "bid", chips=3)],
                               stacks=[50, 9, 50, 50]), partial=True)
    assert deal.stacks[1] == 1 and deal.current_seat == 1
    assert [a["action"] for a in _legal(deal)] == ["pass"]
    assert code_of(deal, act(1, "bid", chips=4)) == "insufficient_chips"


# -- the ace side-bet (G21) ----------------------------------------------------------------


def test_nobody_stakes_on_the_wager_spaces() -> None:
    # G21: the four wager spaces are staked by nobody: stacks 42, the eight spaces 4 each,
    # the wager spaces empty. The dealer is asked first: pass, or wager 1..42 on one of the
    # four ace spaces (4 x 42 + 1 = 169 choices).
    deal = stops.replay(record(HANDS_A, SPARE_A, [], options=ACE_BET), partial=True)
    assert deal.stacks == (42, 42, 42, 42)
    assert set(nonzero(deal)) == {"AH", "KH", "QH", "JH", "TH", "KQ", "6-7-8", "pot"}
    assert deal.phase == "ace_bet" and deal.current_seat == 0
    legal = _legal(deal)
    assert len(legal) == 169
    assert {a["space"] for a in legal if a["action"] == "wager"} == {"ace-C", "ace-D",
                                                                       "ace-H", "ace-S"}


def test_a_coverer_dealt_the_ace_takes_the_space() -> None:
    # Seat 0 wagers 3 on ace-H (42 - 3 = 39); seat 1 covers (39), seat 2 passes (42), seat 3
    # covers (39): ace-H holds 9. Deal A gives AH to seat 3, who covered: after the extra hand
    # (the dealer swaps) seat 3 takes 9 -> 48. Stacks 39 39 42 48; 32 on the stake spaces.
    actions = [wager("ace-H", 3), cover(1), PASS(2), cover(3), SWAP]
    deal = stops.replay(record(HANDS_A, SPARE_A, actions, options=ACE_BET), partial=True)
    bets = [(str(e.kind), e.seat, e.chips, e.space) for e in deal.events
            if e.kind in ("wagered", "covered")]
    assert bets == [("wagered", 0, 3, "ace-H"), ("covered", 1, 3, "ace-H"),
                    ("covered", 3, 3, "ace-H")]
    assert claims(deal) == [(3, "ace-H", 9)]
    assert deal.stacks == (39, 39, 42, 48)
    assert "ace-H" not in nonzero(deal)
    assert deal.phase == "play"
    conserved(deal, 200)


def test_carried_chips_go_with_the_space() -> None:
    # G21, G.11 14: chips left on ace-H by earlier deals (5) are taken too: 5 + 9 = 14,
    # seat 3 42 - 3 + 14 = 53.
    actions = [wager("ace-H", 3), cover(1), PASS(2), cover(3), SWAP]
    deal = stops.replay(record(HANDS_A, SPARE_A, actions, options=ACE_BET,
                               layout={"ace-H": 5}), partial=True)
    assert claims(deal) == [(3, "ace-H", 14)]
    assert deal.stacks == (39, 39, 42, 53)
    conserved(deal, 205)


def test_a_holder_who_did_not_bet_leaves_the_chips() -> None:
    # Seat 0 wagers 2 on ace-C... AC is the dealer's own: wager on ace-D instead. Seat 0
    # wagers 2 on ace-D (40), seat 1 covers (40), seats 2 and 3 pass. AD is seat 3's, who
    # passed: nobody takes ace-D, its 4 chips stay for a later deal (G21).
    actions = [wager("ace-D", 2), cover(1), PASS(2), PASS(3), SWAP]
    deal = stops.replay(record(HANDS_A, SPARE_A, actions, options=ACE_BET), partial=True)
    assert claims(deal) == []
    assert deal.stacks == (40, 40, 42, 42)
    assert nonzero(deal)["ace-D"] == 4
    conserved(deal, 200)


def test_the_dealer_wins_his_own_wager() -> None:
    # Seat 0 wagers 5 on ace-C (37); everyone passes; AC is seat 0's: he takes 5 back (42).
    actions = [wager("ace-C", 5), PASS(1), PASS(2), PASS(3), SWAP]
    deal = stops.replay(record(HANDS_A, SPARE_A, actions, options=ACE_BET), partial=True)
    assert claims(deal) == [(0, "ace-C", 5)]
    assert deal.stacks == (42, 42, 42, 42)


def test_the_ace_in_the_extra_hand_pays_nobody_even_after_a_swap() -> None:
    # Deal B: AS is dealt to the extra hand. Seat 0 wagers 3 on ace-S, all pass, then the
    # dealer swaps and so holds AS. The holder *as dealt* is the extra hand (before_deal):
    # the 3 chips stay on ace-S; the dealer has 39.
    actions = [wager("ace-S", 3), PASS(1), PASS(2), PASS(3), SWAP]
    deal = stops.replay(record(HANDS_B, SPARE_B, actions, options=ACE_BET), partial=True)
    assert "AS" in {str(c) for c in deal.hand(0)}
    assert claims(deal) == []
    assert deal.stacks == (39, 42, 42, 42)
    assert nonzero(deal)["ace-S"] == 3


def test_after_spare_the_holder_after_the_swap_wins() -> None:
    # ace_bet_timing: after_spare (HR). No bet before the deal; the dealer swaps first (now
    # holding AS), then wagers 3 on ace-S (39), all pass: he holds AS and bet, so he takes
    # ace-S: 3 + 4 carried = 7 -> 46.
    opts = {**ACE_BET, "ace_bet_timing": "after_spare"}
    deal = stops.replay(record(HANDS_B, SPARE_B, [SWAP], options=opts,
                               layout={"ace-S": 4}), partial=True)
    assert deal.phase == "ace_late" and deal.current_seat == 0
    for a in (wager("ace-S", 3), PASS(1), PASS(2), PASS(3)):
        deal.apply(a)
    assert claims(deal) == [(0, "ace-S", 7)]
    assert deal.stacks == (46, 42, 42, 42)
    assert deal.phase == "play"
    conserved(deal, 204)


def test_bad_side_bets_are_refused_and_change_nothing() -> None:
    # Seat 1 starts with 10 chips: 2 after the stakes.
    deal = stops.replay(record(HANDS_A, SPARE_A, [], options=ACE_BET,
                               stacks=[50, 10, 50, 50]), partial=True)
    assert code_of(deal, wager("AH", 1)) == "not_a_wager_space"      # a card space
    assert code_of(deal, wager("pot", 1)) == "not_a_wager_space"     # the pot
    assert code_of(deal, wager("ace-X", 1)) == "not_a_wager_space"   # no such space
    assert code_of(deal, cover(0)) == "nothing_to_cover"             # no wager yet
    assert code_of(deal, wager("ace-H", 43)) == "insufficient_chips"  # the dealer has 42
    deal.apply(wager("ace-H", 3))
    assert deal.current_seat == 1
    assert [a["action"] for a in _legal(deal)] == ["pass"]           # 2 chips: cannot cover
    assert code_of(deal, cover(1)) == "insufficient_chips"
    assert code_of(deal, wager("ace-H", 1, seat=1)) == "already_wagered"


# -- the presets (G16, G17) and options (G18, G19) ------------------------------------------


def test_held_claims_pay_the_holders_after_the_extra_hand() -> None:
    # G16 held-claims: claim_held after spare_hand, stage_one. Deal A after the dealer's
    # swap (seat 0 now holds the extra hand: 2-5H, 2-7S): AH and KH (seat 3), QH JH TH
    # (seat 1) pay 4 each; KQ needs KH and QH in one hand: nobody; 6-7-8 in one suit: seat 1
    # holds 6-7-8D and seat 2 6-7-8C (seat 0's 6-7-8H went to the extra hand), so they share
    # the 4 chips (stage_one's ten_share: per_player), 2 each. (The first derivation missed
    # seat 1's diamonds; corrected from the deal table, not from the run.)
    # Seat 1 42 + 12 + 2 = 56, seat 2 42 + 2 = 44, seat 3 42 + 8 = 50, seat 0 42.
    deal = stops.replay(record(HANDS_A, SPARE_A, [SWAP], options={"held-claims": True}),
                        partial=True)
    assert claims(deal) == [(3, "AH", 4), (3, "KH", 4), (1, "QH", 4), (1, "JH", 4),
                            (1, "TH", 4), (1, "6-7-8", 2), (2, "6-7-8", 2)]
    assert deal.stacks == (42, 56, 44, 50)
    assert set(nonzero(deal)) == {"KQ", "pot"}


def test_with_poker_adds_the_poker_pot_and_stage() -> None:
    # G17: layout gains poker (kind pot), staked like any space: 9 spaces, stacks 41;
    # after the swap the poker round begins; the poker winner leads.
    deal = stops.replay(record(HANDS_A, SPARE_A, [SWAP], options={"with-poker": True}),
                        partial=True)
    assert deal.stacks == (41, 41, 41, 41)
    assert nonzero(deal)["poker"] == 4
    assert deal.phase == "poker"
    v = stops.load_variant(VARIANT, options={"with-poker": True, "ace_bet": True})
    assert {"poker", "ace-C", "ace-S"} <= set(v.space_ids)
    w = stops.load_variant(VARIANT, options={"ace_bet": True, "with-poker": True})
    assert set(w.space_ids) == set(v.space_ids)   # add_layout: either order


def test_rules_text_options() -> None:
    text = rules_text(stops.load_variant(VARIANT, options={"going_out_reward":
                                                                 "kitty_only"}))
    assert "The first player out wins the pot; nobody pays for cards left." in text
    text = rules_text(stops.load_variant(VARIANT))
    assert "side-bet" not in text and "ace-C" not in text
    text = rules_text(stops.load_variant(VARIANT, options=ACE_BET))
    assert "ace-C: a side-bet on the ace of clubs" in text
    assert "Before the cards are dealt, the dealer may bet on one ace" in text
    assert "an extra hand" in text and "a extra" not in text


def test_g19_failed_lead_options_load() -> None:
    for opts in ({"lead_pass_penalty": 1}, {"colour_flip": True}, {"ace": "low"}):
        stops.load_variant(VARIANT, options=opts)


def test_whole_sessions_conserve_chips() -> None:
    for seats, opts in ((3, ACE_BET), (5, {**ACE_BET, "ace_bet_timing": "after_spare"}),
                        (8, {}), (4, {"with-poker": True, "ace_bet": True})):
        table = stops.Table(stops.load_variant(VARIANT, options=opts), seats=seats, chips=50,
                            seed=seats)
        deals = 0
        while not table.is_over:
            deal = table.new_deal()
            while not deal.is_terminal:
                legal = deal.legal_actions()
                deal.apply(legal[(deals * 7 + len(deal.plays)) % len(legal)])
            deals += 1
            assert sum(table.stacks) + sum(dict(table.layout).values()) == 50 * seats
        assert deals == 10


def _play_out(deal: stops.Deal) -> None:
    """Every decision the first legal one: the side-bet's first choice is pass."""
    while not deal.is_terminal:
        deal.apply(deal.legal_actions()[0])


def test_wager_chips_carry_over_and_are_cleared_at_the_session_end() -> None:
    # G.11 14. A table with 8 chips carried on ace-H: the dealer passes the side-bet (the
    # first choice), so nothing is wagered and no rule pays ace-H: its 8 chips are there
    # after the deal (leftover_at_match_end: stays, the default).
    v = stops.load_variant(VARIANT, options=ACE_BET)
    table = stops.Table(v, seats=4, chips=50, seed=3, layout={"ace-H": 8})
    _play_out(table.new_deal())
    assert dict(table.layout)["ace-H"] == 8
    # With leftover_at_match_end: share, the tenth deal ends the session and every space is
    # shared out, the wager spaces like any other: the layout is empty, no chip lost.
    v = stops.load_variant(VARIANT, options={**ACE_BET, "leftover_at_match_end": "share"})
    table = stops.Table(v, seats=4, chips=50, seed=3, layout={"ace-H": 8})
    table.deals_played = 9   # nine deals already played: this one is the tenth
    _play_out(table.new_deal())
    assert table.is_over
    assert sum(dict(table.layout).values()) == 0
    assert sum(table.stacks) == 208


def test_the_heuristic_bot_wagers_on_an_ace_it_holds() -> None:
    # ace_bet_advice: after the extra hand (after_spare) the dealer of deal B has swapped:
    # his AC went with his old hand into the extra hand, and he now holds the extra hand's
    # AS. He bets on the ace he holds, ace-S, a tenth of his 42 chips: 4. Seat 1 (no ace)
    # does not hold the ace bet on and the space is not rich: he passes rather than covering.
    from stops.bots import make_bot

    opts = {**ACE_BET, "ace_bet_timing": "after_spare"}
    deal = stops.replay(record(HANDS_B, SPARE_B, [SWAP], options=opts,
                               layout={"ace-S": 4}), partial=True)
    bot = make_bot("heuristic", seed=1)
    choice = bot.act(deal.observe(0))
    assert (choice.action, choice.space, choice.chips) == ("wager", "ace-S", 4)
    deal.apply(choice)
    reply = bot.act(deal.observe(1))
    assert reply.action == "pass"


def test_a_won_side_bet_tells_where_its_ace_is() -> None:
    # The claim is public: seat 0 won ace-C, so AC was dealt to him; he then swapped his
    # hand for the extra hand, so AC lies in the extra hand now. Every imagined deal seat 1
    # makes (clone_for) must put it there. (AC is not shown: its winner no longer holds it.)
    import random

    actions = [wager("ace-C", 5), PASS(1), PASS(2), PASS(3), SWAP]
    deal = stops.replay(record(HANDS_A, SPARE_A, actions, options=ACE_BET), partial=True)
    assert claims(deal) == [(0, "ace-C", 5)]
    for k in range(8):
        copy = deal.clone_for(1, random.Random(k))
        assert "AC" in {str(stops.CARDS[c]) for c in copy.spare}
    # A coverer's win (deal A, AH to seat 3, who never swapped): AH stays with seat 3.
    actions = [wager("ace-H", 3), cover(1), PASS(2), cover(3), SWAP]
    deal = stops.replay(record(HANDS_A, SPARE_A, actions, options=ACE_BET), partial=True)
    for k in range(8):
        copy = deal.clone_for(1, random.Random(k))
        assert "AH" in {str(c) for c in copy.hand(3)}
