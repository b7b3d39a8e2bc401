"""Bonuses for holding a card (docs/family-rulings.md G.0 item 9): a house rule of several
tables (Queen Nazarene's Q♦ and J♣) where the holder of a named card is paid by everyone
else once the hands are final.

The phase ``held_bonus`` comes after the spare hand is settled (``spare_hand``), so a card
swapped into or out of a hand pays its final holder. In the order of ``held_bonuses``, the
holder of each listed card receives its ``chips`` from every other player, paid in seat
order from the holder's left (F4: compulsory, so ``chip_shortfall`` applies); a card in the
spare hand pays nothing. One ``bonus`` event per payer, its ``note`` naming the reason
(``held``) and the card. No decision is asked.

The holders are public (a player shows the card to be paid): the phase publishes
:class:`HeldBonuses`, and :meth:`HeldBonusPhase.infer` tells a copy of the deal
(``clone_for``) where each listed card was.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import attrs

from stops.engine.cards import CARDS, Card
from stops.phases.base import Phase
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.determinize import Knowledge
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

REASON = "held"
"""The reason a held bonus gives, first word of its events' ``note`` (G.9: ``reason: held``)."""


@attrs.frozen
class HeldBonus:
    """One listed card and the chips its holder receives from every other player."""

    card: Card = attrs.field(metadata={"doc": "The card whose holder is paid (e.g. QD)."})
    chips: int = attrs.field(metadata={"doc": "Chips every other player pays the holder."})


@attrs.frozen
class HeldBonusSettings:
    held_bonuses: tuple[HeldBonus, ...] = param(
        (), "Cards whose holder, once the hands are final (after the spare hand), receives "
        "`chips` from every other player, in list order, paid in seat order from the "
        "holder's left: a list of {card, chips}, e.g. [{card: QD, chips: 3}, {card: JC, "
        "chips: 2}]. A card in the spare hand pays nothing. docs/family-rulings.md G.0 item 9.",
        option="held_bonuses")


class HeldBonuses(NamedTuple):
    """Where each listed card lay when the bonuses were paid (published by the phase):
    ``(card, holder)`` pairs in list order, the holder ``-1`` for a card in no hand. Public:
    each holder shows his card to be paid."""

    holders: tuple[tuple[int, int], ...]


class HeldBonusPhase(Phase):
    """Pays the holder of each card listed in ``held_bonuses`` its chips from every other
    player, after the spare hand is settled."""

    name = "held_bonus"
    title = "Bonuses for cards held"

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        settings: HeldBonusSettings = variant.settings("held_bonus")
        self.bonuses: tuple[tuple[int, int], ...] = tuple(
            (int(b.card), b.chips) for b in settings.held_bonuses)

    def enter(self, deal: Deal) -> bool:
        owner = deal.owner
        holders: list[tuple[int, int]] = []
        for card, chips in self.bonuses:
            holder = owner[card]
            if holder < 0:  # in the spare hand: it pays nothing
                holders.append((card, -1))
                continue
            holders.append((card, holder))
            deal.bonus(holder, chips, f"{REASON} {CARDS[card]}")
        deal.publish(HeldBonuses(tuple(holders)))
        return False

    def describe(self) -> str:
        from stops.policies.stakes import chips as chips_text
        from stops.rules.prose import and_list, spare_named

        if not self.bonuses:
            return ""
        each = [f"whoever holds the {CARDS[c].symbol()} receives {chips_text(n)}"
                for c, n in self.bonuses]
        v = self.variant
        exchanged = "spare_hand" in v.flow and v.policy("spare_protocol").name != "none"
        when = (spare_named(v, "Once any exchange with the spare hand is over")
                if exchanged else "After the deal")
        text = (f"{when}, before the first lead, " + and_list(each) + " from every other "
                "player, in that order; each player pays in turn from the holder's left.")
        if self.variant.rules.spare_hand:
            text += spare_named(self.variant, " A card in the spare hand pays nothing.")
        return text

    # -- what the bonuses prove to one seat (deal.clone_for) ----------------------------------
    def infer(self, deal: Deal, seat: int, known: Knowledge) -> None:
        """Each listed card's holder showed it to be paid; a card nobody was paid for lay in
        the spare hand."""
        from stops.engine.determinize import SPARE

        got = deal.result(HeldBonuses)
        if got is None:
            return
        for card, holder in got.holders:
            known.hold(SPARE if holder < 0 else holder, (card,))


def _checks(variant: Variant) -> list[str]:
    """The listed cards must be in the pack, each listed once, each paying at least a chip;
    the phase must come after the deal and after the spare hand is settled."""
    out: list[str] = []
    settings: HeldBonusSettings = variant.settings("held_bonus")
    in_pack = {int(c) for c in variant.deck}
    seen: set[int] = set()
    for i, b in enumerate(settings.held_bonuses):
        where = f"held_bonuses[{i}]"
        c = int(b.card)
        if c not in in_pack:
            out.append(f"{where}: the {CARDS[c]} is not in this variant's pack")
        if c in seen:
            out.append(f"{where}: the {CARDS[c]} is listed twice")
        seen.add(c)
        if b.chips < 1:
            out.append(f"{where}: chips must be at least 1 (got {b.chips})")
    flow = list(variant.flow)
    if "held_bonus" in flow and "spare_hand" in flow and \
            flow.index("held_bonus") < flow.index("spare_hand"):
        out.append("held_bonus must come after spare_hand (the hands must be final)")
    if "held_bonus" in flow and "deal" in flow and \
            flow.index("held_bonus") < flow.index("deal"):
        out.append("held_bonus must come after deal")
    return out


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """The bonuses go from player to player: no layout space is paid."""
    return ()


def register(reg: Registry) -> None:
    reg.register_phase("held_bonus", requires=("deal",), settings=HeldBonusSettings,
                       check=_checks, pays=_pays_nothing)(HeldBonusPhase)


__all__ = ["HeldBonus", "HeldBonusPhase", "HeldBonusSettings", "HeldBonuses"]
