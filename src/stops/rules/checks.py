"""``stops check``: schema errors plus static checks that explain themselves.

Every problem is one line: ``file:line: key.path: what is wrong; what would be right``, and
every problem of a file is reported at once. Checks
that concern one policy or phase live with it (its registered ``check``) and run when the
variant loads; this module adds the checks that need the whole variant: a layout space that
nothing in the variant can ever pay out, and a phase whose policy makes it do nothing.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
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
        from stops.engine.structure import suggest

        phases = sorted(reg.phases)
        for i, name in enumerate(flow):
            if isinstance(name, str) and name not in reg.phases:
                out.append((origin.get("flow", str(file)), f"flow[{i}]",
                            f"unknown phase {name!r}{suggest(name, phases)}; expected one of: "
                            + ", ".join(phases)))
    return out


MAX_REPAIRS = 8
"""Rounds of :func:`_beyond_first`: each steps over the problems the last one found."""


def _beyond_first(path: str | os.PathLike[str], registry: Registry | None,
                  options: Mapping[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """The problems a load never reached because an earlier stage failed.

    A load stops at the first stage that fails: a preset that does not load, a value of the
    wrong type (``players: {max: lots}``) stop it before the rules are bound and checked. So
    that ``stops check`` reports every problem at once, each key a problem names is put
    back as the file's parent has it (or, with no parent, taken out, so its default applies)
    and the load goes on, up to binding the rules and their checks. A key set aside is never
    blamed again (nor, for an item of a list, the list): what follows from putting it back is
    not the file's problem."""
    from stops.rules.loader import load_raw, read_yaml, structure_spec
    from stops.rules.registry import default_registry
    from stops.rules.variant import _check_presets, _from_data

    try:
        data, file = load_raw(path)
        own = read_yaml(file)
        base = own.get("extends") if isinstance(own, dict) else None
        parent = (load_raw(base, relative_to=file.parent, referrer=str(file))[0]
                  if isinstance(base, str) else {})
    except VariantError:
        return []
    reg = registry or default_registry()
    label = str(file)
    out: list[tuple[str, str, str]] = []
    set_aside: list[str] = []

    def new(problems: list[tuple[str, str, str]]) -> list[str]:
        keys = []
        for f, p, m in problems:
            key = p.replace(" -> ", ".")
            if not any(key == k or key.startswith((k + ".", k + "[")) for k in set_aside):
                out.append((f, p, m))
                keys.append(key)
        return keys

    bound = False
    for _ in range(MAX_REPAIRS):
        try:
            structure_spec(data, label)
        except VariantError as e:
            keys = new(e.problems)
            if not any([_put_back(data, k, parent) for k in sorted(set(keys), reverse=True)]):
                break
            set_aside.extend(k.split("[")[0] for k in keys)
            continue
        if not bound:   # the rules bound and checked: every problem of this stage at once
            bound = True
            try:
                _from_data(data, options or {}, label, reg, label, options or {})
            except VariantError as e:
                keys = new(e.problems)
                for k in sorted(set(keys), reverse=True):   # so presets do not repeat them
                    _put_back(data, k, parent)
                set_aside.extend(k.split("[")[0] for k in keys)
        try:
            _check_presets(data, label, reg)
        except VariantError as e:
            # "presets.NAME -> key": the key in the preset's own changes, else the preset
            keys = new(e.problems)
            for k in sorted(set(keys), reverse=True):
                if not _put_back(data, k, {}):
                    k = ".".join(k.split(".")[:2])
                    _put_back(data, k, {})
                set_aside.append(k.split("[")[0])
            continue
        break
    return out


def _steps(path: str) -> list[str | int]:
    """``players.max`` -> ``["players", "max"]``; ``layout[2].card`` -> ``["layout", 2]``
    (a problem inside a list's item sets the whole item aside)."""
    out: list[str | int] = []
    for part in path.split("."):
        head, _, rest = part.partition("[")
        if head:
            out.append(head)
        if rest:
            out.append(int(rest.split("]")[0]) if rest.split("]")[0].isdigit() else -1)
            return out
    return out


