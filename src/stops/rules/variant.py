"""The resolved, immutable rules of one game: :class:`Variant` and :func:`load_variant`."""

from __future__ import annotations

import json
import os
import threading
import weakref
from collections.abc import Mapping
from pathlib import Path
from typing import Any, TypeVar, overload

import attrs

from stops.engine.cards import CARDS, RANKS, Card
from stops.engine.deal import Step, steps_of
from stops.engine.errors import VariantError
from stops.engine.resolver import install_loader
from stops.engine.structure import suggest
from stops.engine.vocabulary import CORE_VERBS, EventType, Verb
from stops.rules.contracts import BoundPolicy, DealShape, Slot
from stops.rules.loader import (
    LAYER,
    ORIGIN,
    apply_options,
    apply_preset,
    attribute,
    builtin_names,
    check_plain,
    check_top,
    is_path,
    load_raw,
    presets_of,
    split_rules,
    structure,
    structure_spec,
)
from stops.rules.model import PolicyRef, Rules, Space, VariantSpec, slot_names
from stops.rules.registry import (
    OptionOwner,
    Registry,
    default_registry,
    has_flat_name,
    option_name,
    option_names,
    unalias,
)

RULE_NAMES = tuple(f.name for f in attrs.fields(Rules))
RULE_FIELDS = frozenset(RULE_NAMES)
MAX_RULE_PROBLEMS = 50
"""Problems reported for the flat rules of one variant; the rest are counted, not named."""


