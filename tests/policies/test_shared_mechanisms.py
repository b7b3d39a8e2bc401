"""Hand-derived tests of mechanisms the family games share: the stake pattern and the
seat-to-seat bonus (FAMILY-RULINGS F4, F.8 item 10)."""

from __future__ import annotations

from typing import Any

import pytest

import stops
from stops.engine.deal import Deal
from stops.rules.prose import rules_text
from stops.rules.variant import variant_from_mapping


def boodle_with(stake_rule: dict[str, Any]) -> stops.Variant:
    return variant_from_mapping({"name": "pattern-test", "extends": "boodle",
                                 "rules": {"stake_rule": stake_rule}})


def staked(deal: Deal) -> list[tuple[int | None, str | None, int]]:
    return [(e.seat, e.space, e.chips) for e in deal.events if e.kind == "staked"]


def test_pattern_each_dealer_others() -> None:
    """Boodle's layout (AH KC QD JS), four seats, dealer 2. ``each`` {AH: 1, KC: 2}, the
    dealer adds {QD: 3}, the others add {JS: 1}. By hand, clockwise from the dealer's left
    (3, 0, 1, 2): seat 3: AH 1, KC 2, JS 1; seat 0 and 1 the same; seat 2 (the dealer):
    AH 1, KC 2, QD 3. Layout: AH 4, KC 8, QD 3, JS 3; stacks 50-4 = 46 except the dealer's
    50-6 = 44."""
    v = boodle_with({"use": "pattern", "each": {"AH": 1, "KC": 2}, "dealer": {"QD": 3},
                     "others": {"JS": 1}})
    t = stops.Table(v, seats=4, chips=50, seed=1, dealer=2)
    d = t.new_deal()
    assert d.layout == {"AH": 4, "KC": 8, "QD": 3, "JS": 3}
    assert list(d.stacks) == [46, 46, 44, 46]
    assert staked(d)[:3] == [(3, "AH", 1), (3, "KC", 2), (3, "JS", 1)]
    assert (2, "QD", 3) in staked(d)


def test_pattern_exempt_seat_stakes_nothing_unless_dealing() -> None:
    """Dealer alone dresses {AH: 2}; others put {JS: 1}. Seat 1 exempt: only seats 0 and 3
    put 1 on JS; the dealer 2 puts 2 on AH. With seat 2 (the dealer) exempt as well, he still
    pays his whole stake (F33)."""
    v = boodle_with({"use": "pattern", "dealer": {"AH": 2}, "others": {"JS": 1}})
    for exempt in ([1], [1, 2]):
        d = Deal(v, players=4, dealer=2, stacks=[10] * 4, layout={}, exempt=exempt,
                 shuffle=lambda pack: None)
        assert d.layout == {"AH": 2, "KC": 0, "QD": 0, "JS": 2}
        assert list(d.stacks) == [9, 10, 8, 9]


def test_pattern_text_and_bad_space() -> None:
    v = boodle_with({"use": "pattern", "dealer": {"AH": 6}})
    assert "the dealer alone puts 6 chips on AH" in rules_text(v)
    with pytest.raises(stops.VariantError, match="'pope', which is not a layout space"):
        boodle_with({"use": "pattern", "each": {"pope": 1}})


def test_bonus_from_each_opponent_in_seat_order_and_conserved() -> None:
    """Seat 1 receives 3 from each other seat, from his left: 2, 3, 0. Stacks 10 each ->
    [7, 19, 7, 7]; three bonus events in that order; chips conserved."""
    v = stops.load_variant("boodle")
    d = Deal(v, players=4, dealer=0, stacks=[10] * 4, layout={}, shuffle=lambda pack: None,
             skip_stakes=True)
    before = len(d.events)
    assert d.bonus(1, 3, "played the spinado") == 9
    bonus = d.events[before:]
    assert [(e.kind, e.seat, e.to_seat, e.chips) for e in bonus] == [
        ("bonus", 2, 1, 3), ("bonus", 3, 1, 3), ("bonus", 0, 1, 3)]
    assert list(d.stacks) == [7, 19, 7, 7]
    assert bonus[0].describe() == "seat 2 pays 3 to seat 1 (played the spinado)"
    assert d.bonus(1, 0) == 0 and len(d.events) == before + 3


def test_a_flag_no_rule_of_the_game_offers_is_refused_and_changes_nothing() -> None:
    """Nain Jaune has no companion card: a lead with ``spinado: true`` is refused with its own
    code, and the deal is unchanged."""
    t = stops.Table("nain-jaune", seats=4, seed=2)
    d = t.new_deal()
    seat = d.current_seat
    card = str(d.legal_actions()[0].card)
    before = (d.stacks, len(d.events), d.hand(seat))
    with pytest.raises(stops.IllegalAction) as info:
        d.apply({"seat": seat, "action": "lead", "card": card, "spinado": True})
    assert info.value.code == "flag_not_offered"
    assert (d.stacks, len(d.events), d.hand(seat)) == before
