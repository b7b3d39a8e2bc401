"""Pink Nines' own rule: wild cards that are not stops (docs/family-rulings.md G.6, G34-G37).

Everything else Pink Nines and Red Nines play by is general: the deal by a table of hand sizes
with a dead hand (``deal_shape: table``), turns in rotation by rank only (``per_turn: run``;
``cards_per_turn: same_rank_at_lead`` for several cards of one rank at a lead), the first lead
of the lowest card (``first_lead_card: lowest_in_hand``), the pool and the card points
(``going_out_reward: kitty_plus_per_card`` with ``going_out_payment: card_points``).

``wild_card: wild`` names any number of wild cards (``cards``, the red nines by default). On
his own turn a player may lay one, alone, for any rank he names (``as_rank``, its own rank
included); as a continuation it must name the needed rank, and the sequence goes on from the
rank named (a wild card named as the top rank ends it as the top does). A player holding a
natural card of the needed rank must continue, with it or a wild card; one whose only way on is
a wild card may lay it or pass. The rotation phase offers and checks all of this (it reads
``cards``); this policy says what laying one pays (``bonus`` from each other player, F4) and
whether it ends the sequence (``stop``). At settlement a wild card counts its face value (F5).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Final

import attrs

from stops.engine.cards import CARDS, RANKS, Card, parse_card
from stops.engine.events import Event, event
from stops.engine.vocabulary import EventType, register_events
from stops.phases.rotation import RotationParams, WildCardPolicy
from stops.policies.leads import FirstLeadParams
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry

NAMED: Final = "named"
"""The event of a wild card laid: ``seat`` laid ``card`` standing for the rank in ``note``
(public, so that every player knows the rank needed next)."""

_RANK_WORDS: Final = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "ace"}


def rank_word(rank: str) -> str:
    return _RANK_WORDS.get(rank, rank)


def _named(e: Event, who: Callable[[int | None], str]) -> str:
    card = e.card.symbol() if e.card is not None else "a wild card"
    word = rank_word(e.note)
    return f"{who(e.seat)} lays {card} as {'an' if word in ('8', 'ace') else 'a'} {word}"


NAMED_EVENT: Final = EventType(NAMED, "``seat`` laid the wild card ``card`` as the rank in "
                               "``note`` (2-9, T, J, Q, K, A)", _named)


@attrs.frozen
class WildParams:
    cards: tuple[Card, ...] = param(
        (parse_card("9H"), parse_card("9D")), "The wild cards (Pink Nines: the red nines, "
        "9H and 9D).", option="wild_cards")
    stop: bool = param(
        False, "Whether a wild card ends the sequence when laid, its player leading at once "
        "(true), or the sequence goes on from the rank it was named as (false).",
        option="wild_stop")
    bonus: int = param(
        0, "Chips each other player pays the player of a wild card when it is laid (0: none).",
        option="wild_bonus", validator=attrs.validators.ge(0))


class Wild(WildCardPolicy):
    """Wild cards that stand for the rank their player names and (by default) let the
    sequence go on from it."""

    def card(self, params: WildParams) -> int:
        return int(params.cards[0]) if params.cards else -1

    def cards(self, params: WildParams) -> tuple[int, ...]:
        return tuple(int(c) for c in params.cards)

    def on_lay(self, deal: Deal, seat: int, as_rank: str | None,
               params: WildParams) -> str | None:
        """Each other player pays ``bonus`` at once (F4); with ``stop`` the wild card ends
        the sequence (G34 option)."""
        card = deal.plays[-1][1]  # the wild card just laid
        deal.emit(event(NAMED, seat, card, note=as_rank or RANKS[int(card) % 13]))
        if params.bonus:
            deal.bonus(seat, params.bonus, "a wild card")
        return "a wild card ends the sequence" if params.stop else None

    def named(self, e: Event, params: WildParams) -> int:
        """The rank a ``named`` event says its wild card stood for (-1 for any other event):
        the turns after it prove what they prove of the rank above it (a player passed over
        holds none of that rank, nor a wild card), as after a natural card of that rank."""
        if e.kind != NAMED or len(e.note) != 1 or e.note not in RANKS:
            return -1
        return RANKS.index(e.note)


def _names(cards: tuple[Card, ...]) -> str:
    shown = [CARDS[int(c)].symbol() for c in cards]
    if len(shown) == 1:
        return f"The {shown[0]} is"
    return "The " + ", ".join(shown[:-1]) + f" and {shown[-1]} are"


def _chips(n: int) -> str:
    return f"{n} chip" if n == 1 else f"{n} chips"


def wild_text(p: WildParams, lowest_first: bool = False) -> str:
    one = "it" if len(p.cards) == 1 else "one"
    t = (f"{_names(p.cards)} wild: on his own turn a player may lay {one}, on its own, for any "
         "rank he names, its own included. Laid to continue a sequence it must stand for the "
         "needed rank. A player holding a natural card of the needed rank must go on, with "
         "that card or a wild card as he likes; one whose only way on is a wild card may lay "
         "it or pass, ending his turn.")
    if p.stop:
        t += " A wild card always ends the sequence: its player starts a new one at once."
    else:
        t += (" A wild card is not a stop: the sequence goes on from the rank it stood for "
              "(named as the top rank, it ends the sequence as that card would).")
    if lowest_first:
        t += " Led as a player's lowest card, a wild card stands for its own rank."
    if p.bonus:
        t += f" When one is laid, each other player pays its player {_chips(p.bonus)}."
    t += " Left in a hand at the end, a wild card counts as the card it is."
    return t


def _describe(variant: Any, p: WildParams) -> str:
    """The text, with the lowest-card lead's naming only where the first lead is the lowest
    card of the hand."""
    first = variant.policy("first_leader").params
    low = isinstance(first, FirstLeadParams) and first.first_lead_card == "lowest_in_hand"
    return wild_text(p, low)


def _checks(variant: Any, p: WildParams) -> list[Any]:
    out: list[Any] = []
    pack = set(variant.deck)
    if not p.cards:
        out.append(("cards", "name at least one wild card"))
    if len(set(p.cards)) != len(p.cards):
        out.append(("cards", "a wild card is named twice"))
    for c in p.cards:
        if c not in pack:
            out.append(("cards", f"the wild card {c} is not in the pack"))
    turns = variant.policies.get("turn_order")  # None: it failed to bind (reported)
    if turns is not None and not turns.spec.in_turn:
        out.append("a wild card is laid in turn: it needs turn_order: rotation")
    elif turns is not None and isinstance(turns.params, RotationParams) and \
            turns.params.cards_per_turn == "same_rank":
        out.append("a wild card is laid alone: it needs turn_order.cards_per_turn one or "
                   "same_rank_at_lead")
    return out


def register(reg: Registry) -> None:
    register_events(NAMED_EVENT, owner="wild_card")
    reg.register_policy("wild_card", "wild", params=WildParams,
                        text=lambda p: wild_text(p), describe=_describe, check=_checks,
                        phrase="wild")(Wild())


__all__ = ["NAMED", "NAMED_EVENT", "Wild", "WildParams", "rank_word", "wild_text"]
