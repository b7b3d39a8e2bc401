"""Strict structuring of untrusted data into typed models, with errors named by key path.

One converter discipline serves every reader of outside data: the variant loader
(:mod:`stops.rules.loader`) and the engine's saves and deal records
(:mod:`stops.engine.saving`, :mod:`stops.engine.recording`). Its hooks take nothing a plain
``int()``/``str()`` would coerce (a boolean is not a number, a number is not text), bound every
number, and refuse unknown keys; :func:`structure_errors` flattens a cattrs failure into
``(key path, message)`` pairs worded for a person. It lives in the engine so that the engine
can use it without importing the rules layer above it.
"""

from __future__ import annotations

import functools
import re
import types
import typing
from collections.abc import Mapping
from typing import Any, Literal, get_args, get_origin

import attrs
import cattrs
from cattrs.errors import ClassValidationError, ForbiddenExtraKeysError, IterableValidationError

MAX_INT = 1_000_000
"""Any number in a variant larger than this is refused as absurd."""

STRUCTURE_FAILURES = (ClassValidationError, IterableValidationError, ForbiddenExtraKeysError,
                      ValueError, TypeError, KeyError, AttributeError)
"""What :meth:`cattrs.Converter.structure` may raise on bad input (the hooks' problems are
ValueErrors)."""


def suggest(word: object, choices: Any) -> str:
    """`` (did you mean X?)`` for the choice nearest a misspelt ``word``, or nothing."""
    import difflib

    if not isinstance(word, str):
        return ""
    names = [str(c) for c in choices]
    near = difflib.get_close_matches(word, names, n=1, cutoff=0.6)
    if not near:
        near = [n for n in names if word and (n.startswith(word) or word.startswith(n))][:1]
    return f" (did you mean {near[0]}?)" if near and near[0] != word else ""


class TypeProblem(ValueError):
    """A hook's refusal of one value: its message is the whole explanation."""


def show(v: Any) -> str:
    """A short, safe rendering of an outside value for an error message."""
    if isinstance(v, bool):
        return f"{str(v).lower()} (a boolean)"
    if isinstance(v, Mapping):
        return "a mapping"
    if isinstance(v, list | tuple):
        return "a list"
    if v is None:
        return "nothing (null)"
    r = repr(v)
    return r if len(r) < 60 else r[:57] + "..."


def strict_str(v: Any, _: Any) -> str:
    if not isinstance(v, str):
        raise TypeProblem(f"expected text, got {show(v)}")
    return v


