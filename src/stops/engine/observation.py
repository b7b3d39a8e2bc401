"""What one seat may know: :func:`observe` builds it from the deal, filtered by visibility.

Nothing here reads another seat's hand or the spare hand's cards, except through events the
seat may see; the no-leak property test holds this module to that.

An observation made by :meth:`Deal.observe` also carries a :class:`Determinizer`: the one
declared way for a search bot (ISMCTS) to sample full deals that agree with what its seat
knows (:meth:`Observation.imagine`), without being handed the deal. An observation built any
other way (from a record, from a remote host) has none, and :attr:`Observation.can_imagine`
says so.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from stops.engine.actions import Action
from stops.engine.cards import CARDS, Card
from stops.engine.errors import StopsError
from stops.engine.eventkind import EventKind
from stops.engine.events import Event

if TYPE_CHECKING:
    from stops.engine.deal import Deal


class NoDeterminizer(StopsError):
    """An observation was asked to imagine a deal it cannot: it was not made by
    ``deal.observe(seat)`` (a record's, a remote host's), or the deal has moved on since."""


class Determinizer:
    """Deals ``seat``'s information set again: ``deal.clone_for(seat, rng)``, bound by
    :meth:`Deal.observe` to the deal as it stood when observed.

    It is how a search bot gets the deals it might be in while seeing only its observation:
    every copy is made from the seat's own view (:func:`stops.engine.determinize.clone_for`
    promises that two deals that look the same to the seat give the same copies), so the
    bot learns nothing the seat could not know. It refuses once the deal has moved on
    (another decision made, another event logged): a kept observation must not become a
    window onto a later deal.
    """

    __slots__ = ("_at", "_deal", "_seat")

    def __init__(self, deal: Deal, seat: int) -> None:
        self._deal = deal
        self._seat = seat
        self._at = len(deal.events)

    def __reduce__(self) -> tuple[Any, ...]:
        # the deal stays with its host: an observation pickled (sent to another process or
        # machine) arrives without a determinizer, as a remote view should
        return (_dropped, ())

    def __call__(self, rng: Any) -> Deal:
        deal = self._deal
        if len(deal.events) != self._at:
            raise NoDeterminizer(f"seat {self._seat}'s observation is out of date: the deal "
                                 "has moved on since it was made; observe the deal again")
        return deal.clone_for(self._seat, rng)


def _dropped() -> None:
    """What a pickled :class:`Determinizer` becomes: nothing (see its ``__reduce__``)."""
    return None


class Observation(NamedTuple):
    """One seat's view of a deal: a frozen record (its fields cannot be set), made anew by
    every :meth:`Deal.observe`.

    It is a named tuple, not an attrs class, for speed: an agent observes before every
    decision, and a tuple is made by one call where a frozen attrs class sets each of its
    eighteen fields through ``object.__setattr__`` (half of an observation's cost, and
    more than the engine's whole step in the compiled build). :meth:`replace` gives a copy
    with some fields changed; equality leaves the :attr:`determinizer` out."""

    seat: int
    players: int
    dealer: int
    phase: str
    current_seat: int | None
    hand: tuple[Card, ...]
    hand_sizes: tuple[int, ...]
    spare_size: int
    spare: tuple[Card, ...] | None
    """The spare hand's cards if this seat may see them (its own old hand after a swap, or
    the dealer's where the rules let him look at it), else ``None``."""
    stacks: tuple[int, ...]
    layout: dict[str, int]
    retired: frozenset[str]
    plays: tuple[tuple[int, Card], ...]
    sequence: tuple[tuple[int, Card], ...]
    """The current sequence: the plays since the last lead."""
    legal_actions: Sequence[Action]
    """The decisions open to this seat now (empty unless it is its turn): a lazy sequence,
    so a large family such as the 1,287 ways to choose 5 cards of 13 costs nothing until indexed."""
    events: tuple[Event, ...]
    is_terminal: bool
    determinizer: Determinizer | None = None
    """How this seat's information set is dealt again (:meth:`imagine`); ``None`` where the
    observation was not made by ``deal.observe`` (a record's, a remote host's) or was
    pickled (the deal never travels with it). Not part of the view: left out of equality
    and :meth:`to_dict`."""

    def __eq__(self, other: object) -> bool:
        # the view without the determinizer (the last field): two looks at the same
        # position are equal though each has its own binding to the deal. Not
        # NotImplemented for other types: the compiled build holds ``__eq__`` to ``bool``
        return type(other) is Observation and self[:-1] == other[:-1]

    def __ne__(self, other: object) -> bool:
        return not self.__eq__(other)

    def __repr__(self) -> str:
        # the view, without the determinizer (a binding to the deal, not something seen)
        shown = ", ".join(f"{name}={value!r}"
                          for name, value in zip(self._fields[:-1], self[:-1], strict=True))
        return f"Observation({shown})"

    def replace(self, **changes: Any) -> Observation:
        """A copy with ``changes`` (field names to new values), as ``attrs.evolve`` or
        ``dataclasses.replace`` would make: ``obs.replace(determinizer=None)``."""
        return self._replace(**changes)

    @property
    def can_imagine(self) -> bool:
        """Whether :meth:`imagine` can deal this seat's information set again."""
        return self.determinizer is not None

    def imagine(self, rng: Any) -> Deal:
        """A full deal as this seat might imagine it now: ``deal.clone_for(seat, rng)``
        (``rng``: a :class:`random.Random` or :class:`stops.engine.rng.Rng`), the cards the
        seat cannot see dealt again. Raises :class:`NoDeterminizer` where this observation
        has no determinizer (:attr:`can_imagine`) or the deal has moved on since."""
        if self.determinizer is None:
            raise NoDeterminizer(f"seat {self.seat}'s observation cannot imagine deals: it "
                                 "was not made by deal.observe (a record's or a remote "
                                 "host's view has no deal behind it)")
        return self.determinizer(rng)

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat, "players": self.players, "dealer": self.dealer,
            "phase": self.phase, "current_seat": self.current_seat,
            "hand": [str(c) for c in self.hand], "hand_sizes": list(self.hand_sizes),
            "spare_size": self.spare_size,
            "spare": None if self.spare is None else [str(c) for c in self.spare],
            "stacks": list(self.stacks), "layout": dict(self.layout),
            "retired": sorted(self.retired),
            "plays": [[s, str(c)] for s, c in self.plays],
            "sequence": [[s, str(c)] for s, c in self.sequence],
            "legal_actions": [a.to_dict() for a in self.legal_actions[:MAX_LISTED_ACTIONS]],
            "events": [e.to_dict() for e in self.events],
            "is_terminal": self.is_terminal,
        }


