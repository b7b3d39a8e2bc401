"""The rules of a variant in plain English, generated from the variant itself.

``stops rules NAME`` prints this, so a group can print exactly the rules they configured.
Nothing here knows a particular phase or policy: each phase writes its own section
(``Phase.sections``), built from the text its policies registered with their parameters.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from stops.engine.cards import CARDS
from stops.rules.variant import Variant


def _space_line(v: Variant, sid: str) -> str:
    s = v.spaces[sid]
    if s.kind == "card":
        what = f"the {CARDS[s.card].name()}" if s.card is not None else "a card"
    elif s.kind == "combo":
        # held or played: the claims section says which (stage one, or on play)
        what = "the " + " and the ".join(CARDS[c].name() for c in s.cards) + ", by one player"
    elif s.kind == "suit_run":
        what = "the ranks " + "-".join("10" if r == "T" else r for r in s.ranks) + \
            " in one suit, any suit"
    elif s.kind == "pot":
        what = "the pot"
    elif s.kind == "pool":  # won as the rules below say; its label says by what
        return f"- {s.id}: {s.label or 'a compartment the rules below pay out'}"
    else:
        what = "the kitty"
    label = f" ({s.label})" if s.label else ""
    return f"- {s.id}{label}: {what}"


def _policy_text(v: Variant, slot: str) -> str:
    b = v.policy(slot)
    if b.spec.text is not None:
        return str(b.spec.text(b.params))
    return b.spec.doc or f"{slot}: {b.name}"


def _same_file(a: object, b: object) -> bool:
    try:
        return Path(str(a)).resolve() == Path(str(b)).resolve()
    except OSError:
        return str(a) == str(b)


def _own(v: Variant, key: str) -> bool:
    """Did the variant's own file (not a file it extends) set ``key``? Rule options given when
    loading (``-o``) make nothing of the file's own description true any more."""
    origin: Any = v.raw.get("__origin__") if isinstance(v.raw, dict) else None
    if not isinstance(origin, dict) or key not in origin:
        return key in (v.raw or {})
    return _same_file(origin[key], v.file)


def _base(v: Variant) -> Variant | None:
    """The variant this one derives from: the same file without ``-o`` options, or the file
    whose description it would otherwise inherit."""
    from stops.rules.variant import load_variant

    try:
        if v.options:
            return load_variant(v.ref, registry=v.registry)
        origin: Any = v.raw.get("__origin__")
        where = origin.get("description") or origin.get("title")
        if where is None or _same_file(where, v.file):
            return None
        from stops.rules.loader import builtin_names, resolve_ref

        for name in builtin_names():  # a built-in parent is named by its name
            if _same_file(resolve_ref(name, None), where):
                return load_variant(name, registry=v.registry)
        return load_variant(str(where), registry=v.registry)
    except Exception:  # a summary must never stop `stops rules`
        return None


