"""A deal as data: its record (cards as dealt, decisions in order), and replaying one.

This is the engine's side of deal records (their format: docs/concepts.md, Records):
turning a :class:`Deal` into a record and a record, with its variant already resolved, back
into a deal. Reading records from files or untrusted text, and resolving the variant a record
names, is :mod:`stops.io.records`' job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Annotated, Any

import attrs
import cattrs

from stops.engine.actions import Action, action_from_dict
from stops.engine.cards import CARDS, Card, parse_card
from stops.engine.chips import MAX_CHIPS, chips_ok
from stops.engine.errors import IllegalAction, RecordError
from stops.engine.finished import FinishedDeal as FinishedDeal  # moved; old pickles name it here
from stops.engine.structure import (
    STRUCTURE_FAILURES,
    TypeProblem,
    shape_problems,
    strict_converter,
    structure_errors,
)
from stops.engine.text import shown as shown_value

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.rules.variant import Variant

RECORD_KEYS = ("format", "variant", "options", "players", "dealer", "stacks", "layout",
               "retired", "hands", "spare", "turn_up", "exempt", "actions", "deal_index",
               "stakes", "result", "meta", "seed", "out", "final_hands")

DEAL_FORMAT = "stops.deal/1"
"""The ``format`` of a deal record (checked when a record gives one)."""
FINAL_HAND_SIZE = 5
"""Cards in each hand of a final share-out by hands dealt at the end (``final_hands``)."""


def deal_record(deal: Deal, final_hands: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``deal`` (finished or not): cards as dealt and every decision so far;
    with ``final_hands`` (the session ended after it with a share-out by hands dealt to each
    seat, G.9), those too."""
    rec: dict[str, Any] = {
        "format": DEAL_FORMAT,
        "variant": deal.variant.record_ref,
        "options": deal.variant.record_options,
        "players": deal.n,
        "dealer": deal.dealer,
        "stacks": list(deal.start_stacks),
        "layout": dict(deal.start_layout),
        "retired": sorted(deal.start_retired),
        "hands": [[str(c) for c in h] for h in deal.dealt_hands],
        "spare": [str(c) for c in deal.dealt_spare],
        "actions": [a.to_dict() for a in deal.actions],
    }
    if deal.variant.turns_up and deal.last_dealt >= 0 and deal.dealt_hands:
        rec["turn_up"] = str(CARDS[deal.last_dealt])
    if deal.exempt:
        rec["exempt"] = sorted(deal.exempt)
    if deal.deal_index:
        rec["deal_index"] = deal.deal_index
    if not deal.dealt_hands and deal.seed is not None:
        rec["seed"] = deal.seed  # saved before the cards were dealt: the seed deals them
    if deal.skip_stakes:
        rec["stakes"] = False
    if len(deal.active) != deal.n:
        rec["out"] = [s for s in range(deal.n) if s not in deal.active]
    if deal.is_terminal:
        rec["result"] = {"stacks": list(deal.ledger.stacks),
                         "layout": {k: v for k, v in deal.ledger.layout.items() if v}}
    if final_hands is not None:
        rec["final_hands"] = {"dealer": final_hands["dealer"],
                              "hands": [None if h is None else list(h)
                                        for h in final_hands["hands"]]}
    return rec


