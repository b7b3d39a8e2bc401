"""``stops diff A B``: the rule differences between two variants, in words."""

from __future__ import annotations

import attrs

from stops.rules.model import PolicyRef, Rules
from stops.rules.registry import option_name
from stops.rules.variant import Variant


def _value(v: Variant, name: str) -> str:
    value = getattr(v.rules, name)
    if isinstance(value, PolicyRef):
        bound = v.policy(name)
        text = bound.spec.text(bound.params) if bound.spec.text else bound.spec.doc
        return f"{value} — {text}"
    if isinstance(value, tuple):
        return "[" + ", ".join(str(x) for x in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _space(v: Variant, sid: str) -> str:
    s = v.spaces[sid]
    what = {"card": f"paid by {s.card}", "combo": "paid by " + "+".join(map(str, s.cards)),
            "suit_run": "paid by " + "-".join("10" if r == "T" else r for r in s.ranks)
            + " in one suit",
            "pot": "a pot", "kitty": "a kitty",
            "pool": s.label or "a compartment"}[s.kind]
    return f"{sid} ({what})"


def diff_lines(a: Variant, b: Variant) -> list[str]:
    """One line per difference; empty when the two variants play the same game."""
    out: list[str] = []
    if a.players != b.players:
        out.append(f"players: {a.name} {a.players[0]}-{a.players[1]}, "
                   f"{b.name} {b.players[0]}-{b.players[1]}")
    if set(a.deck) != set(b.deck):
        gone = sorted(set(a.deck) - set(b.deck))
        added = sorted(set(b.deck) - set(a.deck))
        parts = []
        if gone:
            parts.append(f"{b.name} removes " + " ".join(map(str, gone)))
        if added:
            parts.append(f"{b.name} adds back " + " ".join(map(str, added)))
        out.append("pack: " + "; ".join(parts))
    only_a = [s for s in a.space_ids if s not in b.spaces]
    only_b = [s for s in b.space_ids if s not in a.spaces]
    for s in only_a:
        out.append(f"layout: only {a.name} has {_space(a, s)}")
    for s in only_b:
        out.append(f"layout: only {b.name} has {_space(b, s)}")
    for s in a.space_ids:
        if s in b.spaces and a.spaces[s] != b.spaces[s] and \
                _space(a, s) != _space(b, s):
            out.append(f"layout: {a.name} has {_space(a, s)}, {b.name} {_space(b, s)}")
    if a.flow != b.flow:
        out.append(f"phases: {a.name} {' → '.join(a.flow)}; {b.name} {' → '.join(b.flow)}")
    for f in attrs.fields(Rules):
        va, vb = getattr(a.rules, f.name), getattr(b.rules, f.name)
        same = va == vb and (not isinstance(va, PolicyRef) or va.params == vb.params)
        if not same:
            out.append(f"{f.name} ({f.metadata.get('doc', '')})\n"
                       f"    {a.name}: {_value(a, f.name)}\n    {b.name}: {_value(b, f.name)}")
    for name in dict.fromkeys((*a.flow, *b.flow)):
        sa, sb = a.settings(name), b.settings(name)
        if sa is None or sb is None or sa == sb:
            continue
        for f in attrs.fields(type(sa)):
            va, vb = getattr(sa, f.name), getattr(sb, f.name)
            if va != vb:
                out.append(f"{option_name(f)} ({f.metadata.get('doc', '')})\n"
                           f"    {a.name}: {_plain(va)}\n    {b.name}: {_plain(vb)}")
    return out


def _plain(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(str(x) for x in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def diff_text(a: Variant, b: Variant) -> str:
    lines = diff_lines(a, b)
    if not lines:
        return f"{a.name} and {b.name} have the same rules.\n"
    head = f"{len(lines)} difference(s) between {a.name} and {b.name}:"
    return head + "\n" + "\n".join(f"- {x}" for x in lines) + "\n"
