"""Save and restore a :class:`~stops.Table` (with its deal in progress) as JSON-safe data.

A host game saves with ``table.to_dict()`` (or ``json.dumps`` of it) and restores with
``Table.from_dict(data)``; play continues exactly as if never interrupted. The deal in
progress is stored as its (partial) deal record and rebuilt by replaying it, so the saved
form holds no engine internals and stays readable and stable across versions.

Two forms, for two readers (the threat model in docs/embedding.md):

* the **full save** (``to_dict()``) is the host's: it shows every hand, the spare hand and
  the seed, from which every later deal of the session follows. An unsigned one is trusted
  for nothing it cannot prove: its deal in progress is dealt again from the seed, always, and
  a deal dealt from stacked hands restores only from a save signed with the host's key.
* the **seat form** (``to_dict(seat=s)``) is what one player may see: its own view of the
  deal (:func:`~stops.engine.observation.observe`) and the session's public state, with no
  hidden card and no seed. A host may hand it to that player; it cannot be restored.

The session-level state is an attrs class converted by cattrs, like the variant files.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import warnings
from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated, Any

import attrs
import cattrs

from stops.engine.cards import CARDS
from stops.engine.chips import MAX_CHIPS, chips_ok
from stops.engine.errors import RecordError, SignatureNotChecked, StopsError
from stops.engine.structure import (
    STRUCTURE_FAILURES,
    TypeProblem,
    shape_problems,
    show,
    strict_converter,
    structure_errors,
)
from stops.engine.text import shown

if TYPE_CHECKING:
    from stops.engine.deal import Deal
    from stops.engine.table import Table
    from stops.rules.registry import Registry

FORMAT = "stops.table/1"
TABLE_SEAT_FORMAT = "stops.table.seat/1"
"""One seat's view of a table (``table.to_dict(seat=s)``): for that player, not restorable."""
DEAL_SEAT_FORMAT = "stops.deal.seat/1"
"""One seat's view of a deal (``deal.to_dict(seat=s)``): for that player, not restorable."""


Chips = Annotated[int, "chips"]
"""A stack: a whole number of chips within :data:`~stops.engine.chips.MAX_CHIPS` either way."""
Pile = Annotated[int, "pile"]
"""Chips on a layout space (or put there by a seat): a whole number from 0 to MAX_CHIPS."""
Count = Annotated[int, "count"]
"""A count of deals: a whole number from 0 to MAX_CHIPS."""
Seed = int | str
"""A session's seed: a whole number or text (of at most 1,000 characters)."""
KeepRecords = bool | int
"""How many finished deals' records a table keeps: all (true), none (false) or the last N."""


@attrs.define
class TableState:
    """Everything a table carries between deals, plus its deal in progress: the saved
    table's model. :func:`table_to_dict` unstructures it and :func:`table_from_dict`
    structures a save through it (:data:`CONVERTER`), so each key's type and bounds are
    checked on the way in; what depends on the variant or on other keys (the number of
    seats, the layout's spaces, the chips adding up) is checked after."""

    variant: Any
    """The variant's name or the variant itself: :func:`~stops.engine.resolver.resolve_untrusted`
    checks it."""
    options: dict[str, Any]
    seats: int
    seed: Seed
    stacks: list[Chips]
    layout: dict[str, Pile]
    retired: list[str]
    dealer: int
    deal_index: Count
    deals_played: Count
    deal_limit: int | None = attrs.field(validator=attrs.validators.optional(
        attrs.validators.ge(1)))
    skip_stakes: bool
    over: bool
    start_stacks: list[Chips]
    contributed: dict[str, list[Pile]] = attrs.field(factory=dict)
    keep_records: KeepRecords = True
    records: list[Any] = attrs.field(factory=list)
    """Deal records, each checked by :func:`~stops.engine.recording.check_record`."""
    current: dict[str, Any] | None = None
    eliminated: list[int] = attrs.field(factory=list)
    format: str = FORMAT
    start_layout: dict[str, Pile] = attrs.field(factory=dict)
    last_winner: int | None = None
    """The winner of the last deal (a stake rule may excuse him from the next stake)."""
    stacked: bool = False
    """The deal in progress was dealt from given hands (``new_deal(hands=...)``), not by
    the seed: its hands cannot be re-derived, so it restores only from a signed save."""


