"""Simulation: many deals of a variant played by bots, summarised for people.

:func:`simulate` plays whole sessions back to back until ``deals`` deals have been played,
and returns a :class:`Report` of per-seat results, claim rates and lengths.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

import attrs

from .deal import Deal
from .rng import Rng, derive_seed
from .table import Table
from .variant import Variant, load_variant


@attrs.define
class Report:
    """What a simulation measured. ``to_dict`` is the ``--json`` output."""

    variant: str
    players: int
    deals: int
    seed: int | str
    sessions: int = 0
    chips_per_deal: list[float] = attrs.field(factory=list)
    chips_sd: list[float] = attrs.field(factory=list)
    claim_rate: dict[str, float] = attrs.field(factory=dict)
    mean_payout: dict[str, float] = attrs.field(factory=dict)
    mean_cards_played: float = 0.0
    mean_decisions: float = 0.0
    block_rate: float = 0.0
    went_out_rate: float = 0.0
    mean_session_length: float = 0.0
    outcomes: dict[str, int] = attrs.field(factory=dict)

    def to_dict(self) -> dict[str, Any]:
        return attrs.asdict(self)

    def text(self) -> str:
        lines = [f"{self.variant}: {self.deals} deals, {self.players} players, seed {self.seed}"
                 f" ({self.sessions} sessions, mean {self.mean_session_length:.1f} deals)"]
        lines.append("Chips per deal by seat (mean ± sd):")
        for s, (m, sd) in enumerate(zip(self.chips_per_deal, self.chips_sd, strict=True)):
            lines.append(f"  seat {s}: {m:+.3f} ± {sd:.2f}")
        lines.append("Layout spaces (claimed in % of deals, mean payout when claimed):")
        for sp, rate in self.claim_rate.items():
            lines.append(f"  {sp:>8}: {100 * rate:5.1f}%  {self.mean_payout.get(sp, 0.0):6.2f}")
        lines.append(f"Mean cards played per deal: {self.mean_cards_played:.2f}")
        lines.append(f"Mean decisions per deal: {self.mean_decisions:.2f}")
        lines.append(f"Deals ended by going out: {100 * self.went_out_rate:.1f}%, "
                     f"by a block: {100 * self.block_rate:.1f}%")
        return "\n".join(lines)


def play_random(deal: Deal, rng: Rng) -> int:
    """Play ``deal`` to its end with uniformly random legal decisions; returns the count."""
    n = 0
    below = rng.below
    while deal.to_act is not None:
        legal = deal.legal_actions()
        deal.apply(legal[below(len(legal))])
        n += 1
    return n


def simulate(variant: Variant | str, players: int, deals: int, seed: int | str = 0,
             chips: int = 100, options: dict[str, Any] | None = None) -> Report:
    """Play ``deals`` deals with random bots, session after session, and report."""
    v = variant if isinstance(variant, Variant) and not options else load_variant(
        variant, options)
    rep = Report(variant=v.name, players=players, deals=deals, seed=seed)
    sums = [0.0] * players
    sq = [0.0] * players
    claims: dict[str, int] = dict.fromkeys(v.space_ids, 0)
    payouts: dict[str, int] = dict.fromkeys(v.space_ids, 0)
    cards = 0
    decisions = 0
    outcomes: dict[str, int] = {}
    played = 0
    sessions: list[int] = []
    while played < deals:
        table = Table(v, seats=players, chips=chips, seed=derive_seed(seed, "session",
                                                                       len(sessions)),
                      keep_records=False)
        bot_rng = Rng(derive_seed(seed, "bots", len(sessions)))
        in_session = 0
        while not table.is_over and played < deals:
            deal = table.new_deal()
            decisions += play_random(deal, bot_rng)
            played += 1
            in_session += 1
            for s, r in enumerate(deal.returns()):
                sums[s] += r
                sq[s] += r * r
            seen: set[str] = set()
            for e in deal.events:
                if e.kind == "claimed" and e.space is not None:
                    payouts[e.space] = payouts.get(e.space, 0) + e.chips
                    if e.space not in seen:
                        seen.add(e.space)
                        claims[e.space] = claims.get(e.space, 0) + 1
            cards += len(deal.plays)
            key = deal.outcome or "none"
            outcomes[key] = outcomes.get(key, 0) + 1
        sessions.append(in_session)
    d = max(played, 1)
    rep.sessions = len(sessions)
    rep.mean_session_length = sum(sessions) / max(len(sessions), 1)
    rep.chips_per_deal = [x / d for x in sums]
    rep.chips_sd = [math.sqrt(max(0.0, q / d - (x / d) ** 2)) for x, q in zip(sums, sq,
                                                                              strict=True)]
    rep.claim_rate = {k: c / d for k, c in claims.items()}
    rep.mean_payout = {k: (payouts[k] / claims[k] if claims[k] else 0.0) for k in claims}
    rep.mean_cards_played = cards / d
    rep.mean_decisions = decisions / d
    rep.outcomes = outcomes
    rep.block_rate = (outcomes.get("blocked", 0) + outcomes.get("redeal", 0)) / d
    rep.went_out_rate = outcomes.get("went_out", 0) / d
    return rep


def run_deals(variant: Variant, players: int, deals: int, seed: int = 0) -> Sequence[Deal]:
    """Play ``deals`` random deals and keep them (for tests and examples)."""
    out = []
    table = Table(variant, seats=players, chips=100, seed=seed, deals=deals)
    rng = Rng(derive_seed(seed, "bots"))
    while not table.is_over:
        d = table.new_deal()
        play_random(d, rng)
        out.append(d)
    return out