def _need(rec: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in rec:
        raise RecordError(f"missing '{key}' ({what})")
    v = rec[key]
    if (isinstance(v, bool) and kind is int) or not isinstance(v, kind):
        raise RecordError(f"'{key}' must be {what}, got {shown_value(v)}")
    return v


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def final_hands_of(record: Mapping[str, Any]) -> tuple[int, list[tuple[Card, ...] | None]]:
    """A record's ``final_hands`` (G.9: ``{dealer: d, hands: [[5 cards] or null, ...]}`` in
    seat order, from a fresh 52-card pack) as the final dealer and the hands by seat; a
    :class:`RecordError` naming the key path if it is malformed."""
    fh = record["final_hands"]
    players = record.get("players")
    if not isinstance(fh, Mapping) or set(fh) != {"dealer", "hands"}:
        raise RecordError("'final_hands' must be a mapping with 'dealer' (a seat) and 'hands' "
                          "(one list of 5 cards or null per seat)")
    dealer = fh["dealer"]
    if not _is_int(dealer) or (_is_int(players) and not 0 <= dealer < players):
        raise RecordError(f"'final_hands.dealer' must be one of the record's seats, got "
                          f"{dealer!r:.40}")
    hands = fh["hands"]
    if not isinstance(hands, list) or (_is_int(players) and len(hands) != players):
        raise RecordError(f"'final_hands.hands' must be a list of {players} hands (one per "
                          "seat, null for a seat not dealt)")
    out: list[tuple[Card, ...] | None] = []
    seen: dict[Card, int] = {}
    for s, h in enumerate(hands):
        if h is None:
            out.append(None)
            continue
        if not isinstance(h, list) or len(h) != FINAL_HAND_SIZE:
            raise RecordError(f"'final_hands.hands[{s}]' must be a list of {FINAL_HAND_SIZE} "
                              "cards or null")
        cards: list[Card] = []
        for i, c in enumerate(h):
            try:
                card = parse_card(c)
            except (ValueError, TypeError):
                raise RecordError(f"'final_hands.hands[{s}][{i}]': expected a card such as "
                                  f"TD, got {c!r:.40}") from None
            if card in seen:
                raise RecordError(f"'final_hands.hands[{s}][{i}]': {card} is dealt twice (the "
                                  "share-out deals one fresh 52-card pack)")
            seen[card] = s
            cards.append(card)
        out.append(tuple(cards))
    return int(dealer), out


def _format(v: Any, _: Any) -> str:
    if v != DEAL_FORMAT:
        raise TypeProblem(f"must be {DEAL_FORMAT} (a deal record), got {shown_value(v)}")
    return DEAL_FORMAT


def _variant_ref(v: Any, _: Any) -> Any:
    if not isinstance(v, str | Mapping):
        raise TypeProblem("must be a built-in variant name or the variant itself (a mapping)")
    return v


def _chips_hook(v: Any, _: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise TypeProblem(f"expected a whole number of chips, got {shown_value(v)}")
    if not chips_ok(v):
        raise TypeProblem(f"chips must be at most {MAX_CHIPS:,} either way, got "
                          f"{shown_value(v)}")
    return v


def _stacks_hook(v: Any, t: Any) -> int | list[int]:
    if isinstance(v, list):
        return [_chips_hook(x, t) for x in v]
    return _chips_hook(v, t)   # one number: every seat's stack


def _turn_up(v: Any, _: Any) -> str:
    if not isinstance(v, str):
        raise TypeProblem("must be a card such as 5C (one of the 'spare' cards)")
    return v


def _deal_index(v: Any, t: Any) -> int:
    if not chips_ok(v, 0):
        raise TypeProblem(f"must be a whole number from 0 to {MAX_CHIPS:,}")
    return int(v)


Chips = Annotated[int, "chips"]
"""Chips in a record: a whole number within MAX_CHIPS either way."""
Stacks = Annotated[int | list[int], "stacks"]
"""The seats' stacks: one number per seat, or one number for every seat."""
Index = Annotated[int, "deal index"]
"""A deal's index in its session: 0 to MAX_CHIPS."""
Format = Annotated[str, "format"]
TurnUp = Annotated[str, "turn-up"]
VariantRef = Annotated[Any, "variant"]
ABSENT: Any = None
"""The default of a record key that was not given (a given null is checked like any value)."""


@attrs.define
class RecordResult:
    """A finished record's ``result``: the chips as the deal ended."""

    stacks: list[Chips] | None = None
    layout: dict[str, Chips] | None = None


@attrs.define
class DealRecordShape:
    """A deal record's keys and their types (docs/concepts.md, Records): every key is
    optional here; :func:`replay_record` says which a replay needs. A key given as null is
    refused where null means nothing (``players: null``), allowed where it means empty."""

    format: Format = ABSENT
    variant: VariantRef = ABSENT
    options: dict[str, Any] | None = None
    players: int = ABSENT
    dealer: int = ABSENT
    stacks: Stacks | None = None
    layout: dict[str, Chips] | None = None
    retired: list[str] | None = None
    hands: list[list[Any]] | None = None
    spare: list[Any] | None = None
    turn_up: TurnUp = ABSENT
    exempt: list[int] | None = None
    actions: list[Any] | None = None
    deal_index: Index = ABSENT
    stakes: bool = ABSENT
    result: RecordResult | None = None
    meta: Any = None
    seed: Any = None
    out: Any = None
    final_hands: Any = None


def _make_converter() -> cattrs.Converter:
    c = strict_converter()
    c.register_structure_hook_func(lambda t: t == Format, _format)
    c.register_structure_hook_func(lambda t: t == VariantRef, _variant_ref)
    c.register_structure_hook_func(lambda t: t == Chips, _chips_hook)
    c.register_structure_hook_func(lambda t: t == Stacks, _stacks_hook)
    c.register_structure_hook_func(lambda t: t == Index, _deal_index)
    c.register_structure_hook_func(lambda t: t == TurnUp, _turn_up)
    c.register_structure_hook_func(lambda t: t is Any, lambda v, _: v)
    return c


CONVERTER = _make_converter()
"""The strict converter for deal records (:mod:`stops.engine.structure`, with chip bounds)."""


def check_record(record: Mapping[str, Any]) -> None:
    """The record is a mapping of known keys, each of the right shape (else a RecordError
    naming the key path): structured through :class:`DealRecordShape`."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a mapping of keys")
    unknown = [k for k in record if k not in RECORD_KEYS]
    if unknown:
        shown = unknown[0] if isinstance(unknown[0], str) and len(unknown[0]) <= 40 else "?"
        raise RecordError(f"unknown key {shown!r}; a deal record has: "
                          + ", ".join(RECORD_KEYS))
    problems = shape_problems(record, DealRecordShape, mappings=True)
    if not problems:
        try:
            CONVERTER.structure(record, DealRecordShape)
        except STRUCTURE_FAILURES as e:
            problems = structure_errors(e) or [("", "cannot be read")]
    if problems:
        path, what = problems[0]
        raise RecordError(f"'{path}' {what}" if what.startswith("must")
                          else f"'{path}': {what}")
    hands = record.get("hands")
    if hands is not None and not all(isinstance(h, list) for h in hands):
        raise RecordError("'hands' must be lists of cards, one per seat")
    players = record.get("players")
    if players is not None and not 2 <= players <= 52:
        raise RecordError("'players' must be between 2 and 52")
    exempt = record.get("exempt")
    if exempt is not None and len(set(exempt)) != len(exempt):
        raise RecordError("'exempt' must be a list of distinct seats, e.g. [2]")
    if "final_hands" in record:
        final_hands_of(record)


def replay_record(record: Mapping[str, Any], variant: Variant, *, check_result: bool = True,
                  partial: bool = False, fill_forced: bool = True) -> Deal:
    """Play a deal record under ``variant`` and return the finished :class:`Deal`.

    Raises :class:`RecordError` for a malformed record, an illegal or missing decision, or a
    result that differs from the record's ``result``. With ``partial=True`` the record may
    stop mid-deal: the deal is returned at exactly that point (a saved game).
    """
    from stops.engine.table import Table, TableError

    check_record(record)
    players = _need(record, "players", int, "the number of players")
    dealer = _need(record, "dealer", int, "the dealer's seat")
    hands = _need(record, "hands", list, "a list of hands, one per seat")
    spare = record.get("spare") or []
    actions = record.get("actions") or []
    if not isinstance(actions, list):
        raise RecordError("'actions' must be a list of decisions")
    if not isinstance(spare, list) or not all(isinstance(h, list) for h in hands):
        raise RecordError("'hands' must be lists of cards and 'spare' a list of cards")
    stacks = record.get("stacks")
    if stacks is None:
        stacks = [50] * players

    try:
        seed = record.get("seed", 0)
        if isinstance(seed, bool) or not isinstance(seed, int | str):
            raise RecordError("'seed' must be a whole number or text")
        out = record.get("out") or []
        if not isinstance(out, list) or not all(_is_int(s) and 0 <= s < players for s in out):
            raise RecordError("'out' must list the seats out of the session")
        exempt = record.get("exempt") or []
        if not all(0 <= s < players for s in exempt):
            raise RecordError(f"'exempt' must list seats 0..{players - 1}, got "
                              f"{shown_value(exempt)}")
        final = final_hands_of(record) if "final_hands" in record else None
        # a record with final_hands is the last of its session, whatever ended it (G.9)
        table = Table.restore(variant, seats=players, stacks=stacks, dealer=dealer, seed=seed,
                              layout=record.get("layout") or {},
                              retired=record.get("retired") or [],
                              deal_index=record.get("deal_index", 0), eliminated=out,
                              skip_stakes=record.get("stakes") is False,
                              deal_limit=1 if final is not None else None)
        table.given_final_hands = final
        if not hands and "seed" in record:
            # recorded before the deal: the seed deals the cards
            deal = table.new_deal(exempt=exempt)
        else:
            deal = table.new_deal(hands=hands, spare=spare, turn_up=record.get("turn_up"),
                                  exempt=exempt)
    except TableError as e:
        raise RecordError(str(e), seat=e.seat) from None
    replay_actions(deal, actions, partial=partial, fill_forced=fill_forced)
    if final is not None and deal.is_terminal and table.final_hands is None:
        raise RecordError("'final_hands': the session does not end after this deal with a "
                          "share-out that deals hands (the variant's final_share, with chips "
                          "left on the layout), so no final hands are dealt")
    result = record.get("result")
    if check_result and isinstance(result, Mapping):
        want_stacks = result.get("stacks")
        want_layout = {k: v for k, v in (result.get("layout") or {}).items() if v}
        got_layout = {k: v for k, v in deal.ledger.layout.items() if v}
        if want_stacks is not None and list(want_stacks) != list(deal.ledger.stacks):
            raise RecordError(f"replayed stacks {list(deal.ledger.stacks)} differ from the "
                              f"record's result {list(want_stacks)}", code="result_mismatch")
        if "layout" in result and want_layout != got_layout:
            raise RecordError(f"replayed layout {got_layout} differs from the record's result "
                              f"{want_layout}", code="result_mismatch")
    return deal


def normalized(deal: Deal, action: Action) -> Action:
    """``action`` with the fields the current phase fills in (as ``deal.apply`` does): a
    stake whose amount the stake rule fixes may omit ``chips``."""
    if deal.is_terminal:
        return action
    norm = deal.variant.phases[deal.phase_idx].normalize
    return action if norm is None else norm(deal, action)


def replay_actions(deal: Deal, actions: Sequence[Any], *, partial: bool = False,
                   fill_forced: bool = True) -> None:
    """Apply recorded decisions, filling in omitted single-choice ones (unless
    ``fill_forced`` is false: then every decision must be in the record).

    With ``partial`` the deal may end up unfinished: it stops where the actions stop.
    """
    i = 0
    while not deal.is_terminal:
        if partial and i >= len(actions):
            return
        legal = deal.legal_actions()
        if i < len(actions):
            raw = actions[i]
            try:
                a = normalized(deal, raw if isinstance(raw, Action)
                               else action_from_dict(raw))
            except IllegalAction as e:
                seat = raw.get("seat") if isinstance(raw, Mapping) else None
                raise RecordError(e.message, index=i, seat=seat if isinstance(seat, int)
                                  else None, code=e.code) from None
            if a in legal:
                deal.apply(a)
                i += 1
                continue
            if len(legal) == 1 and fill_forced:
                deal.apply(legal[0])  # an omitted forced decision
                continue
            err = deal.explain(a)
            rule = f" (rule: {err.rule})" if err.rule else ""
            raise RecordError(f"{a} is illegal: {err.message}{rule}", index=i, seat=a.seat,
                              code=err.code)
        if len(legal) == 1:
            deal.apply(legal[0])
            continue
        raise RecordError(
            f"the record ends but seat {deal.current_seat} still has a decision to make "
            f"({deal.phase} phase; choices: {', '.join(legal.verbs)})",
            index=i, seat=deal.current_seat, code="missing_decision")
    if i < len(actions):
        raw = actions[i]
        seat = raw.get("seat") if isinstance(raw, Mapping) else None
        raise RecordError("the deal is already over; this and later actions are extra",
                          index=i, seat=seat if isinstance(seat, int) else None,
                          code="extra_action")
