"""JSON Schema of variant files, generated from the same attrs model the loader uses.

``stops schema`` prints it; ``variants/variant.schema.json`` is a committed copy (a test keeps
it current) that the built-in files name in their ``yaml-language-server`` comment, so editors
validate and complete them. Policy names come from the registry, so a program that registers
its own policies can generate a schema that knows them.
"""

from __future__ import annotations

import json
import types
import typing
from typing import Any

import attrs

from stops.engine.cards import Card
from stops.engine.structure import MAX_INT
from stops.rules.loader import PRESET_KEYS
from stops.rules.model import DeckSpec, PlayerRange, PolicyRef, RankName, Rules, Space, VariantSpec
from stops.rules.registry import (
    Registry,
    default_registry,
    has_flat_name,
    option_names,
)

CARD_PATTERN = r"^\s*(?i:([2-9]|10|[TJQKA])([CDHS]|♣|♦|♥|♠|♧|♢|♡|♤))\s*$"
"""What :func:`stops.engine.cards.parse_card` reads (surrounding spaces included)."""
RANK_ENUM = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K", "A",
             "t", "j", "q", "k", "a", 2, 3, 4, 5, 6, 7, 8, 9, 10]


def _type_schema(t: Any, reg: Registry, slot: str | None = None) -> dict[str, Any]:
    origin = typing.get_origin(t)
    if t is PolicyRef and slot is not None:
        return _policy_schema(slot, reg)
    if origin is typing.Literal:
        return {"enum": list(typing.get_args(t))}
    if t is bool:
        return {"type": "boolean"}
    if t is int:
        return {"type": "integer", "minimum": -MAX_INT, "maximum": MAX_INT}
    if t is str:
        return {"type": "string"}
    if t is Card:
        return {"type": "string", "pattern": CARD_PATTERN}
    if t is RankName:
        return {"enum": RANK_ENUM}
    if origin in (tuple, list):
        args = [a for a in typing.get_args(t) if a is not Ellipsis]
        return {"type": "array", "items": _type_schema(args[0], reg) if args else {}}
    if origin in (typing.Union, types.UnionType):
        opts = [a for a in typing.get_args(t) if a is not type(None)]
        inner = _type_schema(opts[0], reg) if len(opts) == 1 else {
            "anyOf": [_type_schema(a, reg) for a in opts]}
        if type(None) in typing.get_args(t):   # Optional: null is read as "not given"
            return {"anyOf": [inner, {"type": "null"}]}
        return inner
    if attrs.has(t):
        return _class_schema(t, reg)
    return {}


def _class_schema(cls: type, reg: Registry, required: tuple[str, ...] = ()) -> dict[str, Any]:
    hints = typing.get_type_hints(cls)
    props: dict[str, Any] = {}
    for f in attrs.fields(cls):
        sch = _type_schema(hints[f.name], reg, slot=f.name if f.metadata.get("slot") else None)
        sch = _bounds(sch, f)
        doc = f.metadata.get("doc")
        if doc:
            sch = {**sch, "description": doc}
        props[f.name] = sch
    out: dict[str, Any] = {"type": "object", "properties": props, "additionalProperties": False}
    if required:
        out["required"] = list(required)
    return out


def _lowest(f: Any) -> int | None:
    """The smallest whole number a field allows: its metadata ``min`` or an attrs ``ge``/``gt``
    validator (the loader enforces both, so the schema states the same bound)."""
    lows: list[int] = []
    if f.metadata.get("min") is not None:
        lows.append(int(f.metadata["min"]))
    stack = [f.validator] if f.validator is not None else []
    while stack:
        v = stack.pop()
        stack.extend(getattr(v, "_validators", ()) or ())
        op, bound = getattr(v, "compare_op", None), getattr(v, "bound", None)
        if isinstance(bound, int) and op in (">=", ">"):
            lows.append(bound if op == ">=" else bound + 1)
    return max(lows) if lows else None


def _bounds(sch: dict[str, Any], f: Any) -> dict[str, Any]:
    """The field's bounds: the same ones the loader checks
    (:func:`stops.rules.variant.bound_problems`, attrs validators)."""
    names = f.metadata.get("value_aliases")
    if names and "enum" in sch:
        sch = {**sch, "enum": [*sch["enum"], *names]}
    low = _lowest(f)
    if low is not None and sch.get("type") == "integer":
        sch = {**sch, "minimum": max(low, sch.get("minimum", low))}
    if f.metadata.get("nonblank") and sch.get("type") == "string":
        sch = {**sch, "pattern": r"\S"}
    return sch


def _policy_schema(slot: str, reg: Registry) -> dict[str, Any]:
    names = reg.policy_names(slot)
    objects: list[dict[str, Any]] = []
    for name in names:
        spec = reg.policies[(slot, name)]
        props: dict[str, Any] = {"use": {"const": name}}
        if spec.params is not None:
            hints = typing.get_type_hints(spec.params)
            for a in attrs.fields(spec.params):
                props[a.name] = _bounds(_type_schema(hints[a.name], reg), a)
                if has_flat_name(a):
                    for opt in option_names(a):
                        props.setdefault(opt, props[a.name])
        objects.append({"type": "object", "properties": props, "required": ["use"],
                        "additionalProperties": False, "description": spec.doc})
    return {"anyOf": [{"enum": names}, *objects]}


def variant_schema(registry: Registry | None = None) -> dict[str, Any]:
    """The JSON Schema (draft 2020-12) of a variant file."""
    reg = registry or default_registry()
    body = _class_schema(VariantSpec, reg)
    props = body["properties"]
    props["extends"] = {"type": "string",
                        "description": "A built-in variant name or a file path to start from."}
    props["flow"]["items"] = {"enum": sorted(reg.phases)}
    props["layout"]["items"] = _class_schema(Space, reg, ("id", "kind"))
    props["players"] = {**_class_schema(PlayerRange, reg), "description": "Player range."}
    props["deck"] = {**_class_schema(DeckSpec, reg), "description": "The pack."}
    props["rules"] = {**_class_schema(Rules, reg), "description": "Every rule choice."}
    flat = props["rules"]["properties"]
    for name, owners in sorted(reg.options().items()):
        kinds = []
        for o in owners:
            cls = (reg.policies[(o.slot, o.name)].params if o.slot is not None
                   else reg.phases[o.name].settings)
            assert cls is not None
            sch = _bounds(_type_schema(typing.get_type_hints(cls)[o.field], reg),
                          attrs.fields_dict(cls)[o.field])
            if sch not in kinds:
                kinds.append(sch)
        where = ", ".join(f"{o.slot} {o.name}" if o.slot else f"phase {o.name}" for o in owners)
        flat.setdefault(name, {**(kinds[0] if len(kinds) == 1 else {"anyOf": kinds}),
                               "description": f"A parameter of {where}, by its flat name."})
    props["presets"] = {
        "type": "object",
        "description": "Named bundles of changes, switched on with options={name: true}.",
        "additionalProperties": {
            "type": "object",
            "properties": {k: props["layout" if k == "add_layout" else k]
                           for k in PRESET_KEYS},
            "additionalProperties": False,
        },
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://stops.invalid/variant.schema.json",
        "title": "stops variant file",
        "description": "A game of the Stops family, or a house rule extending one.",
        **body,
        # a file that extends another inherits its name, layout and flow
        "if": {"not": {"required": ["extends"]}},
        "then": {"required": ["name", "layout", "flow"]},
    }


def schema_text(registry: Registry | None = None) -> str:
    return json.dumps(variant_schema(registry), indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":  # pragma: no cover
    print(schema_text(), end="")
