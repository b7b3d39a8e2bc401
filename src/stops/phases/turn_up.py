"""The turn-up: a card of the spare hand turned face up, whose suit is trumps for the deal.

Two games turn one up (Pope Joan, Poch), so the phase is shared here and each game's own
trump-relative spaces live in its module (``games/pope_joan.py``'s ``trumps``,
``games/poch.py``'s ``trumps_held``). Which card is turned follows the deal's shape: under
``equal_plus_dead`` (or ``n_plus_one``) the last card dealt, which belongs to the dead hand;
under ``deal_shape: table`` the first card of the stock (the deal phase keeps it as the
deal's turn-up; a record names it as ``turn_up``).

The phase publishes :class:`Trumps`. A claim policy whose spaces stand for trumps subclasses
:class:`TrumpClaimPolicy` and says which of its spaces a turned-up card would win
(:meth:`TrumpClaimPolicy.turned_up`); the phase pays them to the dealer as
``turn_up_honours`` says (docs/family-rulings.md F16, F21, G24), and the
Pope (a fixed card space) as ``pope_turn_up`` says.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar, Literal

import attrs

from stops.engine.cards import CARDS, SUIT_NAMES
from stops.engine.eventkind import EventKind
from stops.engine.events import event
from stops.phases.base import Phase
from stops.policies.claims import ClaimPolicy
from stops.policies.endings import SpaceParams
from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

RANK_WORDS = {"A": "ace", "K": "King", "Q": "Queen", "J": "Jack", "T": "ten"}


def rank_word(rank: str) -> str:
    """A rank as the rules texts name it (``K`` -> ``King``)."""
    return RANK_WORDS.get(rank, rank)


@attrs.frozen
class Trumps:
    """This deal's turn-up and the trump suit it names (published by the turn-up phase)."""

    card: int
    suit: int


def trump_suit(deal: Deal) -> int:
    """The trump suit of this deal (-1 before the turn-up, or without one)."""
    t = deal.result(Trumps)
    return -1 if t is None else t.suit


class TrumpClaimPolicy(ClaimPolicy):
    """Base of the claim policies (slot ``pay_collection``) whose spaces stand for trumps:
    besides its claims, such a policy says which of its spaces a turned-up card would win,
    so that the turn-up phase can pay them to the dealer. The turn-up phase asks only
    policies of this class (a plain claim policy has no trumps)."""

    space_word: ClassVar[str] = "space"
    """What the players call a space of the layout, in the rules text (Pope Joan's board has
    compartments)."""

    def turned_up(self, variant: Variant, params: Any, card: int, honours: bool) -> list[str]:
        """The spaces ``card`` would win, as the turn-up (always of trumps): the fixed card
        spaces it is the card of and, when ``honours``, the trump honours of its rank."""
        return []

    def honour_ranks(self, params: Any) -> list[str]:
        """The ranks of the trumps that have a space of their own (``A``, ``K`` ...), in
        the layout's order: what a turned-up card may be, for the rules text."""
        return []


@attrs.frozen
class TurnUpSettings:
    pope_turn_up: Literal["compartment_only", "game_and_per_card", "redeal"] = param(
        "compartment_only", "A turned-up card that wins a card space (the Pope): the dealer "
        "takes that compartment and play goes on (compartment_only); he also takes the Game "
        "and 1 chip per card dealt from every other player, and the deal ends without play "
        "(game_and_per_card); or he takes nothing and deals again, without new stakes "
        "(redeal, this library's own option: no source plays it). docs/family-rulings.md F16.",
        option="pope_turn_up")
    turn_up_honours: Literal["dealer", "nobody"] = param(
        "dealer", "A turned-up trump honour (the card a trump space stands for, such as the "
        "ace of trumps): its space is paid to the dealer at once (dealer, Pope Joan's F16), "
        "or to nobody, staying on the layout (nobody, Poch's G24). Spaces for two cards "
        "(matrimony, marriage) are never paid by a turn-up.", option="turn_up_honours")


