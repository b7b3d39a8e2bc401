"""What continues a sequence (slot ``successor``), in the variant's rank order.

A succession is worked out once per variant into tables the play phase indexes directly, so
the forced run stays one lookup per card whatever the rules:

* ``same_suit`` (the default): the next rank of the same suit continues a card.
* ``rank_only``: any card of the next rank continues it, whatever its suit (Nain Jaune,
  Comet); only a turn order that asks each player in turn can play it.
* ``same_suit_wrap``: the next rank of the same suit, the King followed by the ace and the
  ace by the 2 (Play or Pay, G.0 item 6): there is no top, and a sequence ends when the next
  card is in no hand (the card that started it, once the thirteenth is played).

The rank order is the shared rule ``ace``: ``high`` (2 … K A, the ace the top of each suit)
or ``low`` (A 2 … K, the king the top). The top of the order always stops a sequence, and so
does every card in ``stop_cards``.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import TYPE_CHECKING, Any, Literal, NamedTuple

import attrs

from stops.engine.cards import CARDS, Card
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.rules.registry import Registry

ACE_INDEX = 12
"""Rank index of the ace in card codes (``suit * 13 + rank``, rank 0 = the two)."""


def rank_order(ace: str) -> tuple[int, ...]:
    """Rank indices from low to high: 2..A (ace high) or A, 2..K (ace low)."""
    if ace == "low":
        return (ACE_INDEX, *range(ACE_INDEX))
    return tuple(range(13))


class Succession(NamedTuple):
    """The tables the play phase reads: per card, what continues it."""

    next_card: tuple[int, ...]
    """Per card: the one card that continues it (same suit), or -1 when nothing does."""
    next_rank: tuple[int, ...]
    """Per rank index: the rank index that continues it, or -1 at the top of the order."""
    by_rank: bool
    """Whether any card of the next rank continues (``rank_only``)."""
    stop_reason: tuple[str, ...]
    """Per card: why it always ends a sequence ("" when it does not by itself)."""
    order: tuple[int, ...]
    """Rank indices from low to high."""
    dead_ends: bool = False
    """Whether a card whose next card is in no hand ends the sequence at once whatever the
    turn order (``same_suit_wrap``: in rotation too, where otherwise the turn goes round
    for it; G.11 item 5). A wrapping succession has no top, so this is its only stop."""


@attrs.frozen
class SuccessionParams:
    stop_cards: tuple[Card, ...] = param(
        (), "Cards that always end a sequence, beside the top of each suit (and beside the "
        "cards whose successor is out of play, which stop anyway).", option="stop_cards")
    missing_ranks: Literal["stop", "skip"] = param(
        "stop", "A rank the pack has none of (the 2s of Spinado's pack, the 2 to 6 of a "
        "32-card pack): the card below it has no successor and stops (stop), or the next "
        "rank the pack has follows it (skip: with ace low the 7 follows the ace in a 32-card "
        "pack, docs/family-rulings.md G25).", option="missing_ranks")


def pack_order(ace: str, deck: Iterable[Card]) -> tuple[int, ...]:
    """The rank indices the pack ``deck`` has, from low to high in the order ``ace`` gives
    (ace low, a 32-card pack: A 7 8 9 T J Q K)."""
    have = {int(c) % 13 for c in deck}
    return tuple(r for r in rank_order(ace) if r in have)


def _tables(ace: str, stops: tuple[Card, ...], by_rank: bool,
            order: tuple[int, ...] | None = None) -> Succession:
    if order is None:
        order = rank_order(ace)
    next_rank = [-1] * 13
    for low, high in pairwise(order):
        next_rank[low] = high
    top = order[-1]
    nxt: list[int] = []
    why: list[str] = []
    fixed = {int(c) for c in stops}
    for c in range(52):
        suit, rank = divmod(c, 13)
        r = next_rank[rank]
        if c in fixed:
            nxt.append(-1)
            why.append(f"{CARDS[c]} always ends a sequence")
        elif r < 0:
            nxt.append(-1)
            name = "an ace" if top == ACE_INDEX else "a king"
            why.append(f"{name} is the highest rank" if by_rank else
                       f"{name} is the top of its suit")
        else:
            nxt.append(suit * 13 + r)
            why.append("")
    return Succession(tuple(nxt), tuple(next_rank), by_rank, tuple(why), order)


def _order(variant: Any, params: SuccessionParams) -> tuple[int, ...] | None:
    """The ranks in play order: every rank (``missing_ranks: stop``), or those the pack has
    (``skip``)."""
    if params.missing_ranks == "skip":
        return pack_order(variant.rules.ace, variant.deck)
    return None


def same_suit(variant: Any, params: SuccessionParams) -> Succession:
    """The next rank of the same suit continues a card (in the variant's rank order)."""
    return _tables(variant.rules.ace, params.stop_cards, False, _order(variant, params))


def rank_only(variant: Any, params: SuccessionParams) -> Succession:
    """Any card of the next rank continues, whatever its suit."""
    return _tables(variant.rules.ace, params.stop_cards, True, _order(variant, params))


def same_suit_wrap(variant: Any, params: SuccessionParams) -> Succession:
    """The next rank of the same suit continues a card, round the corner: the King is
    followed by the ace and the ace by the 2 (``ace`` makes no difference: the cycle is the
    same). Nothing is the top: a sequence ends when its next card is in no hand, which is
    the card that started it once the thirteenth card of the suit is played (G.0 item 6)."""
    ring = tuple(range(13))
    nxt: list[int] = []
    why: list[str] = []
    fixed = {int(c) for c in params.stop_cards}
    for c in range(52):
        suit, rank = divmod(c, 13)
        if c in fixed:
            nxt.append(-1)
            why.append(f"{CARDS[c]} always ends a sequence")
        else:
            nxt.append(suit * 13 + (rank + 1) % 13)
            why.append("")
    next_rank = tuple((r + 1) % 13 for r in ring)
    return Succession(tuple(nxt), next_rank, False, tuple(why), ring, dead_ends=True)


def _wrap_check(variant: Any, params: SuccessionParams) -> list[tuple[str, str]]:
    """Load-time check: a pack with missing ranks has nothing to skip to round the corner."""
    if params.missing_ranks == "skip":
        return [("missing_ranks", "same_suit_wrap climbs every rank of the suit round the "
                 "corner; a missing rank already ends the sequence (missing_ranks: stop)")]
    return []


_WRAP = ("A sequence goes up one card at a time in the same suit, round the corner: the "
         "King is followed by the ace and the ace by the 2. The thirteenth card of the suit "
         "(the one just below the card that started it), or a card whose next card has "
         "already been played, ends the sequence: its player starts a new one at once.")


def _stops_text(p: SuccessionParams) -> str:
    if not p.stop_cards:
        return ""
    cards = [c.symbol() for c in p.stop_cards]
    named = cards[0] if len(cards) == 1 else ", ".join(cards[:-1]) + " and " + cards[-1]
    return f" The {named} always end{'s' if len(cards) == 1 else ''} a sequence."


def _needs_rotation(variant: Any, params: SuccessionParams) -> list[str]:
    turns = variant.policies.get("turn_order")  # None: it failed to bind (reported)
    if turns is not None and not turns.spec.in_turn:
        return ["rank_only succession needs turns in rotation (turn_order: rotation): with "
                "several holders of the next rank, nobody would know who plays"]
    return []


def _skip_text(variant: Any, p: SuccessionParams) -> str:
    """Under ``missing_ranks: skip``, which rank follows across a gap of the pack (ace low
    in a 32-card pack: the 7 follows the ace); nothing when no rank is skipped."""
    if p.missing_ranks != "skip":
        return ""
    from stops.rules.prose import and_list, rank_word

    full = rank_order(variant.rules.ace)
    have = pack_order(variant.rules.ace, variant.deck)
    gaps = [f"the {rank_word(b)} follows the {rank_word(a)}"
            for a, b in pairwise(have) if full.index(b) != full.index(a) + 1]
    return f" In this pack {and_list(gaps)}." if gaps else ""


_SAME_SUIT = "A sequence goes up one rank at a time in the same suit."
_RANK_ONLY = "A sequence climbs by rank alone: any card of the next rank continues it."


def register(reg: Registry) -> None:
    p = reg.register_policy
    p("successor", "same_suit", params=SuccessionParams,
      phrase="goes up one rank at a time in the same suit",
      describe=lambda v, q: _SAME_SUIT + _skip_text(v, q) + _stops_text(q),
      text=lambda q: _SAME_SUIT + _stops_text(q))(same_suit)
    p("successor", "rank_only", params=SuccessionParams, check=_needs_rotation,
      phrase="by rank alone",
      describe=lambda v, q: _RANK_ONLY + _skip_text(v, q) + _stops_text(q),
      text=lambda q: _RANK_ONLY + _stops_text(q))(rank_only)
    p("successor", "same_suit_wrap", params=SuccessionParams, check=_wrap_check,
      phrase="round the corner",
      text=lambda q: _WRAP + _stops_text(q))(same_suit_wrap)


__all__ = ["Succession", "SuccessionParams", "pack_order", "rank_only", "rank_order",
           "same_suit", "same_suit_wrap"]
