"""Events: every change to a deal, each carrying who may see it.

Events are immutable named tuples (cheap to create on the hot path, trivially serialisable).
``visible_to`` is ``None`` for a public event, or the frozenset of seats that may see it.
:meth:`Event.visible` is the one place that decides whether a seat may see an event, so the
per-seat log and observations cannot leak hidden cards by accident.

Kinds (``kind``):

=================  ==========================================================================
``deal_started``   a new deal: ``seat`` is the dealer
``staked``         ``seat`` put ``chips`` on ``space``
``dealt``          ``seat`` received ``cards`` (visible to that seat only)
``spare_dealt``    the spare hand was dealt (``chips`` = its size; the cards are in no event)
``turned_up``      ``card``, the last card dealt, is turned face up (public); ``note`` says
                   what it decides (the trump suit)
``spare_swapped``  ``seat`` exchanged hands with the spare; ``cards`` = the new hand (private)
``auction_opened`` the dealer put the spare (``note='spare'``) or old hand (``'old_hand'``) up
``bid``/``passed`` auction decisions
``sold``           ``seat`` bought the hand for ``chips``, paid to ``to_seat`` (the dealer)
``exchanged``      ``seat`` paid ``chips`` to ``space`` for the spare (paid exchange)
``kept``           ``seat`` kept their hand
``claimed``        ``seat`` won ``chips`` from ``space`` (``note`` says why)
``retired``        ``space`` was won and leaves the layout
``selected``       ``seat`` chose their poker hand (``cards`` private until a showdown)
``checked`` ``bet`` ``called`` ``raised`` ``folded``  poker betting, ``chips`` = amount put in
``showdown``       ``seat`` showed ``cards`` (public)
``led``            ``seat`` led ``card``
``played``         ``seat`` played ``card`` (forced: they held the next card)
``stop``           ``card`` (played by ``seat``) is a stop; ``note`` says why
``lead_passed``    ``seat`` could not lead and the lead passes to ``to_seat``
``passed_over``    ``seat`` holds nothing that continues the sequence (play in turn)
``bonus``          ``seat`` paid ``chips`` to ``to_seat`` for a card ``to_seat`` played
``excused``        ``seat`` pays ``to_seat`` nothing for the cards left: a rule excuses it
                   (``note`` says which)
``went_out``       ``seat`` played their last card
``blocked``        nobody could lead: the deal ends by the block rule
``paid``           ``seat`` paid ``chips`` to ``to_seat`` or ``space`` (``note`` says why)
``deal_ended``     the deal is over; ``note`` names the outcome
``eliminated``     (table event) ``seat`` is out of the session: it could not pay
``final_share``    (table event) in a share-out by one poker hand, ``seat`` was dealt
                   ``cards`` (public) and wins ``chips`` of the layout (0: not a winner);
                   ``note`` names the hand
=================  ==========================================================================
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from stops.engine.cards import CARDS, Card
from stops.engine.eventkind import EventKind


class Event(NamedTuple):
    """One thing that happened. Fields not relevant to a kind keep their defaults."""

    kind: EventKind
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

    def describe(self) -> str:
        """One line of plain English, for logs and the replay account."""
        return describe(self)


_new: Final = tuple.__new__
_EVENT: Final = Event
"""``Final``, so that the compiled build reads them directly, not from the module's dict."""


