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
from stops.engine.recording import (
    _need,
    check_record,
    deal_record,
    replay_record,
)
from stops.engine.vocabulary import IN_ACCOUNT

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.variant import Variant

MAX_RECORD_BYTES = 4 * 1024 * 1024
"""The one size limit of a record file or text (deal or session): 4 MiB, enough for a
session of about 1,800 deals at eight seats."""


MAX_SLOW_YAML_BYTES = 512 * 1024
"""Without libyaml (a PyYAML built from source without it), YAML is parsed in pure Python at
about 130 KB a second: a YAML record is then limited to 512 KiB (JSON keeps 4 MiB)."""


def dumps(record: Mapping[str, Any], fmt: str = "yaml") -> str:
    if fmt == "json":
        return json.dumps(record, indent=2)
    return yaml.safe_dump(dict(record), sort_keys=False, default_flow_style=None, width=100)


def load(path: str | Path) -> dict[str, Any]:
    """Read a deal record (or a session record) from a YAML or JSON file."""
    from stops.rules.loader import FileProblem, read_bounded

    if not isinstance(path, str | Path):
        raise RecordError(f"expected a file path, got {type(path).__name__}")
    p = Path(path)
    try:
        text = read_bounded(p, MAX_RECORD_BYTES)
    except FileProblem as e:
        raise RecordError(f"{p}: {e}") from None
    return loads(text, label=str(p))


def loads(text: str, label: str = "<record>") -> dict[str, Any]:
    from stops.rules.loader import FAST_YAML, parse_yaml_text

    if not isinstance(text, str):
        raise RecordError(f"{label}: expected record text, got {type(text).__name__}")
    if len(text) > MAX_RECORD_BYTES or len(text.encode("utf-8", "replace")) > MAX_RECORD_BYTES:
        raise RecordError(f"{label}: larger than {MAX_RECORD_BYTES} bytes")
    fast = _fast_parse(text)
    if fast is not None:
        if not isinstance(fast, dict):
            raise RecordError(f"{label}: a record must be a mapping of keys")
        return fast
    if not FAST_YAML and len(text.encode("utf-8", "replace")) > MAX_SLOW_YAML_BYTES:
        raise RecordError(f"{label}: a YAML record of more than {MAX_SLOW_YAML_BYTES} bytes "
                          "needs PyYAML built with libyaml (every PyYAML wheel is); write it "
                          "as JSON instead")
    try:
        data = parse_yaml_text(text, label, limit=MAX_RECORD_BYTES)  # JSON is YAML
    except VariantError as e:
        raise RecordError(str(e)) from None
    if not isinstance(data, dict):
        raise RecordError(f"{label}: a record must be a mapping of keys")
    return data


def _fast_parse(text: str) -> Any:
    """Parse a JSON record with the json module (about ten times faster than YAML). ``None``
    means "not JSON, or not plain": the YAML loader reads it, and gives the precise message.
    Nesting is bounded after parsing, without recursion."""
    from stops.rules.loader import MAX_NESTING

    if not text.lstrip().startswith("{"):
        return None
    try:
        data = json.loads(text)
    except (ValueError, RecursionError, TypeError):
        return None
    stack: list[tuple[Any, int]] = [(data, 1)]
    while stack:
        node, depth = stack.pop()
        if isinstance(node, dict | list):
            if depth > MAX_NESTING:
                return None
            items = node.values() if isinstance(node, dict) else node
            stack.extend((x, depth + 1) for x in items if isinstance(x, dict | list))
    if isinstance(data, dict) and not all(isinstance(k, str) for k in data):
        return None
    return data


