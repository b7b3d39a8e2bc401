"""Settlement by card points (slot ``going_out_reward``, policy ``card_points``), and the
penalty for board cards left in hand.

Two family games settle the first player out by the *points* of the cards left in the other
hands (docs/family-rulings.md F5: an ace 1, two to ten their pips, J Q K 10 each): Nain Jaune (F28)
and Comet (F45). Both also have a plainer option, one chip per card. What differs between
them is a game's own business: Nain Jaune doubles the payments on a grand opéra (F30), the
Comet multiplies them for the comet (F.5). So the payments are made here, once, and a game
passes a *multiplier* (payer -> factor) into :func:`pay_for_cards`; its own going-out policy
(in :mod:`stops.games`) calls it and adds what only that game does.

Board cards left in hand (F29) are a layout rule any game with card spaces may use: after the
going-out payments, whoever still holds the card of a ``card`` space pays into that space as
many chips as it holds at that moment (doubling it). A card in the spare is never penalised.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Literal

import attrs

from stops.engine.cards import CARDS
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry

POINTS: tuple[int, ...] = tuple(
    1 if c % 13 == 12 else (c % 13) + 2 if c % 13 <= 8 else 10 for c in range(52))
"""Card points by card (F5): an ace 1, two to ten their pips, J Q K 10."""


def hand_points(deal: Deal, seat: int) -> int:
    """The points of the cards ``seat`` still holds (F5)."""
    return sum(POINTS[c] for c in deal.hand(seat))


Multiplier = Callable[[int], int]
"""``multiplier(payer)``: the factor a payer's payment is multiplied by (1: none)."""


def pay_for_cards(deal: Deal, winner: int, count: str,
                  multiplier: Multiplier | None = None) -> None:
    """Every other player pays ``winner`` for the cards left in his hand, in seat order from
    the winner's left: their points (``count`` ``card_points``) or one chip each
    (``per_card``), times ``multiplier(payer)`` when given. Compulsory (F2)."""
    for s in deal.order(winner, include_self=False):
        if count == "per_card":
            owed, what = deal.counts[s], "1 per card left"
        else:
            owed, what = hand_points(deal, s), "the points of the cards left"
        factor = multiplier(s) if multiplier is not None else 1
        if factor != 1:
            owed *= factor
            what += f", x{factor}"
        deal.pay(s, winner, owed, what)


def board_card_penalties(deal: Deal, winner: int) -> None:
    """Each player still holding the card of a ``card`` space pays into that space as many
    chips as it holds at that moment (doubling it), in seat order from the winner's left and,
    for one player, in layout order (F29). A card in the spare belongs to nobody and is
    never penalised."""
    boxes = [(s.id, int(s.card)) for s in deal.variant.layout
             if s.kind == "card" and s.card is not None]
    if not boxes:
        return
    for s in deal.order(winner, include_self=False):
        for space, card in boxes:
            if deal.owner[card] == s and deal.is_live(space):
                deal.pay(s, space, deal.ledger.layout.get(space, 0),
                         f"holds {CARDS[card]}: doubles its box")


@attrs.frozen
class CardPointsParams:
    payment: Literal["card_points", "per_card"] = param(
        "card_points", "Each other player pays the first player out the points of the cards "
        "left in his hand (ace 1, two to ten their pips, J Q K 10), or one chip per card.",
        option="going_out_payment")
    board_card_penalty: Literal["double", "none"] = param(
        "none", "After the payments, a player still holding the card of a card space pays "
        "into it as many chips as it holds (double), or nothing (none).",
        option="board_card_penalty")


def card_points(deal: Deal, winner: int, params: CardPointsParams) -> None:
    """Every other player pays the first player out for the cards left in his hand (by
    points or per card); then, with ``board_card_penalty: double``, whoever still holds a
    card space's card doubles that space."""
    pay_for_cards(deal, winner, params.payment)
    if params.board_card_penalty == "double":
        board_card_penalties(deal, winner)


