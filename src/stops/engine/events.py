"""Events: every change to a deal, each carrying who may see it.

Events are immutable named tuples (cheap to create on the hot path, trivially serialisable).
``visible_to`` is ``None`` for a public event, or the frozenset of seats that may see it.
:meth:`Event.visible` is the one place that decides whether a seat may see an event, so the
per-seat log and observations cannot leak hidden cards by accident.

Kinds (``kind``) are plain strings, each registered with what its fields mean and how to
tell it (:mod:`stops.engine.vocabulary`): the engine's own here (the members of
:class:`~stops.engine.eventkind.EventKind`), the others by the phase that logs them.
``docs/reference.md`` lists every one, and ``stops.engine.vocabulary.EVENT_TYPES`` holds them.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple

from stops.engine.cards import CARDS, Card
from stops.engine.eventkind import EventKind
from stops.engine.vocabulary import EVENT_TYPES, EventType, load_builtins, register_events


class Event(NamedTuple):
    """One thing that happened. Fields not relevant to a kind keep their defaults."""

    kind: str
    """What happened: a registered kind (:mod:`stops.engine.vocabulary`), an interned string
    (the engine's own are :class:`~stops.engine.eventkind.EventKind` members)."""
    seat: int | None = None
    card: Card | None = None
    chips: int = 0
    space: str | None = None
    to_seat: int | None = None
    cards: tuple[Card, ...] = ()
    note: str = ""
    visible_to: frozenset[int] | None = None

    def visible(self, seat: int | None) -> bool:
        """May ``seat`` see this event? ``None`` asks for the public view (spectators)."""
        vt = self.visible_to
        return vt is None or (seat is not None and seat in vt)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {"kind": str(self.kind)}
        if self.seat is not None:
            d["seat"] = self.seat
        if self.card is not None:
            d["card"] = str(self.card)
        if self.chips:
            d["chips"] = self.chips
        if self.space is not None:
            d["space"] = self.space
        if self.to_seat is not None:
            d["to_seat"] = self.to_seat
        if self.cards:
            d["cards"] = [str(c) for c in self.cards]
        if self.note:
            d["note"] = self.note
        if self.visible_to is not None:
            d["visible_to"] = sorted(self.visible_to)
        return d

    def redacted(self) -> Event:
        """The public shadow of a private event: who and what kind, never the cards."""
        return self._replace(cards=(), card=None, visible_to=None)

    def describe(self, name: Callable[[int | None], str] | None = None) -> str:
        """One line of plain English, for logs and the replay account; ``name(seat)`` names a
        seat (by default "seat 2", and "nobody" for ``None``)."""
        return describe(self, name)


_new: Final = tuple.__new__
_EVENT: Final = Event
_K_STOP: Final = EventKind.STOP
"""``Final``, so that the compiled build reads them directly, not from the module's dict."""


def event(kind: str, seat: int | None = None, card: Card | None = None, chips: int = 0,
          space: str | None = None, to_seat: int | None = None, cards: tuple[Card, ...] = (),
          note: str = "", visible_to: frozenset[int] | None = None) -> Event:
    """Build an :class:`Event` (the same as ``Event(...)``).

    The engine's own modules use this rather than the class: in the compiled build a call to
    it is a direct C call, where ``Event(...)`` runs the named tuple's Python-level ``__new__``.
    """
    return _new(_EVENT, (kind, seat, card, chips, space, to_seat, cards, note, visible_to))


MAX_SEATS: Final = 52
"""No pack deals more hands than it has cards: the shared tables cover every seat."""

# Built once, at import, for every seat: tables grown lazily from several threads at once
# could give one seat another seat's events (issue 13). They are never written afterwards.
_PLAY_EVENTS: Final[dict[str, list[list[Event]]]] = {
    kind: [[Event(kind, s, CARDS[c]) for c in range(52)] for s in range(MAX_SEATS)]
    for kind in (EventKind.LED, EventKind.PLAYED)}
_STAKED: Final[dict[tuple[int, int, str], Event]] = {}


def play_events(kind: str, seat: int) -> list[Event]:
    """The 52 shared ``led`` or ``played`` events of ``seat``, indexed by card.

    Events are immutable, so the hot path hands out the same object every time a seat plays
    a card: no allocation, and no memory per deal beyond the log's pointer.
    """
    return _PLAY_EVENTS[kind][seat]


def staked_event(seat: int, chips: int, space: str) -> Event:
    """The shared ``staked`` event for this seat, amount and space."""
    return shared(EventKind.STAKED, seat, chips, space)


_SHARED: Final[dict[tuple[str, int | None, int, str | None], Event]] = {}


def shared(kind: str, seat: int | None = None, chips: int = 0,
           space: str | None = None) -> Event:
    """A shared public event with no cards (``staked``, ``passed``, a phase's ``checked`` ...).

    Such events recur in every deal; handing out one immutable object per distinct value
    keeps a deal's log small (a pointer per entry) and saves an allocation per step.
    """
    key = (kind, seat, chips, space)
    e = _SHARED.get(key)
    if e is None:
        # its fields by position, through ``tuple.__new__`` (as :func:`event`): the named
        # tuple's own ``__new__`` is interpreted Python with keywords, several thousand
        # instructions compiled, and random hands miss these tables for many deals
        e = _new(_EVENT, (kind, seat, None, chips, space, None, (), "", None))
        if len(_SHARED) < 100_000:
            _SHARED[key] = e
    return e


_STOPS: Final[dict[tuple[int, int, str], Event]] = {}


def stop_event(seat: int, card: int, why: str) -> Event:
    """The shared ``stop`` event: ``card`` played by ``seat`` is a stop, for reason ``why``."""
    key = (seat, card, why)
    e = _STOPS.get(key)
    if e is None:
        # by position, as in ``shared``
        e = _STOPS[key] = _new(_EVENT, (_K_STOP, seat, CARDS[card], 0, None, None, (), why,
                                        None))
    return e


_PLAY_PAIRS: Final[list[list[tuple[int, Card]]]] = [
    [(s, CARDS[c]) for c in range(52)] for s in range(MAX_SEATS)]


def play_pairs(seat: int) -> list[tuple[int, Card]]:
    """The shared ``(seat, card)`` pairs of ``deal.plays``, indexed by card."""
    return _PLAY_PAIRS[seat]


def _who(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"


Name = Callable[[int | None], str]


def describe(e: Event, name: Name | None = None) -> str:
    """One line of plain English for ``e``, as its kind's registered ``describe`` tells it
    (a kind registered with none, or with no registration, gets a generic line)."""
    who = _who if name is None else name
    t = EVENT_TYPES.get(e.kind)
    if t is None and load_builtins():
        t = EVENT_TYPES.get(e.kind)
    if t is not None and t.describe is not None:
        return t.describe(e, who)
    return f"{e.kind} {who(e.seat)}"


def _cards(e: Event) -> str:
    return " ".join(str(c) for c in e.cards)


def _why(e: Event) -> str:
    return f" ({e.note})" if e.note else ""


def _deal_started(e: Event, who: Name) -> str:
    return f"deal begins; dealer is {who(e.seat)}"


def _staked(e: Event, who: Name) -> str:
    return f"{who(e.seat)} stakes {e.chips} on {e.space}"


def _dealt(e: Event, who: Name) -> str:
    cards = _cards(e)
    return f"{who(e.seat)} is dealt {cards}" if cards else f"{who(e.seat)} is dealt {e.chips} cards"


def _spare_dealt(e: Event, who: Name) -> str:
    return f"the spare hand ({e.chips} cards) is set aside face down"


def _turned_up(e: Event, who: Name) -> str:
    return f"{e.card} is turned up" + (f": {e.note}" if e.note else "")


def _claimed(e: Event, who: Name) -> str:
    return f"{who(e.seat)} wins {e.chips} from {e.space}{_why(e)}"


def _retired(e: Event, who: Name) -> str:
    return f"{e.space} is won and removed from the layout"


def _passed(e: Event, who: Name) -> str:
    return f"{who(e.seat)} passes"


def _led(e: Event, who: Name) -> str:
    return f"{who(e.seat)} leads {e.card}"


def _played(e: Event, who: Name) -> str:
    return f"{who(e.seat)} plays {e.card}"


def _stop(e: Event, who: Name) -> str:
    return f"{e.card} is a stop ({e.note})"


def _lead_passed(e: Event, who: Name) -> str:
    return f"{who(e.seat)} cannot lead ({e.note}); the lead passes to {who(e.to_seat)}"


def _passed_over(e: Event, who: Name) -> str:
    return f"{who(e.seat)} is passed over{_why(e)}"


def _bonus(e: Event, who: Name) -> str:
    return f"{who(e.seat)} pays {e.chips} to {who(e.to_seat)}{_why(e)}"


def _excused(e: Event, who: Name) -> str:
    return f"{who(e.seat)} pays {who(e.to_seat)} nothing{_why(e)}"


def _went_out(e: Event, who: Name) -> str:
    return f"{who(e.seat)} has played their last card"


def _blocked(e: Event, who: Name) -> str:
    return f"nobody can lead: {e.note}"


def _paid(e: Event, who: Name) -> str:
    dest = e.space if e.space is not None else who(e.to_seat)
    return f"{who(e.seat)} pays {e.chips} to {dest}{_why(e)}"


def _deal_ended(e: Event, who: Name) -> str:
    return f"the deal ends: {e.note}"


def _eliminated(e: Event, who: Name) -> str:
    return f"{who(e.seat)} is out of the session ({e.note})"


def _final_share(e: Event, who: Name) -> str:
    won = f" and wins {e.chips}" if e.chips else ""
    return f"{who(e.seat)} is dealt {_cards(e)} in the final share-out ({e.note}){won}"


CORE_EVENTS: Final = (
    EventType(EventKind.DEAL_STARTED, "a new deal: ``seat`` is the dealer", _deal_started),
    EventType(EventKind.STAKED, "``seat`` put ``chips`` on ``space``", _staked),
    EventType(EventKind.DEALT, "``seat`` received ``cards`` (visible to that seat only)", _dealt,
              in_account=True),
    EventType(EventKind.SPARE_DEALT, "the spare hand was dealt (``chips`` = its size; the "
              "cards are in no event)", _spare_dealt),
    EventType(EventKind.TURNED_UP, "``card``, the last card dealt, is turned face up (public); "
              "``note`` says what it decides (the trump suit)", _turned_up),
    EventType(EventKind.PASSED, "``seat`` passed (a decision to let the turn go by); ``note`` "
              "may say why", _passed),
    EventType(EventKind.CLAIMED, "``seat`` won ``chips`` from ``space`` (``note`` says why; "
              "``cards``, if any, are the seat's own, shown to claim it)", _claimed, shows=True),
    EventType(EventKind.RETIRED, "``space`` was won and leaves the layout", _retired),
    EventType(EventKind.LED, "``seat`` led ``card``", _led),
    EventType(EventKind.PLAYED, "``seat`` played ``card`` (forced: they held the next card)",
              _played),
    EventType(EventKind.STOP, "``card`` (played by ``seat``) is a stop; ``note`` says why", _stop),
    EventType(EventKind.LEAD_PASSED, "``seat`` could not lead and the lead passes to ``to_seat``",
              _lead_passed),
    EventType(EventKind.PASSED_OVER, "``seat`` holds nothing that continues the sequence "
              "(play in turn); ``chips``: the fine it pays for it (``pass_fine``, paid by the "
              "``paid`` event that follows)", _passed_over),
    EventType(EventKind.BONUS, "``seat`` paid ``chips`` to ``to_seat`` for a card ``to_seat`` "
              "played, or held (``note`` gives the reason: ``held QD``)", _bonus),
    EventType(EventKind.EXCUSED, "``seat`` pays ``to_seat`` nothing for the cards left: a rule "
              "excuses it (``note`` says which)", _excused),
    EventType(EventKind.WENT_OUT, "``seat`` played their last card", _went_out),
    EventType(EventKind.BLOCKED, "nobody could lead: the deal ends by the block rule", _blocked),
    EventType(EventKind.PAID, "``seat`` paid ``chips`` to ``to_seat`` or ``space`` (``note`` "
              "says why)", _paid),
    EventType(EventKind.DEAL_ENDED, "the deal is over; ``note`` names the outcome", _deal_ended),
    EventType(EventKind.ELIMINATED, "(table event) ``seat`` is out of the session: it could "
              "not pay", _eliminated),
    EventType(EventKind.FINAL_SHARE, "(table event) in a share-out by a hand dealt to each seat, "
              "``seat`` was dealt ``cards`` (public) and wins ``chips`` of the layout (0: not "
              "a winner); ``note`` names the hand", _final_share),
)

register_events(*CORE_EVENTS, owner="engine")