def replay(record: Mapping[str, Any], variant: Variant | None = None,
           *, check_result: bool = True, base_dir: str | Path | None = None,
           partial: bool = False, fill_forced: bool = True, allow_paths: bool = False,
           registry: Any = None) -> Deal:
    """Play a deal record through the engine and return the finished :class:`Deal`.

    Raises :class:`RecordError` for a malformed record, an illegal or missing decision, or a
    result that differs from the record's ``result``. With ``partial=True`` the record may
    stop mid-deal: the deal is returned at exactly that point (a saved game).

    The record's ``variant`` is a built-in name or the variant itself (a mapping). A file
    path is read only with ``allow_paths=True`` and a ``base_dir`` (the record's directory),
    and only a ``.yaml`` / ``.yml`` file directly in it: replaying a record from anyone never
    reads another file.
    """
    from stops.rules.untrusted import variant_for_record
    from stops.rules.variant import Variant

    if variant is None:
        check_record(record)
        ref = _need(record, "variant", (str, Mapping),
                    "a built-in variant name or the variant itself")
        try:
            variant = variant_for_record(ref, record.get("options") or {}, registry,
                                         base_dir=base_dir, allow_paths=allow_paths)
        except VariantError as e:
            raise RecordError(f"the record's variant cannot be loaded: {e}") from None
    elif not isinstance(variant, Variant):
        raise RecordError(f"variant must be a stops.Variant, got {type(variant).__name__}")
    return replay_record(record, variant, check_result=check_result, partial=partial,
                         fill_forced=fill_forced)


SESSION_KEYS = ("format", "variant", "options", "players", "deals", "meta")
SESSION_FORMAT = "stops.session/1"


def replay_session(record: Mapping[str, Any], *, base_dir: str | Path | None = None,
                   allow_paths: bool = False, registry: Any = None) -> list[Deal]:
    """Replay every deal of a session record, checking each continues from the last."""
    if not isinstance(record, Mapping):
        raise RecordError("a session record must be a mapping of keys")
    if "format" in record and record["format"] != SESSION_FORMAT:
        from stops.engine.text import shown

        raise RecordError(f"'format' must be {SESSION_FORMAT} (a session record), got "
                          f"{shown(record['format'])}")
    unknown = [k for k in record if k not in SESSION_KEYS]
    if unknown:
        from stops.engine.text import shown

        raise RecordError(f"unknown key {shown(unknown[0], 40)}; a session record has: "
                          + ", ".join(SESSION_KEYS))
    deals_ = record.get("deals")
    if not isinstance(deals_, list) or not deals_:
        raise RecordError("a session record needs 'deals': a non-empty list of deal records")
    out: list[Deal] = []
    cache: dict[str, Variant] = {}
    for k, rec in enumerate(deals_):
        try:
            d = _replay_cached(rec, cache, base_dir=base_dir, allow_paths=allow_paths,
                               registry=registry)
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


def _replay_cached(rec: Any, cache: dict[str, Variant], **where: Any) -> Deal:
    """Replay one deal of a session, under the variant loaded for the first deal.

    A session is played at one table, so under one variant: a deal naming another (or other
    options) is refused. So replaying a session builds one variant, however many deals name
    it, and a session embedding a new variant in every deal cannot cost a build per deal.
    """
    if isinstance(rec, Mapping) and "variant" in rec:
        from stops.rules.loader import check_plain
        from stops.rules.untrusted import MAX_EMBEDDED_VALUES

        try:
            check_plain([rec["variant"], rec.get("options")], "<record>",
                        budget=MAX_EMBEDDED_VALUES)
        except VariantError as e:
            raise RecordError(f"'variant': {e.problems[0][2]}") from None
        try:
            key = json.dumps([rec["variant"], rec.get("options") or {}], sort_keys=True)
        except (TypeError, ValueError, RecursionError):
            raise RecordError("'variant' and 'options' must be plain data") from None
        variant = cache.get(key)
        if variant is None:
            if cache:
                raise RecordError("a session is played under one variant: this deal names "
                                  "another variant (or other options) than the first deal")
            check_record(rec)
            variant = replay(rec, partial=True, check_result=False, **where).variant
            cache[key] = variant
        return replay(rec, variant)
    return replay(rec, **where)


def account(deal: Deal) -> str:
    """A readable account of a deal, for ``stops replay``."""
    lines = [f"{deal.variant.title}: {deal.n} players, dealer seat {deal.dealer}"]
    for e in deal.events:
        if e.visible_to is not None and e.kind not in IN_ACCOUNT:
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
