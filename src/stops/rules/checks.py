"""``stops check``: schema errors plus static checks that explain themselves.

Every problem is one line: ``file:line: key.path: what is wrong; what would be right``, and
every problem of a file is reported at once. Checks
that concern one policy or phase live with it (its registered ``check``) and run when the
variant loads; this module adds the checks that need the whole variant: a layout space that
nothing in the variant can ever pay out, and a phase whose policy makes it do nothing.
"""

from __future__ import annotations

import os
from typing import Any

from stops.engine.errors import VariantError
from stops.rules.contracts import PAY_COLLECTION
from stops.rules.loader import LoadNotes, collecting
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
    if "claim_held" in v.flow and v.policy(PAY_COLLECTION).impl.claims_during_play:
        out.append(("flow", f"claim_held pays nothing with pay_collection "
                    f"{v.policy('pay_collection').name}; remove it or use a policy that "
                    "claims by holding (stage_one)"))
    return out


def _name_problems(path: str | os.PathLike[str], registry: Registry | None = None
                   ) -> list[tuple[str, str, str]]:
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
    reg = registry or default_registry()
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


def problems_of(path: str | os.PathLike[str], *, registry: Registry | None = None
                ) -> list[tuple[str, str, str]]:
    """Every problem with a variant file as ``(file, key path, message)``, all at once."""
    return _problems(path, registry, LoadNotes())


def _problems(path: str | os.PathLike[str], registry: Registry | None, notes: LoadNotes
              ) -> list[tuple[str, str, str]]:
    """:func:`problems_of`, noting each file's key lines in ``notes`` (for ``file:line``)."""
    with collecting() as here:
        try:
            v = load_variant(path, registry=registry)
        except VariantError as e:
            found = [*here.problems, *e.problems]
            seen = {(f, p) for f, p, _ in found}
            found += [x for x in _name_problems(path, registry) if (x[0], x[1]) not in seen]
            return _unique(found)
        finally:
            notes.lines.update(here.lines)
    if here.problems:   # stepped over, and the rest is fine: report the rest's static problems
        return _unique([*here.problems, *((v.file, p, m) for p, m in static_problems(v))])
    return [(v.file, p, m) for p, m in static_problems(v)]


def _unique(items: list[tuple[str, str, str]]) -> list[tuple[str, str, str]]:
    return list(dict.fromkeys(items))


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
    """All problems with a variant file, one line each (empty when it is fine):
    ``file:line: key.path: what is wrong; what would be right``.

    ``registry`` is the registry to load with (plug-in policies registered in it are known).
    """
    notes = LoadNotes()
    found = _problems(path, registry, notes)
    order = {f: i for i, (f, _, _) in reversed(list(enumerate(found)))}
    found.sort(key=lambda x: (order[x[0]], notes.line_of(x[0], x[1]) or 0))
    return [_line(notes, f, p, m) for f, p, m in found]


def _line(notes: LoadNotes, f: str, p: str, m: str) -> str:
    line = notes.line_of(f, p)
    where = f"{f}:{line}" if line else f
    return f"{where}: {p or '<top>'}: {m}"


def hint_lines(path: str | os.PathLike[str], *, registry: Registry | None = None
               ) -> list[str]:
    """Suggestions for a variant file that loads (the newer way to write a rule)."""
    with collecting() as notes:
        try:
            v = load_variant(path, registry=registry)
        except VariantError:
            return []
    if notes.problems:
        return []
    origin = v.raw.get("__origin__") or {}
    return [_line(notes, origin.get(p, v.file), p, m) for p, m in hints(v)]