def strict_int(v: Any, _: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeProblem(f"expected a whole number, got {show(v)}")
    if abs(v) > MAX_INT:
        raise TypeProblem(f"expected a number of at most {MAX_INT}, got {v}")
    return v


def strict_bool(v: Any, _: Any) -> bool:
    if not isinstance(v, bool):
        raise TypeProblem(f"expected true or false, got {show(v)}")
    return v


def strict_converter() -> cattrs.Converter:
    """A converter that refuses unknown keys and coerces nothing (text stays text, a
    boolean is not a number, numbers are bounded by :data:`MAX_INT`)."""
    c = cattrs.Converter(forbid_extra_keys=True)
    c.register_structure_hook(str, strict_str)
    c.register_structure_hook(int, strict_int)
    c.register_structure_hook(bool, strict_bool)
    return c


def _key(k: object) -> str:
    """An unknown key as an error message may quote it: text, and short."""
    text = str(k)
    return text if len(text) <= 40 else text[:37] + "..."


def _literal_message(t: Any, v: Any) -> str:
    choices = ", ".join(repr(a) for a in get_args(t))
    return f"expected one of {choices}, got {show(v)}{suggest(v, get_args(t))}"


def _walk(exc: BaseException, path: str, out: list[tuple[str, str]], typ: Any = None) -> None:
    """Flatten a cattrs exception tree into (key path, message) pairs with our wording."""
    if isinstance(exc, ForbiddenExtraKeysError):
        fields = [a.name for a in attrs.fields(exc.cl)] if attrs.has(exc.cl) else []
        for extra in sorted(_key(x) for x in exc.extra_fields):
            hint = suggest(extra, fields)
            allowed = "" if hint or not fields else "; allowed keys: " + ", ".join(fields)
            out.append((f"{path}.{extra}" if path else extra,
                        f"unknown key {extra!r}{hint}{allowed}"))
        return
    if isinstance(exc, ClassValidationError | IterableValidationError):
        for sub in exc.exceptions:
            sub_path, sub_type = path, None
            for note in getattr(sub, "__notes__", []):
                name = getattr(note, "name", None)
                index = getattr(note, "index", None)
                if name is not None:
                    sub_path = f"{path}.{name}" if path else str(name)
                    sub_type = getattr(note, "type", None)
                    break
                if isinstance(index, str):   # a mapping's key: a key path goes on by name
                    sub_path = f"{path}.{_key(index)}" if path else _key(index)
                    sub_type = getattr(note, "type", None)
                    break
                if index is not None:
                    sub_path = f"{path}[{index}]"
                    sub_type = getattr(note, "type", None)
                    break
            _walk(sub, sub_path, out, sub_type)
        return
    if isinstance(exc, KeyError):
        out.append((path, "required key missing"))
        return
    if isinstance(exc, TypeProblem):
        out.append((path, str(exc)))
        return
    if "not in literal" in str(exc):
        v = str(exc).split(" not in literal", 1)[0]
        if typ is not None and get_origin(typ) is Literal:
            out.append((path, _literal_message(typ, v)))
        else:
            out.append((path, f"{v!r} is not one of the allowed values"))
        return
    if isinstance(exc, TypeError | AttributeError):
        out.append((path, "expected a mapping (key: value) or a list here"))
        return
    bound = re.fullmatch(r"'(\w+)' must be (>=|>|<=|<) (\S+): (.*)", str(exc))
    if bound:   # an attrs bound (ge, gt, ...), worded as the loader's other bounds
        where = f"{path}.{bound[1]}" if path else bound[1]
        out.append((where, f"expected a number {bound[2]} {bound[3]}, got {bound[4]}"))
        return
    out.append((path, str(exc) or type(exc).__name__))


def structure_errors(exc: BaseException) -> list[tuple[str, str]]:
    """Every problem in a cattrs failure, as ``(key path, message)`` in the input's order."""
    out: list[tuple[str, str]] = []
    _walk(exc, "", out)
    return out


@functools.cache
def _plan(cls: type[Any]) -> tuple[tuple[str, str, Any, bool], ...]:
    """For each field of a model whose shape :func:`shape_problems` checks: its name, what
    it must be (``list``, ``dict`` or ``model``) and the model of its items (or None),
    worked out once per model (it is read for every save and record), and whether it may
    be null."""
    hints = typing.get_type_hints(cls)
    out: list[tuple[str, str, Any, bool]] = []
    for f in attrs.fields(cls):
        t = hints[f.name]
        either = get_args(t)
        nullable = get_origin(t) in (typing.Union, types.UnionType) and len(either) == 2 \
            and type(None) in either
        if nullable:   # X | None, and not None: X is expected
            t = either[0] if either[1] is type(None) else either[1]
        origin = get_origin(t)
        if origin in (tuple, list):
            args = [a for a in get_args(t) if a is not Ellipsis]
            out.append((f.name, "list", args[0] if args and attrs.has(args[0]) else None,
                        nullable))
        elif origin is dict:
            out.append((f.name, "dict", None, nullable))
        elif attrs.has(t):
            out.append((f.name, "model", t, nullable))
    return tuple(out)


def shape_problems(data: Any, cls: Any, path: str = "", *,
                   mappings: bool = False) -> list[tuple[str, str]]:
    """Text where a list is expected would be split into characters by cattrs: catch it
    first (and, with ``mappings``, anything but a mapping where a mapping is expected)."""
    out: list[tuple[str, str]] = []
    if not (attrs.has(cls) and isinstance(data, Mapping)):
        return out
    for name, kind, sub, nullable in _plan(cls):
        if name not in data:
            continue
        v = data[name]
        if v is None and nullable:
            continue
        p = f"{path}.{name}" if path else name
        if kind == "list":
            if not isinstance(v, list):
                out.append((p, f"expected a list, got {show(v)}"))
            elif sub is not None:
                for i, item in enumerate(v):
                    out += shape_problems(item, sub, f"{p}[{i}]", mappings=mappings)
        elif mappings and not isinstance(v, Mapping):
            out.append((p, f"expected a mapping, got {show(v)}"))
        elif kind == "model":
            out += shape_problems(v, sub, p, mappings=mappings)
    return out