def _chips(low: int, what: str = "whole number of chips") -> Any:
    def hook(v: Any, _: Any) -> int:
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeProblem(f"expected a whole number, got {show(v)}")
        if not chips_ok(v, low):
            bounds = (f"not beyond {MAX_CHIPS:,} either way" if low < 0
                      else f"from {low} to {MAX_CHIPS:,}")
            raise TypeProblem(f"expected a {what} {bounds}, got {shown(v)}")
        return v
    return hook


def _seed(v: Any, _: Any) -> int | str:
    if not ((isinstance(v, int) and not isinstance(v, bool))
            or (isinstance(v, str) and len(v) <= 1000)):
        raise TypeProblem(f"expected a whole number or text, got {show(v)}")
    return v


def _keep_records(v: Any, _: Any) -> bool | int:
    if not (isinstance(v, bool) or (isinstance(v, int) and v >= 0)):
        raise TypeProblem(f"expected true, false or a whole number >= 0, got {show(v)}")
    return v


def _make_converter() -> cattrs.Converter:
    c = strict_converter()
    c.register_structure_hook_func(lambda t: t == Chips, _chips(-MAX_CHIPS))
    c.register_structure_hook_func(lambda t: t == Pile, _chips(0))
    c.register_structure_hook_func(lambda t: t == Count, _chips(0, "whole number"))
    c.register_structure_hook_func(lambda t: t == Seed, _seed)
    c.register_structure_hook_func(lambda t: t == KeepRecords, _keep_records)
    c.register_structure_hook_func(lambda t: t is Any, lambda v, _: v)
    return c


CONVERTER = _make_converter()
"""The strict converter for saves: the loader's hooks (:mod:`stops.engine.structure`) and the
chip bounds (:data:`~stops.engine.chips.MAX_CHIPS`)."""

FIELDS = tuple(a.name for a in attrs.fields(TableState))
SIGNATURE = "signature"


def table_state(table: Table) -> TableState:
    current = None
    deal = table.deal
    stacked = False
    if deal is not None and not deal.is_terminal:
        current = deal.record()
        stacked = deal.stacked
    return TableState(
        variant=table.variant.record_ref, options=table.variant.record_options,
        seats=table.n, seed=table.seed, stacks=list(table.stacks), layout=dict(table.layout),
        retired=sorted(table.retired), dealer=table.dealer, deal_index=table.deal_index,
        deals_played=table.deals_played, deal_limit=table.deal_limit,
        skip_stakes=table.skip_stakes, over=table.is_over,
        start_stacks=list(table.start_stacks),
        contributed={k: list(v) for k, v in table.contributed.items()},
        keep_records=table.keep_records, records=list(table.records), current=current,
        eliminated=sorted(table.eliminated), start_layout=dict(table.start_layout),
        stacked=stacked, last_winner=table.last_winner,
    )


def _canonical(data: Mapping[str, Any]) -> bytes:
    body = {k: v for k, v in data.items() if k != SIGNATURE}
    try:
        return json.dumps(body, sort_keys=True, separators=(",", ":"),
                          ensure_ascii=True, allow_nan=False).encode("ascii")
    except (TypeError, ValueError, RecursionError):
        raise RecordError("the saved data is not plain JSON data") from None


def _check_key(key: object) -> bytes:
    if not isinstance(key, bytes | bytearray) or len(key) < 16:
        raise StopsError("key must be bytes, at least 16 of them (e.g. secrets.token_bytes(32))")
    return bytes(key)


def sign(data: dict[str, Any], key: bytes) -> dict[str, Any]:
    """``data`` with an HMAC-SHA256 ``signature`` of its canonical JSON form."""
    mac = hmac.new(_check_key(key), _canonical(data), hashlib.sha256).hexdigest()
    return {**data, SIGNATURE: mac}


def verify(data: Mapping[str, Any], key: bytes | None) -> dict[str, Any]:
    """``data`` without its signature; with ``key``, the signature must be valid. Without
    a key, a signed save warns (:class:`~stops.SignatureNotChecked`) that its signature was
    not checked: it is then trusted no more than an unsigned save."""
    if not isinstance(data, Mapping):
        raise RecordError("a save must be a mapping of keys")
    if key is None:
        if SIGNATURE in data:
            warnings.warn("this save is signed, but it was restored without a key: its "
                          "signature was not checked, so it is trusted no more than an "
                          "unsigned save (pass key=... to check it)", SignatureNotChecked,
                          stacklevel=4)
        return {k: v for k, v in data.items() if k != SIGNATURE}
    k = _check_key(key)
    given = data.get(SIGNATURE)
    if not isinstance(given, str):
        raise RecordError("'signature': missing; this save was not signed with the key")
    want = hmac.new(k, _canonical(data), hashlib.sha256).hexdigest()
    if not hmac.compare_digest(given.encode("ascii", "replace"), want.encode("ascii")):
        raise RecordError("'signature': does not match; the save was changed or signed with "
                          "another key")
    return {kk: v for kk, v in data.items() if kk != SIGNATURE}


