"""Nain Jaune's own rule: the grand opéra (docs/family-rulings.md F30).

Everything else Nain Jaune plays by is general: the graded stakes (``stake_rule: pattern``),
the talon (``deal_shape: table``), turns in rotation by rank only, the board boxes claimed as
played, settlement by card points and the board-card penalty (:mod:`stops.policies.points`),
and ``match_end: until_short``. Only the grand opéra belongs to this game: a player who goes
out before any other player has laid a card sweeps the board after the payments and the
penalties (``sweep_board``), or is paid double and sweeps nothing (``double_payment``).

The policy is a going-out reward (``going_out_reward: grand_opera``) that takes the general
``card_points`` parameters (``going_out_payment``, ``board_card_penalty``) and adds
``grand_opera``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from stops.policies.points import (
    CardPointsParams,
    board_card_penalties,
    pay_for_cards,
    payment_text,
    penalty_text,
)
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry


@attrs.frozen
class GrandOperaParams(CardPointsParams):
    board_card_penalty: Literal["double", "none"] = param(
        "double", "After the payments, a player still holding a board card pays into its box "
        "as many chips as it holds (double), or nothing (none).",
        option="board_card_penalty")
    grand_opera: Literal["sweep_board", "double_payment", "none"] = param(
        "sweep_board", "A player who goes out before any other player has laid a card takes "
        "every chip on the board after the payments and penalties (sweep_board), is paid "
        "double and sweeps nothing (double_payment), or gets nothing more (none).")


def is_grand_opera(deal: Deal, winner: int) -> bool:
    """The winner went out before any other player laid a card: every card played is his."""
    return all(s == winner for s, _ in deal.plays)


def grand_opera(deal: Deal, winner: int, params: GrandOperaParams) -> None:
    """Pays for the cards left (points or per card), then the board-card penalties; on a
    grand opéra the payments are doubled (``double_payment``) or the winner then takes every
    chip on the board (``sweep_board``)."""
    opera = params.grand_opera != "none" and is_grand_opera(deal, winner)
    double = opera and params.grand_opera == "double_payment"
    pay_for_cards(deal, winner, params.payment, (lambda s: 2) if double else None)
    if params.board_card_penalty == "double":
        board_card_penalties(deal, winner)
    if opera and params.grand_opera == "sweep_board":
        for space in deal.variant.space_ids:
            deal.claim(winner, space, "grand opéra: the board is swept")


def grand_opera_text(p: GrandOperaParams, deck: Any = None) -> str:
    t = payment_text(p.payment, deck=deck) + penalty_text(p.board_card_penalty)
    if p.grand_opera == "sweep_board":
        t += (" A player who goes out before any other player has laid a card (a grand "
              "opéra) then also takes every chip on the layout.")
    elif p.grand_opera == "double_payment":
        t += (" A player who goes out before any other player has laid a card (a grand "
              "opéra) is paid double.")
    return t


def _sweeps(variant: Any, params: GrandOperaParams) -> tuple[str, ...]:
    """A grand opéra can take every box of the board."""
    if params.grand_opera != "sweep_board":
        return ()
    return tuple(variant.space_ids)


def register(reg: Registry) -> None:
    reg.register_policy("going_out_reward", "grand_opera", params=GrandOperaParams,
                        text=grand_opera_text, pays=_sweeps,
                        describe=lambda v, q: grand_opera_text(q, v.deck),
                        phrase="The first player out collects")(grand_opera)


__all__ = ["GrandOperaParams", "grand_opera", "is_grand_opera"]
