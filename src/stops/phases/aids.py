"""What a phase brings to the programs around the engine: its *aids*.

The engine plays any phase from ``enter/legal/apply``; the programs built on it need more, and
only the phase knows it: how ``stops play`` tells its events and asks for its decisions, how a
bot plays them, what ``stops simulate`` counts, what the learning environment observes. A
phase declares all of that in one :class:`PhaseAids` object, returned by the classmethod
:meth:`stops.phases.base.Phase.aids` (a class method, so that a bot, which knows a phase only
by the name in its observation, finds the aids through the registry without a variant). The
base class here gives every capability its default, "nothing to add", so a phase overrides
only what it has; the apps ask every phase the same way and name none.

=====================  =====================================================================
capability             used by
=====================  =====================================================================
:meth:`~PhaseAids.teller`        ``stops play`` / ``stops replay``: one line per event, "you"
                                 for the player (a :class:`Teller`, one per narration)
:meth:`~PhaseAids.prompt`        ``stops play``: the line that asks for a decision
                                 (a :class:`Prompt`)
:meth:`~PhaseAids.status_lines`  ``stops play``: lines added to the status before a decision
:meth:`~PhaseAids.choice_text`   ``stops play``: one choice as a menu item, where the verb and
                                 its fields alone do not say it
:meth:`~PhaseAids.advise`        the heuristic bot: this phase's decisions (``None``: the bot's
                                 own play)
:attr:`~PhaseAids.reads`,        the heuristic bot: what a seat learns from this phase's
:meth:`~PhaseAids.read`,         events (cards shown, a pool played for) into :class:`Notes`;
:meth:`~PhaseAids.read_all`      a run of them in one call
:meth:`~PhaseAids.tally`         ``stops simulate``: a :class:`PhaseTally` of this phase's own
                                 statistics, its section of the report
:meth:`~PhaseAids.features`,     the PettingZoo environment: segments of the observation
:meth:`~PhaseAids.fill`          vector (a :class:`Feature` each) and their values
:meth:`~PhaseAids.revealed`      :mod:`stops.testing`'s no-leak check: cards whose place a seat
                                 may learn beyond the cards its events name
=====================  =====================================================================

Everything here reads the deal through public members (its events, ``deal.result``, the
phase's own state); a bot's aids read only the seat's observation, as the bot does.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Sequence
from itertools import compress
from operator import itemgetter
from typing import TYPE_CHECKING, Any, ClassVar, Final, Protocol

import attrs

from stops._mypyc import mypyc_attr

if TYPE_CHECKING:
    from stops.engine.actions import Action
    from stops.engine.deal import Deal
    from stops.engine.events import Event
    from stops.engine.legal import LegalSet
    from stops.engine.observation import Observation
    from stops.rules.variant import Variant

__all__ = ["NO_AIDS", "BotView", "Feature", "Notes", "Pen", "PhaseAids", "PhaseTally",
           "Prompt", "Teller", "Telling"]


# -- the terminal ---------------------------------------------------------------------------

class Pen(Protocol):
    """How the terminal writes cards and spaces (``stops.apps.terminal.Style``): suit
    symbols or ASCII, colour or not; a phase's text goes through it so that it reads like
    every other line."""

    def card(self, c: int) -> str: ...
    def cards(self, cs: Iterable[int]) -> str: ...
    def hand(self, cs: Iterable[int]) -> str: ...
    def space(self, space: object) -> str: ...
    def note(self, text: object, me: int) -> str: ...


class Telling(Protocol):
    """What a :class:`Teller` is told by the narration it works for
    (``stops.apps.terminal.Narrator``)."""

    me: int
    """The seat told ("you"; ``-1`` when every seat is told by number)."""
    all_seen: bool
    """Every event is told, every hand included (``stops replay`` with no seat)."""
    spare: str
    """The game's word for the spare hand (the widow, the dead hand)."""
    layout: dict[str, int]
    """The layout as far as told so far: a teller whose events move chips keeps it right."""

    @property
    def pen(self) -> Pen:
        """How cards and spaces are written."""
        ...

    def who(self, seat: int | None) -> str:
        """``"you"``, ``"seat 2"`` or ``"nobody"``."""
        ...

    def verb(self, seat: int | None, you_form: str, other_form: str) -> str:
        """The seat and its verb: ``"you bid"`` / ``"seat 2 bids"``."""
        ...


