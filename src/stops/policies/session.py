"""When a session ends (slot ``match_end``): ``(table, params) -> bool`` after each deal."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import attrs

if TYPE_CHECKING:
    from collections.abc import Sequence

    from stops.engine.table import Table
    from stops.rules.registry import Registry


def _whole(default: Any, least: int, metadata: dict[str, Any] | None = None) -> Any:
    """An attrs field of a whole number of at least ``least``. ``default`` and the result are
    typed ``Any`` for the compiled build, as :func:`stops.rules.registry.param` is: a field
    made by a call typed ``int`` is checked to be an ``int`` at import, and refused."""
    return attrs.field(default=default, validator=attrs.validators.ge(least),
                       metadata=metadata or {})


@attrs.frozen
class DealsParams:
    count: int = _whole(10, 1)
    per_player: int = _whole(0, 0, {
        "doc": "When not 0: the session lasts this many deals per player, so that everyone "
        "deals as often (Pope Joan: 1, Comet: 2); count is then ignored."})


def deal_count(table: Table, params: DealsParams) -> int:
    """The number of deals agreed: ``per_player`` deals per seat, or ``count``."""
    return params.per_player * table.n if params.per_player else params.count


def deals(table: Table, params: DealsParams) -> bool:
    """The session ends after ``count`` deals, or ``per_player`` deals per player (the caller
    may set another number)."""
    return table.deals_played >= (table.deal_limit or deal_count(table, params))


def _deals_text(q: DealsParams) -> str:
    if q.per_player:
        times = "once" if q.per_player == 1 else ("twice" if q.per_player == 2 else
                                                  f"{q.per_player} times")
        each = "one deal" if q.per_player == 1 else f"{q.per_player} deals"
        return (f"The session ends after {each} per player, so that everyone "
                f"deals {times} (or as many deals as agreed).")
    return f"The session ends after {q.count} deals (or as many as agreed)."


@attrs.frozen
class UntilShortParams:
    chips: int = _whole(0, 0, {
        "doc": "A stack below this many chips before a deal ends the session; 0: below what "
        "the stake rule asks of that player for the next deal."})


MAX_PRICED = 4096
"""Positions whose stakes :func:`stakes_due` keeps per variant (cleared when full)."""


def stakes_due(table: Table) -> Sequence[int]:
    """What the variant's stake rule asks of each seat before the table's next deal (fixed
    stakes plus any stake it must place by choice).

    The check runs before every deal, so the answer is priced once and kept in the variant's
    cache, by the seats, the dealer, the retired spaces and the seats out of the session:
    all a stake plan may depend on (a stake rule reads who plays, who deals and which spaces
    are live, never the chips; :mod:`stops.policies.stakes`). Only a position not met before
    builds the one blank view of that deal the rule is asked about, for all seats at once."""
    v = table.variant
    n = table.n
    if (v.rules.stake_frequency == "once_per_match" and table.deals_played) or \
            "stake" not in v.flow:
        return (0,) * n
    retired, out = table.retired, table.eliminated
    key = (n, table.dealer, frozenset(retired) if retired else None,
           frozenset(out) if out else None)
    priced = v.cache.get("stakes due")
    if not isinstance(priced, dict):
        priced = v.cache["stakes due"] = {}
    got = priced.get(key)
    if got is None:
        if len(priced) >= MAX_PRICED:  # bounded: a long run of odd positions starts afresh
            priced.clear()
        got = priced[key] = _price_stakes(table)
    return got


def _price_stakes(table: Table) -> tuple[int, ...]:
    """Every seat's stake for the table's next deal, from one blank view of that deal."""
    from stops.engine.deal import Deal

    v = table.variant
    view = Deal(v, players=table.n, dealer=table.dealer, stacks=table.stacks,
                layout=table.layout, retired=table.retired,
                active=[s for s in range(table.n) if s not in table.eliminated], _blank=True)
    rule = v.policy("stake_rule")
    due = []
    for seat in range(table.n):
        plan = rule.impl(view, seat, rule.params)
        due.append(int(sum(c for _, c in plan.fixed) + plan.choose_amount + plan.free_chips))
    return tuple(due)


def short_seats(table: Table, params: UntilShortParams) -> list[int]:
    """The seats whose stack is below what the next deal asks of them."""
    stacks = table.stacks
    out = table.eliminated
    if params.chips:
        least = params.chips
        return [s for s in range(table.n) if s not in out and stacks[s] < least]
    due = stakes_due(table)
    return [s for s in range(table.n) if s not in out and stacks[s] < due[s]]


def until_short(table: Table, params: UntilShortParams) -> bool:
    """The session ends when, before a deal, some player's stack is below his stake for that
    deal (he could not stake), or at the caller's deal limit. Checked before the first deal
    as well."""
    if table.deal_limit is not None and table.deals_played >= table.deal_limit:
        return True
    return bool(short_seats(table, params))


def _until_short_why(table: Table, params: UntilShortParams) -> str | None:
    """Who is short; ``None`` when the deal limit ended it (the table says so itself)."""
    short = short_seats(table, params)
    if not short:
        return None
    return (("seats " if len(short) > 1 else "seat ") + ", ".join(map(str, short))
            + " cannot pay the stake for the next deal")


def never(table: Table, params: None) -> bool:
    """The session goes on until the caller stops (or sets a deal limit)."""
    return table.deal_limit is not None and table.deals_played >= table.deal_limit


def one_player_left(table: Table, params: None) -> bool:
    """The session goes on until only one player has chips (players at 0 leave it, with
    ``chip_shortfall: eliminate``), or until the caller's deal limit."""
    if table.n - len(table.eliminated) < 2:
        return True
    return table.deal_limit is not None and table.deals_played >= table.deal_limit


