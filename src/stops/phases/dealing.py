"""The deal: every card of the pack, one at a time, into a hand per seat and the spare hand."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stops._mypyc import mypyc_attr
from stops.engine.cards import CARDS, Card
from stops.engine.deal import SPARE
from stops.engine.eventkind import EventKind
from stops.engine.events import event
from stops.phases.base import Phase

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant


_ONLY: Final = tuple(frozenset({s}) for s in range(64))
_SUIT: Final = tuple(c // 13 for c in range(52))
_BIT: Final = tuple(1 << (c % 13) for c in range(52))


def deal_order(players: int, dealer: int, spare_hand: bool, spare_first: bool,
               active: tuple[int, ...] | None = None) -> list[int]:
    """The recipients of one round of the deal: seats from the dealer's left, and SPARE."""
    seats = [(dealer + k) % players for k in range(1, players + 1)]
    if active is not None and len(active) != players:
        seats = [s for s in seats if s in active]
    if not spare_hand:
        return seats
    return [SPARE, *seats] if spare_first else [*seats, SPARE]


@mypyc_attr(allow_interpreted_subclasses=True)
class DealPhase(Phase):
    """Deals the whole pack clockwise from the dealer's left, the spare hand taking its turn
    as ``deal_spare_position`` says. Stacked hands given to ``new_deal`` are used as they are."""

    name = "deal"
    title = "The deal"

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self._orders: dict[tuple[int, int, tuple[int, ...]], list[int]] = {}

    def enter(self, deal: Deal) -> bool:
        r = deal.rules
        hands = deal._given_hands
        spare = deal._given_spare
        if hands is None:
            pack: list[Card] = list(self.variant.deck)
            if deal._shuffle is not None:
                deal._shuffle(pack)
            key = (deal.n, deal.dealer, deal.active)
            order = self._orders.get(key)
            if order is None:
                order = self._orders[key] = deal_order(
                    deal.n, deal.dealer, r.spare_hand, r.deal_spare_position == "first",
                    deal.active)
            k = len(order)
            built = {who: pack[i::k] for i, who in enumerate(order)}
            hands = [built.get(s, []) for s in range(deal.n)]
            spare = built.get(SPARE, [])
        deal.dealt_hands = tuple(tuple(sorted(h)) for h in hands)
        deal.dealt_spare = tuple(sorted(spare or ()))
        owner = deal.owner
        emit = deal.emit
        for seat, h in enumerate(deal.dealt_hands):
            if not h and seat not in deal.active:
                continue
            masks = deal.masks[seat]
            for c in h:
                owner[c] = seat
                masks[_SUIT[c]] |= _BIT[c]
            deal.counts[seat] = len(h)
            emit(event(EventKind.DEALT, seat, None, len(h), None, None, h, "", _ONLY[seat]))
        for c in deal.dealt_spare:
            deal.owner[c] = SPARE
        deal.spare = set(deal.dealt_spare)
        deal._given_hands = deal._given_spare = None  # the deal's own copies are kept
        if r.spare_hand:
            deal.emit(event(EventKind.SPARE_DEALT, chips=len(deal.dealt_spare)))
        return False

    def describe(self) -> str:
        r = self.rules
        where = ("first in each round" if r.deal_spare_position == "first"
                 else "after the dealer in each round")
        spare = (f" plus a spare hand that belongs to nobody, dealt {where}" if r.spare_hand
                 else "")
        t = ("The dealer deals the whole pack face down, one card at a time, clockwise "
             f"from the dealer's left, into a hand for each player{spare}. Some hands may "
             "have one card more than others.")
        t += (" The deal passes to the left after each deal." if r.dealer_rotation ==
              "clockwise" else " The same player deals every time.")
        if r.first_dealer == "random":
            t += " The first dealer is chosen by lot."
        return t


__all__ = ["CARDS", "DealPhase", "deal_order"]


def register(reg: Registry) -> None:
    reg.register_phase("deal", pays=_pays_nothing)(DealPhase)


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """This phase pays no layout space itself (its policies may)."""
    return ()