class Variant:
    """A game's rules, fully resolved: layout, flow of phases, and a policy for every slot.

    Immutable and shareable between tables. Build one with :func:`load_variant`.
    """

    def __init__(self, spec: VariantSpec, *, file: str, options: Mapping[str, Any],
                 registry: Registry, raw: dict[str, Any], ref: str) -> None:
        self.spec = spec
        self.file = file
        self.ref = ref
        self.options: dict[str, Any] = dict(options)
        self.registry = registry
        self.raw = raw
        self.rules: Rules = spec.rules
        self.layout: tuple[Space, ...] = spec.layout
        self.flow: tuple[str, ...] = spec.flow
        """The phases' names, in the order a deal goes through them: an attribute, not a
        property, since a compiled deal reads it at every observation (``Deal.phase``) and a
        property of this interpreted class is a Python frame each time."""
        self.space_ids: tuple[str, ...] = tuple(s.id for s in spec.layout)
        self.spaces: dict[str, Space] = {s.id: s for s in spec.layout}
        removed = set(spec.deck.remove)
        self.deck: tuple[Card, ...] = tuple(c for c in CARDS if c not in removed)
        self.kitty: str | None = next((s.id for s in spec.layout if s.kind == "kitty"), None)
        self.pot: str | None = next((s.id for s in spec.layout if s.kind == "pot"), None)
        self.policies: dict[str, BoundPolicy[Any]] = {}
        self._settings: dict[str, Any] = {}
        _, flat = split_rules(raw)
        self.flat: dict[str, Any] = flat
        """Rules given by flat name (``change_suit_fallback: pass_left``) rather than as a
        policy's inline parameters: they apply to whichever policy or phase has them."""
        self.tracks_contributions = False
        """Whether deals track what each seat puts on each space (the ledger does it)."""
        self.cache: dict[object, object] = {}
        """Derived values that phases and policies compute once per variant."""
        problems: list[tuple[str, str, str]] = []
        layers: dict[str, int] = raw.get(LAYER) or {}
        problems.extend(_flat_problems(registry, flat, file))
        for slot in slot_names():
            ref_: PolicyRef = getattr(spec.rules, slot)
            bound = _bind(registry, slot, ref_, file, problems, flat, layers)
            if bound is not None:
                self.policies[slot] = bound
        for name in spec.flow:
            ph = registry.phases.get(name)
            if ph is not None and ph.settings is not None:
                self._settings[name] = _settings(ph.settings, name, flat, file, problems)
        shape = next((ph.shape for ph in (registry.phases.get(n) for n in spec.flow)
                      if ph is not None and ph.shape is not None), None)
        self.deal_shape: DealShape | None = shape(self) if shape is not None else None
        """The deal's shape (hand sizes, the sizes a stacked deal keeps), as the phase that
        deals declares it; ``None`` when no phase of the flow declares one (a plug-in's own
        dealing: any stacked sizes will do)."""
        self.spare_name: str = (self.deal_shape.spare_name if self.deal_shape is not None
                                else "spare hand")
        """What the players call the cards dealt to nobody (the deal's ``spare_name``: spare
        hand, talon, dead hand, widow): every text that names the spare hand reads it."""
        share = self.policies.get("final_share")
        self.tracks_contributions = bool(
            share is not None and spec.rules.leftover_at_match_end == "share"
            and share.spec.tracks_contributions)
        problems.extend(_semantic_problems(self))
        if problems:
            raise VariantError(list(dict.fromkeys(problems)))
        self.phases: tuple[Any, ...] = tuple(
            registry.phases[name].impl(self) for name in spec.flow
        )
        self.steps: tuple[Step, ...] = steps_of(self.phases)
        """The phases as a deal calls them (each a :class:`~stops.engine.deal.Step`: the
        compiled build calls a built-in phase through its native method table)."""
        self.state_types: frozenset[type] = frozenset(
            [kind for phase in self.phases for kind in phase.state_types]
            + [kind for bound in self.policies.values() for kind in bound.spec.states])
        """The classes of per-deal state the phases and policies of this variant declare:
        the only ones its deals make (``Deal.state``)."""
        self.turns_up: bool = any(registry.phases[name].turns_up for name in spec.flow)
        """A phase turns up the last card dealt: stacked deals (records) name it
        (``turn_up``)."""
        stake = self.policies.get("stake_rule")
        self.exempts_last_winner: bool = bool(
            stake is not None and stake.spec.exempts_winner is not None
            and stake.spec.exempts_winner(stake.params))
        """The stake rule excuses the last deal's winner (unless he deals): the table puts
        him in a new deal's ``exempt`` seats (docs/family-rulings.md F33)."""

    # -- convenience ----------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def record_ref(self) -> str | dict[str, Any]:
        """How a record names this variant: a built-in's name, or else the variant itself
        (its resolved rules as a mapping, options included), so the record replays
        anywhere. See :mod:`stops.rules.untrusted`."""
        from stops.rules.untrusted import is_builtin, resolved_mapping

        builtin = self.cache.get("builtin")
        if builtin is None:
            builtin = self.cache["builtin"] = is_builtin(self)
        return self.ref if builtin else resolved_mapping(self)

    @property
    def record_options(self) -> dict[str, Any]:
        """The options a record lists beside :attr:`record_ref` (none when the variant
        itself is embedded: its rules already include them)."""
        return dict(self.options) if isinstance(self.record_ref, str) else {}

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickle by what the variant *is* (a built-in name, or its resolved rules), so
        variants, tables and deals can go to worker processes. A custom registry is pickled
        with it (its plug-ins must be importable functions)."""
        reg = None if self.registry is default_registry() else self.registry
        ref = self.record_ref
        return (_unpickle_variant, (ref, self.record_options, reg))

    @property
    def title(self) -> str:
        return self.spec.title or self.spec.name

    @property
    def players(self) -> tuple[int, int]:
        return (self.spec.players.min, self.spec.players.max)

    @overload
    def policy(self, slot: Slot[P]) -> BoundPolicy[P]: ...
    @overload
    def policy(self, slot: str) -> BoundPolicy[Any]: ...
    def policy(self, slot: Slot[Any] | str) -> BoundPolicy[Any]:
        """The policy bound to ``slot`` (a :class:`~stops.rules.contracts.Slot`, typed by its
        protocol, or a slot's name)."""
        return self.policies[slot if isinstance(slot, str) else slot.name]

    def settings(self, phase: str) -> Any:
        """The settings of phase ``phase`` in this variant (``None`` if it has none)."""
        return self._settings.get(phase)

    def verbs(self) -> tuple[Verb, ...]:
        """The verbs of this variant's decisions: those its phases declare, in the order of
        its flow, then the engine's own verbs no phase listed (a host program, the terminal
        and the PettingZoo codec read the decisions a variant can ask for here)."""
        out: dict[str, Verb] = {}
        for name in self.spec.flow:
            for v in self.registry.phases[name].verbs:
                out.setdefault(v.name, v)
        for v in CORE_VERBS:
            out.setdefault(v.name, v)
        return tuple(out.values())

    def event_types(self) -> tuple[EventType, ...]:
        """The kinds of event this variant's phases declare, in the order of its flow (the
        engine's own kinds are not listed: :data:`~stops.engine.events.CORE_EVENTS`)."""
        out: dict[str, EventType] = {}
        for name in self.spec.flow:
            for t in self.registry.phases[name].events:
                out.setdefault(t.kind, t)
        return tuple(out.values())

    def with_options(self, **options: Any) -> Variant:
        """The same variant with more rule choices overridden (its file is not read again)."""
        merged = {**self.options, **options}
        base = self.cache.get("base data")
        if not isinstance(base, dict):
            from stops.rules.untrusted import resolved_mapping

            base = resolved_mapping(self)
            merged = dict(options)
        return _from_data(base, merged, self.file, self.registry, self.ref,
                          {**self.options, **options}, check=options)

    def __repr__(self) -> str:
        opts = f", options={self.options}" if self.options else ""
        return f"Variant({self.name!r}{opts})"


def unknown_policy(registry: Registry, slot: str, name: object) -> str:
    """The message for a policy name that ``slot`` does not know, with the nearest name."""
    names = registry.policy_names(slot)
    known = ", ".join(names) or "none registered"
    return (f"unknown policy {name!r} for {slot}{suggest(name, names)}; expected one of: "
            f"{known} (a plug-in's policy must be registered first: stops ... --plugins "
            "MODULE_OR_FILE)")


P = TypeVar("P")


def _bind(registry: Registry, slot: str, ref: PolicyRef, file: str,
          problems: list[tuple[str, str, str]], flat: Mapping[str, Any],
          layers: Mapping[str, int]) -> BoundPolicy[Any] | None:
    """Bind a slot's policy, structuring its parameters from the inline ones and the flat
    rules that name them (the one set later wins; in one file the inline one)."""
    path = f"rules.{slot}"
    spec = registry.policies.get((slot, ref.use))
    if spec is None:
        problems.append((file, path, unknown_policy(registry, slot, ref.use)))
        return None
    params: Any = None
    if spec.params is not None:
        fields = attrs.fields(spec.params)
        by_option = {option_name(f): f.name for f in fields}
        inline = {by_option.get(k, k): v for k, v in ref.params.items()}
        values: dict[str, Any] = {}
        for f in fields:
            if not has_flat_name(f):
                continue
            for opt in sorted((o for o in option_names(f) if o in flat),
                              key=lambda o: layers.get(o, 0)):  # the latest layer wins
                if f.name not in inline or layers.get(opt, 0) > layers.get(slot, 0):
                    values[f.name] = flat[opt]
        values.update({k: v for k, v in inline.items() if k not in values})
        by_name = {f.name: f for f in fields}
        values = {k: unalias(by_name[k], v) if k in by_name else v for k, v in values.items()}
        try:
            params = structure(values, spec.params, file, path)
        except VariantError as e:
            problems.extend((f_, _flat_path(p_, slot, flat, by_option), m)
                            for f_, p_, m in e.problems)
            return None
        out_of_bounds = bound_problems(params, path)
        if out_of_bounds:   # the bounds the schema states for these parameters
            problems.extend((file, p, m) for p, m in out_of_bounds)
            return None
    elif ref.params:
        problems.append((file, path, f"policy {ref.use!r} takes no parameters, got "
                         + ", ".join(sorted(ref.params))))
        return None
    return BoundPolicy(slot, ref.use, spec.impl, params, spec)


def bound_problems(obj: Any, path: str = "") -> list[tuple[str, str]]:
    """Values outside the bounds their fields' metadata declares (``min``, ``nonblank``):
    the same bounds the JSON Schema states, so the two agree."""
    out: list[tuple[str, str]] = []
    if isinstance(obj, tuple | list):
        for i, item in enumerate(obj):
            out += bound_problems(item, f"{path}[{i}]")
        return out
    if not attrs.has(type(obj)):
        return out
    for f in attrs.fields(type(obj)):
        value = getattr(obj, f.name)
        p = f"{path}.{f.name}" if path else f.name
        low = f.metadata.get("min")
        if low is not None and isinstance(value, int) and value < low:
            unit = f.metadata.get("unit")
            out.append((p, f"expected at least {low} {unit}, got {value}" if unit
                        else f"expected a number >= {low}, got {value}"))
        if f.metadata.get("nonblank") and isinstance(value, str) and not value.strip():
            out.append((p, f"expected a non-empty {f.name}"))
        if attrs.has(type(value)) or isinstance(value, tuple | list):
            out += bound_problems(value, p)
    return out


def _flat_path(path: str, slot: str, flat: Mapping[str, Any], by_option: Mapping[str, str]
               ) -> str:
    """Blame a bad parameter on its flat rule when that is where it was given."""
    field = path.rsplit(".", 1)[-1]
    for opt, name in by_option.items():
        if name == field and opt in flat:
            return f"rules.{opt}"
    return path


def _settings(cls: type, phase: str, flat: Mapping[str, Any], file: str,
              problems: list[tuple[str, str, str]]) -> Any:
    values = {f.name: unalias(f, flat[opt]) for f in attrs.fields(cls) if has_flat_name(f)
              for opt in option_names(f) if opt in flat}
    try:
        return structure(values, cls, file, f"rules.{phase}")
    except VariantError as e:
        by_option = {option_name(f): f.name for f in attrs.fields(cls)}
        problems.extend((f_, _flat_path(p_, phase, flat, by_option), m)
                        for f_, p_, m in e.problems)
        return cls()


def _flat_problems(registry: Registry, flat: Mapping[str, Any], file: str
                   ) -> list[tuple[str, str, str]]:
    """A flat rule must be some policy's parameter or some phase's setting, with a value of
    the right type for at least one of them (the policy in use is checked in full later)."""
    out: list[tuple[str, str, str]] = []
    index = registry.options()
    for n, (key, value) in enumerate(flat.items()):
        if len(out) >= MAX_RULE_PROBLEMS:
            # each problem costs a search for the nearest name: a block of thousands of
            # unknown rules would cost seconds, and say nothing more
            out.append((file, "rules", f"and {len(flat) - n} more rules not checked"))
            break
        owners: list[OptionOwner] = index.get(key, [])
        if not owners:
            known = sorted({*RULE_NAMES, *index})
            hint = suggest(key, known)
            out.append((file, f"rules.{key}", f"unknown key {key!r}{hint}" if hint else
                        "unknown key; allowed keys: " + ", ".join(known)))
            continue
        found: list[tuple[str, str, str]] = []
        for o in owners:
            cls = (registry.policies[(o.slot, o.name)].params if o.slot is not None
                   else registry.phases[o.name].settings)
            if cls is None:  # pragma: no cover - the index lists only classes
                continue
            try:
                structure({o.field: unalias(attrs.fields_dict(cls)[o.field], value)}, cls,
                          file, f"rules.{key}")
            except VariantError as e:
                found = [(f, f"rules.{key}", m) for f, _, m in e.problems]
            else:
                found = []
                break
        out.extend(found)
    return out


def _show_value(v: Any) -> str:
    return repr(v) if not isinstance(v, str) else f"'{v}'"


def _semantic_problems(v: Variant) -> list[tuple[str, str, str]]:
    f = v.file
    out: list[tuple[str, str, str]] = []
    spec = v.spec
    r = spec.rules
    out += [(f, p, m) for p, m in bound_problems(spec)]
    pmin, pmax = spec.players.min, spec.players.max
    if pmax < pmin:
        out.append((f, "players.max", f"expected max >= min ({pmin}), got {pmax}"))
    hands = pmax + (1 if r.spare_hand else 0)
    if pmax >= 2 and len(v.deck) < hands:
        out.append((f, "players.max", f"a {len(v.deck)}-card pack cannot deal {hands} hands; "
                    f"expected at most {len(v.deck) - (1 if r.spare_hand else 0)} players"))
    # layout
    seen: set[str] = set()
    deck = set(v.deck)
    for i, s in enumerate(spec.layout):
        p = f"layout[{i}]"
        if s.id in seen:
            out.append((f, f"{p}.id", f"duplicate space id {s.id!r}"))
        seen.add(s.id)
        if s.kind == "card":
            if s.card is None:
                out.append((f, f"{p}.card", "a card space needs 'card: <card>'"))
            elif s.card not in deck:
                out.append((f, f"{p}.card", f"{s.card} is removed from the pack"))
        elif s.kind == "card_below":   # the card shown; the card below it wins (its check)
            if s.card is None:
                out.append((f, f"{p}.card", "a card_below space needs 'card: <card>'"))
        elif s.kind == "wager":   # a side-bet on the card's holder
            if s.card is None:
                out.append((f, f"{p}.card", "a wager space needs 'card: <card>'"))
            elif s.card not in deck:
                out.append((f, f"{p}.card", f"{s.card} is removed from the pack"))
        elif s.card is not None:
            out.append((f, f"{p}.card", "only a card, card_below or wager space takes 'card' "
                        f"(this is {s.kind})"))
        if s.kind == "combo":
            if len(set(s.cards)) < 2:
                out.append((f, f"{p}.cards", "a combo space needs two or more different cards"))
            for c in s.cards:
                if c not in deck:
                    out.append((f, f"{p}.cards", f"{c} is removed from the pack"))
        elif s.cards:
            out.append((f, f"{p}.cards", f"only a combo space takes 'cards' (this is {s.kind})"))
        if s.kind == "suit_run":
            idx = sorted(RANKS.index(x) for x in s.ranks)
            if len(idx) < 2 or idx != list(range(idx[0], idx[0] + len(idx))):
                out.append((f, f"{p}.ranks", "a suit_run space needs two or more consecutive "
                            "ranks, e.g. [8, 9, 10]"))
        elif s.ranks:
            out.append((f, f"{p}.ranks", f"only a suit_run space takes 'ranks' (this is {s.kind})"))
    # flow
    reg = v.registry
    for i, name in enumerate(spec.flow):
        ph = reg.phases.get(name)
        if ph is None:
            out.append((f, f"flow[{i}]", f"unknown phase {name!r}"
                        + suggest(name, sorted(reg.phases)) + "; expected one of: "
                        + ", ".join(sorted(reg.phases))))
            continue
        if name in spec.flow[:i]:
            out.append((f, f"flow[{i}]", f"phase {name!r} appears twice"))
        for need in ph.requires:
            if need not in spec.flow[:i]:
                out.append((f, f"flow[{i}]", f"phase {name!r} must come after {need!r}"))
    if "play" not in spec.flow:
        out.append((f, "flow", "expected a 'play' phase: without it a deal cannot end"))
    elif "settle" not in spec.flow[spec.flow.index("play"):]:
        out.append((f, "flow", "expected a 'settle' phase after 'play': without it nobody "
                    "is paid at the end of a deal"))
    for name in spec.flow:
        ph = reg.phases.get(name)
        if ph is not None and ph.check is not None:
            out.extend((f, "flow", msg) for msg in ph.check(v))
    for slot, bound in v.policies.items():
        if bound.spec.check is not None:
            for msg in bound.spec.check(v, bound.params):
                out.append((f, _check_path(v, slot, bound, msg), _check_text(msg)))
    return out


def _check_path(v: Variant, slot: str, bound: BoundPolicy[Any], msg: str | tuple[str, str]
                ) -> str:
    """Where a policy's check points: the slot, or (for ``(field, message)``) the parameter,
    by its flat name when the variant gave it flat."""
    if isinstance(msg, str) or bound.spec.params is None:
        return f"rules.{slot}"
    field = attrs.fields_dict(bound.spec.params)[msg[0]]
    opt = option_name(field)
    return f"rules.{opt}" if has_flat_name(field) and opt in v.flat else f"rules.{slot}.{msg[0]}"


def _check_text(msg: str | tuple[str, str]) -> str:
    return msg if isinstance(msg, str) else msg[1]


def _check_presets(data: dict[str, Any], label: str, reg: Registry) -> None:
    """Every preset must give a loadable variant, even if nobody switches it on today."""
    for name in presets_of(data, label):
        trial = apply_preset(data, name, label)
        try:
            Variant(structure_spec(trial, label), file=label, options={}, registry=reg,
                    raw=trial, ref=label)
        except VariantError as e:
            raise VariantError([(f, f"presets.{name} -> {p}", m)
                                for f, p, m in attribute(e.problems, trial.get(ORIGIN) or {})]
                               ) from None


def _from_data(base: dict[str, Any], options: Mapping[str, Any], file: str, reg: Registry,
               ref: str, all_options: Mapping[str, Any],
               check: Mapping[str, Any] | None = None) -> Variant:
    """The variant of ``base`` with ``options``; of those, the ones in ``check`` (all of them
    by default; none for options already accepted once: a record's, a pickled variant's)
    must be read by some rule in force."""
    data = apply_options(base, options, reg.options())
    spec = structure_spec(data, file)
    try:
        v = Variant(spec, file=file, options=all_options, registry=reg, raw=data, ref=ref)
    except VariantError as e:
        raise VariantError(attribute(e.problems, data.get(ORIGIN) or {})) from None
    unread = unread_options(v, options if check is None else check)
    if unread:
        raise VariantError(unread)
    v.cache["base data"] = base
    return v


def unread_options(v: Variant, options: Mapping[str, Any]) -> list[tuple[str, str, str]]:
    """Options given by a flat name (``-o bet_limit=4``) that no rule in force in ``v``
    reads: accepted, they would change nothing while looking as if they did (``stops rules``
    would say no rule changed). A flat rule *in a file* is only hinted at (``stops check``):
    a house-rule file may keep a setting for a rule its own presets switch on."""
    from stops.rules.prose import in_force

    index = v.registry.options()
    flat = [k for k in options if isinstance(k, str) and k not in RULE_FIELDS and k in index]
    if not flat:
        return []
    force = in_force(v)
    out: list[tuple[str, str, str]] = []
    for key in flat:
        owners = index[key]
        if any((o.slot is not None and o.slot in force and force[o.slot].name == o.name)
               or (o.slot is None and o.name in v.flow) for o in owners):
            continue
        out.append(("<options>", key, _unread_text(v, key, owners, force)))
    return out


def _unread_text(v: Variant, key: str, owners: list[OptionOwner],
                 force: Mapping[str, BoundPolicy[Any]]) -> str:
    """Which rule ``key`` belongs to, and why this variant does not use that rule."""
    phases = [o.name for o in owners if o.slot is None]
    if phases:
        stages = " or ".join(f"the {p} stage" for p in phases)
        return (f"{key} is a setting of {stages}, which {v.name} does not have; this option "
                "would change nothing")
    o = owners[0]
    slot = o.slot or ""
    rules = " or ".join(f"{x.slot}: {x.name}" for x in owners)
    if slot in force:
        why = f"{v.name} plays {slot}: {force[slot].name}"
        hint = f" (choose it with -o {slot}={o.name})" if len(owners) == 1 else ""
    else:
        why = f"{slot} never applies in {v.name}"
        hint = ""
    return f"{key} is a setting of the rule {rules}, which {v.name} does not use ({why}){hint}"


def _unpickle_variant(ref: str | dict[str, Any], options: dict[str, Any],
                      registry: Registry | None) -> Variant:
    key = None
    if isinstance(ref, str) and registry is None:
        import json

        try:
            key = (ref, json.dumps(options, sort_keys=True))
        except (TypeError, ValueError):
            key = None
        hit = _UNPICKLED.get(key) if key is not None else None
        if hit is not None:
            return hit
    if isinstance(ref, str):
        v = load_variant(ref, options, registry=registry, keep_unread_options=True)
    else:
        v = from_mapping(ref, label="<pickled variant>", registry=registry,
                         options=options, keep_unread_options=True)
    if key is not None and len(_UNPICKLED) < 256:
        _UNPICKLED[key] = v
    return v


_UNPICKLED: dict[tuple[str, str], Variant] = {}
"""Built-in variants already rebuilt from a pickle in this process (variants are immutable,
so a worker receiving many tables loads each game once)."""


def load_variant(
    ref: str | os.PathLike[str] | Variant,
    options: Mapping[str, Any] | None = None,
    *,
    registry: Registry | None = None,
    confine: Path | None = None,
    keep_unread_options: bool = False,
) -> Variant:
    """Load a built-in variant by name (``"boodle"``) or a variant file by path.

    ``options`` override rule choices, exactly as a ``rules:`` block in a file that
    ``extends`` this one would. Any problem raises :class:`~stops.engine.errors.VariantError`.
    ``confine`` (a directory) lets the file extend only built-ins and files in it.
    An option that no rule in force reads (``bet_limit`` for a game with no betting round) is
    refused, since it would change nothing; ``keep_unread_options`` keeps it instead (a
    record's options replay as they were recorded).
    """
    if options is not None and not isinstance(options, Mapping):
        raise VariantError.one("<options>", "", "options must be a mapping of rule: choice, "
                               f"got {type(options).__name__}")
    if registry is not None and not isinstance(registry, Registry):
        raise VariantError.one("<registry>", "", "registry must be a stops.Registry, got "
                               f"{type(registry).__name__}")
    if isinstance(ref, Variant):
        if not options:
            return ref
        return ref.with_options(**options)   # refuses an unread option of these
    if not isinstance(ref, str | os.PathLike):
        raise VariantError.one("<argument>", "", "expected a built-in variant name, a file "
                               f"path or a Variant, got {type(ref).__name__}")
    reg = registry or default_registry()
    key = _cache_key(ref, options, reg, keep_unread_options) if confine is None else None
    if key is not None:
        cached = _BUILT.get(reg, {}).get(key)
        if cached is not None:
            return cached
    data, path = load_raw(ref, confine=confine)
    label = str(path)
    _check_presets(data, label, reg)
    ref_text = os.fspath(ref) if not isinstance(ref, str) else ref
    variant = _from_data(data, options or {}, label, reg, ref_text, options or {},
                         check={} if keep_unread_options else None)
    if key is not None:
        with _BUILT_LOCK:
            built = _BUILT.setdefault(reg, {})
            if len(built) >= _BUILT_MAX:
                built.pop(next(iter(built)))  # the oldest: a bounded cache
            built[key] = variant
    return variant


_BUILT: weakref.WeakKeyDictionary[Registry, dict[tuple[Any, ...], Variant]] = (
    weakref.WeakKeyDictionary())
"""Built-in variants already built, per registry, by (name, options, registry version): a
Variant is immutable and shared by every table that plays it, so ``Table("boodle",
options=...)`` builds it once instead of for every table (issue 24: 3 ms against 10 µs)."""
_BUILT_LOCK = threading.Lock()
_BUILT_MAX = 64


def _cache_key(ref: str | os.PathLike[str], options: Mapping[str, Any] | None, reg: Registry,
               keep: bool) -> tuple[Any, ...] | None:
    """The cache key of a built-in variant with ``options``, or ``None`` when it may not be
    cached: a file path (its file may change), or options that are not plain data."""
    if not isinstance(ref, str) or is_path(ref):
        return None
    try:
        opts = json.dumps(dict(options or {}), sort_keys=True, allow_nan=False)
    except (TypeError, ValueError):
        return None
    return (ref, opts, reg.version, keep)


def list_variants() -> list[str]:
    """The names of the built-in variants."""
    return builtin_names()


def variant_from_mapping(data: Mapping[str, Any], *, label: str = "<mapping>",
                         registry: Registry | None = None) -> Variant:
    """Build a variant from an in-memory mapping (as a YAML file would give)."""
    return from_mapping(data, label=label, registry=registry)


def from_mapping(data: Mapping[str, Any], *, label: str, registry: Registry | None,
                 check_presets: bool = True, options: Mapping[str, Any] | None = None,
                 keep_unread_options: bool = False) -> Variant:
    """:func:`variant_from_mapping`, with ``options`` applied in the same build; without
    ``check_presets`` the presets are not built (a record's variant: only a preset its
    options switch on matters, and applying it builds it)."""
    if not isinstance(data, Mapping):
        raise VariantError.one(label, "", "a variant must be a mapping of keys")
    check_plain(data, label)
    d = check_top(dict(data), label)
    if "extends" in d:
        from stops.rules.loader import merge

        base = d["extends"]
        if not isinstance(base, str):
            raise VariantError.one(label, "extends", "expected a built-in name or a file path")
        parent, _ = load_raw(base, relative_to=Path.cwd(), referrer=label)
        d = merge(parent, d, label)
    reg = registry or default_registry()
    if check_presets:
        _check_presets(d, label, reg)
    return _from_data(d, options or {}, label, reg, label, options or {},
                      check={} if keep_unread_options else None)


def _load_for_engine(ref: str, options: Mapping[str, Any] | None, registry: Any) -> Variant:
    return load_variant(ref, options, registry=registry)


def _load_untrusted(ref: Any, options: Mapping[str, Any] | None, registry: Any) -> Variant:
    from stops.rules.untrusted import variant_for_record

    return variant_for_record(ref, options, registry)


install_loader(_load_for_engine, _load_untrusted)
