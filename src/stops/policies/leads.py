"""Who leads first (slot ``first_leader``) and what may be led (slot ``after_stop``).

``first_leader`` policies are ``(deal, params) -> FirstLead | None``; ``None`` means the deal
cannot start and is redealt. ``after_stop`` policies are
``(deal, seat, broken_suit, params) -> list[int]``: the cards ``seat`` may lead when the last
sequence broke in ``broken_suit`` (``None`` for an unrestricted lead). An empty list means the
seat cannot lead and the lead passes left.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final, NamedTuple

from stops.engine.cards import CARDS, HEARTS, SUIT_NAMES, SUITS, Card, opposite_colour_suits
from stops.engine.errors import IllegalAction

if TYPE_CHECKING:
    from stops.engine.deal import Deal


class FirstLead(NamedTuple):
    """Who leads first, and (optionally) the only cards that may open."""

    seat: int
    cards: tuple[int, ...] | None = None
    """The only cards that may open, or ``None`` for the ``after_stop`` rule with no stop."""


def dealers_left(deal: Deal, params: None) -> FirstLead:
    """The player to the dealer's left leads first, any suit."""
    return FirstLead(deal.order(deal.dealer)[0])


def poker_winner(deal: Deal, params: None) -> FirstLead:
    """The winner of the poker pot leads first; tied winners: the first clockwise from the
    dealer's left (the dealer last)."""
    winners = deal.poker_winners
    if not winners:
        return FirstLead(deal.order(deal.dealer)[0])
    order = deal.order(deal.dealer)
    return FirstLead(min(winners, key=order.index))


def opening_card(deal: Deal, params: None) -> FirstLead | None:
    """Whoever holds the first of ``opening_cards`` still in a player's hand leads it. If all
    are in the spare hand: the next rank up in the same suit order, or a redeal."""
    r = deal.rules
    order = [int(c) for c in r.opening_cards]
    if not order:
        return FirstLead(deal.order(deal.dealer)[0])
    candidates = list(order)
    if r.opening_fallback == "next_rank":
        for step in range(1, 13):
            candidates += [c + step for c in order if (c % 13) + step <= 12]
    for c in candidates:
        owner = deal.owner[c]
        if owner >= 0:
            return FirstLead(owner, (c,))
    return None


def opening_text(params: None) -> str:
    return ("The holder of the first opening card leads it; if it is in the spare hand, the "
            "next one in the list does.")


# -- after a stop --------------------------------------------------------------------------


def _lowest_each(deal: Deal, seat: int, suits: tuple[int, ...]) -> list[int]:
    masks = deal.masks[seat]
    out: list[int] = []
    for s in suits:
        m = masks[s]
        if m:
            out.append(s * 13 + (m & -m).bit_length() - 1)
    return out


ALL_SUITS: Final = (0, 1, 2, 3)


def any_suit(deal: Deal, seat: int, broken: int | None, params: None) -> list[int]:
    """The lowest card the player holds in any suit they choose, the stopped suit included."""
    return _lowest_each(deal, seat, ALL_SUITS)


def must_change_suit(deal: Deal, seat: int, broken: int | None, params: None) -> list[int]:
    """The lowest card of a suit other than the one just stopped; with only that suit left,
    ``change_suit_fallback`` decides: lead it anyway, or pass the lead to the left."""
    if broken is None:
        return _lowest_each(deal, seat, ALL_SUITS)
    opts = _lowest_each(deal, seat, tuple(s for s in ALL_SUITS if s != broken))
    if opts or deal.rules.change_suit_fallback != "same_suit":
        return opts
    return _lowest_each(deal, seat, (broken,))


_OPPOSITE: Final = tuple(opposite_colour_suits(s) for s in range(4))
_HCDS: Final = {HEARTS: 0, 0: 1, 1: 2, 3: 3}


def opposite_colour(deal: Deal, seat: int, broken: int | None, params: None) -> list[int]:
    """Colour alternation: the lowest card of the colour opposite to the suit that broke
    (``switch_card`` says lowest across the colour or in a chosen suit of it)."""
    if broken is None:
        return _lowest_each(deal, seat, ALL_SUITS)
    suits = _OPPOSITE[broken]
    opts = _lowest_each(deal, seat, suits)
    if len(opts) < 2 or deal.rules.switch_card == "lowest_in_chosen_suit":
        return opts
    a, b = opts
    if a % 13 != b % 13:
        return [a if a % 13 < b % 13 else b]
    if deal.rules.colour_tie == "player_choice":
        return opts
    return [min(opts, key=lambda c: _HCDS[c // 13])]


def _not_lowest(deal: Deal, seat: int, card: int) -> IllegalAction | None:
    low = deal.lowest_in_suit(seat, card // 13)
    if low is None or low == card:
        return None
    return IllegalAction("not_lowest_in_suit",
                         f"{CARDS[card]} is not your lowest {SUIT_NAMES[card // 13][:-1]}: "
                         f"lead {CARDS[low]} to play that suit",
                         rule="a lead must be the lowest card you hold in its suit")


def _explain_any_suit(deal: Deal, seat: int, card: int, broken: int | None,
                      allowed: list[int]) -> IllegalAction | None:
    return _not_lowest(deal, seat, card)


def _explain_change_suit(deal: Deal, seat: int, card: int, broken: int | None,
                         allowed: list[int]) -> IllegalAction | None:
    found = _not_lowest(deal, seat, card)
    if found is not None:
        return found
    if broken is not None and card // 13 == broken:
        names = ", ".join(str(CARDS[c]) for c in allowed)
        return IllegalAction("suit_just_stopped",
                             f"{SUIT_NAMES[broken]} were just stopped; lead another suit "
                             f"({names})", rule="after a stop the suit must change")
    return None


def _explain_colour(deal: Deal, seat: int, card: int, broken: int | None,
                    allowed: list[int]) -> IllegalAction | None:
    names = ", ".join(str(CARDS[c]) for c in allowed)
    return IllegalAction("wrong_switch_card", f"the switch must be {names}",
                         rule="after a break, lead the lowest card of the other colour")


EXPLAIN = {"any_suit": _explain_any_suit, "must_change_suit": _explain_change_suit,
           "opposite_colour": _explain_colour}
"""Why each built-in ``after_stop`` rule refuses a lead (registered with ``explain=``)."""


__all__ = ["SUITS", "Card", "FirstLead"]