class TurnUpPhase(Phase):
    """Turns up a card of the spare hand: its suit is trumps. A turned-up card that would
    win a space pays it to the dealer at once (a trump honour as ``turn_up_honours`` says,
    the Pope as ``pope_turn_up`` says)."""

    name = "turn_up"
    title = "The turn-up"

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.settings: TurnUpSettings = variant.settings("turn_up")
        pay = variant.policy("pay_collection")
        self.claims: TrumpClaimPolicy | None = (pay.impl if isinstance(pay.impl,
                                                                       TrumpClaimPolicy)
                                                else None)
        self.claim_params: Any = pay.params
        self.honours = self.settings.turn_up_honours == "dealer"
        reward = variant.policy("going_out_reward").params
        self.game: str = reward.space if isinstance(reward, SpaceParams) else ""
        """The space a going-out reward that takes one calls the Game (its ``space``;
        none for a reward of another kind)."""

    def enter(self, deal: Deal) -> bool:
        card = deal.last_dealt
        if card < 0:
            return False
        suit = card // 13
        deal.publish(Trumps(card, suit))
        deal.emit(event(EventKind.TURNED_UP, None, CARDS[card],
                        note=f"{SUIT_NAMES[suit]} are trumps"))
        if self.claims is None:
            return False
        wins = self.claims.turned_up(deal.variant, self.claim_params, card, self.honours)
        fixed = {s.id for s in deal.variant.layout if s.kind == "card"}
        how = self.settings.pope_turn_up
        dealer = deal.dealer
        if how != "compartment_only" and any(s in fixed for s in wins):
            if how == "redeal":
                deal.outcome = "abandoned"
                deal.next_deal = "same_dealer"
                return False
            for sid in wins:
                deal.claim(dealer, sid, f"turned up {CARDS[card]}")
            if self.game:
                deal.claim(dealer, self.game, f"turned up {CARDS[card]}")
            for s in deal.order(dealer, include_self=False):
                deal.pay(s, dealer, deal.counts[s], f"1 per card dealt: {CARDS[card]} turned up")
            deal.outcome = "turned_up"
            deal.winner = dealer
            return False
        for sid in wins:
            deal.claim(dealer, sid, f"turned up {CARDS[card]}")
        return False

    def describe(self) -> str:
        from stops.rules.prose import spare_named

        if _first_of_stock(self.variant):
            t = spare_named(self.variant, "The top card of the spare hand is turned face up; "
                            "its suit is trumps for this deal, and it stays out of play.")
        else:
            t = spare_named(self.variant, "The last card dealt, which belongs to the spare "
                            "hand, is turned face up; its suit is trumps for this deal, and "
                            "it stays out of play.")
        if self.claims is None:
            return t
        honours = [rank_word(str(r)) for r in self.claims.honour_ranks(self.claim_params)]
        if honours:
            which = ", ".join(honours[:-1]) + (" or " if len(honours) > 1 else "") + honours[-1]
            if self.honours:
                t += (f" A turned-up {which} (of trumps, necessarily) pays its "
                      f"{self.claims.space_word} to the dealer at once, before the first "
                      "lead.")
            else:
                t += (f" A turned-up {which} pays nobody: its {self.claims.space_word} stays "
                      "on the layout for the next deal.")
        how = self.settings.pope_turn_up
        fixed = [sp for sp in self.variant.layout if sp.kind == "card" and sp.card is not None]
        if not fixed:
            return t
        pope = " or ".join(f"the {CARDS[int(sp.card)].symbol()}"
                           + (f" ({sp.label})" if sp.label else "")
                           for sp in fixed if sp.card is not None)
        space = "that compartment" if len(fixed) > 1 else f"the {fixed[0].id} compartment"
        if how == "compartment_only":
            t += f" If the turn-up is {pope}, the dealer takes {space} and play goes on."
        elif how == "game_and_per_card":
            from stops.policies.endings import space_name

            game = f" and {space_name(self.variant, self.game)}" if self.game else ""
            t += (f" If the turn-up is {pope}, the dealer takes {space}{game}, every other "
                  "player pays him one chip per card dealt to him, and the deal ends without "
                  "play.")
        else:
            t += (f" If the turn-up is {pope}, the dealer takes nothing and deals again, with "
                  "no new stakes (an option of this program's own, from no rule book).")
        return t


def _first_of_stock(variant: Any) -> bool:
    """Whether the turn-up is the first card of the stock (``deal_shape: table``) rather
    than the last card dealt."""
    deal = variant.settings("deal")
    return deal is not None and deal.shape == "table"


def _turn_up_checks(variant: Any) -> list[str]:
    if not variant.rules.spare_hand:
        return ["turn_up turns up a card of the spare hand: set spare_hand: true"]
    if "deal" in variant.flow and "turn_up" in variant.flow and \
            variant.flow.index("turn_up") < variant.flow.index("deal"):
        return ["turn_up must come after deal"]
    return []


def _turn_up_pays(variant: Any) -> tuple[str, ...]:
    return ()


def register(reg: Registry) -> None:
    """The turn-up phase (its trump spaces are the claim policies' own)."""
    reg.register_phase("turn_up", requires=("deal",), settings=TurnUpSettings,
                       check=_turn_up_checks, pays=_turn_up_pays,
                       turns_up=True)(TurnUpPhase)  # records name the turn-up (turn_up)


__all__ = ["TrumpClaimPolicy", "Trumps", "TurnUpPhase", "TurnUpSettings", "rank_word",
           "trump_suit"]
