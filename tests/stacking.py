"""Helpers for stacked deals, shared by the hand-derived test files."""

from __future__ import annotations

from typing import Any

import stops
from stops import parse_card
from stops.phases.poker import PokerResult


def rest_of_pack(hands: list[list[str]]) -> list[str]:
    """The spare hand: every card of the pack not in ``hands``."""
    used = {parse_card(c) for h in hands for c in h}
    return [str(c) for c in stops.CARDS if c not in used]


def new_deal(table: stops.Table, hands: list[list[str]]) -> stops.Deal:
    return table.new_deal(hands=hands, spare=rest_of_pack(hands))


def stake_all(deal: stops.Deal, choices: dict[int, str]) -> None:
    """Each seat in turn stakes on its chosen key card (chips omitted: the fixed 1)."""
    while deal.phase == "stake":
        seat = deal.current_seat
        assert seat is not None
        deal.apply({"seat": seat, "action": "stake", "space": choices[seat]})


def settle_spare(deal: stops.Deal, choices: dict[int, str] | None = None) -> None:
    """The dealer's keep/swap and each paid exchange: ``keep`` unless ``choices`` says."""
    while deal.phase == "spare_hand":
        seat = deal.current_seat
        assert seat is not None
        deal.apply({"seat": seat, "action": (choices or {}).get(seat, "keep")})


def ready(table: stops.Table, hands: list[list[str]], stakes: dict[int, str],
          exchanges: dict[int, str] | None = None) -> stops.Deal:
    """A stacked deal taken through stakes and the spare hand, to the first lead."""
    deal = new_deal(table, hands)
    stake_all(deal, stakes)
    settle_spare(deal, exchanges)
    assert deal.phase == "play"
    return deal


def lead(deal: stops.Deal, seat: int, card: str) -> list[stops.Event]:
    return deal.apply({"seat": seat, "action": "lead", "card": card})


def legal(deal: stops.Deal) -> list[dict[str, Any]]:
    return [a.to_dict() for a in deal.legal_actions()]


def poker_winners(deal: stops.Deal) -> tuple[int, ...]:
    """Who won the poker pot (the poker phase's published result), or ``()``."""
    result = deal.result(PokerResult)
    return result.winners if result is not None else ()
