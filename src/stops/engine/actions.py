"""Decisions: what a seat may tell the engine, and their dict form.

One small immutable class covers every verb of the design contract; its dict form is
``{"seat": 2, "action": "<verb>", ...fields}``. Actions for the common verbs are interned
(:func:`simple`, :func:`lead`), so offering legal moves on the hot path allocates nothing.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar, Final

from stops.engine.cards import CARDS, Card, parse_card, parse_cards
from stops.engine.errors import IllegalAction

#: Every verb, with the fields it takes (``chips`` optional for ``stake``).
VERBS: Final[dict[str, tuple[str, ...]]] = {
    "stake": ("space", "chips"),
    "keep": (),
    "swap": (),
    "auction": (),
    "bid": ("chips",),
    "pass": (),
    "select": ("cards",),
    "check": (),
    "call": (),
    "fold": (),
    "bet": ("chips",),
    "raise": ("chips",),
    "lead": ("card",),
}

_OPTIONAL: Final = {("stake", "chips")}


class Action:
    """One decision by one seat. Immutable, hashable, compared by value.

    ``raise.chips`` is the amount added beyond what calling costs. ``select.cards`` is kept
    sorted so that two selections of the same five cards are equal.

    A plain class rather than an attrs one: it is made and read on every decision, and the
    compiled build turns a plain class into a native one (direct field access, no
    Python-level ``__init__`` or ``__eq__``).
    """

    __slots__ = ("_action", "_card", "_cards", "_chips", "_hash", "_seat", "_space")
    __match_args__: ClassVar[tuple[str, ...]] = ("seat", "action", "card", "chips", "space",
                                                 "cards")

    # Typed ``Any`` so that both builds refuse a wrong type with IllegalAction (the compiled
    # build would raise its own TypeError for a declared ``int``). Expected: seat ``int``,
    # action ``str`` (a verb), card ``Card | None``, chips ``int | None``, space
    # ``str | None``, cards ``tuple[Card, ...] | None``.
    def __init__(self, seat: Any, action: Any, card: Any = None, chips: Any = None,
                 space: Any = None, cards: Any = None) -> None:
        # Checked here, once per construction (the engine's own actions are interned, so
        # this is off the hot path): a malformed action would be recorded and then refuse
        # to replay. The checks go through ``object`` so that both builds raise our error.
        if not _valid(seat, action, card, chips, space, cards):
            raise _bad(_why_invalid(seat, action, card, chips, space, cards))
        self._seat: int = seat
        self._action: str = action
        self._card: Card | None = card
        self._chips: int | None = chips
        self._space: str | None = space
        self._cards: tuple[Card, ...] | None = cards
        self._hash = -1

    @property
    def seat(self) -> int:
        return self._seat

    @property
    def action(self) -> str:
        """The verb (``lead``, ``bid``, ``stake`` ...)."""
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

    def _key(self) -> tuple[object, ...]:
        return (self._seat, self._action, self._card, self._chips, self._space, self._cards)

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, Action):
            return False  # not NotImplemented: the compiled build holds __eq__ to bool
        return (self._seat == other._seat and self._action == other._action
                and self._card == other._card and self._chips == other._chips
                and self._space == other._space and self._cards == other._cards)

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __hash__(self) -> int:
        h = self._hash
        if h == -1:
            h = self._hash = hash(self._key())
        return h

    def __repr__(self) -> str:
        return (f"Action(seat={self._seat!r}, action={self._action!r}, card={self._card!r}, "
                f"chips={self._chips!r}, space={self._space!r}, cards={self._cards!r})")

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
        return " ".join(parts)

    @staticmethod
    def from_dict(data: Mapping[str, Any]) -> Action:
        """Build an action from its dict form; anything malformed is an :class:`IllegalAction`."""
        return action_from_dict(data)


def _valid(seat: object, action: object, card: object, chips: object, space: object,
           cards: object) -> bool:
    if seat.__class__ is not int or action.__class__ is not str or action not in VERBS:
        return False
    if card is not None and card.__class__ is not Card:
        return False
    if chips is not None and chips.__class__ is not int:
        return False
    if space is not None and space.__class__ is not str:
        return False
    if cards is not None:
        if not isinstance(cards, tuple):
            return False
        for c in cards:
            if c.__class__ is not Card:
                return False
    return True


def _why_invalid(seat: object, action: object, card: object, chips: object, space: object,
                 cards: object) -> str:
    if seat.__class__ is not int:
        return f"'seat' must be a whole number, got {seat!r}"
    if action.__class__ is not str or action not in VERBS:
        return f"unknown action {action!r}; expected one of {', '.join(VERBS)}"
    if card is not None and card.__class__ is not Card:
        return f"'card' must be a stops.Card (use stops.card('5D')), got {card!r}"
    if chips is not None and chips.__class__ is not int:
        return f"'chips' must be a whole number, got {chips!r}"
    if space is not None and space.__class__ is not str:
        return f"'space' must be a layout space id, got {space!r}"
    return f"'cards' must be a tuple of stops.Card, got {cards!r}"


def _bad(message: str) -> IllegalAction:
    return IllegalAction("malformed_action", message, rule="the decision format of DESIGN.md")


def action_from_dict(data: Mapping[str, Any]) -> Action:
    if isinstance(data, Action):
        return data
    if not isinstance(data, Mapping):
        raise _bad("an action must be a mapping like {'seat': 0, 'action': 'keep'}, "
                   f"got {data!r}")
    verb = data.get("action")
    if not isinstance(verb, str) or verb not in VERBS:
        raise _bad(f"unknown action {verb!r}; expected one of {', '.join(VERBS)}")
    seat = data.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise _bad(f"{verb}: 'seat' must be a whole number, got {seat!r}")
    fields = VERBS[verb]
    extra = set(data) - {"seat", "action", *fields}
    if extra:
        takes = list(fields) or "none"
        raise _bad(f"{verb}: unexpected field(s) {sorted(extra)}; it takes {takes}")
    kwargs: dict[str, Any] = {}
    for f in fields:
        if f not in data:
            if (verb, f) in _OPTIONAL:
                continue
            raise _bad(f"{verb}: missing field {f!r}")
        v = data[f]
        if f == "chips":
            if isinstance(v, bool) or not isinstance(v, int):
                raise _bad(f"{verb}: 'chips' must be a whole number, got {v!r}")
            kwargs[f] = v
        elif f == "card":
            try:
                kwargs[f] = parse_card(v)
            except ValueError as e:
                raise _bad(f"{verb}: {e}") from None
        elif f == "cards":
            if isinstance(v, str) or not isinstance(v, Iterable):
                raise _bad(f"{verb}: 'cards' must be a list of cards, got {v!r}")
            try:
                kwargs[f] = tuple(sorted(parse_cards(v)))
            except ValueError as e:
                raise _bad(f"{verb}: {e}") from None
        elif f == "space":
            if not isinstance(v, str):
                raise _bad(f"{verb}: 'space' must be a layout space id, got {v!r}")
            kwargs[f] = v
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

# Built once, at import, for every seat: a table grown lazily from several threads at once
# could hand one seat another seat's actions (issue 13). Nothing here is written after
# import, so the tables are safe to share between threads without a lock.
_LEADS_BY_SEAT: Final[list[list[Action]]] = [
    [Action(s, "lead", card=CARDS[c]) for c in range(52)] for s in range(MAX_SEATS)]


def leads_of(seat: int) -> list[Action]:
    """The 52 interned ``lead`` actions of ``seat``, indexed by card (the hot path's table)."""
    return _LEADS_BY_SEAT[seat]


def with_chips(seat: int, verb: str, chips: int, space: str | None = None) -> Action:
    """An action that carries an amount (``bid``, ``bet``, ``raise``, ``stake``)."""
    key = (seat, verb, chips, space)
    a = _CHIPS.get(key)
    if a is None:
        a = Action(seat, verb, chips=chips, space=space)
        if len(_CHIPS) < 100_000:
            _CHIPS[key] = a
    return a


def select(seat: int, cards: Iterable[int]) -> Action:
    return Action(seat, "select", cards=tuple(CARDS[c] for c in sorted(cards)))
