"""Decisions: what a seat may tell the engine, and their dict form.

One small immutable class covers every verb (the registered ones: :mod:`stops.engine.vocabulary`
checks each decision's fields against its verb's spec); its dict form is
``{"seat": 2, "action": "<verb>", ...fields}``. Actions for the common verbs are interned
(:func:`simple`, :func:`lead`), so offering legal moves on the hot path allocates nothing.
"""

from __future__ import annotations

import threading
from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Final

from stops.engine.cards import CARDS, Card, parse_card, parse_cards
from stops.engine.chips import MAX_DECISION_CHIPS
from stops.engine.errors import IllegalAction
from stops.engine.text import shown
from stops.engine.vocabulary import VERBS, load_builtins

# ``VERBS`` (re-exported): every registered verb, name -> :class:`~stops.engine.vocabulary.Verb`,
# the engine's own and those the phases brought (:mod:`stops.engine.vocabulary`).

_CARD: Final = Card
_VERBS: Final = VERBS
"""``Card`` and ``VERBS`` as ``Final`` names: read directly in the compiled build, not looked up
as module globals at every check (``VERBS`` is only ever filled in place)."""

RANK_NAMES: Final = ("2", "3", "4", "5", "6", "7", "8", "9", "T", "J", "Q", "K", "A")

FLAGS: Final[dict[str, tuple[str, ...]]] = {}
"""Yes/no fields a policy adds to some verbs (``{"spinado": true}`` on ``lead`` and
``follow``): flag name -> the verbs that take it. The engine knows no flag by itself; a
policy module registers its own with :func:`register_flag`."""


def register_flag(name: str, verbs: tuple[str, ...]) -> None:
    """Let ``verbs`` carry the yes/no field ``name`` (``{..., name: true}``)."""
    if name in ("seat", "action") or any(name in v.fields for v in VERBS.values()):
        raise ValueError(f"{name!r} is already a field of a decision")
    FLAGS[name] = tuple(sorted({*FLAGS.get(name, ()), *verbs}))


