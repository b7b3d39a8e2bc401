"""The Comet's own rules: the comet itself, its bonuses and its settlement
(docs/family-rulings.md F.5, F39-F46).

Everything else the Comet plays by is general: the 48-card pack (the aces removed), the deal
by a table of hand sizes, turns in rotation by rank only with several cards of one rank per
turn, no layout, and ``match_end: {use: deals, per_player: 2}``. What belongs to this game:

* ``wild_card: comet``: the 9♦ stands for any rank of the pack when laid in turn; its player
  names the rank (``as_rank``). It is always a stop, and each other player pays its player
  ``comet_bonus`` chips at once (F43, F44). With ``king_bonus`` a turn that lays natural Kings
  is paid once, from each other player (AV's New Comet, F44). The rotation phase checks the
  naming (a rank the pack does not have, a rank that does not fit).
* ``going_out_reward: comet``: the first player out is paid the points of the cards left
  (F5; :func:`stops.policies.points.pay_for_cards`) times the comet's multipliers: x2 for a
  player still holding the comet; x2 for everyone when the winner's last turn included the
  comet named as any rank but 9, x4 when named as 9 (F.5). ``settlement: per_card`` pays one
  chip per card with no multiplier (F45).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from stops.engine.cards import CARDS, Card, parse_card
from stops.phases.rotation import WildCardPolicy
from stops.policies.points import pay_for_cards, payment_text
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry

KING = 11
"""Rank index of the King in card codes."""


@attrs.frozen
class CometParams:
    card: Card = attrs.field(default=parse_card("9D"), metadata={
        "doc": "The comet: the wild card (F39: the 9 of diamonds)."})
    comet_bonus: int = param(
        2, "Chips each other player pays the player of the comet when it is laid (0: none).",
        validator=attrs.validators.ge(0))
    king_bonus: int = param(
        0, "Chips each other player pays for a turn that lays one or more natural Kings, "
        "once per turn (0: none).", validator=attrs.validators.ge(0))


_RANK_WORDS = {"T": "10", "J": "jack", "Q": "queen", "K": "king", "A": "ace"}


class Comet(WildCardPolicy):
    """The comet: a wild card that stands for the rank its player names, always a stop, paid
    for by every other player; and the King bonus of a turn."""

    def card(self, params: CometParams) -> int:
        return int(params.card)

    def on_lay(self, deal: Deal, seat: int, as_rank: str | None,
               params: CometParams) -> str | None:
        """Each other player pays the comet's player ``comet_bonus`` at once (F4, F44); the
        comet ends the sequence, even named as a 9 (F43)."""
        deal.bonus(seat, params.comet_bonus, f"the comet ({CARDS[params.card]})")
        word = _RANK_WORDS.get(as_rank, as_rank) if as_rank else ""
        named = f", laid as {'an' if word in ('8', 'ace') else 'a'} {word}," if word else ""
        return f"the comet{named} always ends the sequence"

    def on_turn(self, deal: Deal, seat: int, cards: list[int],
                params: CometParams) -> str | None:
        """A turn laying one or more natural Kings is paid once (``king_bonus``)."""
        if params.king_bonus and any(c % 13 == KING and c != params.card for c in cards):
            deal.bonus(seat, params.king_bonus, "a turn with natural Kings")
        return None


def _comet_text(p: CometParams) -> str:
    t = (f"The {CARDS[p.card].symbol()} is the comet, a wild card: on his own turn a player "
         "may lay it for any rank he names, alone or with natural cards of that rank. Laid as "
         "a continuation it must stand for the needed rank. A player holding a natural card of "
         "the needed rank must lay one; one whose only way on is the comet may lay it or pass. "
         "The comet always ends the sequence, even named as a 9: its player starts a new one "
         "at once.")
    if p.comet_bonus:
        t += f" When it is laid, each other player pays its player {_chips(p.comet_bonus)}."
    if p.king_bonus:
        t += (f" A turn that lays one or more natural Kings is paid {_chips(p.king_bonus)} by "
              "each other player, once.")
    return t


def _comet_checks(variant: Any, p: CometParams) -> list[Any]:
    out: list[Any] = []
    if p.card not in set(variant.deck):
        out.append(("card", f"the comet {p.card} is not in the pack"))
    turns = variant.policies.get("turn_order")  # None: it failed to bind (reported)
    if turns is not None and not turns.spec.in_turn:
        out.append("the comet is laid in turn: it needs turn_order: rotation")
    return out


@attrs.frozen
class CometSettlementParams:
    settlement: Literal["points", "per_card"] = param(
        "points", "The first player out is paid the points of the cards left, with the "
        "comet's multipliers (points), or one chip per card and no multiplier (per_card).")


def last_turn(deal: Deal, winner: int) -> list[Any]:
    """The decisions of the winner's last turn: his decisions at the end of the deal back to
    (and including) the lead or the first play of that turn."""
    out: list[Any] = []
    for a in reversed(deal.actions):
        if a.seat != winner or a.action not in ("lead", "play"):
            break
        out.append(a)
        if a.action == "lead":
            break
    return out


def comet_factor(deal: Deal, winner: int, comet: int) -> int:
    """x2 when the winner's last turn included the comet named as any rank but 9, x4 when
    named as 9, else 1."""
    for a in last_turn(deal, winner):
        laid = a.cards if a.cards is not None else ((a.card,) if a.card is not None else ())
        if comet in {int(c) for c in laid}:
            return 4 if a.as_rank == "9" else 2
    return 1


def comet_settlement(deal: Deal, winner: int, params: CometSettlementParams) -> None:
    """Every other player pays the first player out for his cards left: points times the
    comet's multipliers, or one chip per card."""
    if params.settlement == "per_card":
        pay_for_cards(deal, winner, "per_card")
        return
    w = deal.variant.policy("wild_card")
    comet: int = w.impl.card(w.params)
    everyone = comet_factor(deal, winner, comet) if comet >= 0 else 1

    def factor(payer: int) -> int:
        return everyone * (2 if comet >= 0 and deal.owner[comet] == payer else 1)

    pay_for_cards(deal, winner, "card_points", factor)


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def _settlement_text(p: CometSettlementParams, deck: Any = None) -> str:
    if p.settlement == "per_card":
        return payment_text("per_card")
    return (payment_text("card_points", deck=deck) + " A player still holding the comet (it "
            "counts 9) pays double. If the winner's last turn included the comet, everyone "
            "pays double, or four times as much if it was named as a 9.")


def _needs_comet(variant: Any, p: CometSettlementParams) -> list[str]:
    wild = variant.policies.get("wild_card")  # None: it failed to bind (reported)
    if p.settlement == "points" and wild is not None and not isinstance(wild.impl, Comet):
        return ["settlement by the comet's points needs wild_card: comet"]
    return []


def _pays_nothing(variant: object, params: object) -> tuple[str, ...]:
    """Every payment is seat to seat: nothing is paid out of the layout."""
    return ()


def register(reg: Registry) -> None:
    reg.register_policy("wild_card", "comet", params=CometParams, text=_comet_text,
                        check=_comet_checks, pays=_pays_nothing,
                        phrase="is the comet, a wild card")(Comet())
    reg.register_policy("going_out_reward", "comet", params=CometSettlementParams,
                        text=_settlement_text, check=_needs_comet, pays=_pays_nothing,
                        describe=lambda v, q: _settlement_text(q, v.deck),
                        phrase="The first player out collects")(comet_settlement)


__all__ = ["Comet", "CometParams", "CometSettlementParams", "comet_factor",
           "comet_settlement", "last_turn"]