def table_to_dict(table: Table, *, key: bytes | None = None,
                  seat: int | None = None) -> dict[str, Any]:
    out: dict[str, Any] = (CONVERTER.unstructure(table_state(table)) if seat is None
                           else table_seat_dict(table, seat))
    return sign(out, key) if key is not None else out


def deal_to_dict(deal: Deal, *, key: bytes | None = None,
                 seat: int | None = None) -> dict[str, Any]:
    """A deal's full save (its record, with the seed that dealt it unless it was stacked),
    or with ``seat`` that seat's view of it."""
    if seat is not None:
        out = deal_seat_dict(deal, seat)
    else:
        out = deal.record()
        if not deal.stacked and deal.seed is not None:
            out["seed"] = deal.seed  # the seed deals it again: the listed hands are checked
    return sign(out, key) if key is not None else out


def _public_session(table: Table) -> dict[str, Any]:
    """What every seat at the table may know of the session (no cards, no seed)."""
    return {
        "variant": table.variant.record_ref, "options": table.variant.record_options,
        "seats": table.n, "stacks": list(table.stacks), "layout": dict(table.layout),
        "retired": sorted(table.retired), "dealer": table.dealer,
        "deal_index": table.deal_index, "deals_played": table.deals_played,
        "deal_limit": table.deal_limit, "over": table.is_over,
        "start_stacks": list(table.start_stacks), "eliminated": sorted(table.eliminated),
        "last_winner": table.last_winner,
    }


def table_seat_dict(table: Table, seat: int) -> dict[str, Any]:
    """``seat``'s view of the table: the session's public state and its own view of the
    deal in progress (or of the last deal). No other hand, no spare hand it has not seen,
    no seed, and no records of finished deals (a record shows every hand)."""
    from stops.engine.table import TableError

    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < table.n:
        raise TableError(f"no seat {seat!r} at a table of {table.n} (seats are "
                         f"0..{table.n - 1})")
    deal = table.deal
    return {"format": TABLE_SEAT_FORMAT, "seat": seat, **_public_session(table),
            "deal": None if deal is None else deal.observe(seat).to_dict()}


def deal_seat_dict(deal: Deal, seat: int) -> dict[str, Any]:
    """``seat``'s view of a deal: :meth:`~stops.engine.observation.Observation.to_dict`,
    with the variant that says how to read it."""
    view = deal.observe(seat).to_dict()
    return {"format": DEAL_SEAT_FORMAT, "variant": deal.variant.record_ref,
            "options": deal.variant.record_options, "deal_index": deal.deal_index, **view}


def _not_a_seat_form(data: Any) -> None:
    if isinstance(data, Mapping) and data.get("format") in (TABLE_SEAT_FORMAT,
                                                             DEAL_SEAT_FORMAT):
        raise RecordError(f"this is one seat's view ({data.get('format')}), made for a "
                          "player: it holds no hidden card and no seed, so it cannot be "
                          "restored; restore the host's full save (to_dict() without seat)",
                          code="seat_form")


# -- checking a save field by field ----------------------------------------------------------

def _bad(field: str, what: str) -> RecordError:
    return RecordError(f"'{field}' {what}", code="bad_save")


def _structured(d: Mapping[str, Any]) -> TableState:
    """``d`` structured through :class:`TableState`; a RecordError naming the key path of
    the first problem (a missing or unknown key, a wrong type, a number out of bounds)."""
    problems = shape_problems(d, TableState, mappings=True)
    if not problems:
        try:
            return CONVERTER.structure(d, TableState)
        except STRUCTURE_FAILURES as e:
            problems = structure_errors(e)
    path, what = problems[0] if problems else ("", "cannot be read")
    if what == "required key missing":
        raise _bad(path, "is missing")
    if what.startswith("unknown key"):
        raise RecordError(what.replace(f"unknown key {path!r}",
                                       f"unknown key {path!r} in a saved table", 1),
                          code="bad_save")
    raise RecordError(f"'{path}': {what}", code="bad_save")


