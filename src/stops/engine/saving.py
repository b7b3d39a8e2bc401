"""Save and restore a :class:`~stops.Table` (with its deal in progress) as JSON-safe data.

A host game saves with ``table.to_dict()`` (or ``json.dumps`` of it) and restores with
``Table.from_dict(data)``; play continues exactly as if never interrupted. The deal in
progress is stored as its (partial) deal record and rebuilt by replaying it, so the saved
form holds no engine internals and stays readable and stable across versions.

The session-level state is an attrs class converted by cattrs, like the variant files.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import attrs
import cattrs

from stops.engine.errors import RecordError

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.table import Table
    from stops.rules.registry import Registry

FORMAT = "stops.table/1"


@attrs.define
class TableState:
    """Everything a table carries between deals, plus its deal in progress."""

    variant: str
    options: dict[str, Any]
    seats: int
    seed: int | str
    stacks: list[int]
    layout: dict[str, int]
    retired: list[str]
    dealer: int
    deal_index: int
    deals_played: int
    deal_limit: int | None
    skip_stakes: bool
    over: bool
    start_stacks: list[int]
    contributed: dict[str, list[int]] = attrs.field(factory=dict)
    keep_records: bool = True
    records: list[dict[str, Any]] = attrs.field(factory=list)
    current: dict[str, Any] | None = None
    eliminated: list[int] = attrs.field(factory=list)
    format: str = FORMAT


_converter = cattrs.Converter(forbid_extra_keys=True)


def _seed(value: Any, _: Any) -> int | str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"a seed is a whole number or text, got {value!r}")
    return value


_converter.register_structure_hook(int | str, _seed)


def table_state(table: Table) -> TableState:
    current = None
    deal = table.deal
    if deal is not None and not deal.is_terminal:
        current = deal.record()
    return TableState(
        variant=table.variant.record_ref, options=dict(table.variant.options), seats=table.n,
        seed=table.seed, stacks=list(table.stacks), layout=dict(table.layout),
        retired=sorted(table.retired), dealer=table.dealer, deal_index=table.deal_index,
        deals_played=table.deals_played, deal_limit=table.deal_limit,
        skip_stakes=table.skip_stakes, over=table.is_over,
        start_stacks=list(table.start_stacks),
        contributed={k: list(v) for k, v in table.contributed.items()},
        keep_records=table.keep_records, records=list(table.records), current=current,
        eliminated=sorted(table.eliminated),
    )


def table_to_dict(table: Table) -> dict[str, Any]:
    out: dict[str, Any] = _converter.unstructure(table_state(table))
    return out


def table_from_dict(data: Mapping[str, Any], *, registry: Registry | None = None) -> Table:
    """Rebuild a table saved with :func:`table_to_dict`; raises RecordError if malformed."""
    from stops.engine.recording import replay_actions
    from stops.engine.resolver import resolve_variant
    from stops.engine.table import Table, TableError

    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise RecordError(f"not a saved table (expected format: {FORMAT})")
    try:
        st = _converter.structure(dict(data), TableState)
    except (cattrs.BaseValidationError, ValueError, TypeError, KeyError) as e:
        raise RecordError(f"malformed saved table: {e}") from None
    variant = resolve_variant(st.variant, st.options, registry)
    try:
        table = Table(variant, seats=st.seats, chips=st.stacks, seed=st.seed, dealer=st.dealer,
                      layout=st.layout, retired=st.retired, deals=st.deal_limit,
                      keep_records=st.keep_records)
    except TableError as e:
        raise RecordError(f"saved table does not fit its variant: {e}") from None
    table.start_stacks = tuple(st.start_stacks)
    table.deals_played = st.deals_played
    table.skip_stakes = st.skip_stakes
    table._over = st.over
    table.contributed = {k: list(v) for k, v in st.contributed.items()}
    table.records = list(st.records)
    table.deal_index = st.deal_index
    table.eliminated = set(st.eliminated)
    if st.current is not None:
        cur = st.current
        table.deal_index = st.deal_index - 1
        if cur.get("hands"):
            deal = table.new_deal(hands=cur["hands"], spare=cur.get("spare") or [])
        else:
            deal = table.new_deal()  # saved during the stakes: the table's seed deals
        replay_actions(deal, cur.get("actions") or [], partial=True)
    return table


def deal_from_dict(data: Mapping[str, Any], *, registry: Registry | None = None) -> Deal:
    """Rebuild a deal saved with :meth:`Deal.to_dict`, at exactly the same point."""
    from stops.engine.recording import check_record, replay_record
    from stops.engine.resolver import resolve_variant

    check_record(data)
    ref = data.get("variant")
    if not isinstance(ref, str):
        raise RecordError("'variant' must be a built-in variant name or a file path")
    options = data.get("options") or {}
    if not isinstance(options, Mapping):
        raise RecordError("'options' must be a mapping of rule: choice")
    return replay_record(data, resolve_variant(ref, options, registry), partial=True)
