"""A deal as data: its record (cards as dealt, decisions in order), and replaying one.

This is the engine's side of deal records (their format: docs/concepts.md, Records):
turning a :class:`Deal` into a record and a record, with its variant already resolved, back
into a deal. Reading records from files or untrusted text, and resolving the variant a record
names, is :mod:`stops.io.records`' job.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from stops.engine.actions import Action, action_from_dict
from stops.engine.cards import CARDS, Card, parse_card
from stops.engine.chips import MAX_CHIPS, chips_ok
from stops.engine.errors import IllegalAction, RecordError
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
"""Cards in each hand of a final share-out by poker (``final_hands``)."""


def deal_record(deal: Deal, final_hands: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The record of ``deal`` (finished or not): cards as dealt and every decision so far;
    with ``final_hands`` (the session ended after it with a share-out by poker, G.9), those
    too."""
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


class FinishedDeal:
    """What :func:`deal_record` reads of a finished deal, and nothing more.

    A table keeps one of these per finished deal (``keep_records``) instead of the record
    itself: the record dict (a string per card and a dict per action) is built only when
    someone reads ``table.records``. The fields are the deal's own, shared rather than
    copied: a finished deal never changes them. So a kept deal costs a few hundred bytes
    instead of a record's several kilobytes, and ending a deal builds nothing.
    """

    __slots__ = ("actions", "active", "deal_index", "dealer", "dealt_hands", "dealt_spare",
                 "exempt", "final_hands", "last_dealt", "ledger", "n", "seed", "skip_stakes",
                 "start_layout", "start_retired", "start_stacks", "variant")

    is_terminal = True

    def __init__(self, deal: Deal) -> None:
        self.variant = deal.variant
        self.n = deal.n
        self.dealer = deal.dealer
        self.start_stacks = deal.start_stacks
        self.start_layout = deal.start_layout
        self.start_retired = deal.start_retired
        self.dealt_hands = deal.dealt_hands
        self.dealt_spare = deal.dealt_spare
        self.actions = deal.actions
        self.deal_index = deal.deal_index
        self.seed = deal.seed
        self.skip_stakes = deal.skip_stakes
        self.active = deal.active
        self.exempt = deal.exempt
        self.last_dealt = deal.last_dealt
        self.ledger = deal.ledger
        self.final_hands: dict[str, Any] | None = None
        """Set by the table when the session ended after this deal with a share-out by
        poker (the record's ``final_hands``)."""

    def record(self) -> dict[str, Any]:
        """The deal's record, exactly as ``deal.record()`` gave it when the deal ended (and
        the final share-out's cards, if the session ended after it with one)."""
        return deal_record(self, self.final_hands)  # type: ignore[arg-type]


def _need(rec: Mapping[str, Any], key: str, kind: type | tuple[type, ...], what: str) -> Any:
    if key not in rec:
        raise RecordError(f"missing '{key}' ({what})")
    v = rec[key]
    if (isinstance(v, bool) and kind is int) or not isinstance(v, kind):
        raise RecordError(f"'{key}' must be {what}, got {shown_value(v)}")
    return v


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _chips(v: Any) -> bool:
    """A whole number of chips within :data:`~stops.engine.chips.MAX_CHIPS` either way."""
    return chips_ok(v)