def _check_session(st: TableState, variant: Any) -> None:
    """What the types alone cannot say: the save fits its variant (seats, spaces) and its
    keys agree with one another (a RecordError naming the key that does not)."""
    lo, hi = variant.players
    n = st.seats
    if not lo <= n <= hi:
        raise _bad("seats", f"must be between {lo} and {hi}, got {shown(n)}")
    for f, v in (("stacks", st.stacks), ("start_stacks", st.start_stacks)):
        if len(v) != n:
            raise _bad(f, f"must be a list of {n} whole numbers")
    spaces = variant.space_ids
    for f, m in (("layout", st.layout), ("start_layout", st.start_layout)):
        if any(k not in spaces for k in m):
            raise _bad(f, f"names a space that is not in the layout ({spaces})")
    if not all(r in spaces for r in st.retired):
        raise _bad("retired", "must be a list of layout spaces")
    if not 0 <= st.dealer < n:
        raise _bad("dealer", f"must be between 0 and {n - 1}, got {shown(st.dealer)}")
    out = st.eliminated
    if not all(0 <= s < n for s in out) or len(set(out)) != len(out) or len(out) >= n:
        raise _bad("eliminated", f"must list distinct seats 0..{n - 1}, not all of them")
    if st.dealer in out:
        raise _bad("dealer", "is a seat out of the session")
    if st.last_winner is not None and not 0 <= st.last_winner < n:
        raise _bad("last_winner", f"must be a seat 0..{n - 1} or null")
    if not all(k in spaces and len(v) == n for k, v in st.contributed.items()):
        raise _bad("contributed", f"must map layout spaces to {n} whole numbers >= 0")
    if st.deal_index != st.deals_played + (1 if st.current is not None else 0):
        raise _bad("deal_index", "must be deals_played + 1 with a deal in progress, else "
                   f"deals_played ({st.deals_played})")
    if st.deal_limit is not None and st.deals_played > st.deal_limit:
        raise _bad("deals_played", f"is more than deal_limit ({st.deal_limit})")
    if st.current is not None and st.over:
        raise _bad("over", "a session that is over has no deal in progress")
    total = sum(st.stacks) + sum(st.layout.values())
    started = sum(st.start_stacks) + sum(st.start_layout.values())
    if total != started:
        raise _bad("stacks", f"the chips do not add up: {total} on the table, {started} "
                   "at the start of the session")


def table_from_dict(data: Mapping[str, Any], *, registry: Registry | None = None,
                    key: bytes | None = None) -> Table:
    """Rebuild a table saved with :func:`table_to_dict`; a RecordError naming the field if
    anything is malformed, out of range, inconsistent or (with ``key``) not signed."""
    from stops.engine.recording import check_record, replay_actions
    from stops.engine.resolver import resolve_untrusted
    from stops.engine.table import Table, TableError

    _not_a_seat_form(data)
    if not isinstance(data, Mapping) or data.get("format") != FORMAT:
        raise RecordError(f"not a saved table (expected format: {FORMAT})")
    d = verify(data, key)
    if d.get("stacked") is True and key is None:
        raise _bad("stacked", "a deal dealt from stacked hands restores only from a save "
                   "signed with the host's key (from_dict(data, key=...)): without it the "
                   "deal is dealt again from the seed, and its hands are not the seed's")
    st = _structured(d)
    try:
        variant = resolve_untrusted(st.variant, st.options, registry)
    except StopsError as e:
        raise RecordError(f"'variant': {e}") from None
    _check_session(st, variant)
    for i, rec in enumerate(st.records):
        try:
            check_record(rec)
        except RecordError as e:
            raise RecordError(f"'records[{i}]': {e}") from None
    try:
        table = Table.restore(
            variant, seats=st.seats, stacks=st.stacks, seed=st.seed, dealer=st.dealer,
            layout=st.layout, retired=st.retired, deal_limit=st.deal_limit,
            keep_records=st.keep_records, start_stacks=st.start_stacks,
            start_layout=st.start_layout, deals_played=st.deals_played,
            deal_index=st.deal_index, skip_stakes=st.skip_stakes, over=st.over,
            contributed=st.contributed, records=st.records, eliminated=st.eliminated)
    except TableError as e:
        raise RecordError(f"saved table does not fit its variant: {e}") from None
    table.last_winner = st.last_winner
    if st.current is not None:
        _restore_current(table, st.current, st.stacked, check_record, replay_actions,
                         TableError)
    return table


