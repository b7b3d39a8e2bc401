"""Hand-derived tests for the non-default options of the pot-and-kitty game (seed 003).

Each test selects one alternative from docs/rulings.md (1-8, 35-47), spelled as in
docs/house-rules.md "Option names in earlier notes", on top of variants/pot-and-kitty.yaml, and
plays a stacked deal: three seats with tiny hands, every other card in the spare (dead)
hand, so every stop is forced by the dead hand and every owner is known. Where useful, the
same deal is also played under the default to show the difference.

Unless a test says otherwise: 3 seats, 20 chips each, dealer 0, so stakes and exchanges go
1, 2, 0 (clockwise from the dealer's left), and one default stake round costs every seat 3
chips (1 on a key card of its choice + 1 pot + 1 kitty, ruling 35).

Suit order inside a suit: 2 3 4 5 6 7 8 9 T J Q K A (the ace is high and a stop by itself).
Colours: clubs and spades black, diamonds and hearts red.
"""

from __future__ import annotations

from typing import Any

import pytest

import stops
import support
from stops import IllegalAction, SessionOver, parse_card
from support import claims, lead, legal, new_deal, plays, settle_spare, spare_of, stake_all

VARIANT = "pot-and-kitty"
ALL_KH = {1: "KH", 2: "KH", 0: "KH"}


# -- helpers --------------------------------------------------------------------------------



def table3(options: dict[str, Any] | None = None, **kw: Any) -> stops.Table:
    args: dict[str, Any] = {"seats": 3, "chips": 20, "seed": 3, "dealer": 0}
    args.update(kw)
    return stops.Table(VARIANT, options=options or None, **args)





def ready(table: stops.Table, hands: list[list[str]],
          stakes: dict[int, str] | None = None) -> stops.Deal:
    return support.ready(table, hands, stakes or ALL_KH)


def legal_cards(deal: stops.Deal) -> list[str]:
    return sorted(str(a.card) for a in deal.legal_actions())


def leads(seat: int, *cards: str) -> list[dict[str, Any]]:
    return [{"seat": seat, "action": "lead", "card": c} for c in cards]


def verbs(seat: int, *names: str) -> list[dict[str, Any]]:
    return [{"seat": seat, "action": v} for v in names]


def stake_menu(seat: int, *spaces: str) -> list[dict[str, Any]]:
    return [{"seat": seat, "action": "stake", "space": s, "chips": 1} for s in spaces]


def staked(deal: stops.Deal) -> list[tuple[int | None, str | None, int]]:
    return [(e.seat, e.space, e.chips) for e in deal.events if e.kind == "staked"]


def public(deal: stops.Deal, *kinds: str) -> list[tuple[str, int | None, int, str | None]]:
    return [(e.kind, e.seat, e.chips, e.space) for e in deal.events
            if e.kind in kinds and e.visible_to is None]


def passes(deal: stops.Deal) -> list[tuple[int | None, int | None]]:
    return [(e.seat, e.to_seat) for e in deal.events if e.kind == "lead_passed"]


def layout(**kw: int) -> dict[str, int]:
    out = {"KH": 0, "QC": 0, "JD": 0, "TS": 0, "pot": 0, "kitty": 0}
    out.update(kw)
    return out


def conserved(table: stops.Table, total: int) -> None:
    assert sum(table.stacks) + sum(table.layout.values()) == total


# -- stake_rule: each_space (ruling 35, key_stake: one_on_each) ----------------------------

EACH_HANDS = [["9C"], ["2H"], ["7D"]]


def test_stake_each_space_puts_one_on_every_live_space_without_decisions() -> None:
    # each_space: every player, dealer included, puts 1 on every LIVE space: KH, JD, TS (QC
    # is retired at the start), pot and kitty = 5 chips each, placed by the engine in turn
    # 1, 2, 0; there is no stake decision, so the first decision is the dealer's free
    # keep/swap. Layout: 3 on each live space, QC stays 0. Stacks 20 - 5 = 15.
    # Play: seat 1 leads 2H, its only card -> out at once, wins the kitty (3), no run.
    t = table3({"stake_rule": "each_space"}, retired=["QC"])
    deal = new_deal(t, EACH_HANDS)
    assert deal.phase == "spare_hand"
    assert deal.current_seat == 0
    assert legal(deal) == verbs(0, "keep", "swap")
    live = ["KH", "JD", "TS", "pot", "kitty"]
    assert staked(deal) == [(s, sp, 1) for s in (1, 2, 0) for sp in live]
    assert deal.stacks == (15, 15, 15)
    assert deal.layout == layout(KH=3, JD=3, TS=3, pot=3, kitty=3)
    settle_spare(deal)
    lead(deal, 1, "2H")
    assert deal.outcome == "went_out" and deal.winner == 1
    assert claims(deal) == [(1, "kitty", 3)]
    assert deal.stacks == (15, 18, 15)
    assert t.retired == {"QC", "kitty"}
    conserved(t, 60)


def test_stake_default_choose_one_for_comparison() -> None:
    # Default choose_one_card: seat 1 must first choose ONE live key card (QC retired is not
    # offered); pot and kitty 1 each are placed by the engine.
    t = table3(retired=["QC"])
    deal = new_deal(t, EACH_HANDS)
    assert deal.phase == "stake" and deal.current_seat == 1
    assert legal(deal) == stake_menu(1, "KH", "JD", "TS")


# -- stake_frequency: once_per_match (ruling 36) -------------------------------------------

