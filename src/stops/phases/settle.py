"""Settlement: end-of-deal claims, the going-out reward or the block outcome."""

from __future__ import annotations

from typing import TYPE_CHECKING

from stops._mypyc import mypyc_attr
from stops.engine.events import event
from stops.phases.base import Phase

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.variant import Variant


@mypyc_attr(allow_interpreted_subclasses=True)
class SettlePhase(Phase):
    """Pays what the end of the deal owes: shared claims, then the reward for going out or
    the block's payments. Takes no decisions."""

    name = "settle"

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.claims = [variant.policy("pay_collection"), variant.policy("run_rule")]
        self.reward = variant.policy("going_out_reward")
        self.block = variant.policy("block_outcome")

    def enter(self, deal: Deal) -> bool:
        for b in self.claims:
            b.impl.end(deal, b.params)
        if deal.outcome == "went_out" and deal.winner is not None:
            self.reward.impl(deal, deal.winner, self.reward.params)
            note = f"seat {deal.winner} went out"
        elif deal.outcome in ("blocked", "redeal"):
            deal.next_deal = self.block.impl(deal, self.block.params)
            note = "blocked" if deal.outcome == "blocked" else "no opening card; redeal"
        else:
            note = deal.outcome or "ended"
        deal.emit(event("deal_ended", deal.winner, note=note))
        return False


@mypyc_attr(allow_interpreted_subclasses=True)
class ClaimHeldPhase(Phase):
    """Stage one of Three-in-One: layout spaces pay the players who hold their cards."""

    name = "claim_held"

    def __init__(self, variant: Variant) -> None:
        super().__init__(variant)
        self.policy = variant.policy("pay_collection")

    def enter(self, deal: Deal) -> bool:
        self.policy.impl.held(deal, self.policy.params)
        return False