def _restore_current(table: Table, cur: Mapping[str, Any], stacked: bool, check_record: Any,
                     replay_actions: Any, table_error: Any) -> None:
    """Deal the deal in progress again and replay its decisions, checking that the saved
    record agrees with the table (the seed's cards, the stacks, the layout, the dealer)."""
    try:
        check_record(cur)
    except RecordError as e:
        raise RecordError(f"'current': {e}") from None
    expect = {"players": table.n, "dealer": table.dealer, "stacks": list(table.stacks),
              "layout": {k: v for k, v in table.layout.items() if v},
              "retired": sorted(table.retired)}
    for f, want in expect.items():
        if f in cur and cur[f] != want:
            raise _bad(f"current.{f}", "does not match the table")
    if "deal_index" in cur and cur["deal_index"] != table.deal_index - 1:
        raise _bad("current.deal_index", "does not match the table")
    if bool(cur.get("stakes", True) is False) != table.skip_stakes:
        raise _bad("current.stakes", "does not match skip_stakes")
    out = cur.get("out") or []
    if sorted(out) != sorted(table.eliminated):
        raise _bad("current.out", "does not match eliminated")
    table.deal_index -= 1
    hands = cur.get("hands")
    try:
        if stacked:
            if not hands:
                raise _bad("current.hands", "a stacked deal must list its hands")
            deal = table.new_deal(hands=hands, spare=cur.get("spare") or [],
                                  turn_up=cur.get("turn_up"), exempt=cur.get("exempt") or [])
        else:
            deal = table.new_deal()  # the seed deals the cards: they are re-derived
    except table_error as e:
        raise RecordError(f"'current': {e}") from None
    try:
        replay_actions(deal, cur.get("actions") or [], partial=True)
    except RecordError as e:
        raise RecordError(f"'current.actions': {e}", index=e.index, seat=e.seat,
                          code=e.code) from None
    if hands and not stacked:
        dealt = [[str(c) for c in h] for h in deal.dealt_hands]
        if [[str(c) for c in h] for h in hands] != dealt:
            raise _bad("current.hands", "are not the hands the table's seed deals")
        if [str(c) for c in (cur.get("spare") or [])] != [str(c) for c in deal.dealt_spare]:
            raise _bad("current.spare", "is not the spare hand the seed deals")
    if sorted(cur.get("exempt") or []) != sorted(deal.exempt):
        raise _bad("current.exempt", "does not match the table's last winner")


def deal_from_dict(data: Mapping[str, Any], *, registry: Registry | None = None,
                   key: bytes | None = None) -> Deal:
    """Rebuild a deal saved with :meth:`Deal.to_dict`, at exactly the same point.

    A save with a ``seed`` is dealt again from it (with its ``deal_index``), and the hands
    it lists must be the ones the seed deals. A save without one lists stacked hands, which
    only a signature can vouch for: it restores only with ``key``."""
    from stops.engine.recording import check_record, replay_record
    from stops.engine.resolver import resolve_untrusted

    _not_a_seat_form(data)
    d = verify(data, key)
    check_record(d)
    if "variant" not in d:
        raise RecordError("'variant' is missing")
    if "seed" not in d and d.get("hands") and key is None:
        raise RecordError("'seed' is missing: this deal was dealt from stacked hands, which "
                          "restore only from a save signed with the host's key "
                          "(Deal.from_dict(data, key=...))", code="bad_save")
    try:
        variant = resolve_untrusted(d["variant"], d.get("options") or {}, registry)
    except StopsError as e:
        raise RecordError(f"'variant': {e}") from None
    if "seed" not in d:
        return replay_record(d, variant, partial=True)
    # dealt by the seed: deal it again, and check the cards the save lists against it
    listed = {f: d[f] for f in ("hands", "spare", "turn_up") if f in d}
    again = {k: v for k, v in d.items() if k not in listed}
    again["hands"] = []
    deal = replay_record(again, variant, partial=True)
    hands = listed.get("hands") or []
    if hands and [[str(c) for c in h] for h in hands] != [[str(c) for c in h]
                                                         for h in deal.dealt_hands]:
        raise _bad("hands", "are not the hands the save's seed deals")
    spare = listed.get("spare") or []
    if hands and [str(c) for c in spare] != [str(c) for c in deal.dealt_spare]:
        raise _bad("spare", "is not the spare hand the save's seed deals")
    turn_up = listed.get("turn_up")
    if turn_up is not None and (deal.last_dealt < 0
                                or str(turn_up) != str(CARDS[deal.last_dealt])):
        raise _bad("turn_up", "is not the card the save's seed turns up")
    return deal