RUN_OUT_HANDS = [["9C"], ["2H", "3H", "4H"], ["7D"]]


def _first_deal_run_and_out(t: stops.Table) -> stops.Deal:
    # Deal 1 (dealer 0): stakes all on KH -> KH 3, pot 3, kitty 3, stacks 17.
    # Seat 1 leads 2H, then 3H and 4H are its own (forced): a run of three by one player
    # -> pot 3 (ruling 43); 4H was its last card -> out, kitty 3 (ruling 44, 47 order).
    # Pot and kitty retire (ruling 37). Stacks 17, 23, 17; KH 3 carries over.
    deal = ready(t, RUN_OUT_HANDS)
    lead(deal, 1, "2H")
    assert plays(deal) == [(1, "2H"), (1, "3H"), (1, "4H")]
    assert claims(deal) == [(1, "pot", 3), (1, "kitty", 3)]
    assert deal.stacks == (17, 23, 17)
    assert t.retired == {"pot", "kitty"}
    assert t.dealer == 1
    return deal


def test_stake_once_per_match_no_stakes_before_second_deal() -> None:
    # once_per_match: the first deal is staked as usual; the second deal has no stake
    # phase at all: its first decision is the new dealer's (seat 1) keep/swap, stacks and
    # layout are exactly what deal 1 left.
    t = table3({"stake_frequency": "once_per_match"})
    _first_deal_run_and_out(t)
    deal2 = t.new_deal(hands=[["9D"], ["2H"], ["8S"]],
                       spare=spare_of([["9D"], ["2H"], ["8S"]]))
    assert deal2.phase == "spare_hand"
    assert deal2.current_seat == 1
    assert staked(deal2) == []
    assert deal2.stacks == (17, 23, 17)
    assert deal2.layout == layout(KH=3)
    conserved(t, 60)


def test_stake_every_deal_default_stakes_again_on_live_spaces() -> None:
    # Default every_deal: deal 2 (dealer 1) starts with seat 2 choosing a live key card;
    # pot and kitty are retired, so only the key card is staked.
    t = table3()
    _first_deal_run_and_out(t)
    deal2 = t.new_deal(hands=[["9D"], ["2H"], ["8S"]],
                       spare=spare_of([["9D"], ["2H"], ["8S"]]))
    assert deal2.phase == "stake" and deal2.current_seat == 2
    assert legal(deal2) == stake_menu(2, "KH", "QC", "JD", "TS")
    stake_all(deal2, {2: "QC", 0: "QC", 1: "KH"})
    assert staked(deal2) == [(2, "QC", 1), (0, "QC", 1), (1, "KH", 1)]
    assert deal2.stacks == (16, 22, 16)
    assert deal2.layout == layout(KH=4, QC=2)


# -- exchange_order: all_from_left_dealer_last (ruling 13) ---------------------------------

EXCH_HANDS = [["9C"], ["2H", "5S"], ["7D"]]


def test_exchange_order_dealer_last_gets_a_paid_exchange() -> None:
    # Order: the dealer's FREE keep/swap first (seat 0: keeps), then paid exchanges
    # clockwise from the dealer's left INCLUDING the dealer last: 1 (keeps), 2 (keeps),
    # 0 (swaps, pays 1 into the kitty). Stacks after stakes 17 -> seat 0 pays 1 -> 16;
    # kitty 3 + 1 = 4. Seat 0 now holds the 48-card spare, and its old hand (9C) is the
    # spare. Seat 1 still holds 2H and opens.
    t = table3({"exchange_order": "all_from_left_dealer_last"})
    deal = new_deal(t, EXCH_HANDS)
    stake_all(deal, ALL_KH)
    spare_before = sorted(parse_card(c) for c in spare_of(EXCH_HANDS))
    assert deal.current_seat == 0
    assert legal(deal) == verbs(0, "keep", "swap")
    deal.apply({"seat": 0, "action": "keep"})
    assert deal.current_seat == 1
    deal.apply({"seat": 1, "action": "keep"})
    assert deal.current_seat == 2
    deal.apply({"seat": 2, "action": "keep"})
    assert deal.phase == "spare_hand" and deal.current_seat == 0
    assert legal(deal) == verbs(0, "keep", "swap")
    deal.apply({"seat": 0, "action": "swap"})
    assert deal.phase == "play"
    assert public(deal, "kept", "exchanged", "paid") == [
        ("kept", 0, 0, None), ("kept", 1, 0, None), ("kept", 2, 0, None),
        ("paid", 0, 1, "kitty"), ("exchanged", 0, 1, "kitty")]
    assert deal.stacks == (16, 17, 17)
    assert deal.layout == layout(KH=3, pot=3, kitty=4)
    assert deal.hand(0) == spare_before
    assert sorted(deal.spare) == [parse_card("9C")]
    assert deal.current_seat == 1 and legal(deal) == leads(1, "2H")
    # 2H (s1) -> 3H ... AH all held by seat 0 now (forced): KH pays seat 0 (3) and 3H-4H-5H
    # is a run by seat 0 -> pot (3). AH is a stop; hearts broke -> seat 0's lowest black:
    # 2C and 2S tie (colour_tie: player_choice) -> both offered.
    lead(deal, 1, "2H")
    assert plays(deal) == [(1, "2H")] + [(0, f"{r}H") for r in "3456789TJQKA"]
    assert claims(deal) == [(0, "pot", 3), (0, "KH", 3)]
    assert deal.current_seat == 0 and legal_cards(deal) == ["2C", "2S"]
    conserved(t, 60)