class Action:
    """One decision by one seat. Immutable, hashable, compared by value.

    ``raise.chips`` is the amount added beyond what calling costs. ``cards`` are compared as
    a set: the same cards in any order are the same decision (a Comet lead of ``[2S, 2H]``
    is the legal ``[2H, 2S]``), while the action keeps the order it was given in, which is
    the order a turn lays them (docs/family-rulings.md F6). The ``cards`` of a verb that takes
    only a list of cards (a choice of several cards at once) are kept sorted.

    A plain class rather than an attrs one: it is made and read on every decision, and the
    compiled build turns a plain class into a native one (direct field access, no
    Python-level ``__init__`` or ``__eq__``).
    """

    __slots__ = ("_action", "_as_rank", "_card", "_cards", "_chips", "_flags", "_hash", "_seat",
                 "_space")
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "action", "card", "chips", "space",
                                                 "cards", "as_rank", "flags")

    # Typed ``Any`` so that both builds refuse a wrong type with IllegalAction (the compiled
    # build would raise its own TypeError for a declared ``int``). Expected: seat ``int``,
    # action ``str`` (a verb), card ``Card | None``, chips ``int | None``, space
    # ``str | None``, cards ``tuple[Card, ...] | None``, as_rank ``str | None`` (a rank
    # letter), flags ``tuple[str, ...]`` (registered flag names, sorted).
    def __init__(self, seat: Any, action: Any, card: Any = None, chips: Any = None,
                 space: Any = None, cards: Any = None, as_rank: Any = None,
                 flags: Any = ()) -> None:
        # Checked here, once per construction (the engine's own actions are interned, so
        # this is off the hot path): a malformed action would be recorded and then refuse
        # to replay. The checks go through ``object`` so that both builds raise our error.
        # ``flags`` is ``_PICKED`` only from :func:`picked_cards` (fields right by making).
        if flags is _PICKED:
            flags = ()
        elif not _valid(seat, action, card, chips, space, cards, as_rank, flags) and not (
                _unknown_verb(action) and load_builtins()
                and _valid(seat, action, card, chips, space, cards, as_rank, flags)):
            raise _bad(_why_invalid(seat, action, card, chips, space, cards, as_rank, flags))
        self._seat: int = seat
        self._action: str = action
        self._card: Card | None = card
        self._chips: int | None = chips
        self._space: str | None = space
        self._cards: tuple[Card, ...] | None = cards
        self._as_rank: str | None = as_rank
        self._flags: tuple[str, ...] = flags
        self._hash = -1

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def action(self) -> str:
        """The verb (``lead``, ``stake``, ``pass`` ...)."""
        return self._action

    @property
    def card(self) -> Card | None:
        return self._card

    @property
    def chips(self) -> int | None:
        return self._chips

    @property
    def space(self) -> str | None:
        return self._space

    @property
    def cards(self) -> tuple[Card, ...] | None:
        return self._cards

    @property
    def as_rank(self) -> str | None:
        """The rank a wild card is declared as (``2`` … ``9``, ``T``, ``J``, ``Q``, ``K``)."""
        return self._as_rank

    @property
    def flags(self) -> tuple[str, ...]:
        """The yes/no fields set on this decision, sorted (see :data:`FLAGS`)."""
        return self._flags

    def _key(self) -> tuple[object, ...]:
        return (self._seat, self._action, self._card, self._chips, self._space, self._cards,
                self._as_rank, self._flags)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Action):
            return False  # not NotImplemented: the compiled build holds __eq__ to bool
        if not (self._seat == other._seat and self._action == other._action
                and self._card == other._card and self._chips == other._chips
                and self._space == other._space and self._as_rank == other._as_rank
                and self._flags == other._flags):
            return False
        mine = self._cards
        theirs = other._cards
        if mine == theirs:
            return True
        # the same cards in another order (only then sorted: off the interned hot path)
        return (mine is not None and theirs is not None and len(mine) == len(theirs)
                and sorted(mine) == sorted(theirs))

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        h = self._hash
        if h == -1:
            cards = self._cards
            h = self._hash = hash((self._seat, self._action, self._card, self._chips,
                                   self._space, None if cards is None else tuple(sorted(cards)),
                                   self._as_rank, self._flags))
        return h

    def __repr__(self) -> str:
        more = ""
        if self._as_rank is not None:
            more += f", as_rank={self._as_rank!r}"
        if self._flags:
            more += f", flags={self._flags!r}"
        return (f"Action(seat={self._seat!r}, action={self._action!r}, card={self._card!r}, "
                f"chips={self._chips!r}, space={self._space!r}, cards={self._cards!r}{more})")

    def __reduce__(self) -> tuple[object, ...]:
        return (Action, self._key())

    def __copy__(self) -> Action:
        return self

    def __deepcopy__(self, memo: dict[int, object]) -> Action:
        return self

    def to_dict(self) -> dict[str, Any]:
        """The dict form used in records, JSON and by host programs."""
        d: dict[str, Any] = {"seat": self.seat, "action": self.action}
        if self.space is not None:
            d["space"] = self.space
        if self.card is not None:
            d["card"] = str(self.card)
        if self.chips is not None:
            d["chips"] = self.chips
        if self.cards is not None:
            d["cards"] = [str(c) for c in self.cards]
        if self._as_rank is not None:
            d["as_rank"] = self._as_rank
        for flag in self._flags:
            d[flag] = True
        return d

    def __str__(self) -> str:
        parts = [f"seat {self.seat}", self.action]
        if self.space is not None:
            parts.append(self.space)
        if self.card is not None:
            parts.append(str(self.card))
        if self.chips is not None:
            parts.append(str(self.chips))
        if self.cards is not None:
            parts.append(" ".join(str(c) for c in self.cards))
        if self._as_rank is not None:
            parts.append(f"as {self._as_rank}")
        parts.extend(f"with {f}" for f in self._flags)
        return " ".join(parts)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Action:
        """Build an action from its dict form; anything malformed is an :class:`IllegalAction`."""
        return action_from_dict(data)


_PICKED: Final[Any] = object()
"""The mark :func:`picked_cards` passes as ``flags``: the fields are right by making, so
:class:`Action` skips its checks (a private object: no caller's value is ever it)."""


