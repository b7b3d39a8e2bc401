"""The rules of a variant in plain English, generated from the variant itself.

``stops rules NAME`` prints this, so a group can print exactly the rules they configured.
Nothing here knows a particular phase or policy: each phase writes its own section
(``Phase.sections``), built from the text its policies registered with their parameters
(:func:`policy_text`), and only the policies in force in the variant (:func:`in_force`)
speak: a game whose every player can always lead says nothing about a lead that cannot be
made, or about a blocked deal.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from typing import Any

from stops.engine.cards import CARDS
from stops.rules.contracts import BoundPolicy
from stops.rules.variant import Variant

WIDTH = 80
"""The width ``stops rules`` wraps its lines to when the output is not a terminal."""


def in_force(v: Variant) -> dict[str, BoundPolicy[Any]]:
    """The policies whose rules can apply in a deal of ``v``, by slot: declared, not probed.

    A slot is in force when a phase of the flow consults it (the phase's registered
    ``slots``), the session's end (``match_end``, and ``final_share`` when leftover chips are
    shared) always. A slot that another slot may *bring* (``failed_lead``, ``block_outcome``)
    is in force only when a policy in force brings it with its parameters (its registered
    ``brings``; a policy that declares nothing brings everything its slot may bring): under
    Boodle's ``any_suit`` every player with cards can lead, so no failed lead and no block.
    """
    reg = v.registry
    brought = {s for spec in reg.slots.values() for s in spec.brings}
    wanted: list[str] = ["match_end"]
    if v.rules.leftover_at_match_end == "share":
        wanted.append("final_share")
    for name in v.flow:
        ph = reg.phases.get(name)
        if ph is not None:
            wanted += [s for s in ph.slots if s not in brought]
    todo = [s for s in dict.fromkeys(wanted) if s in v.policies]
    out: dict[str, BoundPolicy[Any]] = {}
    while todo:
        slot = todo.pop(0)
        if slot in out:
            continue
        b = out[slot] = v.policies[slot]
        more = (b.spec.brings(b.params) if b.spec.brings is not None
                else reg.slots[slot].brings if slot in reg.slots else ())
        todo += [s for s in more if s in v.policies and s not in out]
    order = list(v.policies)
    return {s: out[s] for s in sorted(out, key=order.index)}


def policy_text(v: Variant, slot: str) -> str:
    """The rule of the policy ``v`` put in ``slot``, as it reads in ``v``'s printed rules
    (its registered ``describe``, else ``text``, else its docstring); empty when it has
    nothing to tell the players of ``v``.

    Policies say "spare hand"; a game that calls it otherwise (the dummy, the dead hand,
    the widow, the talon: the deal phase's ``spare_name``) reads its own word."""
    b = v.policy(slot)
    if b.spec.describe is not None:
        text = str(b.spec.describe(v, b.params))
    elif b.spec.text is not None:
        text = str(b.spec.text(b.params))
    else:
        text = str(b.spec.doc or f"{slot}: {b.name}")
    return spare_named(v, text)


def spare_named(v: Variant, text: str) -> str:
    """``text`` with "spare hand" in the game's own word for it (the variant's ``spare_name``)."""
    name = v.spare_name or "spare hand"
    if name != "spare hand" and "spare hand" in text:
        text = text.replace("the spare hand", f"the {name}").replace(
            "a spare hand", ("an " if name[:1] in "aeiou" else "a ") + name).replace(
            "spare hand", name)
    return text


def _space_line(v: Variant, sid: str) -> str:
    """One layout space in words: its card, cards or ranks, with its label where the label
    adds something (the Pope, the yellow dwarf)."""
    s = v.spaces[sid]
    label = s.label or ""
    if s.kind == "card":
        if s.card is None:
            return f"- {s.id}: a card" + (f" ({label})" if label else "")
        core = CARDS[s.card].name()
        if label and core in label.lower():  # "ace of hearts", "the yellow dwarf (seven ...)"
            return f"- {s.id}: " + (label if label.lower().startswith("the ") else f"the {label}")
        return f"- {s.id}: the {core}" + (f" ({label})" if label else "")
    if s.kind == "card_below" and s.card is not None:  # the claims name the card that wins it
        return f"- {s.id}: the {CARDS[s.card].name()}, won by the card just below it"
    if s.kind == "wager" and s.card is not None:  # the side-bet's own section says how
        return f"- {s.id}: a side-bet on the {CARDS[s.card].name()}"
    if s.kind in ("combo", "suit_run"):
        if s.kind == "combo":  # held or played: the claims say which (stage one, or on play)
            what = "the " + " and the ".join(CARDS[c].name() for c in s.cards) + \
                ", by one player"
        else:
            ranks = ["10" if r == "T" else str(r) for r in s.ranks]
            what = "the " + ", ".join(ranks[:-1]) + " and " + ranks[-1] + " of one suit"
        named = f" ({label})" if label and not label.startswith(s.id) else ""
        return f"- {s.id}{named}: {what}"
    default = {"pot": "the pot", "kitty": "the kitty"}.get(
        s.kind, "a compartment the rules below pay out")
    return f"- {s.id}: {label or default}"


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
            out.append(f"- {f.name}: {value}. {policy_text(v, f.name)}".rstrip())
        elif isinstance(b, PolicyRef):
            value = str(b).split("(")[0].replace("_", " ")
            out.append(f"- {f.name}: {value}. {policy_text(v, f.name)}".rstrip())
        else:
            shown = ("yes" if b else "no") if isinstance(b, bool) else str(b)
            doc = f.metadata.get("doc", "")
            out.append(f"- {f.name}: {shown.replace('_', ' ')}." + (f" ({doc})" if doc else ""))
    for name in v.flow:  # the phases' own settings (deal_shape, bet_limit, ...)
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


def _named_preset(v: Variant, base: Variant | None) -> list[str]:
    """``[game, its title, preset, ...]`` when ``v`` is a built-in game with only its own
    presets switched on and they give it a title and description of their own
    (``-o red-nines=true`` is Red Nines, not Pink Nines with nine settings changed): its
    rules are then told as that game's, under its own name. Empty otherwise."""
    if base is None or not v.options:
        return []
    presets = base.raw.get("presets") if isinstance(base.raw, dict) else None
    if not isinstance(presets, dict) or any(
            k not in presets or val is not True for k, val in v.options.items()):
        return []
    if v.spec.title == base.spec.title or v.spec.description == base.spec.description:
        return []
    return [base.name, base.spec.title, *v.options]


def _options_text(v: Variant) -> str:
    return ", ".join(f"{k}={val}" for k, val in v.options.items())


def and_list(words: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


_PLURAL = ("twos", "threes", "fours", "fives", "sixes", "sevens", "eights", "nines", "tens",
           "Jacks", "Queens", "Kings", "aces")
_SINGULAR = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "Jack",
             "Queen", "King", "ace")


def rank_word(rank: int, plural: bool = False) -> str:
    """A rank (index 0 = two ... 12 = ace) in a sentence: ``King``, ``aces``."""
    return (_PLURAL if plural else _SINGULAR)[rank]


def cards_words(cards: list[int]) -> str:
    """Cards in a sentence, a whole rank as one: ``the four twos and the 8♦``."""
    rest = sorted(set(cards))
    parts = []
    for r in range(13):
        whole = [suit * 13 + r for suit in range(4)]
        if all(c in rest for c in whole):
            parts.append(f"the four {rank_word(r, plural=True)}")
            rest = [c for c in rest if c not in whole]
    parts += [f"the {CARDS[c].symbol()}" for c in rest]
    return and_list(parts)


def wrap(text: str, width: int | None) -> str:
    """``text`` with every line cut at spaces to ``width`` columns (``None``: as it is). A
    list item (``- ...``) goes on under its own text; a word longer than the width stays
    whole."""
    if width is None:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        if len(line) <= width:
            out.append(line)
            continue
        indent = "  " if line.startswith("- ") else ""
        out += textwrap.wrap(line, width, subsequent_indent=indent, break_long_words=False,
                             break_on_hyphens=False) or [""]
    return "\n".join(out)


def rules_text(v: Variant, width: int | None = None) -> str:
    """The rules of ``v`` in plain English, one paragraph a line, or cut to ``width``
    columns (``stops rules`` gives the terminal's width, or :data:`WIDTH`)."""
    r = v.rules
    out: list[str] = []
    base = None if (_own(v, "description") and not v.options) else _base(v)
    title = v.title
    named = _named_preset(v, base)
    if named:  # a way of playing the game its own file names and describes (red-nines)
        base = None
    elif base is not None and (v.options or not _own(v, "title")):
        title = (f"{base.title}, with house rules" if v.name == base.name
                 else f"{v.name}: {base.title}, with house rules")
    out.append(title)
    out.append("=" * min(len(title), width or len(title)))
    if base is None:
        if v.spec.description:
            out.append(" ".join(v.spec.description.split()))
        if v.spec.source:
            out.append(f"Source: {v.spec.source}")
        if named:
            opts = and_list(named[2:])
            out.append(f"Played as {named[1]} with the option "
                       + (f"{opts}." if len(named) == 3 else f"s {opts}."))
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
    removed = [int(c) for c in v.spec.deck.remove]
    pack = f"a {len(v.deck)}-card pack" + (
        f" (the 52 without {cards_words(removed)})" if removed else "")
    ranks = {int(c) % 13 for c in v.deck}
    present = [k for k in ((12, *range(12)) if r.ace == "low" else range(13)) if k in ranks]
    order = (f"from {rank_word(present[0])} (low) to {rank_word(present[-1])} (high)"
             if present else "")
    who = f"{lo} players" if lo == hi else f"{lo} to {hi} players"
    out.append(f"\nPlayers and cards\n{who}, {pack}; cards rank {order}. "
               f"Each player starts with {r.starting_chips} chips unless agreed otherwise.")
    out.append("\nThe layout")
    out += [_space_line(v, sid) for sid in v.space_ids] or [
        "None: there are no stakes, and every payment is from one player to another."]
    sections: list[tuple[str, str]] = []
    if "stake" not in v.flow:
        sections.append(("Stakes", "Nobody stakes anything before a deal."))
    for phase in v.phases:
        sections.extend(phase.sections())
    end = policy_text(v, "match_end")
    if r.leftover_at_match_end == "share":
        end += " " + policy_text(v, "final_share")
    elif v.space_ids:
        end += " Chips still on the layout stay there."
    sections.append(("End of the session", end))
    for heading, text in sections:
        out.append(f"\n{heading}\n{text}")
    return wrap("\n".join(out), width) + "\n"
