"""When a session ends (slot ``match_end``): ``(table, params) -> bool`` after each deal."""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

if TYPE_CHECKING:
    from stops.engine.table import Table
    from stops.rules.registry import Registry


@attrs.frozen
class DealsParams:
    count: int = attrs.field(default=10, validator=attrs.validators.ge(1))
    per_player: bool = attrs.field(default=False, metadata={
        "doc": "count is per player: the session ends after count x players deals, so that "
        "everyone deals count times (Pope Joan's one deal each)."})


def deals(table: Table, params: DealsParams) -> bool:
    """The session ends after ``count`` deals (``per_player``: ``count`` for each player;
    the caller may set another number)."""
    count = params.count * table.n if params.per_player else params.count
    return table.deals_played >= (table.deal_limit or count)


def _deals_text(q: DealsParams) -> str:
    if q.per_player:
        each = "once" if q.count == 1 else f"{q.count} times"
        return (f"The session ends when every player has dealt {each}, or after as many deals "
                "as agreed.")
    return f"The session ends after {q.count} deals (or as many as agreed)."


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


Share = list[tuple[list[str], list[int]]]


def all_layout_equal(table: Table, params: None) -> Share:
    """Every chip left on the layout is pooled and shared equally."""
    return [(list(table.layout), [1] * table.n)]


def pot_only_equal(table: Table, params: None) -> Share:
    """Only the pot is shared equally; the other spaces keep their chips."""
    pot = table.variant.pot
    return [([s for s in table.layout if s == pot], [1] * table.n)]


def refund_by_contribution(table: Table, params: None) -> Share:
    """Each space goes back in proportion to what each player put on it in the session."""
    return [([space], [table.contributed.get(space, [0] * table.n)[s] for s in range(table.n)])
            for space in table.layout]


refund_by_contribution.tracks_contributions = True  # type: ignore[attr-defined]
"""The ledger tracks who put what on each space only for a variant that needs it."""


def register(reg: Registry) -> None:
    """When a session ends, and how chips left on the layout are then shared."""
    p = reg.register_policy
    p("final_share", "all_layout_equal", text=lambda _: "Chips still on the layout are then "
      "shared equally, odd chips going one at a time clockwise from the dealer's left.")(
        all_layout_equal)
    p("final_share", "pot_only_equal", text=lambda _: "The pot is then shared equally; other "
      "chips stay.")(pot_only_equal)
    p("final_share", "refund_by_contribution", text=lambda _: "Chips still on each space are "
      "then given back in proportion to what each player put on it during the session, odd "
      "chips going clockwise from the dealer's left.")(refund_by_contribution)
    p = reg.register_policy
    p("match_end", "deals", params=DealsParams, text=_deals_text)(deals)
    p("match_end", "never", text=lambda q: "The session goes on until the players stop.")(never)
    p("match_end", "all_spaces_retired", params=RetiredParams,
      text=lambda q: "The session ends when every space has been won and removed from the "
      "layout, or at an agreed last deal" + (f" (deal {q.max_deals} at the latest)."
                                              if q.max_deals else "."))(all_spaces_retired)
