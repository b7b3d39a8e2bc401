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


def _name_problems(path: str | os.PathLike[str]) -> list[tuple[str, str, str]]:
    """Policy and phase names the file gets wrong, found even when the file cannot be
    structured (so that ``stops check`` reports them with everything else at once)."""
    from stops.rules.loader import ORIGIN, load_raw
    from stops.rules.model import slot_names
    from stops.rules.registry import default_registry
    from stops.rules.variant import unknown_policy

    try:
        data, file = load_raw(path)
    except VariantError:
        return []
    reg = default_registry()
    origin = data.get(ORIGIN) or {}
    out: list[tuple[str, str, str]] = []
    rules = data.get("rules")
    if isinstance(rules, dict):
        for slot in slot_names():
            ref = rules.get(slot)
            use = ref.get("use") if isinstance(ref, dict) else ref
            if isinstance(use, str) and (slot, use) not in reg.policies:
                out.append((origin.get(f"rules.{slot}", str(file)), f"rules.{slot}",
                            unknown_policy(reg, slot, use)))
    flow = data.get("flow")
    if isinstance(flow, list):
        from stops.rules.loader import suggest

        phases = sorted(reg.phases)
        for i, name in enumerate(flow):
            if isinstance(name, str) and name not in reg.phases:
                out.append((origin.get("flow", str(file)), f"flow[{i}]",
                            f"unknown phase {name!r}{suggest(name, phases)}; expected one of: "
                            + ", ".join(phases)))
    return out


def problems_of(path: str | os.PathLike[str]) -> list[tuple[str, str, str]]:
    """Every problem with a variant file as ``(file, key path, message)``, all at once."""
    from stops.rules.loader import collecting

    with collecting() as found:
        try:
            v = load_variant(path)
        except VariantError as e:
            found += e.problems
            seen = {(f, p) for f, p, _ in found}
            found += [x for x in _name_problems(path) if (x[0], x[1]) not in seen]
            return _unique(found)
    if found:   # stepped over, and the rest is fine: report the rest's static problems too
        return _unique([*found, *((v.file, p, m) for p, m in static_problems(v))])
    return [(v.file, p, m) for p, m in static_problems(v)]


def _unique(items: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    return list(dict.fromkeys(items))


def check_file(path: str | os.PathLike[str]) -> list[str]:
    """All problems with a variant file, one line each (empty when it is fine):
    ``file:line: key.path: what is wrong; what would be right``."""
    from stops.rules.loader import line_of

    out = []
    found = problems_of(path)
    order = {f: i for i, (f, _, _) in reversed(list(enumerate(found)))}
    found.sort(key=lambda x: (order[x[0]], line_of(x[0], x[1]) or 0))
    for f, p, m in found:
        line = line_of(f, p)
        where = f"{f}:{line}" if line else f
        out.append(f"{where}: {p or '<top>'}: {m}")
    return out