def event(kind: EventKind, seat: int | None = None, card: Card | None = None, chips: int = 0,
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
_PLAY_EVENTS: Final[dict[EventKind, list[list[Event]]]] = {
    kind: [[Event(kind, s, CARDS[c]) for c in range(52)] for s in range(MAX_SEATS)]
    for kind in (EventKind.LED, EventKind.PLAYED)}
_STAKED: Final[dict[tuple[int, int, str], Event]] = {}


def play_events(kind: EventKind, seat: int) -> list[Event]:
    """The 52 shared ``led`` or ``played`` events of ``seat``, indexed by card.

    Events are immutable, so the hot path hands out the same object every time a seat plays
    a card: no allocation, and no memory per deal beyond the log's pointer.
    """
    return _PLAY_EVENTS[kind][seat]


def staked_event(seat: int, chips: int, space: str) -> Event:
    """The shared ``staked`` event for this seat, amount and space."""
    return shared(EventKind.STAKED, seat, chips, space)


_SHARED: Final[dict[tuple[EventKind, int | None, int, str | None], Event]] = {}


def shared(kind: EventKind, seat: int | None = None, chips: int = 0,
           space: str | None = None) -> Event:
    """A shared public event with no cards (``checked``, ``bid`` 3, ``staked`` ...).

    Such events recur in every deal; handing out one immutable object per distinct value
    keeps a deal's log small (a pointer per entry) and saves an allocation per step.
    """
    key = (kind, seat, chips, space)
    e = _SHARED.get(key)
    if e is None:
        e = Event(kind, seat, chips=chips, space=space)
        if len(_SHARED) < 100_000:
            _SHARED[key] = e
    return e


_STOPS: Final[dict[tuple[int, int, str], Event]] = {}


def stop_event(seat: int, card: int, why: str) -> Event:
    """The shared ``stop`` event: ``card`` played by ``seat`` is a stop, for reason ``why``."""
    key = (seat, card, why)
    e = _STOPS.get(key)
    if e is None:
        e = _STOPS[key] = Event(EventKind.STOP, seat, CARDS[card], note=why)
    return e


_PLAY_PAIRS: Final[list[list[tuple[int, Card]]]] = [
    [(s, CARDS[c]) for c in range(52)] for s in range(MAX_SEATS)]


def play_pairs(seat: int) -> list[tuple[int, Card]]:
    """The shared ``(seat, card)`` pairs of ``deal.plays``, indexed by card."""
    return _PLAY_PAIRS[seat]


def _who(seat: int | None) -> str:
    return "nobody" if seat is None else f"seat {seat}"


def describe(e: Event) -> str:
    k = e.kind
    w = _who(e.seat)
    cards = " ".join(str(c) for c in e.cards)
    if k is EventKind.DEAL_STARTED:
        return f"deal begins; dealer is seat {e.seat}"
    if k is EventKind.STAKED:
        return f"{w} stakes {e.chips} on {e.space}"
    if k is EventKind.DEALT:
        return f"{w} is dealt {cards}" if cards else f"{w} is dealt {e.chips} cards"
    if k is EventKind.SPARE_DEALT:
        return f"the spare hand ({e.chips} cards) is set aside face down"
    if k is EventKind.TURNED_UP:
        return f"{e.card} is turned up" + (f": {e.note}" if e.note else "")
    if k is EventKind.SPARE_SWAPPED:
        return f"{w} swaps their hand for the spare" + (f": now holds {cards}" if cards else "")
    if k is EventKind.AUCTION_OPENED:
        what = "the spare hand" if e.note == "spare" else "the dealer's old hand"
        return f"{w} auctions {what}"
    if k is EventKind.BID:
        return f"{w} bids {e.chips}"
    if k is EventKind.PASSED:
        return f"{w} passes"
    if k is EventKind.SOLD:
        return f"{w} buys the hand for {e.chips}, paid to seat {e.to_seat}" + (
            f": now holds {cards}" if cards else "")
    if k is EventKind.UNSOLD:
        return "nobody bids; the hand stays unsold"
    if k is EventKind.EXCHANGED:
        return f"{w} pays {e.chips} to {e.space} and exchanges for the spare" + (
            f": now holds {cards}" if cards else "")
    if k is EventKind.KEPT:
        return f"{w} keeps their hand"
    if k is EventKind.CLAIMED:
        why = f" ({e.note})" if e.note else ""
        return f"{w} wins {e.chips} from {e.space}{why}"
    if k is EventKind.RETIRED:
        return f"{e.space} is won and removed from the layout"
    if k is EventKind.SELECTED:
        return f"{w} selects a hand to show" + (f": {cards}" if cards else "")
    if k is EventKind.CHECKED:
        return f"{w} checks"
    if k in (EventKind.BET, EventKind.RAISED):
        verb = "bets" if k is EventKind.BET else "raises, putting in"
        return f"{w} {verb} {e.chips}"
    if k is EventKind.CALLED:
        return f"{w} calls {e.chips}"
    if k is EventKind.FOLDED:
        return f"{w} folds"
    if k is EventKind.SHOWDOWN:
        return f"{w} shows {cards}" + (f" ({e.note})" if e.note else "")
    if k is EventKind.LED:
        return f"{w} leads {e.card}"
    if k is EventKind.PLAYED:
        return f"{w} plays {e.card}"
    if k is EventKind.STOP:
        return f"{e.card} is a stop ({e.note})"
    if k is EventKind.LEAD_PASSED:
        return f"{w} cannot lead ({e.note}); the lead passes to seat {e.to_seat}"
    if k is EventKind.PASSED_OVER:
        return f"{w} is passed over" + (f" ({e.note})" if e.note else "")
    if k is EventKind.BONUS:
        why = f" ({e.note})" if e.note else ""
        return f"{w} pays {e.chips} to {_who(e.to_seat)}{why}"
    if k is EventKind.EXCUSED:
        return f"{w} pays {_who(e.to_seat)} nothing" + (f" ({e.note})" if e.note else "")
    if k is EventKind.WENT_OUT:
        return f"{w} has played their last card"
    if k is EventKind.BLOCKED:
        return f"nobody can lead: {e.note}"
    if k is EventKind.PAID:
        dest = e.space if e.space is not None else _who(e.to_seat)
        why = f" ({e.note})" if e.note else ""
        return f"{w} pays {e.chips} to {dest}{why}"
    if k is EventKind.DEAL_ENDED:
        return f"the deal ends: {e.note}"
    if k is EventKind.ELIMINATED:
        return f"{w} is out of the session ({e.note})"
    if k is EventKind.FINAL_SHARE:
        won = f" and wins {e.chips}" if e.chips else ""
        return f"{w} is dealt {cards} in the final share-out ({e.note}){won}"
    if k is EventKind.REOPENED:
        return f"{e.space} is back on the layout ({e.note})"
    return f"{k} {w}"
