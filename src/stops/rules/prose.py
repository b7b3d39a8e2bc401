"""The rules of a variant in plain English, generated from the variant itself.

``stops rules NAME`` prints this, so a group can print exactly the rules they configured.
Nothing here knows a particular phase or policy: each phase writes its own section
(``Phase.sections``), built from the text its policies registered with their parameters.
"""

from __future__ import annotations

from stops.engine.cards import CARDS
from stops.rules.variant import Variant


def _space_line(v: Variant, sid: str) -> str:
    s = v.spaces[sid]
    if s.kind == "card":
        what = f"the {CARDS[s.card].name()}" if s.card is not None else "a card"
    elif s.kind == "combo":
        what = "holding (or playing) " + " and ".join(CARDS[c].name() for c in s.cards)
    elif s.kind == "suit_run":
        what = "the ranks " + "-".join("10" if r == "T" else r for r in s.ranks) + \
            " in one suit, any suit"
    elif s.kind == "pot":
        what = "the pot"
    else:
        what = "the kitty"
    label = f" ({s.label})" if s.label else ""
    return f"- {s.id}{label}: {what}"


def _policy_text(v: Variant, slot: str) -> str:
    b = v.policy(slot)
    if b.spec.text is not None:
        return str(b.spec.text(b.params))
    return b.spec.doc or f"{slot}: {b.name}"


def rules_text(v: Variant) -> str:
    r = v.rules
    out: list[str] = []
    out.append(v.title)
    out.append("=" * len(v.title))
    if v.spec.description:
        out.append(v.spec.description.strip())
    if v.spec.source:
        out.append(f"Source: {v.spec.source}")
    lo, hi = v.players
    removed = ", ".join(str(c) for c in v.spec.deck.remove)
    pack = f"a {len(v.deck)}-card pack" + (f" (the 52 without {removed})" if removed else "")
    order = ("from 2 (low) to ace (high)" if r.ace == "high" else
             "from ace (low) to king (high)")
    out.append(f"\nPlayers and cards\n{lo} to {hi} players, {pack}; cards rank {order} in "
               "each suit.")
    out.append("\nThe layout")
    out += [_space_line(v, sid) for sid in v.space_ids]
    sections: list[tuple[str, str]] = []
    for phase in v.phases:
        sections.extend(phase.sections())
    end = _policy_text(v, "match_end")
    if r.leftover_at_match_end == "share":
        end += " " + _policy_text(v, "final_share")
    else:
        end += " Chips still on the layout stay there."
    sections.append(("End of the session", end))
    for title, text in sections:
        out.append(f"\n{title}\n{text}")
    return "\n".join(out) + "\n"
