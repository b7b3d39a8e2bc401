"""Layout spaces won by the card below their own (kind ``card_below``; Peel's Newmarket,
docs/family-rulings.md G.5).

A ``card_below`` space shows one card (``card: AS``) but is won by whoever plays the card one
rank below it in its suit, in the variant's rank order: the *claim card* (Q♣ for a K♣, 10♦
for a J♦). An ace has nothing below it when the ace is low, so ``below_ace: king`` gives it
the King of its suit (the ace counts high for the claim only; with ace high the King is the
card below anyway). The claim card is always a stop: its player takes the chips at once and
then leads, whoever holds the next card. Playing the space's own card wins nothing.

The claims are paid by ``pay_collection: on_play`` (which calls :func:`watch`); the
parameter ``below_ace`` is one of its parameters. Everything else about the kind lives here,
beside the layout model that names it: the claim card, the handler, the load-time check and
the words ``stops rules`` prints (the layout's own line included).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from stops.engine.cards import CARDS
from stops.rules.contracts import Handler, Triggers

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.model import Space

KIND = "card_below"
ACE_INDEX = 12
KING_INDEX = 11
"""Rank indices of the ace and the King in card codes (``suit * 13 + rank``, 0 = the two)."""


def _below(rank: int, ace: str) -> int:
    """The rank just below ``rank`` in the order ``ace`` gives (A 2 … K or 2 … K A, as the
    ``successor`` policies order them), or -1 at the bottom."""
    if ace == "low":
        return -1 if rank == ACE_INDEX else (ACE_INDEX if rank == 0 else rank - 1)
    return rank - 1

BELOW_ACE_DOC = ("For a card_below space showing an ace: the card that wins it is the King of "
                 "its suit (king; the ace counts high for this purpose only, whatever `ace` "
                 "says).")


def claim_card(space: Space, ace: str, below_ace: str = "king") -> int:
    """The card that wins ``space`` (a ``card_below`` space), or -1 when no card ranks below
    its card in the order ``ace`` gives (a two, ace high)."""
    if space.card is None:
        return -1
    suit, rank = divmod(int(space.card), 13)
    if rank == ACE_INDEX and below_ace == "king":
        return suit * 13 + KING_INDEX
    below = _below(rank, ace)
    return suit * 13 + below if below >= 0 else -1


def spaces(variant: Any) -> list[Space]:
    """The ``card_below`` spaces of ``variant``'s layout, in layout order."""
    return [s for s in variant.layout if s.kind == KIND]


def watch(variant: Any, below_ace: str, triggers: Triggers) -> None:
    """Register, once per variant, a handler on each claim card in the pack: it takes the
    space's chips for the card's player and makes the card a stop."""
    in_pack = {int(c) for c in variant.deck}
    for space in spaces(variant):
        card = claim_card(space, variant.rules.ace, below_ace)
        if card in in_pack:
            triggers.setdefault(card, []).append(_handler(space.id, card))


def _handler(space: str, card: int) -> Handler:
    note = f"played {CARDS[card]}, the card below {space}"
    stop = f"{CARDS[card].symbol()} wins {space}: a claim card is a stop"

    def on_claim_card(deal: Deal, seat: int, played: int) -> str:
        deal.claim(seat, space, note)  # nothing to take (claimed, or no chips): still a stop
        return stop

    return on_claim_card


def check(variant: Any, below_ace: str) -> list[str]:
    """Load-time problems: a ``card_below`` space whose claim card is not in the pack, or
    has no card below it, could never be won."""
    out = []
    for space in spaces(variant):
        card = claim_card(space, variant.rules.ace, below_ace)
        if card < 0:
            out.append(f"layout space {space.id} (card_below) shows {space.card}, and no "
                       f"card ranks below it with the ace {variant.rules.ace}: it could never "
                       "be won")
        elif card not in {int(c) for c in variant.deck}:
            out.append(f"layout space {space.id} (card_below) is won by {CARDS[card]}, which "
                       "is removed from the pack: it could never be won")
    return out


def text(variant: Any, below_ace: str, alone: bool = True) -> str:
    """What the ``card_below`` spaces of ``variant`` pay, naming each claim card; empty when
    the layout has none. ``alone``: the layout has no other kind of claimable space, so the
    sentence opens the claims ("Spaces pay as their cards are played, ...")."""
    found = spaces(variant)
    if not found:
        return ""
    pairs = [f"the {CARDS[claim_card(s, variant.rules.ace, below_ace)].symbol()} wins {s.id}"
             for s in found]
    aces = any(s.card is not None and int(s.card) % 13 == ACE_INDEX for s in found)
    ace = " (an ace to the King of its suit)" if aces and variant.rules.ace == "low" else ""
    named = ", ".join(pairs[:-1]) + " and " + pairs[-1] if len(pairs) > 1 else pairs[0]
    ids = [s.id for s in found]
    head = (f"Spaces pay as their cards are played, each layout card to the card just below "
            f"it in its suit{ace}" if alone else
            f"The space{'s' if len(ids) > 1 else ''} "
            + (", ".join(ids[:-1]) + " and " + ids[-1] if len(ids) > 1 else ids[0])
            + f" pay{'' if len(ids) > 1 else 's'} instead the card just below "
            f"{'them' if len(ids) > 1 else 'it'} in its suit{ace}")
    return (f"{head}: {named}. Whoever plays such a card takes every chip on its space at "
            "once; the card is a stop, whoever holds the next card, and he leads next. "
            "Playing a layout card itself wins nothing.")


def general_text(below_ace: str) -> str:
    """The rule without a layout (the reference's words)."""
    return ("A card_below space is won by whoever plays the card just below its card in its "
            "suit (an ace by the King of its suit); that card is always a stop: its player "
            "takes the chips at once, then leads. Playing the space's own card wins nothing.")


def pays(variant: Any) -> tuple[str, ...]:
    """The ``card_below`` spaces: the policy that calls :func:`watch` can pay them."""
    return tuple(s.id for s in spaces(variant))