@mypyc_attr(allow_interpreted_subclasses=True)
class Teller:
    """Tells one viewer a phase's events; one is made per narration, so it may remember what
    it has told (the bets so far, to say what a raise raises to)."""

    def lines(self, e: Event, t: Telling) -> list[str] | None:
        """The lines for ``e`` (``[]``: nothing to say, it is told elsewhere), or ``None``
        when ``e`` is not this phase's to tell."""
        return None


@attrs.frozen
class Prompt:
    """How ``stops play`` asks for a decision of this phase."""

    text: str
    """The line that asks ("Your turn to bet.")."""
    rule: bool = False
    """Print the rule behind the decision (``Phase.decision_rule``) under it."""
    menu: bool = True
    """A numbered menu of the choices is shown when there are few enough of them; ``False``
    asks for an amount instead (a bid for the spare hand, from a long range)."""
    hint: str | None = None
    """The line shown instead of a menu too long to list ("1287 choices: type ..."); ``None``:
    each verb once with its range of amounts."""


# -- the bots -------------------------------------------------------------------------------

class BotView(Protocol):
    """What the heuristic bot hands a phase's :meth:`PhaseAids.advise`: the seat's
    observation and the bot's own judgement, nothing of the deal."""

    obs: Observation
    legal: Sequence[Action]
    """The decisions on offer (more than one)."""
    verbs: frozenset[str]
    """Their verbs."""
    rng: random.Random
    """The bot's own generator (seeded: the same bot makes the same choices)."""

    def hand_value(self, cards: Iterable[int]) -> float:
        """How good ``cards`` would be to play out with, in rough chips (higher is better):
        the bot's judgement of a hand, for deciding whether to give one up for another."""
        ...

    def mean_value(self, pool: Sequence[int], size: int, samples: int) -> float:
        """The mean :meth:`hand_value` of ``samples`` hands of ``size`` cards, each drawn
        from ``pool`` with ``rng.sample`` in turn (a sampled estimate of an unseen hand),
        added up in the order drawn. The bot draws and scores without building the hands,
        so this costs a fraction of the loop it stands for."""
        ...

    def unseen(self) -> list[int]:
        """The cards this seat has not seen, in order: neither in its hand nor known to be
        out of play."""
        ...

    def notes(self) -> Notes:
        """What this seat has learned from the events so far (:meth:`PhaseAids.read`),
        read on from the bot's last decision: the advice reads it rather than the whole
        log again."""
        ...


def _new_set() -> Any:
    """An attrs field that starts as a new empty set, typed ``Any`` for the compiled build
    (as :func:`stops.rules.registry.param` is): a field made by a call typed ``set`` is
    checked to be a ``set`` at import in a compiled module, and refused (so is a call
    typed by its factory: ``attrs.field(factory=set)`` is typed ``set``)."""
    make: Any = set
    return attrs.field(factory=make)


@attrs.define
class Notes:
    """What a seat has learned from the events so far, as the bot reads them."""

    held_elsewhere: set[int] = _new_set()
    """Cards seen in another seat's hand (shown): not in the spare hand."""
    played_for: set[str] = _new_set()
    """Layout spaces an earlier stage of this deal has played for already (the pot of a
    betting round), so they are no prize for a run in play."""
    chosen: tuple[int, ...] = ()
    """The hand this seat chose to bet on (a betting stage's selection)."""
    bets: int = 0
    """Bets and raises made so far this deal (a betting stage's), by any seat."""


def of_kind(events: Sequence[Event], kind: str) -> Iterator[Event]:
    """The events of one ``kind``, in order, picked out at C speed: the bot's advice reads
    a few events of the whole log at a decision, where a loop over every event asking its
    kind (an attribute read and a compare each) was most of what the advice cost."""
    return compress(events, map(kind.__eq__, map(_KIND, events)))


_KIND: Final = itemgetter(0)
"""An event's kind, its first field (an event is a named tuple: read by index at C speed)."""


# -- the simulator --------------------------------------------------------------------------

@mypyc_attr(allow_interpreted_subclasses=True)
class PhaseTally:
    """A phase's own statistics over many deals, for ``stops simulate``.

    Subclasses are plain (picklable) classes whose constructor takes no argument: tallies
    travel between worker processes and are merged there in any grouping, so
    :meth:`add` must be exact and order-free (sums and counts, not means).
    """

    key: ClassVar[str] = ""
    """The report's key for this phase's section (its ``--json`` key and its place in
    ``Report.sections``)."""

    def add_deal(self, deal: Deal) -> None:
        """Count one finished deal."""

    def add(self, other: PhaseTally) -> None:
        """Merge another tally of the same kind into this one."""

    def summary(self, deals: int) -> dict[str, Any]:
        """The section of the report (plain JSON values) over ``deals`` deals."""
        return {}

    def lines(self, summary: dict[str, Any]) -> list[str]:
        """The text report's lines for a section made by :meth:`summary`."""
        return []


