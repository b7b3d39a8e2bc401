"""Deal records: one deal, fully reproducible, as YAML or JSON (docs/concepts.md), and replay.

A record stores the cards as dealt and the decisions in order; replaying it never depends on
a random seed. Decisions with exactly one legal choice may be left out of a record: replay
fills them in. Any problem is a :class:`~stops.engine.errors.RecordError` naming the action's index,
its seat and the rule broken.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import yaml

from stops.engine.errors import RecordError, StopsError, VariantError
from stops.engine.eventkind import EventKind
from stops.engine.recording import (
    _need,
    check_record,
    deal_record,
    replay_record,
)

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry
    from stops.rules.variant import Variant

MAX_RECORD_BYTES = 4 * 1024 * 1024


def dumps(record: Mapping[str, Any], fmt: str = "yaml") -> str:
    if fmt == "json":
        return json.dumps(record, indent=2)
    return yaml.safe_dump(dict(record), sort_keys=False, default_flow_style=None, width=100)


def load(path: str | Path) -> dict[str, Any]:
    """Read a deal record (or a session record) from a YAML or JSON file."""
    p = Path(path)
    try:
        if p.stat().st_size > MAX_RECORD_BYTES:
            raise RecordError(f"{p}: larger than {MAX_RECORD_BYTES} bytes")
        text = p.read_text(encoding="utf-8")
    except OSError as e:
        raise RecordError(f"{p}: cannot read ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise RecordError(f"{p}: not UTF-8 text") from None
    return loads(text, label=str(p))


def loads(text: str, label: str = "<record>") -> dict[str, Any]:
    from stops.rules.loader import parse_yaml_text

    try:
        data = parse_yaml_text(text, label)  # JSON is YAML
    except VariantError as e:
        raise RecordError(str(e)) from None
    if not isinstance(data, dict):
        raise RecordError(f"{label}: a record must be a mapping of keys")
    return data


def replay(record: Mapping[str, Any], variant: Variant | None = None,
           *, check_result: bool = True, base_dir: str | Path | None = None,
           partial: bool = False, fill_forced: bool = True,
           registry: Registry | None = None) -> Deal:
    """Play a deal record through the engine and return the finished :class:`Deal`.

    Raises :class:`RecordError` for a malformed record, an illegal or missing decision, or a
    result that differs from the record's ``result``. With ``partial=True`` the record may
    stop mid-deal: the deal is returned at exactly that point (a saved game).
    """
    from stops.rules.variant import load_variant

    if variant is None:
        check_record(record)
        ref = _need(record, "variant", str, "a built-in variant name or a file path")
        options = record.get("options") or {}
        if not isinstance(options, Mapping):
            raise RecordError("'options' must be a mapping of rule: choice")
        variant = load_variant(_locate(ref, base_dir), options=options, registry=registry)
    return replay_record(record, variant, check_result=check_result, partial=partial,
                         fill_forced=fill_forced)


SESSION_KEYS = ("format", "variant", "options", "players", "deals", "meta")


def _locate(ref: str, base_dir: str | Path | None) -> str:
    """A relative variant path in a record is looked for beside the record first."""
    from stops.rules.loader import _is_path

    if base_dir is not None and _is_path(ref) and not Path(ref).is_absolute():
        beside = Path(base_dir) / ref
        if beside.exists():
            return str(beside)
    return ref


def replay_session(record: Mapping[str, Any], *, base_dir: str | Path | None = None,
                   registry: Registry | None = None) -> list[Deal]:
    """Replay every deal of a session record, checking each continues from the last."""
    unknown = [k for k in record if k not in SESSION_KEYS]
    if unknown:
        raise RecordError(f"unknown key {unknown[0]!r}; a session record has: "
                          + ", ".join(SESSION_KEYS))
    deals_ = record.get("deals")
    if not isinstance(deals_, list) or not deals_:
        raise RecordError("a session record needs 'deals': a non-empty list of deal records")
    out: list[Deal] = []
    for k, rec in enumerate(deals_):
        try:
            d = replay(rec, base_dir=base_dir, registry=registry)
        except RecordError as e:
            raise RecordError(f"deal {k}: {e}", index=e.index, seat=e.seat,
                              code=e.code) from None
        if out:
            prev = out[-1]
            if list(prev.ledger.stacks) != list(d.start_stacks):
                raise RecordError(f"deal {k} does not start from the stacks deal {k - 1} "
                                  "ended with")
        out.append(d)
    return out


def account(deal: Deal) -> str:
    """A readable account of a deal, for ``stops replay``."""
    lines = [f"{deal.variant.title}: {deal.n} players, dealer seat {deal.dealer}"]
    for e in deal.events:
        if e.visible_to is not None and e.kind not in (
                EventKind.DEALT, EventKind.SPARE_SWAPPED, EventKind.SELECTED):
            continue
        if e.visible_to is not None and not e.cards:
            continue
        lines.append("  " + e.describe())
    lines.append("Stacks: " + ", ".join(f"seat {s}: {x}" for s, x in enumerate(deal.stacks)))
    lay = ", ".join(f"{k}: {v}" for k, v in deal.ledger.layout.items())
    lines.append("Layout: " + (lay or "empty"))
    return "\n".join(lines)


def result_json(deal: Deal) -> dict[str, Any]:
    return {
        "variant": deal.variant.name,
        "players": deal.n,
        "dealer": deal.dealer,
        "outcome": deal.outcome,
        "winner": deal.winner,
        "stacks": list(deal.ledger.stacks),
        "returns": list(deal.returns()),
        "layout": dict(deal.ledger.layout),
        "retired": sorted(deal.retired),
        "plays": [[s, str(c)] for s, c in deal.plays],
        "events": [e.to_dict() for e in deal.events],
    }


__all__ = ["StopsError", "account", "deal_record", "dumps", "load", "loads", "replay",
           "replay_session", "result_json"]
