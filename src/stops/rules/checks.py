"""``stops check``: schema errors plus static checks that explain themselves.

Every problem is one line: ``file: key.path: what is wrong; what would be right``. Checks
that concern one policy or phase live with it (its registered ``check``) and run when the
variant loads; this module adds the checks that need the whole variant: a layout space that
nothing in the variant can ever pay out, and a phase whose policy makes it do nothing.
"""

from __future__ import annotations

import os
from typing import Any

from stops.engine.errors import VariantError
from stops.rules.registry import Registry
from stops.rules.variant import Variant, load_variant

PAYING_SLOTS = ("pay_collection", "run_rule", "going_out_reward", "block_outcome")
"""The slots whose policies may pay layout spaces out."""


def payable_spaces(v: Variant) -> set[str] | None:
    """Every space some policy or phase of ``v`` can pay out, or ``None`` when one of them
    (a plug-in) has not declared what it pays, so nothing can be concluded."""
    out: set[str] = set()
    for slot in PAYING_SLOTS:
        b = v.policy(slot)
        if b.spec.pays is None:
            return None
        out.update(b.spec.pays(v, b.params))
    for name in v.flow:
        ph = v.registry.phases[name]
        if ph.pays is None:
            return None
        out.update(ph.pays(v))
    return out


def static_problems(v: Variant) -> list[tuple[str, str]]:
    """Problems a variant can load with but that make part of it pointless."""
    out: list[tuple[str, str]] = []
    paid = payable_spaces(v)
    if paid is not None:
        for i, s in enumerate(v.layout):
            if s.id not in paid:
                out.append((f"layout[{i}]", f"space {s.id} can never be won: no policy or "
                            "phase of this variant pays it out"))
    for slot, b in v.policies.items():
        if b.spec.lint is not None:
            out.extend((f"rules.{slot}", msg) for msg in b.spec.lint(v, b.params))
    if "claim_held" in v.flow and getattr(v.policy("pay_collection").impl,
                                          "claims_during_play", True):
        out.append(("flow", f"claim_held pays nothing with pay_collection "
                    f"{v.policy('pay_collection').name}; remove it or use a policy that "
                    "claims by holding (stage_one)"))
    return out


def hints(v: Variant) -> list[tuple[str, str]]:
    """Flat rules that are a policy's parameters: the inline form says the same more clearly
    (and a flat rule that no policy in use reads has no effect here)."""
    out: list[tuple[str, str]] = []
    index = v.registry.options()
    for key, value in v.flat.items():
        owners = index.get(key, [])
        used = [o for o in owners if (o.slot is not None and v.policy(o.slot).name == o.name)
                or (o.slot is None and o.name in v.flow)]
        if not used:
            names = ", ".join(f"{o.slot or 'phase'} {o.name}" for o in owners)
            out.append((f"rules.{key}", f"has no effect here: it is a setting of {names}, "
                        "which this variant does not use"))
            continue
        o = used[0]
        if o.slot is not None:
            out.append((f"rules.{key}", f"this is a parameter of {o.slot} {o.name}; you may "
                        f"write it as {o.slot}: {{use: {o.name}, {o.field}: {_yaml(value)}}}"))
    return out


def _yaml(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(str(x) for x in value) + "]"
    return str(value)


def check_file(path: str | os.PathLike[str], *, registry: Registry | None = None
               ) -> list[str]:
    """All problems with a variant file, one line each (empty when it is fine).

    ``registry`` is the registry to load with (plug-in policies registered in it are known).
    """
    try:
        v = load_variant(path, registry=registry)
    except VariantError as e:
        return [f"{f}: {p or '<top>'}: {m}" for f, p, m in e.problems]
    return [f"{v.file}: {p}: {m}" for p, m in static_problems(v)]


def hint_lines(path: str | os.PathLike[str], *, registry: Registry | None = None
               ) -> list[str]:
    """Suggestions for a variant file that loads (the newer way to write a rule)."""
    try:
        v = load_variant(path, registry=registry)
    except VariantError:
        return []
    return [f"{v.file}: {p}: {m}" for p, m in hints(v)]