def picked_cards(seat: int, action: str, cards: tuple[Card, ...]) -> Action:
    """``Action(seat, action, cards=cards)`` without the field checks, for decisions the
    engine makes again itself from the pack's own cards: ``clone_for``'s poker copies
    make every hidden ``select`` again on each imagined deal (three a copy in
    Three-in-One), where the checks of every field were about a tenth of a ``clone()``.
    The caller answers for the fields (a registered verb, a seat, ``Card`` objects);
    ``tests/engine/test_vocabulary.py`` holds it to the checked constructor field by field."""
    return Action(seat, action, None, None, None, cards, None, _PICKED)


def picks_ok(seat: object, verb: object) -> bool:
    """Whether :func:`picked_cards` may make ``verb`` actions of ``seat`` from the pack's own
    cards: the seat and the verb pass :class:`Action`'s checks (the cards, ``Card`` objects
    of the pack, always do). Asked once per legal set of selections
    (:class:`~stops.engine.legal.Selections`), not once per action made."""
    return _valid(seat, verb, None, None, None, None)


def _in_range(x: object) -> bool:
    """A seat or an amount of chips small enough to print and to compare (see
    :data:`~stops.engine.chips.MAX_DECISION_CHIPS`)."""
    return isinstance(x, int) and -MAX_DECISION_CHIPS <= x <= MAX_DECISION_CHIPS


def _unknown_verb(action: object) -> bool:
    """A verb no module has registered yet: it may be a built-in phase's, not yet loaded."""
    return action.__class__ is str and action not in VERBS


def _verbs_known() -> str:
    return ", ".join(VERBS)


def _valid(seat: object, action: object, card: object, chips: object, space: object,
           cards: object, as_rank: object = None, flags: object = ()) -> bool:
    # ``type(x)`` rather than ``x.__class__`` and the ``Final`` aliases below: the compiled
    # build reads an object's type directly, where ``__class__`` was a generic attribute look-up
    # and ``Card`` a module global's, per card of a selection
    if type(seat) is not int or type(action) is not str or action not in _VERBS:
        return False
    if not -MAX_DECISION_CHIPS <= seat <= MAX_DECISION_CHIPS:  # _in_range, inline: an int
        return False
    if as_rank is not None and (type(as_rank) is not str or as_rank not in RANK_NAMES):
        return False
    if flags != () and not (isinstance(flags, tuple)
                            and all(type(f) is str and f in FLAGS for f in flags)):
        return False
    if card is not None and type(card) is not _CARD:
        return False
    if chips is not None and (type(chips) is not int
                              or not -MAX_DECISION_CHIPS <= chips <= MAX_DECISION_CHIPS):
        return False
    if space is not None and type(space) is not str:
        return False
    if cards is not None:
        if not isinstance(cards, tuple):
            return False
        for c in cards:
            if type(c) is not _CARD:
                return False
    return True


def _why_invalid(seat: object, action: object, card: object, chips: object, space: object,
                 cards: object, as_rank: object = None, flags: object = ()) -> str:
    if as_rank is not None and (as_rank.__class__ is not str or as_rank not in RANK_NAMES):
        return f"'as_rank' must be a rank letter (2-9, T, J, Q, K, A), got {shown(as_rank)}"
    if flags != () and not (isinstance(flags, tuple)
                            and all(f.__class__ is str and f in FLAGS for f in flags)):
        return (f"'flags' must name registered flags ({', '.join(FLAGS) or 'none'}), got "
                f"{shown(flags)}")
    if seat.__class__ is not int:
        return f"'seat' must be a whole number, got {shown(seat)}"
    if not _in_range(seat):
        return "'seat' is far out of range"
    if action.__class__ is not str or action not in VERBS:
        return f"unknown action {shown(action)}; expected one of {_verbs_known()}"
    if card is not None and card.__class__ is not Card:
        return f"'card' must be a stops.Card (use stops.parse_card('5D')), got {shown(card)}"
    if chips is not None and chips.__class__ is not int:
        return f"'chips' must be a whole number, got {shown(chips)}"
    if chips is not None and not _in_range(chips):
        return f"'chips' must be at most {MAX_DECISION_CHIPS:,} either way"
    if space is not None and space.__class__ is not str:
        return f"'space' must be a layout space id, got {shown(space)}"
    return f"'cards' must be a tuple of stops.Card, got {shown(cards)}"


