"""Settlement: end-of-deal claims, the going-out reward or the block outcome."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from stops._mypyc import mypyc_attr
from stops.engine.eventkind import EventKind
from stops.engine.events import MAX_SEATS, event
from stops.phases.base import Phase

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

# EventKind members as Final constants: reading an enum member as a class attribute
# costs ~190 ns (a Python-level lookup in either build); these are read directly.
K_DEAL_ENDED: Final = EventKind.DEAL_ENDED


_WENT_OUT: Final = tuple(event(K_DEAL_ENDED, s, note=f"seat {s} went out")
                         for s in range(MAX_SEATS))
"""The ``deal_ended`` event of each seat going out, built once."""


@mypyc_attr(allow_interpreted_subclasses=True)
class SettlePhase(Phase):
    """Pays what the end of the deal owes: shared claims, then the reward for going out or
    the block's payments. Takes no decisions."""

    name = "settle"
    title = "End of the deal"

    def describe(self) -> str:
        t = ("Play ends at once when a player plays their last card, even in the middle "
             "of a sequence. " + self.policy_text("going_out_reward") + " ")
        if self.in_force("block_outcome"):  # a lead that nobody can make (or no opener)
            t += self.policy_text("block_outcome")
        t = t.rstrip()
        t += {"pay_what_you_can": " A player who cannot pay in full pays what they have.",
              "debt": " A player who cannot pay in full goes into debt.",
              "eliminate": " A player who cannot pay in full pays what they have and, "
              "like any player left without chips, is out for the rest of the session; "
              "the session ends when fewer than two players are left."
              }[self.rules.chip_shortfall]
        if not self.variant.space_ids:
            return t
        return t + " Chips not won stay on the layout for the next deal."

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.claims = [variant.policy("pay_collection"), variant.policy("run_rule")]
        self.reward = variant.policy("going_out_reward")
        self.block = variant.policy("block_outcome")

    def enter(self, deal: Deal) -> bool:
        for b in self.claims:
            b.impl.end(deal, b.params)
        winner = deal.winner
        if deal.outcome == "went_out" and winner is not None:
            self.reward.impl(deal, winner, self.reward.params)
            if 0 <= winner < len(_WENT_OUT):
                deal.emit(_WENT_OUT[winner])  # shared: its content is fixed by the seat
                return False
            note = f"seat {winner} went out"
        elif deal.outcome in ("blocked", "redeal"):
            deal.next_deal = self.block.impl(deal, self.block.params)
            note = "blocked" if deal.outcome == "blocked" else "no opening card; redeal"
        else:
            note = deal.outcome or "ended"
        deal.emit(event(K_DEAL_ENDED, winner, note=note))
        return False



@mypyc_attr(allow_interpreted_subclasses=True)
class ClaimHeldPhase(Phase):
    """Stage one of Three-in-One: layout spaces pay the players who hold their cards."""

    name = "claim_held"
    title = "Stage one: pay cards"

    def describe(self) -> str:
        return self.policy_text("pay_collection")

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.policy = variant.policy("pay_collection")

    def enter(self, deal: Deal) -> bool:
        self.policy.impl.held(deal, self.policy.params)
        return False


def register(reg: Registry) -> None:
    reg.register_phase("claim_held", pays=_pays_nothing, requires=("deal",),
                       slots=("pay_collection",))(ClaimHeldPhase)
    reg.register_phase("settle", pays=_pays_nothing, requires=("play",),
                       slots=("going_out_reward", "block_outcome"))(SettlePhase)


def _pays_nothing(variant: object) -> tuple[str, ...]:
    """This phase pays no layout space itself (its policies may)."""
    return ()
