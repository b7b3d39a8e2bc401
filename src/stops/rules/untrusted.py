"""Variants named by data that may come from anyone: records, saves, pickles.

A record or a save carries the variant it was played under: a built-in *name*, or the
variant *itself* (the resolved rules as a mapping, so that a house-rule record replays on any
machine). A *path* is honoured only when the caller allows it, only beside the record, and
only to a ``.yaml`` / ``.yml`` file; everything that file ``extends`` must be a built-in or
lie beside it too. So replaying an uploaded record can never make the program read any
other file (see ``docs/embedding.md``, "Untrusted input").
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import attrs

from stops.engine.cards import Card
from stops.engine.errors import RecordError, VariantError
from stops.rules.loader import BUILTIN_SUFFIX, builtin_dir, builtin_names, check_plain
from stops.rules.registry import option_name

if TYPE_CHECKING:
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

VARIANT_SUFFIXES = (".yaml", ".yml")
MAX_EMBEDDED_VALUES = 50_000
"""A variant written into a record or a save, and a record's options, may hold at most this
many values (a variant as the library writes it holds a few thousand at most): with the
presets left unbuilt, loading one costs a fraction of a second whatever the record holds."""


def _plain(v: Any) -> Any:
    """An attrs value as plain YAML/JSON data (cards as text, policies as names)."""

    from stops.rules.model import PolicyRef

    if isinstance(v, PolicyRef):
        return v.to_yaml()
    if isinstance(v, Card):
        return str(v)
    if attrs.has(type(v)):
        return {f.name: _plain(getattr(v, f.name)) for f in attrs.fields(type(v))}
    if isinstance(v, tuple | list):
        return [_plain(x) for x in v]
    if isinstance(v, Mapping):
        return {str(k): _plain(x) for k, x in v.items()}
    if isinstance(v, str):
        return str(v)  # RankName -> str
    return v


def resolved_mapping(variant: Variant) -> dict[str, Any]:
    """The variant itself as plain data: every rule spelled out, nothing ``extends``.

    ``variant_from_mapping`` of it gives the same game on any machine. Computed once per
    variant; each call returns a fresh copy.
    """
    cached = variant.cache.get("resolved mapping")
    if cached is None:
        data = _plain(variant.spec)
        rules = data["rules"]
        # every policy with its parameters inline, as bound (flat names included), and
        # every phase setting by its flat name
        for slot, bound in variant.policies.items():
            rules[slot] = ({"use": bound.name, **_plain(bound.params)}
                           if bound.params is not None else bound.name)
        for name in variant.flow:
            settings = variant.settings(name)
            if settings is not None:
                for f in attrs.fields(type(settings)):
                    rules[option_name(f)] = _plain(getattr(settings, f.name))
        cached = variant.cache["resolved mapping"] = json.dumps(data)
    out: dict[str, Any] = json.loads(str(cached))
    return out


def is_builtin(variant: Variant) -> bool:
    """Was this variant loaded by the name of a built-in (with options, perhaps)?"""
    ref = variant.ref
    if not isinstance(ref, str) or ref not in builtin_names():
        return False
    try:
        return Path(variant.file).resolve() == (builtin_dir() / (ref + BUILTIN_SUFFIX)).resolve()
    except OSError:
        return False


def beside(ref: str, base_dir: str | os.PathLike[str]) -> Path:
    """``ref`` as a file directly in ``base_dir``, or a RecordError: no directories, no
    ``..``, no absolute paths, no links out, and a ``.yaml`` / ``.yml`` name."""
    base = Path(base_dir)
    if (not ref or "/" in ref or "\\" in ref or os.sep in ref or ref in (".", "..")
            or "\x00" in ref or len(ref) > 255):
        raise RecordError("'variant': a path in a record must be a file name beside the "
                          "record (no directories)")
    if not ref.endswith(VARIANT_SUFFIXES):
        raise RecordError("'variant': a path in a record must name a .yaml or .yml file")
    try:
        real = (base / ref).resolve()
        if real.parent != base.resolve():
            raise RecordError("'variant': the file must lie beside the record")
    except OSError:
        raise RecordError("'variant': cannot resolve the file beside the record") from None
    return real


def _json_safe(options: Any) -> bool:
    try:
        json.dumps(options)
    except (TypeError, ValueError):
        return False
    return True


def variant_for_record(ref: Any, options: Any = None, registry: Registry | None = None, *,
                       base_dir: str | os.PathLike[str] | None = None,
                       allow_paths: bool = False) -> Variant:
    """The variant a record or save names: a built-in name or the variant as a mapping;
    a path only with ``allow_paths`` and a ``base_dir`` (the record's directory). An option
    no rule in force reads is kept, not refused: it changes nothing, and the record replays
    as it was recorded (``load_variant`` refuses one given anew)."""
    from stops.rules.variant import from_mapping, load_variant

    if options is not None and not isinstance(options, Mapping):
        raise RecordError("'options' must be a mapping of rule: choice")
    try:
        check_plain(options, "<options>", budget=MAX_EMBEDDED_VALUES)
    except VariantError as e:
        raise RecordError(f"'options': {e.problems[0][2]}") from None
    if isinstance(ref, Mapping):
        try:
            check_plain(ref, "<record variant>", budget=MAX_EMBEDDED_VALUES)
        except VariantError as e:
            raise RecordError(f"'variant': {e.problems[0][2]}") from None
        data = copy.deepcopy(dict(ref))
        base = data.get("extends")
        if base is not None and (not isinstance(base, str) or base not in builtin_names()):
            raise RecordError("'variant.extends': a variant inside a record may extend only "
                              "a built-in variant, by name")
        presets = data.get("presets")
        if isinstance(presets, Mapping):
            # only a preset the options switch on can change the game: the others are not
            # built (each one is a whole variant to check), so a record costs one variant
            data["presets"] = {k: p for k, p in presets.items()
                               if isinstance(k, str) and (options or {}).get(k) is True}
        try:
            return from_mapping(data, label="<record variant>", registry=registry,
                                check_presets=False, options=options,
                                keep_unread_options=True)
        except VariantError as e:
            raise RecordError(f"the record's variant is not valid: {e}") from None
    if not isinstance(ref, str):
        raise RecordError("'variant' must be a built-in variant name or the variant itself "
                          "(a mapping)")
    if ref in builtin_names():
        if registry is None and (not options or _json_safe(options)):
            from stops.rules.variant import _unpickle_variant

            return _unpickle_variant(ref, dict(options or {}), None)  # loaded once a process
        return load_variant(ref, options, registry=registry, keep_unread_options=True)
    if not (ref.endswith(VARIANT_SUFFIXES) or "/" in ref or "\\" in ref or os.sep in ref):
        shown = ref if len(ref) <= 60 and ref.isprintable() else ref[:60].encode(
            "ascii", "replace").decode()
        raise RecordError(f"'variant': no built-in variant named {shown!r}; built-ins are: "
                          + ", ".join(builtin_names()))
    if not allow_paths or base_dir is None:
        raise RecordError("'variant' names a file; files are read only when the caller "
                          "allows it (replay(..., base_dir=..., allow_paths=True) or "
                          "`stops replay`), and only beside the record")
    path = beside(ref, base_dir)
    return load_variant(path, options, registry=registry, confine=path.parent,
                        keep_unread_options=True)