def test_exchange_order_dealer_last_may_not_revert_to_original_hand() -> None:
    # Seed 003: "Once exchanged, the dealer may not revert back to the original hand."
    # The dealer (seat 0) swaps free for the spare; seats 1 and 2 keep, so at the dealer's
    # paid turn the spare is still the dealer's original hand [9C]. Taking it would be the
    # forbidden revert: the dealer may not swap, keeps the 49-card hand and pays nothing.
    t = table3({"exchange_order": "all_from_left_dealer_last"})
    deal = new_deal(t, EXCH_HANDS)
    stake_all(deal, ALL_KH)
    spare_before = sorted(parse_card(c) for c in spare_of(EXCH_HANDS))
    deal.apply({"seat": 0, "action": "swap"})
    deal.apply({"seat": 1, "action": "keep"})
    deal.apply({"seat": 2, "action": "keep"})
    assert not deal.can({"seat": 0, "action": "swap"})
    settle_spare(deal)
    assert deal.hand(0) == spare_before
    assert deal.stacks == (17, 17, 17)


def test_exchange_order_default_dealer_not_asked_again() -> None:
    # Default non_dealers_from_left: after the dealer's free decision only seats 1 and 2
    # are asked; after seat 2 the play starts and the dealer gets no paid exchange.
    t = table3()
    deal = new_deal(t, EXCH_HANDS)
    stake_all(deal, ALL_KH)
    deal.apply({"seat": 0, "action": "keep"})
    deal.apply({"seat": 1, "action": "keep"})
    deal.apply({"seat": 2, "action": "keep"})
    assert deal.phase == "play" and deal.current_seat == 1
    assert deal.stacks == (17, 17, 17)


# -- exchange_limit: first_only (ruling 13) ------------------------------------------------

LIMIT_HANDS = [["9C"], ["5S"], ["7D"]]


def test_exchange_limit_first_only_nobody_asked_after_first_exchange() -> None:
    # Dealer keeps (free). Seat 1 swaps: pays 1 -> 16, kitty 4, takes the 49-card spare
    # (2H included), its 5S becomes the spare. first_only: nobody else is asked, so seat 2
    # never decides and play starts at once with seat 1 opening 2H.
    t = table3({"exchange_limit": "first_only"})
    deal = new_deal(t, LIMIT_HANDS)
    stake_all(deal, ALL_KH)
    deal.apply({"seat": 0, "action": "keep"})
    deal.apply({"seat": 1, "action": "swap"})
    assert deal.phase == "play"
    assert public(deal, "kept", "exchanged") == [("kept", 0, 0, None),
                                                 ("exchanged", 1, 1, "kitty")]
    assert deal.stacks == (17, 16, 17)
    assert deal.layout == layout(KH=3, pot=3, kitty=4)
    assert sorted(deal.spare) == [parse_card("5S")]
    assert deal.current_seat == 1 and legal(deal) == leads(1, "2H")


def test_exchange_limit_default_each_once_later_exchanger_takes_given_up_hand() -> None:
    # Default each_once: after seat 1's exchange seat 2 is still asked; it swaps too
    # (pays 1) and takes seat 1's given-up hand [5S]; its 7D becomes the spare.
    t = table3()
    deal = new_deal(t, LIMIT_HANDS)
    stake_all(deal, ALL_KH)
    deal.apply({"seat": 0, "action": "keep"})
    deal.apply({"seat": 1, "action": "swap"})
    assert deal.phase == "spare_hand" and deal.current_seat == 2
    assert legal(deal) == verbs(2, "keep", "swap")
    deal.apply({"seat": 2, "action": "swap"})
    assert deal.phase == "play"
    assert deal.hand(2) == [parse_card("5S")]
    assert sorted(deal.spare) == [parse_card("7D")]
    assert deal.stacks == (17, 16, 16)
    assert deal.layout == layout(KH=3, pot=3, kitty=5)


# -- fee_when_kitty_retired: no_exchange, free (ruling 14) ---------------------------------

KITTY_GONE_HANDS = [["9C"], ["5S"], ["2H"]]


def test_fee_when_kitty_retired_no_exchange() -> None:
    # Kitty retired from the start. Stakes: 1 on a key card + 1 pot (no kitty) -> 18 each.
    # The dealer's own swap is free and still offered (keep/swap); with no_exchange the
    # paid exchanges are closed, so after the dealer keeps the play starts at once.
    # Seat 2 leads 2H, its only card: out; the kitty is retired, so nothing is won.
    t = table3({"fee_when_kitty_retired": "no_exchange"}, retired=["kitty"])
    deal = new_deal(t, KITTY_GONE_HANDS)
    stake_all(deal, ALL_KH)
    assert deal.stacks == (18, 18, 18)
    assert deal.layout == layout(KH=3, pot=3)
    assert legal(deal) == verbs(0, "keep", "swap")
    deal.apply({"seat": 0, "action": "keep"})
    assert deal.phase == "play" and deal.current_seat == 2
    assert public(deal, "kept", "exchanged") == [("kept", 0, 0, None)]
    lead(deal, 2, "2H")
    assert deal.outcome == "went_out" and deal.winner == 2
    assert claims(deal) == []
    assert deal.stacks == (18, 18, 18)
    assert "kitty" in deal.retired