_PIPS = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def points_words(deck: Any = None) -> str:
    """What each card left counts (F5), for the ranks of ``deck`` (``None``: a full pack):
    ``an ace 1, two to ten their pips, Jack, Queen and King 10 each``; no aces where the pack
    has none."""
    ranks = set(range(13)) if deck is None else {int(c) % 13 for c in deck}
    parts = []
    if 12 in ranks:
        parts.append("an ace 1")
    pips = [r for r in range(9) if r in ranks]
    if pips:
        parts.append(f"{_PIPS[pips[0]]} to ten their pips" if len(pips) > 1 and pips[-1] == 8
                     else ", ".join(_PIPS[r] for r in pips) + " their pips")
    faces = [w for r, w in ((9, "Jack"), (10, "Queen"), (11, "King")) if r in ranks]
    if faces:
        words = faces[0] if len(faces) == 1 else ", ".join(faces[:-1]) + " and " + faces[-1]
        parts.append(f"{words} 10 each" if len(faces) > 1 else f"{words} 10")
    return ", ".join(parts)


def payment_text(payment: str, factor: str = "", deck: Any = None) -> str:
    """One sentence on the going-out payment (shared with the games' own policies); the
    card points for the ranks of ``deck``."""
    if payment == "per_card":
        return (f"The first player out collects one chip per card still held from every other "
                f"player{factor}.")
    return ("The first player out collects from every other player the points of the cards "
            f"he still holds ({points_words(deck)}){factor}.")


def penalty_text(penalty: str) -> str:
    if penalty != "double":
        return ""
    return (" Then, in turn from the winner's left, each player still holding the card of a "
            "card space pays into that space as many chips as it holds (doubling it); those "
            "chips stay on the layout. A card space's card in the spare hand is never "
            "penalised.")


def card_points_text(p: CardPointsParams, deck: Any = None) -> str:
    return payment_text(p.payment, deck=deck) + penalty_text(p.board_card_penalty)


def _no_card_spaces(variant: Any, p: CardPointsParams) -> list[str]:
    """Lint: a board-card penalty with no card space on the layout has nothing to double."""
    if p.board_card_penalty == "double" and not any(s.kind == "card" for s in variant.layout):
        return ["board_card_penalty: double, but the layout has no card space to double"]
    return []


def _pays_nothing(variant: object, params: object) -> tuple[str, ...]:
    """The payments are seat to seat; the penalty pays *into* the layout, never out."""
    return ()


@attrs.frozen
class KittyPlusParams:
    payment: Literal["per_card", "card_points"] = param(
        "per_card", "Beside the kitty, each other player pays the first player out one chip "
        "per card left in his hand (per_card), or their points (card_points: ace 1, two to "
        "ten their pips, J Q K 10; Pink Nines, docs/family-rulings.md G36).",
        option="going_out_payment")


def kitty_plus_per_card(deal: Deal, winner: int, params: KittyPlusParams) -> None:
    """The winner takes the kitty, and every other player pays one chip per card left (or,
    ``payment: card_points``, the points of those cards)."""
    if deal.variant.kitty is not None:
        deal.claim(winner, deal.variant.kitty, "went out first")
    pay_for_cards(deal, winner, params.payment)


def kitty_plus_text(p: KittyPlusParams, deck: Any = None, kitty: str = "kitty") -> str:
    if p.payment == "card_points":
        return (f"The first player out wins the {kitty} and collects from every other player "
                f"the points of the cards he still holds ({points_words(deck)}).")
    return (f"The first player out wins the {kitty} and one chip per card still held from "
            "every other player.")


def _needs_kitty(variant: Any, params: Any) -> list[str]:
    if variant.kitty is None:
        return ["this policy pays the kitty, but the layout has no space of kind kitty"]
    return []


def _the_kitty(variant: Any, params: Any) -> tuple[str, ...]:
    return (variant.kitty,) if variant.kitty is not None else ()


def register(reg: Registry) -> None:
    reg.register_policy("going_out_reward", "kitty_plus_per_card", params=KittyPlusParams,
                        check=_needs_kitty, pays=_the_kitty, text=kitty_plus_text,
                        describe=lambda v, q: kitty_plus_text(q, v.deck, v.kitty or "kitty"),
                        phrase="The first player out wins the")(kitty_plus_per_card)
    reg.register_policy("going_out_reward", "card_points", params=CardPointsParams,
                        text=card_points_text, lint=_no_card_spaces, pays=_pays_nothing,
                        describe=lambda v, q: card_points_text(q, v.deck),
                        phrase="The first player out collects")(card_points)


__all__ = ["POINTS", "CardPointsParams", "KittyPlusParams", "Multiplier",
           "board_card_penalties", "card_points", "hand_points", "kitty_plus_per_card",
           "pay_for_cards", "payment_text", "penalty_text"]
