"""``hand_only``, declared by an ``after_stop`` rule: what a lead proves is the same whoever
led (PolicySpec.hand_only), so the play phase keeps one proof for every seat.

The declaration is a promise about the rule: these tests hold every built-in rule, with the
parameters each built-in variant gives it, to it (the rule's answer, asked on a table where
only the probed cards are in a hand, is the same at every seat), and show that a rule
without it keeps its proofs seat by seat.
"""

from __future__ import annotations

from typing import Any

import stops
from stops.engine.determinize import Probe
from stops.phases.play import PlayPhase
from stops.rules.variant import list_variants

SAMPLE = (0, 5, 12, 13, 20, 25, 27, 33, 38, 44, 51)  # a few cards of every suit


def _play_phase(deal: stops.Deal) -> PlayPhase:
    return next(p for p in deal.variant.phases if isinstance(p, PlayPhase))


def _rules_in_use() -> dict[tuple[str, str], str]:
    """Each built-in after_stop rule with each of its parameters in use: one variant each."""
    out: dict[tuple[str, str], str] = {}
    for name in list_variants():
        v = stops.load_variant(name)
        if not any(isinstance(p, PlayPhase) for p in v.phases):
            continue
        rule = v.policy("after_stop")
        out.setdefault((rule.name, repr(rule.params)), name)
    return out


def test_every_built_in_after_stop_rule_declares_hand_only() -> None:
    reg = stops.default_registry()
    rules = [s for (slot, _), s in reg.policies.items() if slot == "after_stop"]
    assert len(rules) >= 4
    assert all(s.hand_only for s in rules)


def test_a_built_in_rule_answers_the_same_at_every_seat() -> None:
    # By hand: with only the led card and one other in a seat's hand (every other card out
    # of the hands), whether the rule lets that seat lead the card depends on the two cards
    # and the suit stopped, not on the seat; so does whether it lets a seat holding one
    # card lead at all (what a passed lead proves). Checked for every rule as a built-in
    # uses it.
    used = _rules_in_use()
    assert {name for name, _ in used} >= {"any_suit", "must_change_suit", "any_card"}
    for variant in used.values():
        deal = stops.Table(variant, seats=stops.load_variant(variant).players[0], seed=1).new_deal()
        rule = deal.variant.policy("after_stop")
        for broken in (None, 0, 1, 2, 3):
            for card in SAMPLE:
                for other in range(52):
                    if other == card:
                        continue
                    answers = set()
                    for seat in range(deal.n):
                        probe = Probe(deal, {card: seat, other: seat})
                        try:
                            answers.add(card in rule.impl(deal, seat, broken, rule.params))
                        finally:
                            probe.close()
                    assert len(answers) == 1, (variant, broken, card, other)
            for card in range(52):
                # a passed lead: whether the seat could lead at all with this card alone
                answers = set()
                for seat in range(deal.n):
                    probe = Probe(deal, {card: seat})
                    try:
                        answers.add(bool(rule.impl(deal, seat, broken, rule.params)))
                    finally:
                        probe.close()
                assert len(answers) == 1, (variant, broken, card)


def test_the_phase_keeps_one_proof_for_every_seat() -> None:
    deal = stops.Table("boodle", seats=4, seed=2).new_deal()
    phase = _play_phase(deal)
    assert phase._seat_part == 0
    proofs = [phase._lead_proves(deal, seat, 1, 20) for seat in range(4)]
    assert proofs[0]  # a lead of 9D after a stop in clubs proves something...
    assert all(p is proofs[0] for p in proofs)  # ...and it is one proof, kept once


def _seat_zero_leads_anything(deal: stops.Deal, seat: int, broken: int | None,
                              params: Any) -> list[int]:
    """Seat 0 may lead any card; the others their lowest card of a suit they choose."""
    hand = [int(c) for c in deal.hand(seat)]
    if seat == 0:
        return hand
    return [min(c for c in hand if c // 13 == s) for s in range(4)
            if any(c // 13 == s for c in hand)]


def test_a_rule_that_reads_the_seat_keeps_its_proofs_seat_by_seat() -> None:
    # By hand: 9D (card 20) led by seat 0 proves nothing (it may lead any card); led by
    # seat 1 it proves seat 1 held no lower diamond (2D to 8D: cards 13 to 19).
    reg = stops.default_registry().copy()
    reg.register_policy("after_stop", "seat_zero_free", text=lambda _: "")(
        _seat_zero_leads_anything)
    v = stops.load_variant("boodle", options={"after_stop": "seat_zero_free"}, registry=reg)
    deal = stops.Table(v, seats=4, seed=2).new_deal()
    phase = _play_phase(deal)
    assert phase._seat_part == 1
    assert phase._lead_proves(deal, 0, None, 20) == frozenset()
    assert phase._lead_proves(deal, 1, None, 20) == frozenset(range(13, 20))