# -- the learning environment ---------------------------------------------------------------

@attrs.frozen
class Feature:
    """A segment of the PettingZoo observation vector: ``size`` numbers between ``low`` and
    ``high``; ``chips=True`` says they are chip counts, which the environment bounds (and
    clips) as it does stacks."""

    name: str
    size: int
    low: float = 0.0
    high: float = 1.0
    chips: bool = False


# -- the whole ------------------------------------------------------------------------------

@mypyc_attr(allow_interpreted_subclasses=True)
class PhaseAids:
    """Every optional capability of a phase, each with its default: nothing to add."""

    # the terminal
    def teller(self) -> Teller | None:
        """A fresh teller of this phase's events for one narration, or ``None`` (the
        narration tells them plainly, from ``Event.describe``)."""
        return None

    def prompt(self, deal: Deal, seat: int, legal: LegalSet) -> Prompt | None:
        """How to ask ``seat`` for its decision now (``None``: "Your turn.")."""
        return None

    def status_lines(self, deal: Deal, seat: int, pen: Pen) -> list[str]:
        """Lines added to what ``seat`` is shown before its decision (its chosen hand)."""
        return []

    def choice_text(self, deal: Deal, action: Action, pen: Pen) -> str | None:
        """``action`` as a menu item, where its verb and fields do not say enough ("call 4",
        "swap (take the widow)"); ``None``: said from the verb and fields."""
        return None

    # the bots
    reads: ClassVar[frozenset[str]] = frozenset()
    """The event kinds :meth:`read` learns from."""

    def read(self, e: Event, seat: int, notes: Notes) -> None:
        """Add to ``notes`` what ``seat`` learns from ``e`` (one of :attr:`reads`, visible
        to ``seat``)."""

    def read_all(self, events: Sequence[Event], seat: int, notes: Notes) -> None:
        """:meth:`read` each of ``events`` in turn (each one of :attr:`reads`, visible to
        ``seat``). The bot reads a run of new events with one call where this phase is the
        only one that reads: a phase with many events to read may do it for less."""
        for e in events:
            self.read(e, seat, notes)

    def advise(self, view: BotView) -> Action | None:
        """The heuristic bot's decision in this phase (one of ``view.legal``), or ``None``
        to leave it to the bot's general play."""
        return None

    # the simulator
    def tally(self) -> PhaseTally | None:
        """A fresh, empty tally of this phase's statistics, or ``None`` (nothing of its own
        to report)."""
        return None

    # the learning environment
    def features(self, variant: Variant, players: int) -> tuple[Feature, ...]:
        """This phase's segments of the observation vector (none by default)."""
        return ()

    def fill(self, view: Observation, put: Callable[[str, int, float], None]) -> None:
        """Write the features' values for one seat's observation: ``put(name, index,
        value)`` (every value starts at 0)."""

    folds_events: ClassVar[bool] = False
    """Its features are a running fold of the events the seat sees (every built-in phase's
    are): the environment then keeps them with :meth:`fold` from one observation to the next,
    paying for each event once, and does not call :meth:`fill`."""

    def fold(self, events: Sequence[Event], start: int, values: list[float]) -> None:
        """With :attr:`folds_events`: bring ``values`` (this phase's features' values, the
        segments of :meth:`features` one after another, all 0 before the deal's first event)
        up to date with ``events[start:]``, the events the seat has seen since the last call.
        :meth:`fill` must give the same values."""

    fold_kinds: ClassVar[frozenset[str] | None] = None
    """With :attr:`folds_events`: the event kinds :meth:`fold` reads, when it reads no other
    (``None``: any kind may count). The environment then calls :meth:`fold` only when the
    events a seat has seen since bring one of these kinds: most steps (a card played) bring
    none, and a call into the phase's code costs more than the test of each kind."""

    # the conformance check
    def revealed(self, deal: Deal, seat: int) -> set[int]:
        """Cards whose place ``seat`` may know although no event it sees names them (a
        hand shown as its holder's best, with no choice made, shows the rest of that hand
        holds nothing better), so the no-leak check does not swap them."""
        return set()


NO_AIDS = PhaseAids()
"""The aids of a phase that declares none."""
