"""``stops diff A B``: the rule differences between two variants, in words."""

from __future__ import annotations

from typing import Any

import attrs

from stops.rules.model import PolicyRef, Rules
from stops.rules.registry import option_name
from stops.rules.untrusted import _plain as _plain_value
from stops.rules.untrusted import resolved_mapping
from stops.rules.variant import Variant

_FACTORY: type = type(attrs.Factory(dict))
"""The class of an attrs default made by a factory (no single default value to compare)."""


def _bound(v: Variant, name: str) -> Any:
    """The policy in force as plain data, its parameters as bound: a parameter set by its
    flat name (``comet_turn: run`` over the parent's inline ``turn_order``) counts."""
    return resolved_mapping(v)["rules"].get(name)


def _ref(v: Variant, name: str, value: PolicyRef) -> PolicyRef:
    """``value`` as the file wrote it, with each parameter a flat name changed put right."""
    bound = _bound(v, name)
    if not isinstance(bound, dict):
        return value
    params = v.policy(name).params
    defaults = ({f.name: f.default for f in attrs.fields(type(params))}
                if params is not None and attrs.has(type(params)) else {})
    shown = dict(value.params)
    for k, x in bound.items():
        if k == "use":
            continue
        if k in shown:
            shown[k] = x  # the value in force: the file's, unless a flat name changed it
            continue
        d = defaults.get(k)
        if not isinstance(d, _FACTORY) and _plain_value(d) != x:
            shown[k] = x  # set by its flat name only
    return PolicyRef(value.use, shown)


def _value(v: Variant, name: str) -> str:
    value = getattr(v.rules, name)
    if isinstance(value, PolicyRef):
        bound = v.policy(name)
        text = bound.spec.text(bound.params) if bound.spec.text else bound.spec.doc
        return f"{_ref(v, name, value)} — {text}"
    if isinstance(value, tuple):
        return "[" + ", ".join(str(x) for x in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def _space(v: Variant, sid: str) -> str:
    s = v.spaces[sid]
    what = {"card": f"paid by {s.card}", "card_below": f"won by the card just below {s.card}",
            "wager": f"a side-bet on {s.card}",
            "combo": "paid by " + "+".join(map(str, s.cards)),
            "suit_run": "paid by " + "-".join("10" if r == "T" else r for r in s.ranks)
            + " in one suit",
            "pot": "a pot", "kitty": "a kitty",
            "pool": s.label or "a compartment"}[s.kind]
    return f"{sid} ({what})"


def diff_lines(a: Variant, b: Variant) -> list[str]:
    """One line per difference; empty when the two variants play the same game."""
    out: list[str] = []
    na, nb = names(a, b)
    if a.players != b.players:
        out.append(f"players: {na} {a.players[0]}-{a.players[1]}, "
                   f"{nb} {b.players[0]}-{b.players[1]}")
    if set(a.deck) != set(b.deck):
        gone = sorted(set(a.deck) - set(b.deck))
        added = sorted(set(b.deck) - set(a.deck))
        parts = []
        if gone:
            parts.append(f"{nb} removes " + " ".join(map(str, gone)))
        if added:
            parts.append(f"{nb} adds back " + " ".join(map(str, added)))
        out.append("pack: " + "; ".join(parts))
    only_a = [s for s in a.space_ids if s not in b.spaces]
    only_b = [s for s in b.space_ids if s not in a.spaces]
    for s in only_a:
        out.append(f"layout: only {na} has {_space(a, s)}")
    for s in only_b:
        out.append(f"layout: only {nb} has {_space(b, s)}")
    for s in a.space_ids:
        if s in b.spaces and a.spaces[s] != b.spaces[s] and \
                _space(a, s) != _space(b, s):
            out.append(f"layout: {na} has {_space(a, s)}, {nb} {_space(b, s)}")
    if a.flow != b.flow:
        out.append(f"phases: {na} {' → '.join(a.flow)}; {nb} {' → '.join(b.flow)}")
    for f in attrs.fields(Rules):
        va, vb = getattr(a.rules, f.name), getattr(b.rules, f.name)
        same = va == vb and (not isinstance(va, PolicyRef) or (
            va.params == vb.params and _bound(a, f.name) == _bound(b, f.name)))
        if not same:
            out.append(f"{f.name} ({f.metadata.get('doc', '')})\n"
                       f"    {na}: {_value(a, f.name)}\n    {nb}: {_value(b, f.name)}")
    for name in dict.fromkeys((*a.flow, *b.flow)):
        sa, sb = a.settings(name), b.settings(name)
        if sa is None or sb is None or sa == sb:
            continue
        for f in attrs.fields(type(sa)):
            va, vb = getattr(sa, f.name), getattr(sb, f.name)
            if va != vb:
                out.append(f"{option_name(f)} ({f.metadata.get('doc', '')})\n"
                           f"    {na}: {_plain(va)}\n    {nb}: {_plain(vb)}")
    return out


def _plain(value: object) -> str:
    if isinstance(value, tuple):
        return "[" + ", ".join(str(x) for x in value) + "]"
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def names(a: Variant, b: Variant) -> tuple[str, str]:
    """What the diff calls the two variants: their names, and when those are the same (one
    game and its options), the second with its options (``boodle -o after_stop=...``)."""
    if a.name != b.name or a.options == b.options:
        return a.name, b.name

    def with_options(v: Variant) -> str:
        opts = " ".join(f"-o {k}={v.options[k]}" for k in v.options)
        return f"{v.name} {opts}" if opts else v.name

    return with_options(a), with_options(b)


def diff_text(a: Variant, b: Variant) -> str:
    lines = diff_lines(a, b)
    na, nb = names(a, b)
    if not lines:
        return f"{na} and {nb} have the same rules.\n"
    head = f"{len(lines)} difference(s) between {na} and {nb}:"
    return head + "\n" + "\n".join(f"- {x}" for x in lines) + "\n"