def test_fee_when_kitty_retired_free_exchange_costs_nothing() -> None:
    # free: seat 1's paid exchange costs 0: no chips move; seat 2 is then asked (each_once).
    t = table3({"fee_when_kitty_retired": "free"}, retired=["kitty"])
    deal = new_deal(t, KITTY_GONE_HANDS)
    stake_all(deal, ALL_KH)
    deal.apply({"seat": 0, "action": "keep"})
    assert legal(deal) == verbs(1, "keep", "swap")
    deal.apply({"seat": 1, "action": "swap"})
    assert deal.current_seat == 2
    assert deal.stacks == (18, 18, 18)
    assert deal.layout == layout(KH=3, pot=3)
    assert [e for e in deal.events if e.kind == "paid"] == []
    assert sorted(deal.spare) == [parse_card("5S")]


def test_fee_when_kitty_retired_free_kitty_stays_retired() -> None:
    # ruling 14: under free the exchange simply costs nothing; unlike reopen_kitty nothing
    # is paid onto the kitty, so it stays retired ("the Kitty [is] not replaced once
    # claimed"): no "reopened" event, and the next deal stakes nothing on it.
    # Deal 1: seat 1 swaps free; seat 2 leads 2H, its only card: out, no kitty to win.
    # Deal 2 (dealer 1): stakes 1 key + 1 pot each -> 16 each; kitty still 0 and retired.
    t = table3({"fee_when_kitty_retired": "free"}, retired=["kitty"])
    deal = new_deal(t, KITTY_GONE_HANDS)
    stake_all(deal, ALL_KH)
    settle_spare(deal, {1: "swap"})
    assert [e for e in deal.events if e.kind == "reopened"] == []
    assert "kitty" in deal.retired
    lead(deal, 2, "2H")
    assert deal.winner == 2 and claims(deal) == []
    assert t.retired == {"kitty"}
    deal2 = new_deal(t, [["9D"], ["2H"], ["8S"]])
    stake_all(deal2, ALL_KH)
    assert sorted(staked(deal2)) == [(0, "KH", 1), (0, "pot", 1), (1, "KH", 1),
                                     (1, "pot", 1), (2, "KH", 1), (2, "pot", 1)]
    assert deal2.stacks == (16, 16, 16)
    assert deal2.layout == layout(KH=6, pot=6)


# -- exchange_fee: 2 (ruling 13) -----------------------------------------------------------


def test_exchange_fee_two() -> None:
    # Chips 20, 4, 20; stakes cost 3 -> 17, 1, 17. Fee 2 stake units = 2 chips.
    # Seat 1 has 1 chip < 2: a voluntary payment may not exceed the stack (ruling 5), so it
    # may only keep; a swap is refused with insufficient_chips and nothing changes.
    # Seat 2 swaps: pays 2 -> 15, kitty 3 + 2 = 5.
    t = table3({"exchange_fee": 2}, chips=[20, 4, 20])
    deal = new_deal(t, LIMIT_HANDS)
    stake_all(deal, ALL_KH)
    assert deal.stacks == (17, 1, 17)
    deal.apply({"seat": 0, "action": "keep"})
    assert legal(deal) == verbs(1, "keep")
    n_events = len(deal.events)
    with pytest.raises(IllegalAction) as err:
        deal.apply({"seat": 1, "action": "swap"})
    assert err.value.code == "insufficient_chips"
    assert len(deal.events) == n_events and deal.current_seat == 1
    deal.apply({"seat": 1, "action": "keep"})
    assert legal(deal) == verbs(2, "keep", "swap")
    deal.apply({"seat": 2, "action": "swap"})
    assert deal.phase == "play"
    assert public(deal, "paid", "exchanged") == [("paid", 2, 2, "kitty"),
                                                 ("exchanged", 2, 2, "kitty")]
    assert deal.stacks == (17, 1, 15)
    assert deal.layout == layout(KH=3, pot=3, kitty=5)


# -- retire_claimed: false (ruling 37) -----------------------------------------------------

RETIRE_DEAL1 = [["9C"], ["2H", "3H", "4H", "5S", "9D"], ["6S", "KH"]]
RETIRE_DEAL2 = [["KH", "4S"], ["9D"], ["2H", "6C", "9S"]]


def _retire_deal1(t: stops.Table) -> stops.Deal:
    # Stakes all on KH: KH 3, pot 3, kitty 3; stacks 17.
    # s1 leads 2H -> 3H, 4H (s1): run of three -> pot 3 to s1; 5H dead: stop.
    # Hearts broke -> s1's lowest (only) black: 5S -> 6S (s2) -> 7S dead: stop.
    # Spades broke -> s2's lowest red: KH -> pays KH 3 to s2; AH dead: stop; KH was s2's
    # last card -> out -> kitty 3 to s2. Stacks 17, 20, 23; layout empty.
    deal = ready(t, RETIRE_DEAL1)
    lead(deal, 1, "2H")
    assert legal(deal) == leads(1, "5S")
    lead(deal, 1, "5S")
    assert legal(deal) == leads(2, "KH")
    lead(deal, 2, "KH")
    assert plays(deal) == [(1, "2H"), (1, "3H"), (1, "4H"), (1, "5S"), (2, "6S"), (2, "KH")]
    assert claims(deal) == [(1, "pot", 3), (2, "KH", 3), (2, "kitty", 3)]
    assert deal.stacks == (17, 20, 23)
    return deal