def _put_back(data: dict[str, Any], path: str, parent: dict[str, Any]) -> bool:
    """Set ``path`` in ``data`` to the parent's value, or take it out; whether that changed
    anything."""
    steps = _steps(path)
    if not steps or -1 in steps:
        return False
    here: Any = data
    there: Any = parent
    for step in steps[:-1]:
        if isinstance(step, int) or not isinstance(here, dict) or step not in here:
            return False
        here = here[step]
        there = there.get(step) if isinstance(there, dict) else None
    last = steps[-1]
    if isinstance(last, int):
        if isinstance(here, list) and 0 <= last < len(here):
            del here[last]
            return True
        return False
    if not isinstance(here, dict) or last not in here:
        return False
    if isinstance(there, dict) and last in there and there[last] != here[last]:
        here[last] = there[last]
    else:
        del here[last]
    return True


def problems_of(path: str | os.PathLike[str], *, registry: Registry | None = None,
                options: Mapping[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """Every problem with a variant file (played with ``options``) as ``(file, key path,
    message)``, all at once."""
    return _problems(path, registry, LoadNotes(), options)


def _problems(path: str | os.PathLike[str], registry: Registry | None, notes: LoadNotes,
              options: Mapping[str, Any] | None = None) -> list[tuple[str, str, str]]:
    """:func:`problems_of`, noting each file's key lines in ``notes`` (for ``file:line``)."""
    with collecting() as here:
        try:
            v = load_variant(path, options, registry=registry)
        except VariantError as e:
            found = [*here.problems, *(_beyond_first(path, registry, options) or e.problems)]
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


def check_file(path: str | os.PathLike[str], *, registry: Registry | None = None,
               options: Mapping[str, Any] | None = None) -> list[str]:
    """All problems with a variant file, one line each (empty when it is fine):
    ``file:line: key.path: what is wrong; what would be right``.

    ``registry`` is the registry to load with (plug-in policies registered in it are known);
    ``options`` are played with the file, as ``stops check FILE -o RULE=VALUE`` gives them.
    """
    notes = LoadNotes()
    found = _sorted(_problems(path, registry, notes, options), notes)
    return [_line(notes, f, p, m) for f, p, m in found]


def _sorted(found: list[tuple[str, str, str]], notes: LoadNotes
            ) -> list[tuple[str, str, str]]:
    """Problems file by file (in the order first met), each file's in the order of its lines."""
    order = {f: i for i, (f, _, _) in reversed(list(enumerate(found)))}
    return sorted(found, key=lambda x: (order[x[0]], notes.line_of(x[0], x[1]) or 0))


def check_report(path: str | os.PathLike[str], *, registry: Registry | None = None,
                 options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """``stops check --json``: ``{"file", "ok", "problems", "hints"}``, each problem and hint
    ``{"file", "line", "path", "message"}`` (``line`` null when no line holds it, ``path``
    empty for the whole file). ``ok`` is whether there are no problems; hints come only then.
    """
    notes = LoadNotes()
    found = _sorted(_problems(path, registry, notes, options), notes)
    problems = [{"file": f, "line": notes.line_of(f, p), "path": p, "message": m}
                for f, p, m in found]
    hints = [] if found else _hints(path, registry, options)
    return {"file": os.fspath(path), "ok": not found, "problems": problems,
            "hints": [{"file": f, "line": line, "path": p, "message": m}
                      for f, line, p, m in hints]}


def _line(notes: LoadNotes, f: str, p: str, m: str) -> str:
    line = notes.line_of(f, p)
    where = f"{f}:{line}" if line else f
    return f"{where}: {p or '<top>'}: {m}"


def hint_lines(path: str | os.PathLike[str], *, registry: Registry | None = None,
               options: Mapping[str, Any] | None = None) -> list[str]:
    """Suggestions for a variant file that loads (the newer way to write a rule)."""
    return [f"{f}:{line}: {p or '<top>'}: {m}" if line else f"{f}: {p or '<top>'}: {m}"
            for f, line, p, m in _hints(path, registry, options)]


def _hints(path: str | os.PathLike[str], registry: Registry | None,
           options: Mapping[str, Any] | None) -> list[tuple[str, int | None, str, str]]:
    """:func:`hints` for a file that loads, as ``(file, line, key path, message)``."""
    with collecting() as notes:
        try:
            v = load_variant(path, options, registry=registry)
        except VariantError:
            return []
    if notes.problems:
        return []
    origin = v.raw.get("__origin__") or {}
    out = []
    for p, m in hints(v):
        f = origin.get(p, v.file)
        out.append((f, notes.line_of(f, p), p, m))
    return out