def _change_lines(base: Variant, v: Variant) -> list[str]:
    """The rule choices ``v`` makes differently from ``base``, one line each, in words."""
    import attrs

    from stops.rules.model import PolicyRef, Rules
    from stops.rules.registry import option_name

    out = []
    for f in attrs.fields(Rules):
        a, b = getattr(base.rules, f.name), getattr(v.rules, f.name)
        if isinstance(a, PolicyRef) and f.name in base.policies and f.name in v.policies:
            # the bound parameters: a flat rule (dealer_keep: true) changes them too
            if a.use == b.use and base.policy(f.name).params == v.policy(f.name).params:
                continue
        elif a == b and (not isinstance(a, PolicyRef) or a.params == b.params):
            continue
        if isinstance(b, PolicyRef) and a.use == b.use and f.name in v.policies:
            # the same policy with other parameters: name the parameters that changed
            mine, theirs = v.policy(f.name).params, base.policy(f.name).params
            changed = [f"{option_name(pf).replace('_', ' ')}: "
                       f"{_shown(getattr(mine, pf.name))}" for pf in attrs.fields(type(mine))
                       if getattr(mine, pf.name) != getattr(theirs, pf.name)]
            value = b.use.replace("_", " ") + (" with " + ", ".join(changed) if changed else "")
            out.append(f"- {f.name}: {value}. {_policy_text(v, f.name)}")
        elif isinstance(b, PolicyRef):
            value = str(b).split("(")[0].replace("_", " ")
            out.append(f"- {f.name}: {value}. {_policy_text(v, f.name)}")
        else:
            shown = ("yes" if b else "no") if isinstance(b, bool) else str(b)
            doc = f.metadata.get("doc", "")
            out.append(f"- {f.name}: {shown.replace('_', ' ')}." + (f" ({doc})" if doc else ""))
    for name in v.flow:  # the phases' own settings (poker_selection, deal_shape, ...)
        mine, theirs = v.settings(name), base.settings(name)
        if mine is None or theirs is None or mine == theirs:
            continue
        for sf in attrs.fields(type(mine)):
            value = getattr(mine, sf.name)
            if value != getattr(theirs, sf.name):
                shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
                doc = sf.metadata.get("doc", "")
                out.append(f"- {option_name(sf)}: {shown.replace('_', ' ')}."
                           + (f" ({doc})" if doc else ""))
    if base.space_ids != v.space_ids:
        out.append("- layout: " + ", ".join(v.space_ids))
    if base.flow != v.flow:
        out.append("- phases: " + ", ".join(v.flow))
    return out


def _shown(value: object) -> str:
    """A parameter's value in a sentence: yes/no, words for names, items for lists."""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, tuple | list):
        return ", ".join(str(x) for x in value) or "none"
    return str(value).replace("_", " ")


def _options_text(v: Variant) -> str:
    return ", ".join(f"{k}={val}" for k, val in v.options.items())


def rules_text(v: Variant) -> str:
    r = v.rules
    out: list[str] = []
    base = None if (_own(v, "description") and not v.options) else _base(v)
    title = v.title
    if base is not None and (v.options or not _own(v, "title")):
        title = (f"{base.title}, with house rules" if v.name == base.name
                 else f"{v.name}: {base.title}, with house rules")
    out.append(title)
    out.append("=" * len(title))
    if base is None:
        if v.spec.description:
            out.append(v.spec.description.strip())
        if v.spec.source:
            out.append(f"Source: {v.spec.source}")
    else:
        changes = _change_lines(base, v)
        n = len(changes)
        out.append(f"The rules of {base.name} ({base.title}), with "
                   + (f"{n} rule{'s' if n != 1 else ''} changed:" if n else "no rule changed."))
        out += changes
        where = f"the options {_options_text(v)}" if v.options else v.file
        out.append(f"House rules: {where}; based on {base.name}"
                   + (f" (source: {base.spec.source})" if base.spec.source else "") + ".")
    lo, hi = v.players
    removed = ", ".join(str(c) for c in v.spec.deck.remove)
    pack = f"a {len(v.deck)}-card pack" + (f" (the 52 without {removed})" if removed else "")
    ranks = {int(c) % 13 for c in v.deck}
    low = "ace" if r.ace == "low" and 12 in ranks else "2"
    order = ("from 2 (low) to ace (high)" if r.ace == "high" else
             f"from {low} (low) to king (high)")
    out.append(f"\nPlayers and cards\n{lo} to {hi} players, {pack}; cards rank {order} in "
               f"each suit. Each player starts with {r.starting_chips} chips unless agreed "
               "otherwise.")
    out.append("\nThe layout")
    out += [_space_line(v, sid) for sid in v.space_ids] or [
        "None: there are no stakes, and every payment is from one player to another."]
    sections: list[tuple[str, str]] = []
    if "stake" not in v.flow:
        sections.append(("Stakes", "Nobody stakes anything before a deal."))
    for phase in v.phases:
        sections.extend(phase.sections())
    end = _policy_text(v, "match_end")
    if r.leftover_at_match_end == "share":
        end += " " + _policy_text(v, "final_share")
    elif v.space_ids:
        end += " Chips still on the layout stay there."
    sections.append(("End of the session", end))
    for title, text in sections:
        out.append(f"\n{title}\n{text}")
    return "\n".join(out) + "\n"
