"""``stops check``: schema errors plus static checks that explain themselves.

Every problem is one line: ``file: key.path: what is wrong; what would be right``.
"""

from __future__ import annotations

import os

from stops.engine.errors import VariantError
from stops.rules.variant import Variant, load_variant


def static_problems(v: Variant) -> list[tuple[str, str]]:
    """Problems a variant can load with but that make part of it pointless."""
    out: list[tuple[str, str]] = []
    pay = v.policy("pay_collection").name
    run = v.policy("run_rule").name
    reward = v.policy("going_out_reward").name
    block = v.policy("block_outcome").name
    for i, s in enumerate(v.layout):
        path = f"layout[{i}]"
        if s.kind in ("card", "combo", "suit_run") and pay == "none":
            out.append((path, f"space {s.id} can never be won: rules.pay_collection is none; "
                        "use on_play or stage_one"))
        if s.kind == "pot" and "poker" not in v.flow and not (
                run != "none" and v.rules.run_space == s.id):
            out.append((path, f"space {s.id} can never be won: no poker phase and no run_rule "
                        "pays it; add poker to flow or set run_rule and run_space"))
        if s.kind == "kitty" and reward not in ("kitty_plus_per_card", "kitty_only"):
            out.append((path, f"space {s.id} can never be won: going_out_reward {reward} does "
                        "not pay the kitty; use kitty_plus_per_card or kitty_only"))
    if "claim_held" in v.flow and pay != "stage_one":
        out.append(("flow", f"claim_held pays nothing with pay_collection {pay}; remove it or "
                    "use pay_collection: stage_one"))
    if pay == "stage_one" and "claim_held" not in v.flow:
        out.append(("rules.pay_collection", "stage_one claims are made by the claim_held "
                    "phase, which is not in flow; add claim_held after spare_hand"))
    if v.policy("spare_protocol").name != "none" and "spare_hand" not in v.flow:
        out.append(("rules.spare_protocol", "the spare_hand phase is not in flow, so this "
                    "protocol never runs; add spare_hand after deal"))
    if v.policy("first_leader").name == "poker_winner" and "poker" not in v.flow:
        out.append(("rules.first_leader", "poker_winner needs the poker phase in flow; "
                    "otherwise the dealer's left leads"))
    if block == "kitty_per_card" and v.kitty is None:
        out.append(("rules.block_outcome", "kitty_per_card needs a kitty space"))
    if v.policy("spare_protocol").name != "none" and not v.rules.spare_hand:
        out.append(("rules.spare_protocol", "spare_hand is false, so there is no spare hand "
                    "to use; set spare_hand: true or spare_protocol: none"))
    return out


def check_file(path: str | os.PathLike[str]) -> list[str]:
    """All problems with a variant file, one line each (empty when it is fine)."""
    try:
        v = load_variant(path)
    except VariantError as e:
        return [f"{f}: {p or '<top>'}: {m}" for f, p, m in e.problems]
    return [f"{v.file}: {p}: {m}" for p, m in static_problems(v)]