def _bad(message: str) -> IllegalAction:
    return IllegalAction("malformed_action", message,
                         rule="the decision format (docs/concepts.md, Decisions)")


def action_from_dict(data: Mapping[str, Any]) -> Action:
    if isinstance(data, Action):
        return data
    if not isinstance(data, Mapping):
        raise _bad("an action must be a mapping like {'seat': 0, 'action': 'keep'}, "
                   f"got {shown(data)}")
    verb = data.get("action")
    if isinstance(verb, str) and verb not in VERBS:
        load_builtins()
    if not isinstance(verb, str) or verb not in VERBS:
        raise _bad(f"unknown action {shown(verb)}; expected one of {_verbs_known()}")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise _bad(f"{verb}: 'seat' must be a whole number, got {shown(seat)}")
    if not _in_range(seat):
        raise _bad(f"{verb}: 'seat' is far out of range")
    spec = VERBS[verb]
    fields = spec.fields
    flags = [f for f, verbs in FLAGS.items() if verb in verbs]
    extra = set(data) - {"seat", "action", *fields, *flags}
    if extra:
        takes = [*fields, *flags] or "none"
        raise _bad(f"{verb}: unexpected field(s) {sorted(extra)}; it takes {takes}")
    one_of = spec.one_of
    if one_of and sum(f in data for f in one_of) != 1:
        raise _bad(f"{verb}: give exactly one of {' or '.join(map(repr, one_of))}")
    kwargs: dict[str, Any] = {}
    on = []
    for flag in flags:
        if flag in data:
            v = data[flag]
            if not isinstance(v, bool):
                raise _bad(f"{verb}: {shown(flag)} must be true or false, got {shown(v)}")
            if v:
                on.append(flag)
    if on:
        kwargs["flags"] = tuple(sorted(on))
    for f in fields:
        if f not in data:
            if f in spec.optional or f in one_of:
                continue
            raise _bad(f"{verb}: missing field {shown(f)}")
        v = data[f]
        if f == "chips":
            if isinstance(v, bool) or not isinstance(v, int):
                raise _bad(f"{verb}: 'chips' must be a whole number, got {shown(v)}")
            if not _in_range(v):
                raise _bad(f"{verb}: 'chips' must be at most {MAX_DECISION_CHIPS:,} either "
                           "way")
            kwargs[f] = v
        elif f == "card":
            try:
                kwargs[f] = parse_card(v)
            except ValueError as e:
                raise _bad(f"{verb}: {e}") from None
        elif f == "cards":
            if isinstance(v, str) or not isinstance(v, Iterable):
                raise _bad(f"{verb}: 'cards' must be a list of cards, got {shown(v)}")
            try:
                kwargs[f] = tuple(sorted(parse_cards(v)))
            except ValueError as e:
                raise _bad(f"{verb}: {e}") from None
        elif f == "space":
            if not isinstance(v, str):
                raise _bad(f"{verb}: 'space' must be a layout space id, got {shown(v)}")
            kwargs[f] = v
        elif f == "as_rank":
            text = (v.upper() if isinstance(v, str) else str(v) if isinstance(v, int)
                    and not isinstance(v, bool) and 0 <= v <= 99 else "")
            text = "T" if text == "10" else text
            if text not in RANK_NAMES:
                raise _bad(f"{verb}: 'as_rank' must be a rank (2-9, T, J, Q, K, A), got {shown(v)}")
            kwargs[f] = text
    if "cards" in one_of and "cards" in kwargs:
        # a list of cards keeps the order it was given in (a wild card is listed last)
        kwargs["cards"] = tuple(parse_cards(data["cards"]))
    return Action(seat, verb, **kwargs)


_SIMPLE: Final[dict[tuple[int, str], Action]] = {}
_CHIPS: Final[dict[tuple[int, str, int, str | None], Action]] = {}


def simple(seat: int, verb: str) -> Action:
    """The interned field-less action ``verb`` for ``seat``."""
    key = (seat, verb)
    a = _SIMPLE.get(key)
    if a is None:
        a = _SIMPLE[key] = Action(seat, verb)
    return a


def lead(seat: int, card: int) -> Action:
    """The interned ``lead`` of ``card`` by ``seat``."""
    return leads_of(seat)[card]