def _check_shape(record: Mapping[str, Any]) -> None:
    """Every field of a deal record has the right shape, or a RecordError says which not."""
    layout = record.get("layout")
    if layout is not None and not (isinstance(layout, Mapping) and all(
            isinstance(k, str) and _is_int(v) for k, v in layout.items())):
        raise RecordError("'layout' must be a mapping of space id to chips, e.g. {AH: 3}")
    if layout is not None and not all(_chips(v) for v in layout.values()):
        raise RecordError(f"'layout': chips must be at most {MAX_CHIPS:,}")
    retired = record.get("retired")
    if retired is not None and not (isinstance(retired, list)
                                    and all(isinstance(x, str) for x in retired)):
        raise RecordError("'retired' must be a list of space ids, e.g. [KH, pot]")
    stacks = record.get("stacks")
    if stacks is not None and not (_is_int(stacks) or (
            isinstance(stacks, list) and all(_is_int(x) for x in stacks))):
        raise RecordError("'stacks' must be a list of whole numbers, one per seat")
    if stacks is not None and not all(_chips(x) for x in (
            stacks if isinstance(stacks, list) else [stacks])):
        raise RecordError(f"'stacks': chips must be at most {MAX_CHIPS:,} either way")
    if "deal_index" in record and not (_is_int(record["deal_index"])
                                       and 0 <= record["deal_index"] <= MAX_CHIPS):
        raise RecordError(f"'deal_index' must be a whole number from 0 to {MAX_CHIPS:,}")
    if "turn_up" in record and not isinstance(record["turn_up"], str):
        raise RecordError("'turn_up' must be a card such as 5C (one of the 'spare' cards)")
    exempt = record.get("exempt")
    if exempt is not None and not (isinstance(exempt, list) and all(_is_int(s) for s in exempt)
                                   and len(set(exempt)) == len(exempt)):
        raise RecordError("'exempt' must be a list of distinct seats, e.g. [2]")
    if "stakes" in record and not isinstance(record["stakes"], bool):
        raise RecordError("'stakes' must be true or false")
    if "final_hands" in record:
        final_hands_of(record)
    result = record.get("result")
    if result is not None:
        if not isinstance(result, Mapping):
            raise RecordError("'result' must be a mapping with 'stacks' and 'layout'")
        rs, rl = result.get("stacks"), result.get("layout")
        if rs is not None and not (isinstance(rs, list) and all(_chips(x) for x in rs)):
            raise RecordError("'result.stacks' must be a list of whole numbers (chips, at "
                              f"most {MAX_CHIPS:,} either way)")
        if rl is not None and not (isinstance(rl, Mapping) and all(
                isinstance(k, str) and _chips(v) for k, v in rl.items())):
            raise RecordError("'result.layout' must be a mapping of space id to chips (at "
                              f"most {MAX_CHIPS:,})")
        extra = set(result) - {"stacks", "layout"}
        if extra:
            raise RecordError(f"unknown key(s) in 'result': {sorted(map(str, extra))}")


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


def check_record(record: Mapping[str, Any]) -> None:
    """The record is a mapping of known keys, each of the right shape (else RecordError)."""
    if not isinstance(record, Mapping):
        raise RecordError("a record must be a mapping of keys")
    unknown = [k for k in record if k not in RECORD_KEYS]
    if unknown:
        shown = unknown[0] if isinstance(unknown[0], str) and len(unknown[0]) <= 40 else "?"
        raise RecordError(f"unknown key {shown!r}; a deal record has: "
                          + ", ".join(RECORD_KEYS))
    if "format" in record and record["format"] != DEAL_FORMAT:
        raise RecordError(f"'format' must be {DEAL_FORMAT} (a deal record), got "
                          f"{shown_value(record['format'])}")
    if "variant" in record and not isinstance(record["variant"], str | Mapping):
        raise RecordError("'variant' must be a built-in variant name or the variant itself "
                          "(a mapping)")
    if "options" in record and not isinstance(record["options"], Mapping | None):
        raise RecordError("'options' must be a mapping of rule: choice")
    for key in ("players", "dealer"):
        if key in record and not _is_int(record[key]):
            raise RecordError(f"'{key}' must be a whole number")
    if _is_int(record.get("players")) and not 2 <= record["players"] <= 52:
        raise RecordError("'players' must be between 2 and 52")
    for key in ("hands", "spare", "actions"):
        if key in record and record[key] is not None and not isinstance(record[key], list):
            raise RecordError(f"'{key}' must be a list")
    hands = record.get("hands")
    if isinstance(hands, list) and not all(isinstance(h, list) for h in hands):
        raise RecordError("'hands' must be lists of cards, one per seat")
    _check_shape(record)


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
