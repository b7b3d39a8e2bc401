"""When a session ends (slot ``match_end``): ``(table, params) -> bool`` after each deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from stops.engine.table import Table


@attrs.frozen
class DealsParams:
    count: int = attrs.field(default=10, validator=attrs.validators.ge(1))


def deals(table: Table, params: DealsParams) -> bool:
    """The session ends after ``count`` deals (the caller may set another number)."""
    return table.deals_played >= (table.deal_limit or params.count)


def never(table: Table, params: None) -> bool:
    """The session goes on until the caller stops (or sets a deal limit)."""
    return table.deal_limit is not None and table.deals_played >= table.deal_limit


@attrs.frozen
class RetiredParams:
    max_deals: int = attrs.field(default=0, validator=attrs.validators.ge(0))


def all_spaces_retired(table: Table, params: RetiredParams) -> bool:
    """The session ends when every layout space has been won and retired, or at the agreed
    last deal (the caller's deal limit, or ``max_deals`` when not 0)."""
    if all(s in table.retired for s in table.variant.space_ids):
        return True
    limit = table.deal_limit or params.max_deals
    return bool(limit) and table.deals_played >= limit
