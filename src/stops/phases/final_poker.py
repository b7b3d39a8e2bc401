"""A final share-out by one poker hand (slot ``final_share``, policy ``poker_hand``).

The boxed Tripoley ends a session with chips still on the board by "a single hand of poker"
(docs/family-rulings.md G7): the seat that would deal next (the *final dealer*) deals
five cards from a fresh 52-card pack to every seat named by ``final_poker_seats``, and the best
hand takes every chip on the layout. No stakes, no betting, no decisions; the poker phase's
ranking (:mod:`stops.phases.handrank`). It lives among the phases because it ranks poker
hands; the table runs it after the last deal and deals the cards
(:meth:`stops.engine.table.Table.deal_final_hands`: shuffled with the table's seed, or a
record's ``final_hands`` when replaying).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from stops.engine.eventkind import EventKind
from stops.engine.events import event
from stops.engine.recording import FINAL_HAND_SIZE
from stops.phases.handrank import describe, hand_key
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.table import Table
    from stops.rules.registry import Registry


@attrs.frozen
class FinalPokerParams:
    final_poker_seats: Literal["all_seats", "in_session"] = param(
        "all_seats", "Who is dealt a hand in the final share-out: every seat of the table, "
        "players already out of the session included (all_seats), or only the players still "
        "in it (in_session; if that is a single player, he takes everything and no cards are "
        "dealt).", option="final_poker_seats")


def poker_hand(table: Table, params: FinalPokerParams) -> list[tuple[Any, ...]]:
    """The final dealer (the seat that would deal next) deals five cards to each seat
    ``final_poker_seats`` names, one at a time clockwise from his left, from a fresh full
    pack; the best poker hand takes every chip on the layout. Equal best hands share
    equally, the odd chips one at a time to the winners clockwise from the final dealer's
    left. Nothing is dealt when no chips are left."""
    n = table.n
    spaces = [s for s, chips in table.layout.items() if chips]
    if not spaces:
        return []
    dealer = table.dealer
    clockwise = [(dealer + k) % n for k in range(1, n + 1)]
    seats = (clockwise if params.final_poker_seats == "all_seats" else
             [s for s in clockwise if s not in table.eliminated])
    if len(seats) == 1:  # the only player in the session takes everything, unseen
        table.deal_final_hands(dealer, [], FINAL_HAND_SIZE)
        winners = seats
        keys: dict[int, tuple[int, ...]] = {}
        hands: list[Any] = [None] * n
    else:
        hands = table.deal_final_hands(dealer, seats, FINAL_HAND_SIZE)
        keys = {s: hand_key(h) for s in seats if (h := hands[s]) is not None}
        best = max(keys.values())
        winners = [s for s in clockwise if keys.get(s) == best]
    total = sum(table.layout[s] for s in spaces)
    share, odd = divmod(total, len(winners))
    won = {s: share + (1 if k < odd else 0) for k, s in enumerate(winners)}
    for s in clockwise:
        h = hands[s]
        if h is None and s not in won:
            continue
        what = describe(h) if h is not None else "the only player left; no cards are dealt"
        if s in won and len(winners) > 1:
            what += f"; one of {len(winners)} equal best hands"
        elif s in won and h is not None:
            what += "; the best hand"
        table.events.append(event(EventKind.FINAL_SHARE, s, chips=won.get(s, 0),
                                  cards=tuple(h) if h is not None else (), note=what))
    weights = [1 if s in won else 0 for s in range(n)]
    return [(spaces, weights, winners)]


def _text(p: FinalPokerParams) -> str:
    who = ("every seat at the table, players already out included"
           if p.final_poker_seats == "all_seats"
           else "every player still in the session (if only one is left, he takes everything "
           "and no cards are dealt)")
    return ("Chips still on the layout then go to a single hand of poker: the player who "
            "would deal next deals five cards from a fresh pack, one at a time clockwise from "
            f"his left, to {who}; nobody stakes or bets, and the best hand takes every chip "
            "on the layout. Equal best hands share them equally, odd chips going one at a "
            "time to those players clockwise from that dealer's left.")


def _fits_the_pack(variant: Any, p: FinalPokerParams) -> list[tuple[str, str]]:
    most = variant.players[1]
    if most * FINAL_HAND_SIZE > 52:
        return [("final_poker_seats", f"a fresh 52-card pack deals {FINAL_HAND_SIZE} cards to "
                 f"at most {52 // FINAL_HAND_SIZE} players, but this variant allows {most}")]
    return []


def register(reg: Registry) -> None:
    """The share-out by one poker hand."""
    reg.register_policy("final_share", "poker_hand", params=FinalPokerParams, text=_text,
                        phrase="a single hand of poker", check=_fits_the_pack,
                        heading=_heading)(poker_hand)


def _heading(dealer: str) -> str:
    """How ``stops play`` opens the share-out."""
    return f"The chips left on the layout go to a single hand of poker, dealt by {dealer}:"