def test_retire_claimed_false_won_spaces_stay_and_take_stakes() -> None:
    # retire_claimed false: nothing retires in deal 1.
    # Deal 2 (dealer 1, stakes 2, 0, 1): KH is still offered; pot and kitty still take 1
    # each -> stacks 14, 17, 20; KH 3, pot 3, kitty 3.
    # Play: s2 leads 2H; 3H dead: stop. s2's lowest black: 6C (6C < 9S); 7C dead: stop.
    # s2 has no red -> the switch passes left to s0, which must lead red (ruling 46): KH
    # -> KH pays s0 again (3); AH dead: stop; s0 switches black: 4S; 5S dead: stop; 4S was
    # s0's last card -> out, kitty 3. Stacks 20, 17, 20; pot 3 carries.
    t = table3({"retire_claimed": False})
    deal1 = _retire_deal1(t)
    assert [e for e in deal1.events if e.kind == "retired"] == []
    assert t.retired == set()
    deal2 = new_deal(t, RETIRE_DEAL2)
    assert deal2.current_seat == 2
    assert legal(deal2) == stake_menu(2, "KH", "QC", "JD", "TS")
    stake_all(deal2, {2: "KH", 0: "KH", 1: "KH"})
    settle_spare(deal2)
    assert deal2.stacks == (14, 17, 20)
    assert deal2.layout == layout(KH=3, pot=3, kitty=3)
    lead(deal2, 2, "2H")
    assert legal(deal2) == leads(2, "6C")
    lead(deal2, 2, "6C")
    assert passes(deal2) == [(2, 0)]
    assert legal(deal2) == leads(0, "KH")
    lead(deal2, 0, "KH")
    assert legal(deal2) == leads(0, "4S")
    lead(deal2, 0, "4S")
    assert deal2.winner == 0
    assert claims(deal2) == [(0, "KH", 3), (0, "kitty", 3)]
    assert deal2.stacks == (20, 17, 20)
    assert deal2.layout == layout(pot=3)
    assert t.retired == set()
    conserved(t, 60)


def test_retire_claimed_default_won_spaces_leave_the_layout() -> None:
    # Default: KH, pot and kitty were won in deal 1 and retire; deal 2 offers only QC, JD,
    # TS and stakes nothing on pot or kitty.
    t = table3()
    _retire_deal1(t)
    assert t.retired == {"KH", "pot", "kitty"}
    deal2 = new_deal(t, RETIRE_DEAL2)
    assert legal(deal2) == stake_menu(2, "QC", "JD", "TS")


# -- opening_fallback: redeal (ruling 39) --------------------------------------------------

NO_TWOS = [["3C", "9C"], ["3H", "4H", "5D"], ["3D", "3S"]]


def test_opening_fallback_redeal_when_all_twos_are_dead() -> None:
    # All four 2s are in the spare. redeal: the deal ends without a lead, outcome "redeal",
    # nothing is paid beyond the stakes already placed (17 each; KH 3, pot 3, kitty 3
    # carry). The next deal is normal: the dealer passes to seat 1 and seat 2 stakes first.
    t = table3({"opening_fallback": "redeal"})
    deal = new_deal(t, NO_TWOS)
    stake_all(deal, ALL_KH)
    settle_spare(deal)
    assert deal.is_terminal
    assert deal.outcome == "redeal" and deal.winner is None
    assert deal.plays == []
    assert [e for e in deal.events if e.kind in ("led", "played", "claimed", "paid")] == []
    assert deal.stacks == (17, 17, 17)
    assert deal.layout == layout(KH=3, pot=3, kitty=3)
    assert t.dealer == 1 and not t.is_over
    deal2 = new_deal(t, [["9D"], ["2H"], ["8S"]])
    assert deal2.phase == "stake" and deal2.current_seat == 2
    stake_all(deal2, ALL_KH)
    settle_spare(deal2)
    assert deal2.stacks == (14, 14, 14)
    assert deal2.layout == layout(KH=6, pot=6, kitty=6)
    assert deal2.current_seat == 1 and legal(deal2) == leads(1, "2H")


def test_opening_fallback_default_next_rank() -> None:
    # Default next_rank: 3H opens (order H C D S at the next rank), held by seat 1.
    t = table3()
    deal = ready(t, NO_TWOS)
    assert deal.current_seat == 1 and legal(deal) == leads(1, "3H")


# -- switch_card: lowest_in_chosen_suit; colour_tie: suit_order_HCDS (ruling 41) -----------

CHOSEN_HANDS = [["3S"], ["2H", "9C", "4S", "8S"], ["5D", "6H"]]


def test_switch_card_lowest_in_chosen_suit() -> None:
    # 2H (s1); 3H dead: stop. Black switch: s1 may choose a black suit and play its lowest:
    # 9C (clubs) or 4S (spades); 8S is not the lowest spade. Under the default only 4S.
    # s1 picks 9C; TC dead: stop. s1 has no red -> passes to s2 (must lead red): both red
    # suits, each its lowest: 5D and 6H.
    t = table3({"switch_card": "lowest_in_chosen_suit"})
    deal = ready(t, CHOSEN_HANDS)
    lead(deal, 1, "2H")
    assert legal(deal) == leads(1, "9C", "4S")
    with pytest.raises(IllegalAction) as err:
        lead(deal, 1, "8S")
    assert err.value.code == "wrong_switch_card"
    lead(deal, 1, "9C")
    assert plays(deal) == [(1, "2H"), (1, "9C")]
    assert passes(deal) == [(1, 2)]
    assert legal(deal) == leads(2, "5D", "6H")

    default = ready(table3(), CHOSEN_HANDS)
    lead(default, 1, "2H")
    assert legal(default) == leads(1, "4S")