MAX_SEATS: Final = 52
"""No pack deals more hands than it has cards: the interned tables cover every seat."""

# A seat's row of 52 interned actions is built the first time the seat needs it, under a
# lock, and then never written again: a reader that finds the row reads it without the lock.
# Built for all 52 seats at import, the two tables were 5,408 objects that every full pass of
# the cyclic garbage collector walked, for the few seats a game seats (issue 22 made plays
# safe by building them at import; this keeps that safety at the cost of a lock per new row).
# Grown by appending from two threads at once, one seat could get another seat's actions
# (issues 13 and 22): here a row is put in its own slot, whole, so that cannot happen.
_ROWS_LOCK: Final = threading.Lock()
_LEADS_BY_SEAT: Final[list[list[Action] | None]] = [None] * MAX_SEATS
_PLAYS_BY_SEAT: Final[list[list[Action] | None]] = [None] * MAX_SEATS


def _row(table: list[list[Action] | None], seat: int, verb: str) -> list[Action]:
    """``table``'s row for ``seat``, built whole under the lock if it is not there yet."""
    with _ROWS_LOCK:
        row = table[seat]
        if row is None:
            row = [Action(seat, verb, card=CARDS[c]) for c in range(52)]
            table[seat] = row
        return row


def leads_of(seat: int) -> list[Action]:
    """The 52 interned ``lead`` actions of ``seat``, indexed by card (the hot path's table)."""
    row = _LEADS_BY_SEAT[seat]
    return row if row is not None else _row(_LEADS_BY_SEAT, seat, "lead")


def plays_of(seat: int) -> list[Action]:
    """The 52 interned ``play`` actions of ``seat`` (a card laid in turn), indexed by card."""
    row = _PLAYS_BY_SEAT[seat]
    return row if row is not None else _row(_PLAYS_BY_SEAT, seat, "play")


def with_chips(seat: int, verb: str, chips: int, space: str | None = None) -> Action:
    """An action that carries an amount (``stake``, or a phase's verb with ``chips``)."""
    key = (seat, verb, chips, space)
    a = _CHIPS.get(key)
    if a is None:
        a = Action(seat, verb, chips=chips, space=space)
        if len(_CHIPS) < 100_000:
            _CHIPS[key] = a
    return a


LADDER_MAX: Final = 256
"""The largest amount :func:`chips_range` keeps a ladder for (a longer menu stays a lazy
range, or interns each amount)."""
_LADDERS: Final[dict[tuple[int, str], list[Action | None]]] = {}


def chips_range(seat: int, verb: str, low: int, stop: int) -> list[Action]:
    """``[with_chips(seat, verb, x) for x in range(low, stop)]``, the very interned actions,
    read from a ladder kept per seat and verb (slot ``x``: amount ``x``, filled the first
    time a menu holds it), for ``1 <= low`` and ``stop - 1 <= LADDER_MAX``.

    A betting or bidding menu not met before interned each of its amounts again (a key
    built and hashed per amount, several thousand instructions a menu); a bid's range
    depends on the stacks, so random play meets new menus for many deals. Here each amount
    costs a list read, and is interned once per seat and verb, by the first menu that holds
    it (no amount is made before a menu asks for it). Two threads filling one slot store the
    same interned action. Amounts out of those bounds are refused (``ValueError``)."""
    if low < 1 or stop - 1 > LADDER_MAX:
        raise ValueError(f"a ladder of chips holds the amounts 1 to {LADDER_MAX}, not "
                         f"{low} to {stop - 1}")
    key = (seat, verb)
    ladder = _LADDERS.get(key)
    if ladder is None:
        ladder = _LADDERS[key] = [None] * (LADDER_MAX + 1)
    out: list[Action] = []
    for x in range(low, stop):
        a = ladder[x]
        if a is None:
            a = ladder[x] = with_chips(seat, verb, x)
        out.append(a)
    return out


def with_cards(seat: int, verb: str, cards: Iterable[int]) -> Action:
    """The action ``verb`` with the list of ``cards`` (card indices), sorted: a choice of
    several cards at once."""
    return Action(seat, verb, cards=tuple(CARDS[c] for c in sorted(cards)))