MAX_LISTED_ACTIONS = 2000
_make: Final = tuple.__new__
K_LED: Final = EventKind.LED
K_PLAYED: Final = EventKind.PLAYED


def sequence_of(events: tuple[Event, ...]) -> tuple[tuple[int, Card], ...]:
    """The cards laid since the last lead, read back from the end of a seat's events."""
    laid: list[tuple[int, Card]] = []
    for i in range(len(events) - 1, -1, -1):
        e = events[i]
        k = e.kind
        if k in (K_LED, K_PLAYED):
            if e.seat is not None and e.card is not None:
                laid.append((e.seat, e.card))
            if k == K_LED:
                break
    laid.reverse()
    return tuple(laid)


def observe(deal: Deal, seat: int) -> Observation:
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < deal.n:
        from stops.engine.table import TableError
        from stops.engine.text import shown

        raise TableError(f"no seat {shown(seat)} at a table of {deal.n} (seats are "
                         f"0..{deal.n - 1})")
    events = deal.seen_by(seat)
    # no card laid yet: nothing to read, however long the log of the stakes and the stages
    # before play
    plays_in_seq = sequence_of(events) if deal.plays else ()
    legal: Sequence[Action] = deal.legal_actions() if deal.to_act == seat else ()
    spare = (tuple(CARDS[c] for c in sorted(deal.spare))
             if seat in deal.spare_known else None)
    # one tuple made by ``tuple.__new__``, in the fields' order (seat, players, dealer,
    # phase, current_seat, hand, hand_sizes, spare_size, spare, stacks, layout, retired,
    # plays, sequence, legal_actions, events, is_terminal, determinizer), not through the
    # named tuple's ``__new__`` (a Python-level call with one argument a field);
    # test_observation_fields_in_order holds the order
    return _make(Observation, (
        seat, deal.n, deal.dealer, deal.phase, deal.to_act, tuple(deal.hand(seat)),
        tuple(deal.counts), len(deal.spare), spare, tuple(deal.ledger.stacks),
        dict(deal.ledger.layout), frozenset(deal.retired), tuple(deal.plays), plays_in_seq,
        legal, events, deal.to_act is None, Determinizer(deal, seat),
    ))