TIE_HANDS = [["9S"], ["2H", "4C", "4S", "4D", "4H"], ["9D"]]


def test_colour_tie_suit_order_hcds() -> None:
    # 2H (s1); 3H dead: stop -> black switch: 4C and 4S tie; H C D S order -> only 4C.
    # 4C; 5C dead: stop -> red switch: 4D and 4H tie -> only 4H. 4H; 5H dead -> black: 4S;
    # 5S dead -> red: 4D; 5D dead; 4D was s1's last card -> out, kitty 3.
    t = table3({"colour_tie": "suit_order_HCDS"})
    deal = ready(t, TIE_HANDS)
    lead(deal, 1, "2H")
    assert legal(deal) == leads(1, "4C")
    lead(deal, 1, "4C")
    assert legal(deal) == leads(1, "4H")
    lead(deal, 1, "4H")
    assert legal(deal) == leads(1, "4S")
    lead(deal, 1, "4S")
    assert legal(deal) == leads(1, "4D")
    lead(deal, 1, "4D")
    assert deal.winner == 1 and claims(deal) == [(1, "kitty", 3)]
    assert deal.stacks == (17, 20, 17)

    # Default player_choice: both tied cards are offered.
    default = ready(table3(), TIE_HANDS)
    lead(default, 1, "2H")
    assert legal_cards(default) == ["4C", "4S"]
    lead(default, 1, "4C")
    assert legal_cards(default) == ["4D", "4H"]


# -- run_rule / run_length (ruling 43) -----------------------------------------------------

ANY3_HANDS = [["9C"], ["3H", "5S", "6S", "9D"], ["2H", "TC"]]


def test_run_rule_any_three_consecutive_plays() -> None:
    # s2 leads 2H -> 3H (s1, forced); 4H dead: stop by s1. s1 switches black: 5S -> 6S (s1);
    # 7S dead: stop. s1 played 3H (a stop card), 5S (switch) and 6S (its follow-up) in a
    # row: any_three_consecutive_plays -> pot 3 to s1 at 6S. Spades broke -> s1's red: 9D;
    # TD dead; 9D was s1's last card -> out, kitty 3. Stacks 17, 23, 17.
    t = table3({"run_rule": "any_three_consecutive_plays"})
    deal = ready(t, ANY3_HANDS)
    assert legal(deal) == leads(2, "2H")
    lead(deal, 2, "2H")
    assert legal(deal) == leads(1, "5S")
    lead(deal, 1, "5S")
    assert claims(deal) == [(1, "pot", 3)]
    assert legal(deal) == leads(1, "9D")
    lead(deal, 1, "9D")
    assert plays(deal) == [(2, "2H"), (1, "3H"), (1, "5S"), (1, "6S"), (1, "9D")]
    assert claims(deal) == [(1, "pot", 3), (1, "kitty", 3)]
    assert deal.stacks == (17, 23, 17)
    assert t.retired == {"pot", "kitty"}

    # Default same_suit_consecutive: 3H / 5S-6S is no run of one suit: the pot stays.
    default = ready(table3(), ANY3_HANDS)
    lead(default, 2, "2H")
    lead(default, 1, "5S")
    lead(default, 1, "9D")
    assert claims(default) == [(1, "kitty", 3)]
    assert default.stacks == (17, 20, 17)
    assert default.layout == layout(KH=3, pot=3)


def test_run_rule_none() -> None:
    # s1: 2H 3H 4H is a run of three by one player, but run_rule none gives no prize.
    # 5H dead: stop -> black: 9S; TS dead; s1 out -> kitty 3. Pot 3 stays, still live.
    t = table3({"run_rule": "none"})
    deal = ready(t, [["9C"], ["2H", "3H", "4H", "9S"], ["7D"]])
    lead(deal, 1, "2H")
    lead(deal, 1, "9S")
    assert deal.winner == 1
    assert claims(deal) == [(1, "kitty", 3)]
    assert deal.layout == layout(KH=3, pot=3)
    assert t.retired == {"kitty"}


RUN4_HANDS = [["9S"], ["2H", "3H", "4H", "9D"], ["5C", "6C", "7C", "8C", "TD"]]


def test_run_length_four() -> None:
    # s1: 2H 3H 4H (5H dead: stop) is only 3 long: no pot. s1 has no black -> the switch
    # passes to s2 (black): 5C 6C 7C 8C, 9C dead: a run of FOUR by s2 -> pot 3.
    # s2 switches red: TD; JD dead; TD was its last card -> out, kitty 3. Stacks 17,17,23.
    t = table3({"run_length": 4})
    deal = ready(t, RUN4_HANDS)
    lead(deal, 1, "2H")
    assert claims(deal) == []
    assert passes(deal) == [(1, 2)]
    assert legal(deal) == leads(2, "5C")
    lead(deal, 2, "5C")
    assert claims(deal) == [(2, "pot", 3)]
    lead(deal, 2, "TD")
    assert deal.winner == 2
    assert claims(deal) == [(2, "pot", 3), (2, "kitty", 3)]
    assert deal.stacks == (17, 17, 23)

    # Default length 3: s1's 2H-3H-4H already wins the pot; s2's later run finds it gone.
    default = ready(table3(), RUN4_HANDS)
    lead(default, 1, "2H")
    lead(default, 2, "5C")
    lead(default, 2, "TD")
    assert claims(default) == [(1, "pot", 3), (2, "kitty", 3)]
    assert default.stacks == (17, 20, 20)