def _needs_elimination(variant: Any, params: None) -> list[str]:
    if variant.rules.chip_shortfall != "eliminate":
        return ["one_player_left ends the session when the others are out, but nobody is ever "
                "out unless chip_shortfall is eliminate: the session would never end by itself"]
    return []


@attrs.frozen
class RetiredParams:
    max_deals: int = _whole(0, 0)


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


def register(reg: Registry) -> None:
    """When a session ends, and how chips left on the layout are then shared."""
    p = reg.register_policy
    p("final_share", "all_layout_equal", phrase="shared equally, odd chips",
      text=lambda _: "Chips still on the layout are then "
      "shared equally, odd chips going one at a time clockwise from the dealer's left.")(
        all_layout_equal)
    p("final_share", "pot_only_equal", phrase="The pot is then shared equally",
      text=lambda _: "The pot is then shared equally; other "
      "chips stay.")(pot_only_equal)
    p("final_share", "refund_by_contribution", phrase="in proportion to what each player put",
      text=lambda _: "Chips still on each space are "
      "then given back in proportion to what each player put on it during the session, odd "
      "chips going clockwise from the dealer's left.",
      # the ledger keeps who put what on each space only for a variant that needs it
      tracks_contributions=True)(refund_by_contribution)
    p = reg.register_policy
    p("match_end", "deals", params=DealsParams, text=_deals_text,
      phrase="The session ends after")(deals)
    p("match_end", "until_short", params=UntilShortParams, phrase="some player has fewer chips",
      text=lambda q: "The session ends when, before a deal, some player has fewer chips than "
      + (f"{q.chips}" if q.chips else "his stake for that deal") + " (or as many deals as "
      "agreed).",
      # asked before the first deal too: a stack may be short already
      before_first_deal=True, why=_until_short_why)(until_short)
    p("match_end", "never", phrase="goes on until the players stop",
      text=lambda q: "The session goes on until the players stop.")(never)
    p("match_end", "one_player_left", lint=_needs_elimination,
      phrase="only one player has chips left", text=lambda q: "The session "
      "ends when only one player has chips left (or at an agreed last deal).")(
        one_player_left)
    p("match_end", "all_spaces_retired", params=RetiredParams,
      phrase="every space has been won and removed",
      text=lambda q: "The session ends when every space has been won and removed from the "
      "layout, or at an agreed last deal" + (f" (deal {q.max_deals} at the latest)."
                                              if q.max_deals else "."))(all_spaces_retired)
