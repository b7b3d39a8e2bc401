"""The resolved, immutable rules of one game: :class:`Variant` and :func:`load_variant`."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import attrs

from stops.engine.cards import CARDS, RANKS, Card
from stops.engine.errors import VariantError
from stops.engine.resolver import install_loader
from stops.rules.loader import (
    ORIGIN,
    apply_options,
    apply_preset,
    attribute,
    builtin_names,
    check_top,
    load_raw,
    presets_of,
    structure,
    structure_spec,
    suggest,
)
from stops.rules.model import PolicyRef, Rules, Space, VariantSpec, slot_names
from stops.rules.registry import PolicySpec, Registry, default_registry


@attrs.frozen
class BoundPolicy:
    """A policy chosen for a slot, with its parameters structured."""

    slot: str
    name: str
    impl: Any
    params: Any
    spec: PolicySpec


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
        self.space_ids: tuple[str, ...] = tuple(s.id for s in spec.layout)
        self.spaces: dict[str, Space] = {s.id: s for s in spec.layout}
        removed = set(spec.deck.remove)
        self.deck: tuple[Card, ...] = tuple(c for c in CARDS if c not in removed)
        self.kitty: str | None = next((s.id for s in spec.layout if s.kind == "kitty"), None)
        self.pot: str | None = next((s.id for s in spec.layout if s.kind == "pot"), None)
        self.policies: dict[str, BoundPolicy] = {}
        self.cache: dict[object, object] = {}
        """Derived values that phases and policies compute once per variant."""
        problems: list[tuple[str, str, str]] = []
        for slot in slot_names():
            ref_: PolicyRef = getattr(spec.rules, slot)
            bound = _bind(registry, slot, ref_, file, problems)
            if bound is not None:
                self.policies[slot] = bound
        problems.extend(_semantic_problems(self))
        if problems:
            raise VariantError(problems)
        self.phases: tuple[Any, ...] = tuple(
            registry.phases[name].impl(self) for name in spec.flow
        )

    # -- convenience ----------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.spec.name

    @property
    def record_ref(self) -> str:
        """How a record names this variant: the built-in name, or the file's absolute path."""
        from stops.rules.loader import _is_path

        return str(Path(self.file).resolve()) if _is_path(self.ref) else self.ref

    @property
    def title(self) -> str:
        return self.spec.title or self.spec.name

    @property
    def players(self) -> tuple[int, int]:
        return (self.spec.players.min, self.spec.players.max)

    @property
    def flow(self) -> tuple[str, ...]:
        return self.spec.flow

    def policy(self, slot: str) -> BoundPolicy:
        return self.policies[slot]

    def with_options(self, **options: Any) -> Variant:
        """The same variant with more rule choices overridden."""
        return load_variant(self.ref, options={**self.options, **options},
                            registry=self.registry)

    def __repr__(self) -> str:
        opts = f", options={self.options}" if self.options else ""
        return f"Variant({self.name!r}{opts})"

    def hand_sizes(self, players: int) -> list[int]:
        """Cards per seat (from dealer's left) and, last, the spare hand's size."""
        hands = players + (1 if self.rules.spare_hand else 0)
        base, extra = divmod(len(self.deck), hands)
        return [base + (1 if i < extra else 0) for i in range(hands)]


def unknown_policy(registry: Registry, slot: str, name: object) -> str:
    """The message for a policy name that ``slot`` does not know, with the nearest name."""
    names = registry.policy_names(slot)
    known = ", ".join(names) or "none registered"
    return f"unknown policy {name!r} for {slot}{suggest(name, names)}; expected one of: {known}"


def _bind(registry: Registry, slot: str, ref: PolicyRef, file: str,
          problems: list[tuple[str, str, str]]) -> BoundPolicy | None:
    path = f"rules.{slot}"
    spec = registry.policies.get((slot, ref.use))
    if spec is None:
        problems.append((file, path, unknown_policy(registry, slot, ref.use)))
        return None
    params: Any = None
    if spec.params is not None:
        try:
            params = structure(ref.params, spec.params, file, path)
        except VariantError as e:
            problems.extend(e.problems)
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
    if "poker" in spec.flow and pmax >= 2 and len(v.deck) >= hands:
        smallest = len(v.deck) // hands
        if smallest < r.poker_hand_size and r.short_poker_hand == "sit_out":
            out.append((f, "players.max", f"with {pmax} players some hands have only "
                        f"{smallest} cards, fewer than a poker hand and short hands sit out; "
                        f"expected at most {len(v.deck) // r.poker_hand_size - 1} players"))
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
        elif s.card is not None:
            out.append((f, f"{p}.card", f"only a card space takes 'card' (this is {s.kind})"))
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
    if "poker" in spec.flow and v.pot is None:
        out.append((f, "flow", "the poker phase bets into the pot, but the layout has no "
                    "space of kind pot"))
    # references
    if r.run_rule.use != "none" and r.run_space not in v.spaces:
        out.append((f, "rules.run_space", f"no layout space {r.run_space!r}; expected one of "
                    + ", ".join(v.space_ids)))
    for slot, bound in v.policies.items():
        if bound.spec.check is not None:
            for msg in bound.spec.check(v, bound.params):
                out.append((f, f"rules.{slot}", msg))
    return out


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


def load_variant(
    ref: str | os.PathLike[str] | Variant,
    options: Mapping[str, Any] | None = None,
    *,
    registry: Registry | None = None,
) -> Variant:
    """Load a built-in variant by name (``"boodle"``) or a variant file by path.

    ``options`` override rule choices, exactly as a ``rules:`` block in a file that
    ``extends`` this one would. Any problem raises :class:`~stops.engine.errors.VariantError`.
    """
    if isinstance(ref, Variant):
        if not options:
            return ref
        return ref.with_options(**options)
    reg = registry or default_registry()
    data, path = load_raw(ref)
    label = str(path)
    _check_presets(data, label, reg)
    data = apply_options(data, options)
    spec = structure_spec(data, label)
    ref_text = os.fspath(ref) if not isinstance(ref, str) else ref
    try:
        return Variant(spec, file=label, options=options or {}, registry=reg, raw=data,
                       ref=ref_text)
    except VariantError as e:
        raise VariantError(attribute(e.problems, data.get(ORIGIN) or {})) from None


def list_variants() -> list[str]:
    """The names of the built-in variants."""
    return builtin_names()


def variant_from_mapping(data: Mapping[str, Any], *, label: str = "<mapping>",
                         registry: Registry | None = None) -> Variant:
    """Build a variant from an in-memory mapping (as a YAML file would give)."""
    if not isinstance(data, Mapping):
        raise VariantError.one(label, "", "a variant must be a mapping of keys")
    d = check_top(dict(data), label)
    if "extends" in d:
        from stops.rules.loader import merge

        base = d["extends"]
        if not isinstance(base, str):
            raise VariantError.one(label, "extends", "expected a built-in name or a file path")
        parent, _ = load_raw(base, relative_to=Path.cwd())
        d = merge(parent, d, label)
    spec = structure_spec(d, label)
    return Variant(spec, file=label, options={}, registry=registry or default_registry(),
                   raw=d, ref=label)


def _load_for_engine(ref: str, options: Mapping[str, Any] | None, registry: Any) -> Variant:
    return load_variant(ref, options, registry=registry)


install_loader(_load_for_engine)