# -- going_out_reward: kitty_plus_per_card (ruling 44) -------------------------------------

OUT_HANDS = [["9C", "8D", "KS"], ["2H", "3H"], ["7D", "5C"]]


def test_going_out_reward_kitty_plus_per_card() -> None:
    # s1: 2H -> 3H (own) -> out. 2 cards: no run. Reward: the kitty (3) plus 1 per card
    # still held by every other player, paid clockwise from the winner's left: s2 pays 2,
    # s0 pays 3. Stacks: 17 - 3 = 14, 17 + 3 + 5 = 25, 17 - 2 = 15.
    t = table3({"going_out_reward": "kitty_plus_per_card"})
    deal = ready(t, OUT_HANDS)
    lead(deal, 1, "2H")
    assert deal.winner == 1
    assert claims(deal) == [(1, "kitty", 3)]
    assert [(e.seat, e.to_seat, e.chips) for e in deal.events if e.kind == "paid"] == [
        (2, 1, 2), (0, 1, 3)]
    assert deal.stacks == (14, 25, 15)
    assert deal.returns() == (-6, 5, -5)  # the stakes (3 each) are part of the deal
    conserved(t, 60)

    default = ready(table3(), OUT_HANDS)
    lead(default, 1, "2H")
    assert default.stacks == (17, 20, 17)


# -- block_outcome: redeal_same_round (ruling 45) ------------------------------------------

BLOCK_HANDS = [["9D"], ["2H", "5D"], ["7H"]]


def _blocked(t: stops.Table) -> stops.Deal:
    # s1: 2H; 3H dead: stop. Black needed: s1 has none -> s2 (none) -> s0 (none) -> back
    # to s1: blocked. Nobody pays; stacks 17, KH 3, pot 3, kitty 3 stay.
    deal = ready(t, BLOCK_HANDS)
    lead(deal, 1, "2H")
    assert deal.is_terminal and deal.outcome == "blocked" and deal.winner is None
    assert passes(deal) == [(1, 2), (2, 0), (0, 1)]
    assert [e for e in deal.events if e.kind in ("paid", "claimed")] == []
    assert deal.stacks == (17, 17, 17)
    assert deal.layout == layout(KH=3, pot=3, kitty=3)
    return deal


def test_block_outcome_redeal_same_round() -> None:
    # redeal_same_round: the same dealer (0) deals again and no new stakes are placed: the
    # next deal starts with the dealer's keep/swap, stacks and layout unchanged.
    t = table3({"block_outcome": "redeal_same_round"})
    _blocked(t)
    assert t.dealer == 0
    deal2 = new_deal(t, [["9S"], ["2H"], ["8S"]])
    assert deal2.dealer == 0
    assert deal2.phase == "spare_hand" and deal2.current_seat == 0
    assert staked(deal2) == []
    assert deal2.stacks == (17, 17, 17)
    assert deal2.layout == layout(KH=3, pot=3, kitty=3)


def test_block_outcome_default_redeal_next_round() -> None:
    # Default: a new round: the dealer rotates to seat 1 and seat 2 stakes first.
    t = table3()
    _blocked(t)
    assert t.dealer == 1
    deal2 = new_deal(t, [["9S"], ["2H"], ["8S"]])
    assert deal2.phase == "stake" and deal2.current_seat == 2


# -- pass_lead_keeps_forbidden_suit: false (ruling 24, 46) ---------------------------------

PASS_HANDS = [["9D"], ["2H", "5D"], ["7H", "4D"]]


def test_pass_lead_keeps_forbidden_suit_false_receiver_leads_any_colour() -> None:
    # Default (true): 2H by s1; 3H dead -> black is required of s1 and of every receiver;
    # nobody holds black -> passes 1->2, 2->0, 0->1: blocked.
    default = ready(table3(), PASS_HANDS)
    lead(default, 1, "2H")
    assert default.outcome == "blocked"
    assert passes(default) == [(1, 2), (2, 0), (0, 1)]

    # false: only s1 (who played the stop) must switch colour; s2 receives the lead with
    # no restriction: the lowest card of any suit, red included: 4D or 7H.
    # s2 leads 4D -> 5D (s1, forced) -> 6D dead; 5D was s1's last card: out, kitty 3.
    t = table3({"pass_lead_keeps_forbidden_suit": False})
    deal = ready(t, PASS_HANDS)
    lead(deal, 1, "2H")
    assert passes(deal) == [(1, 2)]
    assert legal(deal) == leads(2, "4D", "7H")
    lead(deal, 2, "4D")
    assert plays(deal) == [(1, "2H"), (2, "4D"), (1, "5D")]
    assert deal.outcome == "went_out" and deal.winner == 1
    assert claims(deal) == [(1, "kitty", 3)]
    assert deal.stacks == (17, 20, 17)


# -- first_leader: dealers_left (ruling 8, 39) ---------------------------------------------

LEFT_HANDS = [["4D", "7S", "KC"], ["5C", "9C", "3D", "8S"], ["2H"]]


