"""Stake rules (slot ``stake_rule``): who puts how many chips where before the deal.

A stake rule is a function ``(deal, seat, params) -> StakePlan``. The plan lists the fixed
stakes the engine places by itself and at most one *choice* the seat must make: one space out
of several (``choose_one``), or a free placement of N chips (``free_chips``). Retired spaces
are never offered; the rule sees ``deal.is_live``.

A plan depends on who plays (the seats, those out of the session, the exempt), who deals and
which spaces are live, never on the chips anyone holds: the ``until_short`` session check
prices a position's stakes once and remembers them (:func:`stops.policies.session.stakes_due`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Literal

import attrs

from stops.rules.registry import param

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.registry import Registry


@attrs.frozen
class StakePlan:
    fixed: tuple[tuple[str, int], ...] = ()
    choose_one: tuple[str, ...] = ()
    choose_amount: int = 0
    free_chips: int = 0
    free_spaces: tuple[str, ...] = ()
    choose_times: int = 1
    """How many ``choose_one`` decisions the seat makes, one after another, each of
    ``choose_amount`` (one per chip where the rule says so: Peel's dealer places two)."""
    cover_all: bool = False
    """Each of those decisions must leave every card space coverable (:func:`covering`)."""


CARD_KINDS = ("card", "card_below", "combo", "suit_run")
"""The kinds of layout space a card stake goes on (the spaces cards win)."""


def _live(deal: Deal, kinds: tuple[str, ...] | None = None,
          only: tuple[str, ...] = ()) -> tuple[str, ...]:
    """The live spaces (of ``kinds``, or among ``only`` when given), in layout order.

    Cached per variant and set of retired spaces, which changes a few times a session."""
    cache = deal.variant.cache
    key = ("live", kinds, only, frozenset(deal.retired) if deal.retired else None)
    got = cache.get(key)
    if got is None:
        got = cache[key] = tuple(s for s in _select(deal, kinds, only) if deal.is_live(s))
    return got  # type: ignore[return-value]


def _select(deal: Deal, kinds: tuple[str, ...] | None, only: tuple[str, ...]
            ) -> tuple[str, ...]:
    if only:
        return tuple(s.id for s in deal.variant.layout if s.id in only)
    # a wager space (a side-bet) is staked by nobody: chips go on it only by a wager
    return tuple(s.id for s in deal.variant.layout
                 if (s.kind != "wager" if kinds is None else s.kind in kinds))


def spaces_exist(variant: Any, params: EachSpaceParams | DealerDoubleParams | FreeParams
                 ) -> list[str]:
    """Load-time check: every space a stake rule names is on the layout."""
    bad = [s for s in params.spaces if s not in variant.spaces]
    if bad:
        return [f"stakes on {', '.join(map(repr, bad))}, which is not a layout space; "
                f"expected some of: {', '.join(variant.space_ids)}"]
    return []


def _on(spaces: tuple[str, ...], default: str) -> str:
    return ("on " + ", ".join(spaces)) if spaces else default


def chips(n: int) -> str:
    """An amount in a sentence: ``1 chip``, ``2 chips``."""
    return f"{n} chip" if n == 1 else f"{n} chips"


def in_chips(text: Any) -> Any:
    """A stake rule's ``describe``: its text with amounts in chips for the variant's stake
    unit (``text(params, unit)``); ``text(params)`` alone reads with a unit of one chip."""
    return lambda variant, params: text(params, variant.rules.stake_unit)


def once(text: Any) -> Any:
    """A stake rule's ``text(params)``: ``text(params, unit)`` with a unit of one chip."""
    return lambda params: text(params, 1)


_SPACES_DOC = "Only these layout spaces take the stake (default: the rule's own choice)."


_POSITIVE = attrs.validators.ge(1)
_NATURAL = attrs.validators.ge(0)


@attrs.frozen
class EachSpaceParams:
    chips: int = attrs.field(default=1, validator=_POSITIVE)
    spaces: tuple[str, ...] = attrs.field(default=(), metadata={"doc": _SPACES_DOC})
    short_hand_extra: int = param(
        0, "Stake units more, on the same spaces, from a player whose hand in this deal will "
        "be smaller than the largest (Play or Pay, G.0 item 18); the sizes follow from the "
        "deal shape before dealing.", validator=_NATURAL)


def each_space(deal: Deal, seat: int, p: EachSpaceParams) -> StakePlan:
    """Every player, dealer included, puts ``chips`` stake units on every live space (and
    ``short_hand_extra`` more if the deal will give him fewer cards than the largest hand)."""
    units = p.chips + (p.short_hand_extra if p.short_hand_extra and _short(deal, seat) else 0)
    return _fixed_plan(deal, units * deal.rules.stake_unit, _live(deal, None, p.spaces))


def _short(deal: Deal, seat: int) -> bool:
    """Whether ``seat``'s hand in this deal will be smaller than the largest, by the deal
    shape's sizes for the seats in play, dealt from the dealer's left (G.0 item 18: the
    stake comes before the deal, so it goes by the sizes the deal will give, never by the
    cards)."""
    shape = deal.variant.deal_shape
    if shape is None:  # a plug-in's own dealing declares no shape: nobody is short
        return False
    seats = deal.order(deal.dealer)
    n = len(seats)
    sizes = shape.stacked_sizes(n) or shape.sizes(n)
    hands = sizes[:n]
    return seat in seats and hands[seats.index(seat)] < max(hands)


def each_space_text(p: EachSpaceParams, unit: int = 1) -> str:
    t = (f"Before each deal every player, the dealer included, puts {chips(p.chips * unit)} "
         f"{_on(p.spaces, 'on every space of the layout')}, adding to any chips left there.")
    if p.short_hand_extra:
        t += (f" A player who will be dealt fewer cards than the largest hand puts "
              f"{chips(p.short_hand_extra * unit)} more.")
    return t


def _each_space_describe(variant: Any, p: EachSpaceParams) -> str:
    """``each_space`` in a variant's words: side-bet (``wager``) spaces take no stake."""
    text = each_space_text(p, variant.rules.stake_unit)
    if not p.spaces and any(s.kind == "wager" for s in variant.layout):
        text = text.replace("on every space of the layout",
                            "on every space of the layout but the side-bets")
    return text


@attrs.frozen
class DealerDoubleParams:
    dealer: int = attrs.field(default=2, validator=_NATURAL)
    others: int = attrs.field(default=1, validator=_NATURAL)
    spaces: tuple[str, ...] = attrs.field(default=(), metadata={"doc": _SPACES_DOC})


def dealer_two_others_one(deal: Deal, seat: int, p: DealerDoubleParams) -> StakePlan:
    """The dealer puts ``dealer`` units on every live space, everyone else ``others``."""
    units = p.dealer if seat == deal.dealer else p.others
    return _fixed_plan(deal, units * deal.rules.stake_unit, _live(deal, None, p.spaces))


def _fixed_plan(deal: Deal, amount: int, spaces: tuple[str, ...]) -> StakePlan:
    """The same fixed stake on each space; plans are immutable, so they are cached."""
    cache = deal.variant.cache
    key = ("plan", amount, spaces)
    plan = cache.get(key)
    if plan is None:
        plan = cache[key] = StakePlan(fixed=tuple((s, amount) for s in spaces))
    return plan  # type: ignore[return-value]


def dealer_double_text(p: DealerDoubleParams, unit: int = 1) -> str:
    return (f"Before each deal the dealer puts {chips(p.dealer * unit)} "
            f"{_on(p.spaces, 'on every space of the layout')} and every other player puts "
            f"{chips(p.others * unit)}, adding to any chips left there.")


@attrs.frozen
class FreeParams:
    chips: int = attrs.field(default=4, validator=_POSITIVE)
    spaces: tuple[str, ...] = attrs.field(default=(), metadata={"doc": _SPACES_DOC})


def free(deal: Deal, seat: int, p: FreeParams) -> StakePlan:
    """Each player places ``chips`` stake units anywhere on the live card spaces, any split."""
    spaces = _live(deal, None, p.spaces) if p.spaces else (
        _live(deal, CARD_KINDS) or _live(deal))
    return StakePlan(free_chips=p.chips * deal.rules.stake_unit, free_spaces=spaces)


def free_text(p: FreeParams, unit: int = 1) -> str:
    where = ("on " + ", ".join(p.spaces)) if p.spaces else "on the layout's card spaces"
    return (f"Before each deal every player (the dealer too) "
            f"places {chips(p.chips * unit)} {where} in any split they like, one "
            "player at a time from the dealer's left, openly; a space may get none.")


@attrs.frozen
class ChooseOneParams:
    card_chips: int = attrs.field(default=1, validator=_NATURAL)
    pool_chips: int = attrs.field(default=1, validator=_NATURAL)
    cover_all: bool = param(
        False, "When everyone has staked, every card space must hold chips (chips carried "
        "from earlier deals count): a stake decision is legal only if afterwards the card "
        "spaces holding no chips are no more than the chips of this deal still to be placed "
        "(docs/family-rulings.md G31). Each chip is then its own stake decision. A variant "
        "whose chips cannot cover every card space for some number of players is refused.",
        option="cover_all")
    dealer_extra: int = param(
        0, "Stake units the dealer places on card spaces beyond card_chips, each its own "
        "stake decision after his others (the dealer chooses last).", option="dealer_extra",
        validator=_NATURAL)


def choose_one_card(deal: Deal, seat: int, p: ChooseOneParams) -> StakePlan:
    """``card_chips`` units on one live card space of the player's choice, ``pool_chips``
    on each live pool space. With ``cover_all`` or a ``dealer_extra``, each unit is its own
    decision (the dealer's extra ones last of all) and ``cover_all`` limits where it may go
    (:func:`covering`)."""
    unit = deal.rules.stake_unit
    cards = _live(deal, CARD_KINDS)
    pools = _live(deal, ("pot", "kitty")) if p.pool_chips else ()
    by_chip = p.cover_all or p.dealer_extra > 0
    dealer = by_chip and seat == deal.dealer
    cache = deal.variant.cache
    key = ("choose_one", cards, pools, p, unit, dealer)
    plan = cache.get(key)
    if plan is None:
        fixed = tuple((s, p.pool_chips * unit) for s in pools)
        if not cards:
            plan = StakePlan(fixed=fixed)
        elif by_chip:
            times = p.card_chips + (p.dealer_extra if dealer else 0)
            plan = StakePlan(fixed=fixed, choose_one=cards, choose_amount=unit if times else 0,
                             choose_times=times, cover_all=p.cover_all)
        else:
            plan = StakePlan(fixed=fixed, choose_one=cards, choose_amount=p.card_chips * unit)
        cache[key] = plan
    return plan  # type: ignore[return-value]


def covering(spaces: tuple[str, ...], layout: dict[str, int], to_come: int
             ) -> tuple[str, ...]:
    """Where one chip may go under ``cover_all``: any of ``spaces`` while the empty ones are
    no more than the ``to_come`` chips to be placed after it; else only an empty one.

    (Exactly the test of docs/family-rulings.md G.5, "afterwards the card spaces holding no
    chips are at most the chips still to be placed": a chip on an empty space keeps the test
    as it was, one on a covered space passes only with ``len(empty) <= to_come``. Should the
    seats left in a session be too few to cover the layout at all, every chip still goes
    where it covers.)"""
    empty = tuple(s for s in spaces if not layout.get(s, 0))
    return spaces if len(empty) <= to_come else empty


def choose_one_text(p: ChooseOneParams, unit: int = 1, retiring: bool = False) -> str:
    live = " (still on the layout)" if retiring else ""
    pools = (f" and {chips(p.pool_chips * unit)} on each of the pot and the kitty (while "
             "they are still on the layout)" if p.pool_chips else "")
    if not (p.cover_all or p.dealer_extra):
        return (f"Before each deal every player puts {chips(p.card_chips * unit)} on one card "
                f"space of their choice{live}{pools}; players choose in turn from the dealer's "
                "left, openly.")
    each = chips(p.card_chips * unit)
    where = ("on a card space of their choice" if p.card_chips == 1 else
             "one stake at a time, each on a card space of their choice")
    extra = ""
    if p.dealer_extra:
        extra = (f", and the dealer {chips(p.dealer_extra * unit)} more, "
                 + ("also on a card space of his choice (the same or another)"
                    if p.dealer_extra == 1 else "one at a time, also on card spaces of his "
                    "choice"))
    t = (f"Before each deal every player puts {each} {where}{live}{extra}{pools}; players "
         "choose in turn from the dealer's left, the dealer last, openly.")
    if p.cover_all:
        t += (" When all have staked, every card space must hold chips (chips left there from "
              "earlier deals count): a chip may go on a space that already holds chips only "
              "while the chips still to be placed, the dealer's included, are enough to cover "
              "every empty card space.")
    return t


def choose_one_describe(variant: Any, p: ChooseOneParams) -> str:
    """``choose_one_text`` as it reads in ``variant``: amounts in its stake unit, and "still
    on the layout" only where won spaces leave it."""
    return choose_one_text(p, variant.rules.stake_unit, variant.rules.retire_claimed)


def choose_one_check(variant: Any, p: ChooseOneParams) -> list[tuple[str, str]]:
    """Load-time check of ``cover_all``: with every player count the variant allows, the
    chips of one deal can cover every card space of a bare layout."""
    if not p.cover_all:
        return []
    spaces = [s.id for s in variant.layout if s.kind in CARD_KINDS]
    lo, hi = variant.players
    for n in range(lo, hi + 1):
        placed = n * p.card_chips + p.dealer_extra
        if placed < len(spaces):
            return [("cover_all", f"with {n} players only {placed} stakes are "
                     f"placed ({p.card_chips} each and {p.dealer_extra} more by the dealer), "
                     f"too few to cover the {len(spaces)} card spaces "
                     f"({', '.join(spaces)}); expected dealer_extra of at least "
                     f"{len(spaces) - n * p.card_chips} or at least "
                     f"{-(-(len(spaces) - p.dealer_extra) // max(p.card_chips, 1))} players")]
    return []


_KITTY_STAKE_DOC = ("Stake units each player puts in the kitty before each deal (besides the "
                    "stakes on the card spaces).")


@attrs.frozen
class HorsesKittyParams:
    kitty_stake: int = param(2, _KITTY_STAKE_DOC, option="kitty_stake",
                             validator=attrs.validators.ge(0))


def each_horse_plus_kitty(deal: Deal, seat: int, p: HorsesKittyParams) -> StakePlan:
    """Newmarket's stake (F7): every player, dealer included, puts one unit on each live card
    space (the horses) and ``kitty_stake`` units in the kitty."""
    unit = deal.rules.stake_unit
    cards = _live(deal, CARD_KINDS)
    kitty = deal.variant.kitty
    live = kitty is not None and deal.is_live(kitty)
    key = ("horses_kitty", cards, p.kitty_stake, unit, live)
    cache = deal.variant.cache
    plan = cache.get(key)
    if plan is None:
        fixed = [(s, unit) for s in cards]
        if kitty is not None and p.kitty_stake and live:
            fixed.append((kitty, p.kitty_stake * unit))
        plan = cache[key] = StakePlan(fixed=tuple(fixed))
    return plan  # type: ignore[return-value]


def each_horse_plus_kitty_text(p: HorsesKittyParams, unit: int = 1) -> str:
    return (f"Before each deal every player, the dealer included, puts {chips(unit)} on each "
            f"card space of the layout and {chips(p.kitty_stake * unit)} in the kitty, adding "
            "to any chips left there.")


def choose_one_horse(deal: Deal, seat: int, p: HorsesKittyParams) -> StakePlan:
    """One unit on one live card space of the player's choice (a ``stake`` decision) and
    ``kitty_stake`` units in the kitty (placed for him)."""
    unit = deal.rules.stake_unit
    cards = _live(deal, CARD_KINDS)
    kitty = deal.variant.kitty
    live = kitty is not None and deal.is_live(kitty)
    key = ("choose_horse", cards, p.kitty_stake, unit, live)
    cache = deal.variant.cache
    plan = cache.get(key)
    if plan is None:
        fixed = ((kitty, p.kitty_stake * unit),) if (
            kitty is not None and p.kitty_stake and live) else ()
        plan = cache[key] = StakePlan(fixed=fixed, choose_one=cards,
                                      choose_amount=unit if cards else 0)
    return plan  # type: ignore[return-value]


def choose_one_horse_text(p: HorsesKittyParams, unit: int = 1) -> str:
    return (f"Before each deal every player puts {chips(unit)} on one card space of their "
            f"choice and {chips(p.kitty_stake * unit)} in the kitty; players choose in turn "
            "from the dealer's left, openly.")


def _kitty_needed(variant: Any, p: HorsesKittyParams) -> list[tuple[str, str]]:
    if p.kitty_stake and variant.kitty is None:
        return [("kitty_stake", "the kitty stake goes into the kitty, but the layout has no "
                 "space of kind kitty")]
    return []
@attrs.frozen
class PatternParams:
    each: dict[str, int] = param(  # noqa: RUF009 (a factory, not a shared default)
        None, "Stake units every player, the dealer included, puts on each named space "
        "(graded stakes, e.g. {TD: 1, JC: 2, QS: 3}).", factory=dict)
    dealer: dict[str, int] = param(  # noqa: RUF009
        None, "Stake units the dealer alone puts on each named space, on top of `each` "
        "(dressing the board, e.g. {pope: 6, matrimony: 2}).", factory=dict)
    others: dict[str, int] = param(  # noqa: RUF009
        None, "Stake units every player but the dealer puts on each named space, on top of "
        "`each`.", factory=dict)
    dressing: Literal["dealer", "each_player"] = param(
        "dealer", "Who puts the `dealer` amounts (dressing the board): the dealer alone, or "
        "every player, the dealer included (each_player; docs/family-rulings.md F17).",
        option="dressing")
    winner_exempt: bool = param(
        False, "The winner of the last deal stakes nothing in the next one unless he deals it "
        "(the table names him in the deal's `exempt` seats; docs/family-rulings.md F33).",
        option="winner_exempt")


def winner_exempt(p: Any) -> bool:
    """Whether the last deal's winner stakes nothing in the next one (``winner_exempt``)."""
    return bool(p.winner_exempt)


def pattern(deal: Deal, seat: int, p: PatternParams) -> StakePlan:
    """A fixed pattern of stakes by space: the same for everyone (``each``), and what the
    dealer (``dealer``) or each other player (``others``) adds. Shared by games that dress the
    board (Pope Joan's dealer), grade their stakes (Nain Jaune's 1-2-3-4-5) or stake the dealer
    against the others (Spinado). A seat in ``deal.exempt`` other than the dealer stakes
    nothing (a winner's exemption, docs/family-rulings.md F33). Spaces retired from the layout are
    skipped."""
    if seat in deal.exempt and seat != deal.dealer:
        return _EMPTY
    unit = deal.rules.stake_unit
    is_dealer = seat == deal.dealer
    cache = deal.variant.cache
    key = ("pattern", is_dealer, frozenset(deal.retired) if deal.retired else None,
           unit, id(p))
    plan = cache.get(key)
    if plan is None:
        fixed = []
        for space in deal.variant.space_ids:
            units = p.each.get(space, 0)
            if is_dealer or p.dressing == "each_player":
                units += p.dealer.get(space, 0)
            if not is_dealer:
                units += p.others.get(space, 0)
            if units and deal.is_live(space):
                fixed.append((space, units * unit))
        plan = cache[key] = StakePlan(fixed=tuple(fixed))
    return plan  # type: ignore[return-value]


_EMPTY = StakePlan()


def _pattern_who(amounts: dict[str, int], unit: int, first: bool) -> str:
    """``6 chips on pope, 2 on matrimony``: the unit said once, on the first amount."""
    out = []
    for s, n in amounts.items():
        out.append(f"{chips(n * unit) if first else n * unit} on {s}")
        first = False
    return ", ".join(out)


def pattern_text(p: PatternParams, unit: int = 1) -> str:
    parts: list[str] = []
    if p.each:
        parts.append("every player, the dealer included, puts "
                     + _pattern_who(p.each, unit, not parts))
    if p.dealer and p.dressing == "each_player":
        who = "every player, the dealer included, also puts" if p.each else \
            "every player, the dealer included, puts"
        parts.append(f"{who} {_pattern_who(p.dealer, unit, not parts)}")
    elif p.dealer:
        who = "the dealer also puts" if p.each else "the dealer alone puts"
        parts.append(f"{who} {_pattern_who(p.dealer, unit, not parts)}")
    if p.others:
        who = "every other player also puts" if p.each else "every player but the dealer puts"
        parts.append(f"{who} {_pattern_who(p.others, unit, not parts)}")
    if not parts:
        return ""  # nobody stakes: the stakes phase says so
    text = "; ".join(parts)
    return (f"Before each deal the stakes go on the layout, space by space: {text}, adding to "
            "any chips left there." + (WINNER_EXEMPT_TEXT if p.winner_exempt else ""))


WINNER_EXEMPT_TEXT = (" The winner of the last deal stakes nothing, unless he is the dealer "
                      "(then he pays the dealer's whole stake).")


def pattern_spaces_exist(variant: Any, p: PatternParams) -> list[str]:
    """Load-time check: every space the pattern names is on the layout, amounts positive."""
    out = []
    for field, amounts in (("each", p.each), ("dealer", p.dealer), ("others", p.others)):
        for space, units in amounts.items():
            if space not in variant.spaces:
                out.append(f"stake_rule pattern: {field} names {space!r}, which is not a "
                           f"layout space; expected some of: {', '.join(variant.space_ids)}")
            elif not isinstance(units, int) or isinstance(units, bool) or units < 0:
                out.append(f"stake_rule pattern: {field}.{space} must be a whole number of "
                           f"stake units (0 or more), not {units!r}")
    return out


SEATS_ONLY: frozenset[Any] = frozenset({each_space, dealer_two_others_one, free,
                                        choose_one_card, each_horse_plus_kitty,
                                        choose_one_horse})
"""The rules whose plans depend only on the dealer, the seats in play and the live spaces
(never on stacks, exemptions or earlier deals), so the stake phase may reuse them (any other
rule, a plug-in's too, is asked every time)."""


def register(reg: Registry) -> None:
    """The stake rules."""
    reg_p = reg.register_policy

    def p(slot: str, name: str, text: Any, **kw: Any) -> Any:
        return reg_p(slot, name, text=once(text), describe=in_chips(text), **kw)

    reg_p("stake_rule", "each_space", text=once(each_space_text),
          describe=_each_space_describe, params=EachSpaceParams, check=spaces_exist,
          phrase="the dealer included, puts")(each_space)
    p("stake_rule", "dealer_two_others_one", dealer_double_text, params=DealerDoubleParams,
      check=spaces_exist, phrase="and every other player puts")(dealer_two_others_one)
    p("stake_rule", "free", free_text, params=FreeParams, check=spaces_exist,
      phrase="in any split they like")(free)
    reg_p("stake_rule", "choose_one_card", text=once(choose_one_text),
          describe=choose_one_describe, params=ChooseOneParams, check=choose_one_check,
          phrase="card space of their choice")(choose_one_card)
    p("stake_rule", "each_horse_plus_kitty", each_horse_plus_kitty_text,
      params=HorsesKittyParams, check=_kitty_needed,
      phrase="on each card space of the layout and")(each_horse_plus_kitty)
    p("stake_rule", "choose_one_horse", choose_one_horse_text, params=HorsesKittyParams,
      check=_kitty_needed, phrase="on one card space of their choice and")(choose_one_horse)
    p("stake_rule", "pattern", pattern_text, params=PatternParams,
      check=pattern_spaces_exist, phrase="the stakes go on the layout, space by space",
      exempts_winner=winner_exempt)(pattern)
