"""Hand-derived tests for the pot-and-kitty game (seed 003, ruling 1-8 and 35-47).

Every deal is stacked: the hands are tiny and everything else lies in the spare (dead) hand,
so each card's owner is known and every stop is forced by the dead hand. Unless a test says
otherwise the table has 3 seats, 20 chips each and dealer 0, so stakes and exchanges go
1, 2, 0 and each stake round costs every seat 3 chips (1 key card + 1 pot + 1 kitty).

Card order inside one suit: 2 3 4 5 6 7 8 9 T J Q K A (ace high, a stop by itself).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

import stops
from stops import IllegalAction, SessionOver, parse_card
from support import (
    claims,
    lead,
    legal,
    new_deal,
    plays,
    ready,
    settle_spare,
    spare_of,
    stake_all,
)

VARIANT = "pot-and-kitty"
BASE_FILE = Path(__file__).resolve().parents[2] / "variants" / "pot-and-kitty.yaml"
SIX = {"KH", "QC", "JD", "TS", "pot", "kitty"}


# -- helpers --------------------------------------------------------------------------------






def leads(seat: int, *cards: str) -> list[dict[str, Any]]:
    return [{"seat": seat, "action": "lead", "card": c} for c in cards]


def table3(**kw: Any) -> stops.Table:
    args: dict[str, Any] = {"seats": 3, "chips": 20, "seed": 1, "dealer": 0}
    args.update(kw)
    return stops.Table(VARIANT, **args)


ALL_KH = {1: "KH", 2: "KH", 0: "KH"}


# -- opening cards (ruling 39) -------------------------------------------------------------


def test_opening_2h_and_first_switch_to_black() -> None:
    # Seat 1 holds 2H, so seat 1 opens with it: one legal choice, still a decision.
    # 2H (s1) -> 3H held by s0 (forced) -> 4H held by s1 (forced) -> 5H is dead: stop.
    # s1 played the stop, hearts broke -> lowest black card of s1 = 5S (its only black).
    # 2H/3H/4H are not one player's cards, so no run: the pot keeps its 3 chips.
    t = table3()
    deal = ready(t, [["3H", "9C", "KD"], ["2H", "4H", "5S"], ["7D", "8S"]], ALL_KH)
    assert deal.current_seat == 1
    assert legal(deal) == leads(1, "2H")
    with pytest.raises(IllegalAction) as err:
        lead(deal, 1, "4H")
    assert err.value.code == "must_open_with"
    lead(deal, 1, "2H")
    assert plays(deal) == [(1, "2H"), (0, "3H"), (1, "4H")]
    assert deal.current_seat == 1
    assert legal(deal) == leads(1, "5S")
    assert deal.layout == {"KH": 3, "QC": 0, "JD": 0, "TS": 0, "pot": 3, "kitty": 3}
    assert claims(deal) == []


def test_opening_2c_when_2h_is_in_the_spare() -> None:
    # 2H is dead (not dealt to anyone), seat 2 holds 2C -> seat 2 opens with 2C.
    # 3C is dead -> stop at 2C; clubs are black, so s2 switches to its lowest red card:
    # 5H (5H < 9D); its 3S is black and is not offered.
    t = table3()
    deal = ready(t, [["4C", "KD"], ["6S", "TH"], ["2C", "3S", "5H", "9D"]], ALL_KH)
    assert deal.current_seat == 2
    assert legal(deal) == leads(2, "2C")
    lead(deal, 2, "2C")
    assert plays(deal) == [(2, "2C")]
    assert deal.current_seat == 2
    assert legal(deal) == leads(2, "5H")


def test_opening_2d_when_2h_and_2c_are_in_the_spare() -> None:
    # 2H and 2C are dead; the dealer (seat 0) holds 2D and opens with it whatever its seat.
    # 2D (s0) -> 3D (s0) -> 4D (s1) -> 5D dead: stop. s1 switches to black: 8C.
    t = table3()
    deal = ready(t, [["2D", "3D", "9S"], ["4D", "8C"], ["5H", "6C"]], ALL_KH)
    assert deal.current_seat == 0
    assert legal(deal) == leads(0, "2D")
    lead(deal, 0, "2D")
    assert plays(deal) == [(0, "2D"), (0, "3D"), (1, "4D")]
    assert deal.current_seat == 1
    assert legal(deal) == leads(1, "8C")


def test_opening_3h_when_all_four_twos_are_in_the_spare() -> None:
    # All four 2s dead -> next rank in the order H C D S: 3H (held by s1) opens, although
    # s0 holds 3C and s2 holds 3D and 3S.
    # 3H (s1) -> 4H (s1) -> 5H (s2) -> 6H dead: stop; s2's lowest black card is 3S.
    t = table3()
    deal = ready(t, [["3C", "5D"], ["3H", "4H", "9C"], ["3D", "3S", "5H"]], ALL_KH)
    assert deal.current_seat == 1
    assert legal(deal) == leads(1, "3H")
    lead(deal, 1, "3H")
    assert plays(deal) == [(1, "3H"), (1, "4H"), (2, "5H")]
    assert deal.current_seat == 2
    assert legal(deal) == leads(2, "3S")


def test_first_switch_after_black_opening_is_red() -> None:
    # 2H, 2C, 2D dead -> 2S opens (seat 0). 2S (s0) -> 3S (s0) -> 4S dead: stop.
    # Spades broke, so the switch is to RED (ruling 40), not black: s0's lowest red card
    # across hearts and diamonds is 6H (6H < 7D); its 5C (black) is not offered.
    t = table3()
    deal = ready(t, [["2S", "3S", "5C", "7D", "6H"], ["8D", "9C"], ["TC", "JH"]], ALL_KH)
    assert deal.current_seat == 0
    assert legal(deal) == leads(0, "2S")
    lead(deal, 0, "2S")
    assert plays(deal) == [(0, "2S"), (0, "3S")]
    assert legal(deal) == leads(0, "6H")
    with pytest.raises(IllegalAction) as err:
        lead(deal, 0, "5C")
    assert err.value.code == "wrong_switch_card"


# -- switches (ruling 40, 41, 46) ----------------------------------------------------------

TIE_HANDS = [["5C", "KD"], ["2H", "4C", "4S", "9S", "6D"], ["5S", "8D"]]


def test_rank_tie_at_a_switch_offers_both_cards() -> None:
    # 2H (s1), 3H dead: stop. s1's black cards: 4C, 4S, 9S -> the lowest rank is 4, held in
    # both black suits -> both 4C and 4S are legal (colour_tie: player_choice).
    # s1 picks 4S -> 5S held by s2 (forced) -> 6S dead: stop; s2 switches to red: 8D
    # -> 9D dead, and 8D was s2's last card: s2 goes out and wins the kitty (3).
    # Stacks after stakes 17 each -> s2 17 + 3 = 20. KH (3) and pot (3) stay.
    t = table3()
    deal = ready(t, TIE_HANDS, ALL_KH)
    lead(deal, 1, "2H")
    assert deal.current_seat == 1
    assert sorted(map(str, (a.card for a in deal.legal_actions()))) == ["4C", "4S"]
    assert len(deal.legal_actions()) == 2
    lead(deal, 1, "4S")
    assert plays(deal)[1:] == [(1, "4S"), (2, "5S")]
    assert legal(deal) == leads(2, "8D")
    lead(deal, 2, "8D")
    assert deal.is_terminal and deal.outcome == "went_out" and deal.winner == 2
    assert plays(deal) == [(1, "2H"), (1, "4S"), (2, "5S"), (2, "8D")]
    assert claims(deal) == [(2, "kitty", 3)]
    assert deal.stacks == (17, 17, 20)
    assert deal.layout == {"KH": 3, "QC": 0, "JD": 0, "TS": 0, "pot": 3, "kitty": 0}


def test_illegal_switch_card_raises_and_changes_nothing() -> None:
    # Same deal as the tie test: after 2H stops, the legal switches are 4C and 4S only.
    # 9S (black but not lowest), 6D (wrong colour), 5S (not held) are all refused, and the
    # deal is exactly as before each attempt.
    t = table3()
    deal = ready(t, TIE_HANDS, ALL_KH)
    lead(deal, 1, "2H")
    before = (plays(deal), len(deal.events), deal.current_seat, deal.stacks, deal.layout,
              legal(deal))
    for bad, code in (("9S", "wrong_switch_card"), ("6D", "wrong_switch_card"),
                      ("5S", None)):
        with pytest.raises(IllegalAction) as err:
            lead(deal, 1, bad)
        if code is not None:
            assert err.value.code == code
        assert (plays(deal), len(deal.events), deal.current_seat, deal.stacks, deal.layout,
                legal(deal)) == before
    with pytest.raises(IllegalAction) as err:
        lead(deal, 2, "5S")
    assert err.value.code == "not_your_turn"


def test_switch_is_lowest_across_both_suits_of_the_colour() -> None:
    # ruling 41 (i): after 2H (s1) stops (3H dead), s1 holds 7C (its lowest club) and 5S:
    # the switch is 5S, the lowest black card overall; 7C is refused.
    t = table3()
    deal = ready(t, [["9D"], ["2H", "7C", "5S", "8S"], ["4D"]], ALL_KH)
    lead(deal, 1, "2H")
    assert legal(deal) == leads(1, "5S")
    with pytest.raises(IllegalAction) as err:
        lead(deal, 1, "7C")
    assert err.value.code == "wrong_switch_card"


def test_ace_is_a_stop_and_q_k_a_is_a_run() -> None:
    # Everyone on KH (QC holds 0). s1: 2H | 3H dead: stop | black: QC (lowest black) ->
    # KC, AC (s1, forced): Q-K-A of clubs by one player is a run -> pot 3 (QC pays nothing,
    # it holds 0 chips). AC is an ace: a stop, even though the card after it in the pack
    # order (2D) is held by s2 -- 2D must NOT be played. s1 switches to red: 7D | 8D dead |
    # 7D was s1's last card -> kitty 3. s1 = 17 + 3 + 3 = 23.
    t = table3()
    deal = ready(t, [["9H"], ["2H", "QC", "KC", "AC", "7D"], ["2D", "5S"]], ALL_KH)
    lead(deal, 1, "2H")
    lead(deal, 1, "QC")
    assert plays(deal) == [(1, "2H"), (1, "QC"), (1, "KC"), (1, "AC")]
    assert legal(deal) == leads(1, "7D")
    lead(deal, 1, "7D")
    assert plays(deal)[-1] == (1, "7D")
    assert deal.winner == 1
    assert claims(deal) == [(1, "pot", 3), (1, "kitty", 3)]
    assert deal.stacks == (17, 23, 17)
    assert deal.retired == {"pot", "kitty"}


def test_stop_on_played_card_and_immediate_second_switch() -> None:
    # s1: 2H | 3H dead | black: 4C (< 8S) -> 5C (s2) | 6C dead | s2 red: 7D (< 9H) | 8D dead
    # | s2 has no black card -> the lead passes to s0, which must lead black: 3C. 4C has
    # already been played, so 3C is a stop straight away, and s0 switches again, to red:
    # TD | JD dead | TD was s0's last card -> kitty 3. s0 = 17 + 3 = 20.
    t = table3()
    deal = ready(t, [["3C", "TD"], ["2H", "4C", "8S"], ["5C", "7D", "9H"]], ALL_KH)
    lead(deal, 1, "2H")
    assert legal(deal) == leads(1, "4C")
    lead(deal, 1, "4C")
    assert legal(deal) == leads(2, "7D")
    lead(deal, 2, "7D")
    assert [(e.seat, e.to_seat) for e in deal.events if e.kind == "lead_passed"] == [(2, 0)]
    assert legal(deal) == leads(0, "3C")
    lead(deal, 0, "3C")
    stop = [e for e in deal.events if e.kind == "stop"][-1]
    assert (stop.seat, str(stop.card)) == (0, "3C")
    assert legal(deal) == leads(0, "TD")
    lead(deal, 0, "TD")
    assert plays(deal) == [(1, "2H"), (1, "4C"), (2, "5C"), (2, "7D"), (0, "3C"), (0, "TD")]
    assert deal.winner == 0
    assert claims(deal) == [(0, "kitty", 3)]
    assert deal.stacks == (20, 17, 17)


# -- the spare hand: dealer's free swap and paid exchanges (ruling 13) ---------------------

EXCHANGE_HANDS = [["2H", "3H", "4H"], ["5C", "9D"], ["7S", "8S"]]


def _exchange_deal() -> stops.Deal:
    # Stakes: everyone on KH -> KH 3, pot 3, kitty 3, stacks 17 each.
    # The dealer (s0) swaps, free: s0 takes the 45-card spare, the spare becomes 2H 3H 4H.
    # s1 pays 1 into the kitty and takes that spare (the dealer's original hand);
    # s1's 5C 9D become the spare. s2 keeps.
    t = table3()
    deal = new_deal(t, EXCHANGE_HANDS)
    stake_all(deal, ALL_KH)
    assert deal.phase == "spare_hand"
    assert deal.current_seat == 0
    assert legal(deal) == [{"seat": 0, "action": "keep"}, {"seat": 0, "action": "swap"}]
    deal.apply({"seat": 0, "action": "swap"})
    assert deal.current_seat == 1
    deal.apply({"seat": 1, "action": "swap"})
    assert deal.current_seat == 2
    deal.apply({"seat": 2, "action": "keep"})
    return deal


def test_paid_exchange_takes_the_dealers_discarded_hand() -> None:
    deal = _exchange_deal()
    original_spare = spare_of(EXCHANGE_HANDS)
    assert [str(c) for c in deal.hand(0)] == sorted(original_spare, key=parse_card)
    assert [str(c) for c in deal.hand(1)] == ["2H", "3H", "4H"]
    assert [str(c) for c in deal.hand(2)] == ["7S", "8S"]
    obs = deal.observe(1).spare
    assert obs is not None and [str(c) for c in obs] == ["5C", "9D"]
    # only s1 paid: 20 - 3 (stakes) - 1 (fee) = 16; the dealer's swap was free
    assert deal.stacks == (17, 16, 17)
    assert deal.layout["kitty"] == 4
    ex = [(e.seat, e.chips, e.space) for e in deal.events if e.kind == "exchanged"]
    assert ex == [(1, 1, "kitty")]
    # play: s1 now holds 2H and leads 2H-3H-4H, a run of three (pot 3) and its last card
    # (kitty 4): s1 = 16 + 3 + 4 = 23.
    assert deal.current_seat == 1 and legal(deal) == leads(1, "2H")
    lead(deal, 1, "2H")
    assert deal.is_terminal and deal.winner == 1
    assert claims(deal) == [(1, "pot", 3), (1, "kitty", 4)]
    assert deal.stacks == (17, 23, 17)
    assert deal.layout == {"KH": 3, "QC": 0, "JD": 0, "TS": 0, "pot": 0, "kitty": 0}
    assert deal.retired == {"pot", "kitty"}


def test_exchange_not_offered_when_the_player_cannot_pay() -> None:
    # s1 starts with 3 chips and stakes all 3 (KH, pot, kitty) -> 0 chips: the exchange
    # (fee 1, voluntary) is not offered; only keep. s2 (17 chips) is offered both.
    t = table3(chips=[20, 3, 20])
    deal = new_deal(t, EXCHANGE_HANDS)
    stake_all(deal, ALL_KH)
    assert deal.stacks == (17, 0, 17)
    deal.apply({"seat": 0, "action": "keep"})
    assert deal.current_seat == 1
    assert legal(deal) == [{"seat": 1, "action": "keep"}]
    with pytest.raises(IllegalAction):
        deal.apply({"seat": 1, "action": "swap"})
    assert deal.current_seat == 1
    assert deal.stacks == (17, 0, 17) and deal.layout["kitty"] == 3
    deal.apply({"seat": 1, "action": "keep"})
    assert legal(deal) == [{"seat": 2, "action": "keep"}, {"seat": 2, "action": "swap"}]


def test_dealer_swap_is_free_even_with_no_chips() -> None:
    # The dealer (s0) has 3 chips, 0 after stakes; its swap costs nothing and is offered.
    t = table3(chips=[3, 20, 20])
    deal = new_deal(t, EXCHANGE_HANDS)
    stake_all(deal, ALL_KH)
    assert legal(deal) == [{"seat": 0, "action": "keep"}, {"seat": 0, "action": "swap"}]
    deal.apply({"seat": 0, "action": "swap"})
    assert deal.stacks == (0, 17, 17)
    assert deal.layout["kitty"] == 3
    assert deal.counts[0] == 52 - 7


def test_exchange_fee_reopens_a_retired_kitty() -> None:
    # ruling 14 default reopen_kitty: the kitty was won earlier (retired), so no kitty
    # stake (pot 3, KH 3 only, stacks 18). s1 still may exchange for 1 chip, which goes onto
    # the kitty and makes it live again.
    t = table3(retired=["kitty"])
    deal = new_deal(t, EXCHANGE_HANDS)
    stake_all(deal, ALL_KH)
    assert deal.stacks == (18, 18, 18)
    assert deal.layout == {"KH": 3, "QC": 0, "JD": 0, "TS": 0, "pot": 3, "kitty": 0}
    deal.apply({"seat": 0, "action": "keep"})
    deal.apply({"seat": 1, "action": "swap"})
    assert deal.stacks == (18, 17, 18)
    assert deal.layout["kitty"] == 1
    assert "kitty" not in deal.retired


# -- the pot: runs of three (ruling 43, 37) ------------------------------------------------

RUN_HANDS = [["5S"], ["2H", "3H", "4H", "6C", "9D"], ["7C", "8C", "9C", "QD"]]


def test_run_of_three_wins_the_pot_and_retires_it() -> None:
    # s1 leads 2H and holds 3H and 4H: three same-suit consecutive cards by one player in
    # one sequence -> s1 wins the pot (3) when 4H is played, and the pot retires.
    # 5H dead -> stop; s1 must now switch to black: 6C.
    t = table3()
    deal = ready(t, RUN_HANDS, ALL_KH)
    lead(deal, 1, "2H")
    assert plays(deal) == [(1, "2H"), (1, "3H"), (1, "4H")]
    assert claims(deal) == [(1, "pot", 3)]
    assert deal.layout["pot"] == 0
    assert "pot" in deal.retired
    assert ("retired", "pot") in [(e.kind, e.space) for e in deal.events]
    assert deal.stacks == (17, 20, 17)
    assert legal(deal) == leads(1, "6C")


def test_second_run_in_the_same_deal_gets_nothing() -> None:
    # Continue the run deal: s1 switches 6C -> s2 plays 7C 8C 9C (forced; a second run of
    # three by one player) -> the pot is already retired: nothing. TC dead -> stop;
    # s2 switches to red: QD, its last card -> s2 goes out, wins the kitty (3).
    # Final: s0 17, s1 17 + 3 = 20, s2 17 + 3 = 20; KH keeps 3; pot and kitty retired.
    t = table3()
    deal = ready(t, RUN_HANDS, ALL_KH)
    lead(deal, 1, "2H")
    lead(deal, 1, "6C")
    assert plays(deal)[3:] == [(1, "6C"), (2, "7C"), (2, "8C"), (2, "9C")]
    assert legal(deal) == leads(2, "QD")
    lead(deal, 2, "QD")
    assert deal.is_terminal and deal.winner == 2
    assert claims(deal) == [(1, "pot", 3), (2, "kitty", 3)]
    assert deal.stacks == (17, 20, 20)
    assert deal.returns() == (-3, 0, 0)
    assert deal.layout == {"KH": 3, "QC": 0, "JD": 0, "TS": 0, "pot": 0, "kitty": 0}
    assert deal.retired == {"pot", "kitty"}
    assert t.retired == {"pot", "kitty"}
    assert t.stacks == (17, 20, 20)


# -- the block (ruling 45, 46) -------------------------------------------------------------

BLOCK_HANDS = [["5D"], ["2H", "9H"], ["7D"]]


def test_switch_passed_all_the_way_round_blocks() -> None:
    # TS was won in an earlier round (retired). Stakes: s1 KH, s2 QC, s0 KH -> KH 2, QC 1,
    # pot 3, kitty 3; stacks 17 each.  2H (s1), 3H dead: stop. Hearts broke -> black:
    # s1 (9H), s2 (7D), s0 (5D) hold no black card: the lead passes 1 -> 2 -> 0 -> blocked.
    # Nothing is paid, all chips stay, the dealer rotates to seat 1.
    t = table3(retired=["TS"])
    deal = new_deal(t, BLOCK_HANDS)
    assert [a.space for a in deal.legal_actions()] == ["KH", "QC", "JD"]
    stake_all(deal, {1: "KH", 2: "QC", 0: "KH"})
    settle_spare(deal)
    after_stakes = deal.layout
    assert after_stakes == {"KH": 2, "QC": 1, "JD": 0, "TS": 0, "pot": 3, "kitty": 3}
    lead(deal, 1, "2H")
    assert deal.is_terminal
    assert deal.outcome == "blocked" and deal.winner is None
    passed = [(e.seat, e.to_seat) for e in deal.events if e.kind == "lead_passed"]
    assert passed == [(1, 2), (2, 0), (0, 1)]
    assert [e.kind for e in deal.events].count("blocked") == 1
    assert claims(deal) == []
    assert [e for e in deal.events if e.kind == "paid"] == []
    assert deal.stacks == (17, 17, 17)
    assert deal.layout == after_stakes
    assert t.layout == after_stakes
    assert t.retired == {"TS"}
    assert t.dealer == 1
    # The next deal is a new round: dealer 1, stakes from seat 2, on live spaces only.
    nxt = new_deal(t, [["2C"], ["2D"], ["2S"]])
    assert nxt.dealer == 1
    assert nxt.current_seat == 2
    assert [a.space for a in nxt.legal_actions()] == ["KH", "QC", "JD"]
    stake_all(nxt, {2: "JD", 0: "JD", 1: "KH"})
    assert nxt.layout == {"KH": 3, "QC": 1, "JD": 2, "TS": 0, "pot": 6, "kitty": 6}
    assert nxt.stacks == (14, 14, 14)


def test_stakes_only_on_live_spaces() -> None:
    # KH and the pot were won earlier; 2 chips carried over on QC. Stakes go from the
    # dealer's left (s1, s2, s0); the choice is among QC JD TS; only the kitty takes a pool
    # stake. Choices QC, TS, QC -> QC 2 + 2 = 4, TS 1, kitty 3; stacks 18.
    t = table3(retired=["KH", "pot"], layout={"QC": 2})
    deal = new_deal(t, BLOCK_HANDS)
    staked = [(e.seat, e.space, e.chips) for e in deal.events if e.kind == "staked"]
    assert staked == [(1, "kitty", 1), (2, "kitty", 1), (0, "kitty", 1)]
    assert deal.current_seat == 1
    assert legal(deal) == [{"seat": 1, "action": "stake", "space": s, "chips": 1}
                           for s in ("QC", "JD", "TS")]
    for space in ("KH", "pot"):
        with pytest.raises(IllegalAction) as err:
            deal.apply({"seat": 1, "action": "stake", "space": space})
        assert err.value.code == "bad_space"
    with pytest.raises(IllegalAction) as err:
        deal.apply({"seat": 0, "action": "stake", "space": "QC"})
    assert err.value.code == "not_your_turn"
    with pytest.raises(IllegalAction) as err:
        deal.apply({"seat": 1, "action": "stake", "space": "QC", "chips": 2})
    assert err.value.code == "bad_amount"
    deal.apply({"seat": 1, "action": "stake", "space": "QC", "chips": 1})
    stake_all(deal, {2: "TS", 0: "QC"})
    assert deal.layout == {"KH": 0, "QC": 4, "JD": 0, "TS": 1, "pot": 0, "kitty": 3}
    assert deal.stacks == (18, 18, 18)
    assert deal.phase == "spare_hand"


def test_no_stake_decision_when_every_key_card_is_retired() -> None:
    # Only the pot and the kitty are live: 1 chip each per player, no key-card choice.
    t = table3(retired=["KH", "QC", "JD", "TS"])
    deal = new_deal(t, BLOCK_HANDS)
    assert deal.phase == "spare_hand" and deal.current_seat == 0
    assert deal.layout == {"KH": 0, "QC": 0, "JD": 0, "TS": 0, "pot": 3, "kitty": 3}
    assert deal.stacks == (18, 18, 18)


# -- key cards (ruling 37, 47) -------------------------------------------------------------


def test_key_card_with_no_chips_stays_live() -> None:
    # Everyone stakes on KH, so QC holds 0. 2H (s1), 3H dead: stop; s1's only black card
    # is QC -> QC is played with 0 chips on it: nothing is won, QC is NOT retired.
    # KC dead: stop; s1 switches to red: 5D (last card) -> s1 goes out, kitty 3.
    t = table3()
    deal = ready(t, [["8S"], ["2H", "QC", "5D"], ["9S"]], ALL_KH)
    lead(deal, 1, "2H")
    assert legal(deal) == leads(1, "QC")
    lead(deal, 1, "QC")
    assert "QC" not in deal.retired
    assert legal(deal) == leads(1, "5D")
    lead(deal, 1, "5D")
    assert deal.winner == 1
    assert claims(deal) == [(1, "kitty", 3)]
    assert deal.stacks == (17, 20, 17)
    assert t.retired == {"kitty"}
    assert t.layout == {"KH": 3, "QC": 0, "JD": 0, "TS": 0, "pot": 3, "kitty": 0}
    # next deal (dealer 1): QC is still offered; only the pot takes a pool stake.
    nxt = new_deal(t, [["2C"], ["2D"], ["2S"]])
    assert nxt.current_seat == 2
    assert [a.space for a in nxt.legal_actions()] == ["KH", "QC", "JD", "TS"]
    assert nxt.layout == {"KH": 3, "QC": 0, "JD": 0, "TS": 0, "pot": 6, "kitty": 0}


def test_last_card_pays_key_card_then_kitty() -> None:
    # Stakes s1 KH, s2 QC, s0 KH -> KH 2, QC 1, pot 3, kitty 3; stacks 17.
    # s0 opens 2H, 3H dead: stop; s0 black: 4C (4C < 9S); 5C dead: stop; s0 has no red ->
    # the lead passes to s1, which must lead red: KH, its only card. KH pays 2 (retired),
    # then, as s1's last card, the kitty 3 (retired). s1 = 17 + 2 + 3 = 22.
    t = table3()
    deal = ready(t, [["2H", "4C", "9S"], ["KH"], ["3D", "8D"]], {1: "KH", 2: "QC", 0: "KH"})
    lead(deal, 0, "2H")
    assert legal(deal) == leads(0, "4C")
    lead(deal, 0, "4C")
    assert [(e.seat, e.to_seat) for e in deal.events if e.kind == "lead_passed"] == [(0, 1)]
    assert legal(deal) == leads(1, "KH")
    lead(deal, 1, "KH")
    tail = [(e.kind, e.seat, e.space, e.chips) for e in deal.events
            if e.kind in ("claimed", "retired", "went_out")]
    assert tail == [("claimed", 1, "KH", 2), ("retired", None, "KH", 0),
                    ("went_out", 1, None, 0), ("claimed", 1, "kitty", 3),
                    ("retired", None, "kitty", 0)]
    assert deal.stacks == (17, 22, 17)
    assert deal.layout == {"KH": 0, "QC": 1, "JD": 0, "TS": 0, "pot": 3, "kitty": 0}
    assert deal.retired == {"KH", "kitty"}


def test_one_card_pays_key_card_run_and_kitty_in_that_order() -> None:
    # Everyone on KH: KH 3, pot 3, kitty 3. s0 opens 2H (3H dead), switches to 9S (TS dead),
    # has no red -> passes to s1, whose lowest red is JH: JH QH KH are all s1's, so KH pays
    # the key card (3), completes the run (pot 3) and is s1's last card (kitty 3), in that
    # order (ruling 47). s1 = 17 + 9 = 26.
    t = table3()
    deal = ready(t, [["2H", "9S", "AS"], ["JH", "QH", "KH"], ["5C"]], ALL_KH)
    lead(deal, 0, "2H")
    lead(deal, 0, "9S")
    assert legal(deal) == leads(1, "JH")
    lead(deal, 1, "JH")
    assert plays(deal)[2:] == [(1, "JH"), (1, "QH"), (1, "KH")]
    assert claims(deal) == [(1, "KH", 3), (1, "pot", 3), (1, "kitty", 3)]
    assert deal.stacks == (17, 26, 17)
    assert deal.retired == {"KH", "pot", "kitty"}


# -- the session (ruling 38) ---------------------------------------------------------------


def test_session_ends_when_all_six_spaces_are_retired() -> None:
    t = table3()
    # Deal 1 (dealer 0). All stake KH: KH 3, pot 3, kitty 3, stacks 17.
    # s1: 2H 3H 4H (run: pot 3 -> s1) | 5H dead: stop | s1 black: 6S | 7S dead: stop |
    # s1 has no red -> pass to s2: KH (pays 3) | AH dead: stop | s2 black: 5C, its last
    # card -> kitty 3. Stacks: s0 17, s1 20, s2 23. Retired: pot, KH, kitty.
    d1 = ready(t, [["9D"], ["2H", "3H", "4H", "6S", "AS"], ["5C", "KH"]], ALL_KH)
    lead(d1, 1, "2H")
    lead(d1, 1, "6S")
    assert legal(d1) == leads(2, "KH")
    lead(d1, 2, "KH")
    lead(d1, 2, "5C")
    assert claims(d1) == [(1, "pot", 3), (2, "KH", 3), (2, "kitty", 3)]
    assert t.stacks == (17, 20, 23)
    assert t.retired == {"pot", "KH", "kitty"}
    assert not t.is_over and t.dealer == 1
    # Deal 2 (dealer 1). Only QC JD TS are live: no pool stakes; s2 QC, s0 JD, s1 TS
    # (1 each): stacks 16, 19, 22.
    # s2: 2H | 3H dead | s2 black: JC (< KS) -> QC (s0, pays 1) | KC dead | s0 red: TD
    # (< AS is black anyway) -> JD (s1, pays 1) | QD dead | s1 black: 9S -> TS (s1, pays 1),
    # s1's last card: the kitty is retired, nothing more. Stacks: s0 17, s1 21, s2 22.
    d2 = new_deal(t, [["QC", "TD", "AS"], ["JD", "9S", "TS"], ["2H", "JC", "KS"]])
    assert d2.current_seat == 2
    assert [a.space for a in d2.legal_actions()] == ["QC", "JD", "TS"]
    stake_all(d2, {2: "QC", 0: "JD", 1: "TS"})
    assert d2.stacks == (16, 19, 22)
    settle_spare(d2)
    lead(d2, 2, "2H")
    assert legal(d2) == leads(2, "JC")
    lead(d2, 2, "JC")
    assert legal(d2) == leads(0, "TD")
    lead(d2, 0, "TD")
    assert legal(d2) == leads(1, "9S")
    lead(d2, 1, "9S")
    assert d2.is_terminal and d2.winner == 1
    assert claims(d2) == [(0, "QC", 1), (1, "JD", 1), (1, "TS", 1)]
    assert t.retired == SIX
    assert t.is_over
    assert t.stacks == (17, 21, 22)
    assert t.layout == dict.fromkeys(["KH", "QC", "JD", "TS", "pot", "kitty"], 0)
    assert t.standings() == [(2, 22, 2), (1, 21, 1), (0, 17, -3)]
    with pytest.raises(SessionOver):
        new_deal(t, BLOCK_HANDS)


def test_agreed_last_deal_shares_leftover_equally() -> None:
    # deals=1. Everyone on KH: KH 3, pot 3, kitty 3; stacks 17. The deal blocks (see the
    # block test), so 9 chips remain: 3 each -> every stack back to 20, layout empty.
    t = table3(deals=1)
    ready(t, BLOCK_HANDS, ALL_KH)
    deal = t.deal
    assert deal is not None
    lead(deal, 1, "2H")
    assert deal.outcome == "blocked"
    assert t.is_over
    assert t.stacks == (20, 20, 20)
    assert t.layout == dict.fromkeys(["KH", "QC", "JD", "TS", "pot", "kitty"], 0)
    assert t.total_chips() == 60
    with pytest.raises(SessionOver):
        new_deal(t, BLOCK_HANDS)


def test_agreed_last_deal_remainder_goes_clockwise_from_dealers_left() -> None:
    # deals=1, dealer 1, 2 chips carried over on TS. Stakes from s2: s2 KH, s0 KH, s1 QC ->
    # KH 2, QC 1, TS 2, pot 3, kitty 3 = 11 chips; stacks 17.
    # s2 opens 2H, 3H dead, nobody holds a black card -> blocked, nothing paid.
    # Share: 11 = 3 x 3 + 2 -> 3 each, remainder one chip at a time clockwise from the
    # dealer's left: s2 then s0. Stacks: s0 21, s1 20, s2 21.
    t = table3(deals=1, dealer=1, layout={"TS": 2})
    deal = ready(t, [["5D"], ["7D"], ["2H", "9H"]], {2: "KH", 0: "KH", 1: "QC"})
    assert deal.layout == {"KH": 2, "QC": 1, "JD": 0, "TS": 2, "pot": 3, "kitty": 3}
    lead(deal, 2, "2H")
    assert deal.outcome == "blocked"
    assert t.is_over
    assert t.layout == dict.fromkeys(["KH", "QC", "JD", "TS", "pot", "kitty"], 0)
    assert t.stacks == (21, 20, 21)


# -- the four-kings layout ------------------------------------------------------------------


def test_four_kings_layout(tmp_path: Path) -> None:
    # A variant file extending the built-in one, replacing the layout by the four kings.
    # Stakes: s1 KC, s2 KD, s0 KC -> KC 2, KD 1, pot 3, kitty 3; stacks 17.
    # s1: 2H | 3H dead | black: QC (no QC space here: pays nothing) -> KC (s1) pays 2 and is
    # s1's last card -> kitty 3. s1 = 17 + 5 = 22.
    f = tmp_path / "pot-and-kitty-four-kings.yaml"
    f.write_text(
        "name: pot-and-kitty-four-kings\n"
        f"extends: {BASE_FILE}\n"
        "layout:\n"
        "  - {id: KH, kind: card, card: KH}\n"
        "  - {id: KC, kind: card, card: KC}\n"
        "  - {id: KD, kind: card, card: KD}\n"
        "  - {id: KS, kind: card, card: KS}\n"
        "  - {id: pot, kind: pot}\n"
        "  - {id: kitty, kind: kitty}\n",
        encoding="utf-8",
    )
    t = stops.Table(str(f), seats=3, chips=20, seed=1, dealer=0)
    assert t.layout == dict.fromkeys(["KH", "KC", "KD", "KS", "pot", "kitty"], 0)
    deal = new_deal(t, [["6D"], ["2H", "QC", "KC"], ["5D"]])
    assert [a.space for a in deal.legal_actions()] == ["KH", "KC", "KD", "KS"]
    stake_all(deal, {1: "KC", 2: "KD", 0: "KC"})
    settle_spare(deal)
    lead(deal, 1, "2H")
    assert legal(deal) == leads(1, "QC")
    lead(deal, 1, "QC")
    assert plays(deal) == [(1, "2H"), (1, "QC"), (1, "KC")]
    assert claims(deal) == [(1, "KC", 2), (1, "kitty", 3)]
    assert deal.stacks == (17, 22, 17)
    assert deal.layout == {"KH": 0, "KC": 0, "KD": 1, "KS": 0, "pot": 3, "kitty": 0}
    assert deal.retired == {"KC", "kitty"}


# -- records --------------------------------------------------------------------------------


def test_record_replays() -> None:
    # The exchange deal (stakes, the dealer's swap, a paid exchange, a run and going out)
    # exported and replayed gives the same cards, plays and chips.
    deal = _exchange_deal()
    lead(deal, 1, "2H")
    rec = deal.record()
    assert rec["variant"] == VARIANT
    assert rec["players"] == 3 and rec["dealer"] == 0
    assert rec["stacks"] == [20, 20, 20]
    assert rec["hands"] == EXCHANGE_HANDS
    assert rec["actions"] == [
        {"seat": 1, "action": "stake", "space": "KH", "chips": 1},
        {"seat": 2, "action": "stake", "space": "KH", "chips": 1},
        {"seat": 0, "action": "stake", "space": "KH", "chips": 1},
        {"seat": 0, "action": "swap"},
        {"seat": 1, "action": "swap"},
        {"seat": 2, "action": "keep"},
        {"seat": 1, "action": "lead", "card": "2H"},
    ]
    again = stops.replay(rec)
    assert again.is_terminal and again.winner == 1
    assert again.stacks == (17, 23, 17)
    assert again.layout == deal.layout
    assert plays(again) == plays(deal) == [(1, "2H"), (1, "3H"), (1, "4H")]
    assert claims(again) == [(1, "pot", 3), (1, "kitty", 4)]
    # a one-choice lead may be left out of a record
    short = dict(rec, actions=rec["actions"][:-1])
    assert stops.replay(short).stacks == (17, 23, 17)
    # a wrong result is caught
    bad = dict(rec, result={"stacks": [17, 22, 18], "layout": rec["result"]["layout"]})
    with pytest.raises(stops.RecordError):
        stops.replay(bad)


def test_session_records_replay_each_deal() -> None:
    # The block deal and the next round's deal both replay from the table's records.
    t = table3()
    d1 = ready(t, BLOCK_HANDS, ALL_KH)
    lead(d1, 1, "2H")
    d2 = ready(t, [["2H", "4C", "9S"], ["KH"], ["3D", "8D"]], {2: "KH", 0: "KH", 1: "KH"})
    # dealer 1 now; s0 opens 2H, 3H dead, 4C, 5C dead, s0 passes to s1: KH (6) + kitty (6)
    lead(d2, 0, "2H")
    lead(d2, 0, "4C")
    lead(d2, 1, "KH")
    assert claims(d2) == [(1, "KH", 6), (1, "kitty", 6)]
    assert t.stacks == (14, 26, 14)
    r1, r2 = t.records
    assert r2["dealer"] == 1 and r2["stacks"] == [17, 17, 17]
    assert r2["layout"] == {"KH": 3, "pot": 3, "kitty": 3}
    assert stops.replay(r1).outcome == "blocked"
    assert stops.replay(r2).stacks == (14, 26, 14)