def test_first_leader_dealers_left() -> None:
    # No fixed opening: seat 1 (dealer's left) leads; with no stop yet the after_stop rule
    # allows the lowest card of any suit it holds: 5C, 3D, 8S (9C is not lowest in clubs;
    # seat 2's 2H opens nothing).
    # s1 leads 3D -> 4D (s0); 5D dead: stop -> s0 black: 7S (7S < KC) -> 8S (s1); 9S dead:
    # stop ->
    # s1 red: none -> passes to s2 (red): 2H, its last card -> out, kitty 3.
    t = table3({"first_leader": "dealers_left"})
    deal = ready(t, LEFT_HANDS)
    assert deal.current_seat == 1
    assert legal(deal) == leads(1, "5C", "3D", "8S")
    lead(deal, 1, "3D")
    assert legal(deal) == leads(0, "7S")
    lead(deal, 0, "7S")
    assert passes(deal) == [(1, 2)]
    assert legal(deal) == leads(2, "2H")
    lead(deal, 2, "2H")
    assert plays(deal) == [(1, "3D"), (0, "4D"), (0, "7S"), (1, "8S"), (2, "2H")]
    assert deal.winner == 2 and claims(deal) == [(2, "kitty", 3)]

    # Default opening_card: seat 2 holds 2H and must open with it.
    default = ready(table3(), LEFT_HANDS)
    assert default.current_seat == 2 and legal(default) == leads(2, "2H")


# -- match_end {all_spaces_retired, max_deals: 2}; final_share (ruling 38) -----------------


def _two_deal_session(final_share: str) -> stops.Table:
    # Start: 1 chip already on the pot (nobody's contribution). Dealer 0.
    # Deal 1 (stakes 1, 2, 0): s1 KH, s2 QC, s0 JD, + pot and kitty each.
    #   Layout KH 1, QC 1, JD 1, pot 1 + 3 = 4, kitty 3; stacks 17.
    #   s1 leads 2H, its only card: out, kitty 3 (retired). Stacks 17, 20, 17.
    # Deal 2 (dealer 1; stakes 2, 0, 1): s2 QC, s0 KH, s1 KH, + pot (kitty retired).
    #   Layout KH 1 + 2 = 3, QC 2, JD 1, pot 7; stacks 15, 18, 15 (sum 48 + 13 = 61).
    #   s2 leads 2H, its only card: out; the kitty is retired, nothing won.
    # KH, QC, JD, TS and pot are still live, yet max_deals 2 ends the session now.
    t = table3({"match_end": {"use": "all_spaces_retired", "max_deals": 2},
                "final_share": final_share}, layout={"pot": 1})
    d1 = new_deal(t, [["9C"], ["2H"], ["7D"]])
    stake_all(d1, {1: "KH", 2: "QC", 0: "JD"})
    settle_spare(d1)
    lead(d1, 1, "2H")
    assert claims(d1) == [(1, "kitty", 3)]
    assert t.stacks == (17, 20, 17) and not t.is_over
    d2 = new_deal(t, [["9C"], ["7D"], ["2H"]])
    stake_all(d2, {2: "QC", 0: "KH", 1: "KH"})
    settle_spare(d2)
    assert d2.stacks == (15, 18, 15)
    assert d2.layout == layout(KH=3, QC=2, JD=1, pot=7)
    lead(d2, 2, "2H")
    assert d2.winner == 2 and claims(d2) == []
    assert t.is_over
    with pytest.raises(SessionOver):
        t.new_deal()
    return t


def test_match_end_max_deals_then_pot_only_equal() -> None:
    # pot_only_equal: only the pot (7) is shared: 2 each, the odd chip goes clockwise from
    # the last dealer's (seat 1) left -> seat 2. Stacks 15 + 2, 18 + 2, 15 + 3 = 17, 20, 18;
    # the key-card chips (KH 3, QC 2, JD 1) stay on the layout.
    t = _two_deal_session("pot_only_equal")
    assert t.stacks == (17, 20, 18)
    assert t.layout == layout(KH=3, QC=2, JD=1)
    conserved(t, 61)


def test_match_end_max_deals_then_refund_by_contribution() -> None:
    # refund_by_contribution, who put what on each space over the two deals:
    #   pot 7: s0 1+1, s1 1+1, s2 1+1 (+1 that was there at the start) -> 7*2//6 = 2 each,
    #          the odd chip clockwise from the last dealer's (seat 1) left -> seat 2: 2, 2, 3.
    #   KH 3: s1 1 (deal 1) + 1 (deal 2), s0 1 (deal 2) -> s0 1, s1 2.
    #   QC 2: s2 1 + 1 -> s2 2.    JD 1: s0 1 -> s0 1.    TS 0, kitty 0 (won in deal 1).
    # Stacks: s0 15 + 2 + 1 + 1 = 19, s1 18 + 2 + 2 = 22, s2 15 + 3 + 2 = 20; layout empty.
    t = _two_deal_session("refund_by_contribution")
    assert t.stacks == (19, 22, 20)
    assert t.layout == layout()
    conserved(t, 61)


def test_match_end_default_goes_on_while_spaces_live() -> None:
    # Default match_end all_spaces_retired (no max): after 2 deals with live spaces left,
    # the session is not over.
    t = table3()
    for opener, hands in ((1, [["9C"], ["2H"], ["7D"]]), (2, [["9C"], ["7D"], ["2H"]])):
        d = new_deal(t, hands)
        stake_all(d, ALL_KH)
        settle_spare(d)
        lead(d, opener, "2H")
        assert d.winner == opener
    assert t.deals_played == 2 and not t.is_over
